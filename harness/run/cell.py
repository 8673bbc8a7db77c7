"""One measurement of a cell in a run: an app x engine x workload in one round, with its request, its
server, its folder, its state and its steps. It saves itself after every change, so an interrupted
run resumes where it stopped."""
from datetime import datetime, timezone

from harness.results.records import BASELINE, DISTURBED, TOO_DISTURBED, CellState, Visit
from harness.results.saturation import summarize
from harness.results.store import read_cell_state, read_steps, write_cell_state, write_steps
from stack import registry


def now():
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Cell:
    def __init__(self, files, key, round_=1, replica=1):
        self.key = key
        self.visit = Visit(key, round_, replica)
        self.directory = files.cell(key, round_, replica)
        self.state_path = files.cell_state(key, round_, replica)
        self.steps_path = files.cell_steps(key, round_, replica)
        self.request = registry.request(key.app, key.workload, engine=key.engine)
        # A drawing workload's requests (update's ids), the same for every run of this visit.
        self.drawn = registry.drawn_requests(key.app, key.workload, key.engine, str(self.visit))
        self.server = registry.server_of(key.app)
        self.state = read_cell_state(self.state_path) or CellState(key.app, key.engine, key.workload,
                                                                   round=round_, replica=replica)
        self.steps = read_steps(self.steps_path)

    def save(self):
        write_steps(self.steps_path, self.steps)
        write_cell_state(self.state_path, self.state)

    def record(self, step):
        self.steps.append(step)
        self.save()

    def event(self, text):
        self.state.events.append(f"{now()} {text}")
        write_cell_state(self.state_path, self.state)

    def update(self, **changes):
        for name, value in changes.items():
            setattr(self.state, name, value)
        write_cell_state(self.state_path, self.state)

    def not_measured(self, status, note):
        self.event(note)
        self.update(not_measured={"status": status, "note": note}, done=True)

    def finish(self):
        self.update(done=True)

    def stopped_by_disturbance(self, note):
        """Disturbed steps stopped the cell: it is not done, and its steps so far are no figure."""
        self.event(note)
        self.update(disturbed_stops=self.state.disturbed_stops + 1)

    @property
    def awaiting_retry(self):
        return self.state.disturbed_stops > 0 and not self.state.done

    @property
    def history(self):
        """(offered rate, verdict) of every planned step so far, for the plan."""
        return [(step.offered_rate, step.verdict) for step in self.steps
                if step.role != BASELINE and step.verdict != DISTURBED]

    @property
    def has_baseline(self):
        return any(step.role == BASELINE for step in self.steps)

    def summary(self):
        unmeasured = self.state.not_measured
        if self.awaiting_retry:
            # Steps cut short by disturbance are no figure, not even a lower bound.
            unmeasured = {"status": TOO_DISTURBED, "note": "stopped by disturbance; to be retried later in its round"}
        row = summarize(self.key, self.steps, self.state.restarts, self.state.round,
                        (unmeasured["status"], unmeasured["note"]) if unmeasured else None, self.state.replica)
        slower = self.state.slower_machine
        if slower:
            row.note = "; ".join(filter(None, [row.note, f"measured on a slower machine from step {slower['from_step']} "
                                                         f"on ({slower['reason']})"]))
        return row
