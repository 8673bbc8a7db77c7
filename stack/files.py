"""Files the lab writes whole or not at all: a reader (a resumed sweep, a server starting, a plot)
never sees half of one, whatever interrupts the writer."""
import os
from pathlib import Path


def write_atomically(path, text, mode=0o644):
    """Write text to a hidden file beside path, flush it to disk, then rename it over path: the rename
    is atomic. `mode` is set before any byte is written (0o600 for files holding the password)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    os.fchmod(fd, mode)  # an earlier leftover keeps its own mode through O_CREAT
    with os.fdopen(fd, "w") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
