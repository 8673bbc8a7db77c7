"""The lab's one atomic write (stack/files.py): whole files, in the mode asked for, nothing left beside them."""
import stat

from stack.files import write_atomically


def test_a_file_is_replaced_whole_in_its_mode_and_no_temporary_stays(tmp_path):
    target = tmp_path / "secrets" / "app.properties"
    leftover = target.parent / ".app.properties.tmp"
    target.parent.mkdir()
    leftover.write_text("half a file from a writer that was killed")
    leftover.chmod(0o644)
    write_atomically(target, "db.password=x\n", mode=0o600)
    assert target.read_text() == "db.password=x\n" and stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [path.name for path in target.parent.iterdir()] == ["app.properties"]
    write_atomically(target, "db.password=y\n", mode=0o600)
    assert target.read_text() == "db.password=y\n"
