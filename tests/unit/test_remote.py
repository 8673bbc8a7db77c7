"""TOPOLOGY=ssh's pure parts: what each host is shipped, what it is told, how ssh is called."""
import pytest

from stack import remote, settings


@pytest.fixture
def ssh_knobs(monkeypatch):
    monkeypatch.setenv("TOPOLOGY", "ssh")
    monkeypatch.setenv("WEB_HOST", "root@192.0.2.10")
    monkeypatch.setenv("DB_HOST", "lab@192.0.2.11")
    monkeypatch.setenv("SSH_OPTIONS", '-F "/etc/lab ssh/config" -p 2222')


def test_each_host_is_shipped_what_its_servers_need_and_no_more():
    db_project, db_var = remote.shipped("db")
    web_project, web_var = remote.shipped("web")
    assert "sql" in db_project and "php" not in db_project and "target/webapps" not in db_project
    assert {"php", "soap-php", "target/webapps", "target/soap-gsoap"} <= set(web_project) and "sql" not in web_project
    assert db_var == ["secrets"] and web_var == ["secrets", f"opt/apache-tomcat-{settings.knob('TOMCAT_VERSION')}"]


def test_the_hosts_come_up_database_first_each_under_its_own_root(ssh_knobs, monkeypatch):
    monkeypatch.setenv("REMOTE_ROOT", "/srv/lab-{host}")
    assert [(host.name, host.destination, host.root) for host in remote.hosts()] == [
        ("db", "lab@192.0.2.11", "/srv/lab-db"), ("web", "root@192.0.2.10", "/srv/lab-web")]


def test_ssh_never_prompts_and_takes_the_labs_options(ssh_knobs):
    command = remote.hosts()[0].ssh_command("true")
    assert command[:3] == ["ssh", "-o", "BatchMode=yes"]
    # A quoted option keeps its spaces, as in a shell.
    assert command[3:7] == ["-F", "/etc/lab ssh/config", "-p", "2222"] and command[-2:] == ["lab@192.0.2.11", "true"]


def test_the_remote_lab_gets_every_knob_and_learns_which_host_it_is(ssh_knobs, monkeypatch):
    monkeypatch.setenv("APACHE_WORKERS", "64")
    told = remote.remote_environment("web")
    assert set(told) == set(settings.knobs())
    assert (told["LAB_ON_HOST"], told["TOPOLOGY"], told["APACHE_WORKERS"]) == ("web", "ssh", "64")
