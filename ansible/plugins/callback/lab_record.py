"""Records a play's outcome for the lab (stack/playbooks.py reads it): one JSON line per task result
(host, task, the lab copy's role it looped over, changed, failed, the command's output lines, the message,
when it ended; for the gathering of facts, the facts) and one with each host's totals, in the file
LAB_ANSIBLE_RECORD names. The default callback still prints to the terminal."""
import json
import os
import time

from ansible.plugins.callback import CallbackBase

# The tasks whose facts are recorded: a play's gathering (gather_facts) and the setup module.
GATHERING = {"gather_facts", "setup", "ansible.builtin.gather_facts", "ansible.builtin.setup"}


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "notification"
    CALLBACK_NAME = "lab_record"
    CALLBACK_NEEDS_ENABLED = True

    def write(self, record):
        path = os.environ.get("LAB_ANSIBLE_RECORD")
        if path:
            with open(path, "a") as record_file:
                record_file.write(json.dumps({**record, "at": round(time.time(), 3)}) + "\n")

    def result(self, result, outcome):
        values = getattr(result, "result", None)
        values = values if isinstance(values, dict) else result._result
        task = getattr(result, "task", None) or result._task
        host = getattr(result, "host", None) or result._host
        items = values.get("results") if isinstance(values.get("results"), list) else [values]
        for item in items:
            if not isinstance(item, dict) or item.get("skipped"):
                continue
            copy = item.get("item")
            self.write({"host": host.get_name(), "task": task.get_name(), "outcome": outcome,
                        "role": copy.get("role") if isinstance(copy, dict) else None,
                        "changed": bool(item.get("changed")), "failed": bool(item.get("failed")),
                        "stdout_lines": item.get("stdout_lines", []), "stderr": item.get("stderr", ""),
                        "msg": str(item.get("msg", "")) if not item.get("_ansible_no_log") else "(no_log)",
                        **({"facts": item["ansible_facts"]} if task.action in GATHERING and "ansible_facts" in item else {})})

    def v2_runner_on_ok(self, result):
        self.result(result, "ok")

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self.result(result, "ignored" if ignore_errors else "failed")

    def v2_runner_on_unreachable(self, result):
        self.result(result, "unreachable")

    def v2_playbook_on_stats(self, stats):
        for host in sorted(stats.processed):
            self.write({"host": host, "stats": stats.summarize(host)})
