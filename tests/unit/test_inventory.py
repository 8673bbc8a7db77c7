"""The inventory's pure parts, on `ansible-inventory --list`'s own output for the inventories in
tests/fixtures/inventories (recorded beside them as *.list.json): which machines the lab drives, the
errors a user gets, and the one-off inventory WEB_HOST= and DB_HOST= write."""
import json

import pytest

from stack import inventory
from stack.inventory import InventoryError, Machine
from stack.settings import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "inventories"


def listed(name):
    return json.loads((FIXTURES / f"{name}.list.json").read_text())


def test_a_teams_inventory_gives_each_group_its_hosts_with_their_users_and_ports():
    machines = inventory.machines(listed("team"), "team.ini")
    assert machines == {"web": Machine("app1", "lab@192.0.2.10"), "db": Machine("db1", "ssh://lab@192.0.2.11:2222"),
                        "clients": [Machine("load1", "192.0.2.20"), Machine("load2", "bench@192.0.2.21")]}
    assert inventory.ssh_options(listed("team")) == "-F /etc/lab/ssh_config"


def test_a_local_client_is_this_machine_so_the_steps_clients_run_here():
    machines = inventory.machines(listed("here"), "here.yml")
    assert machines["clients"] == [] and machines["db"] == Machine("db.example", "root@db.example")
    assert inventory.ssh_options(listed("here")) == ""


@pytest.mark.parametrize("name, said", [
    ("no-db", "no-db.yml: no host in group db (the lab needs the groups client, web, db, each with a host)"),
    ("two-webs", "two-webs.yml: group web has 2 hosts (web1.example, web2.example); the lab runs its web servers on one"),
])
def test_an_inventory_the_lab_cannot_drive_is_refused_in_words(name, said):
    with pytest.raises(InventoryError) as refused:
        inventory.machines(listed(name), f"{name}.yml")
    assert str(refused.value) == said


def test_servers_never_run_on_a_local_connection_nor_clients_mix_here_and_there():
    listing = listed("here")
    listing["_meta"]["hostvars"]["web.example"] = {"ansible_connection": "local"}
    with pytest.raises(InventoryError, match="web host web.example has ansible_connection=local"):
        inventory.machines(listing, "here.yml")
    listing = listed("team")
    listing["_meta"]["hostvars"]["load1"]["ansible_connection"] = "local"
    with pytest.raises(InventoryError, match="group client mixes this machine \\(load1\\) with remote hosts"):
        inventory.machines(listing, "team.ini")


def test_the_one_off_inventory_of_web_host_and_db_host_names_them_as_the_lab_does():
    machines = inventory.one_off_machines("root@198.18.0.2", "db.example", ("load@192.0.2.20",))
    assert machines["clients"] == [Machine("client1", "load@192.0.2.20")]
    written = inventory.one_off(machines, "-F /tmp/ssh_config")
    assert written["all"]["vars"] == {"ansible_ssh_common_args": "-F /tmp/ssh_config"}
    groups = written["all"]["children"]
    assert groups["web"]["hosts"] == {"web": {"ansible_host": "198.18.0.2", "ansible_user": "root"}}
    assert groups["db"]["hosts"] == {"db": {"ansible_host": "db.example"}}
    assert groups["client"]["hosts"] == {"client1": {"ansible_host": "192.0.2.20", "ansible_user": "load"}}
    assert inventory.one_off(inventory.one_off_machines("web", "db", ()), "")["all"]["children"]["client"]["hosts"] == {
        "controller": {"ansible_connection": "local"}}


def test_a_missing_inventory_file_is_named_before_anything_runs(tmp_path):
    with pytest.raises(InventoryError, match=f"INVENTORY={tmp_path}/none.yml: no such file"):
        inventory.listing(tmp_path / "none.yml")
