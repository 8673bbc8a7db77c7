"""The run's speed canary readings, kept per CPU in the run's folder (canary.json) so that a resumed
run keeps its reference speeds: judge/speed.py reads them."""
import json

from harness.judge import speed
from stack.files import write_atomically


class SpeedHistory:
    def __init__(self, path):
        self.path = path
        self.times = json.loads(path.read_text()) if path.exists() else {}

    def add(self, figures):
        """Keep a step's (or a check's) canary readings."""
        for key, times in speed.readings(figures).items():
            self.times.setdefault(key, []).extend(times)
        write_atomically(self.path, json.dumps(self.times) + "\n")

    def references(self):
        return speed.references(self.times)

    def speeds(self, figures):
        """{CPU: speed} of a step's readings against the run's references so far."""
        return speed.speeds(figures, self.references())
