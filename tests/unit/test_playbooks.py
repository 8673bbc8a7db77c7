"""What the playbooks are handed and what comes back: the lab's files and the digest that decides
whether a host's copy is current, and a play's outcome read from the lab's callback record (recorded
from the ssh test's hosts: a first `make up`, then a second that changed nothing); the machine each host is
described as, from the facts Ansible gathered there."""
import os

from stack import playbooks
from stack.settings import ROOT

RECORDS = ROOT / "tests" / "fixtures" / "ansible"


def tree(base):
    (base / "stack" / "__pycache__").mkdir(parents=True)
    (base / "stack" / "lab.py").write_text("print('lab')\n")
    (base / "stack" / "__pycache__" / "lab.cpython-311.pyc").write_bytes(b"\0cache")
    (base / "sql").mkdir()
    (base / "sql" / "load.sql").write_text("select 1;\n")
    return base


def test_the_shipped_files_leave_the_interpreters_caches_out_and_come_in_order(tmp_path):
    base = tree(tmp_path)
    assert [name for name, _ in playbooks.files_under(base, ["sql", "stack", "missing"])] == [
        "sql/load.sql", "stack/lab.py"]


def test_the_digest_follows_content_and_mode_not_the_files_times(tmp_path):
    base = tree(tmp_path)

    def summed():
        return playbooks.digest(playbooks.files_under(base, ["sql", "stack"]))
    first = summed()
    os.utime(base / "sql" / "load.sql", (0, 0))
    assert summed() == first
    (base / "stack" / "__pycache__" / "lab.cpython-311.pyc").write_bytes(b"\0other cache")
    assert summed() == first
    (base / "sql" / "load.sql").chmod(0o600)
    moded = summed()
    assert moded != first
    (base / "sql" / "load.sql").write_text("select 2;\n")
    assert summed() not in (first, moded)


def test_a_first_up_reports_the_servers_it_started_and_what_it_changed_per_host():
    found = playbooks.outcome((RECORDS / "record-up-first.jsonl").read_text().splitlines())
    assert any(line.startswith("[db] mariadb: up (pid ") for line in found["lines"])
    assert any(line.startswith("[web] apache: up (pid ") for line in found["lines"])
    assert found["changed"]["web"] > 0 and found["changed"]["db"] > 0 and found["failures"] == []


def test_a_second_up_changes_nothing_and_says_so():
    found = playbooks.outcome((RECORDS / "record-up-again.jsonl").read_text().splitlines())
    assert any(line.startswith("[web] apache: already running (pid ") for line in found["lines"])
    assert set(found["changed"].values()) == {0}
    assert playbooks.changes_in_words(found["changed"]).startswith("changed nothing on ")


def test_a_failed_task_is_named_with_its_host_and_its_output():
    found = playbooks.outcome((RECORDS / "record-up-failed.jsonl").read_text().splitlines())
    assert found["failures"] and found["failures"][0].startswith("web: The lab's command: ")



# A `make up` through a team's inventory (app1, db1, localhost) on the ssh test's hosts, the AMD EPYC
# machine: its gathered facts, with serial numbers, ids, devices and mounts left out.
RECORDED_UP = (RECORDS / "record-up-facts.jsonl").read_text().splitlines()


def test_each_hosts_machine_is_described_from_the_facts_ansible_gathered_there():
    facts = playbooks.outcome(RECORDED_UP)["facts"]
    assert sorted(facts) == ["app1", "db1", "localhost"]
    assert playbooks.machine(facts["db1"]) == {
        "cores": 2, "memory_gib": 23.5, "cpu_model": "AMD EPYC", "system": "Debian 12.11",
        "kernel": "6.18.44-fc-v669", "architecture": "x86_64", "described_by": "Ansible's facts, gathered by `make up`"}


def test_two_cpu_models_are_both_named_once():
    facts = playbooks.outcome(RECORDED_UP)["facts"]["app1"]
    mixed = {**facts, "ansible_processor": ["0", "GenuineIntel", "Intel Xeon", "1", "GenuineIntel", "Intel Xeon",
                                            "2", "AuthenticAMD", "AMD EPYC"], "ansible_processor_vcpus": 3}
    assert playbooks.machine(mixed)["cpu_model"] == "Intel Xeon, AMD EPYC"


def test_each_lab_copy_gets_the_machine_of_the_host_it_is_on():
    facts = playbooks.outcome(RECORDED_UP)["facts"]
    copies = {"app1": [{"role": "web"}, {"role": "client1"}], "db1": [{"role": "db"}], "elsewhere": [{"role": "client2"}]}
    destinations = {"web": "root@10.0.0.2", "client1": "root@10.0.0.2", "db": "root@10.0.0.3", "client2": "root@10.0.0.4"}
    by_role = playbooks.machines_by_role(facts, copies, destinations)
    assert sorted(by_role) == ["client1", "db", "web"]  # client2's host gathered nothing: not described
    assert by_role["db"] == {"destination": "root@10.0.0.3", "machine": playbooks.machine(facts["db1"])}
