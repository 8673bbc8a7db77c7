"""`make reproduce PAPER=infosys FIGURES=2` on the running stack: phase 1 under the paper's procedure
(three warm-up calls off the record, three recorded, 1,000-5,000 Employee records) on every SOAP
engine, timed by each engine's own hooks, then the paper's figures drawn from that one run."""
import json
import re
import subprocess
import sys

from harness.results.store import read_tsv
from stack import lifecycle, registry
from stack.settings import ROOT

SOAP_APPS = [name for name in registry.apps() if registry.app(name)["kind"] == "soap"]


def test_phase_1_of_infosys_times_every_engine_and_draws_figs_2_to_4(stack, tmp_path):
    done = subprocess.run([sys.executable, "-m", "harness", "reproduce", "--paper", "infosys", "--figures", "2",
                           "--run", "infosys", "--results", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert re.search(r"reproduce Infosys: figures 2, 1 round\(s\), 1 sweeps; expected ~\d+m\d+s", done.stdout)
    calls = read_tsv(tmp_path / "infosys" / "round-1" / "fig-2" / "soap-phases-calls.tsv")
    assert sorted({(row["app"], row["workload"], row["n"]) for row in calls}) == sorted(
        (app, "employees", str(n)) for app in SOAP_APPS for n in range(1000, 5001, 1000))
    assert len(calls) == 3 * 5 * len(SOAP_APPS), "three recorded calls per engine and size"
    assert all(0 < float(row["unmarshal_us"]) < float(row["round_trip_us"]) for row in calls)
    # Each engine counts the bytes its phases took: un-marshalling 1,000 records takes some on every one.
    assert all(float(row["unmarshal_b"]) > 0 for row in calls), [(row["app"], row["unmarshal_b"]) for row in calls]
    # Each call's connection counted its segments: 1,000 records (over 64 KB) leave in several, and
    # an answer comes back in several.
    assert all(int(row["data_sent"]) > 1 and int(row["data_received"]) > 1 and int(row["sent"]) >= int(row["data_sent"])
               for row in calls), [(row["app"], row["n"], row["data_sent"], row["data_received"]) for row in calls]
    pages = subprocess.run(["pdfinfo", str(tmp_path / "infosys" / "infosys.pdf")], capture_output=True, text=True,
                           check=True).stdout
    assert re.search(r"^Pages:\s+3$", pages, re.M)
    # The speed canary read on the servers' CPUs before and after (left out when the machine was busy).
    canary = json.loads((tmp_path / "infosys" / "round-1" / "fig-2" / "soap-phases.json").read_text())["canary"]
    assert "canary_busy" in canary and all(ms > 0 for name, ms in canary.items() if name.endswith("_ms"))
    # The phases' hooks are off again: the servers run as the sweeps measure them.
    assert all((server.started_with() or {}).get("SOAP_PHASES") != "on" for server in lifecycle.lab_servers().values())


def test_a_stock_clients_round_trip_holds_the_marshalling_the_raw_envelopes_leave_out(stack, tmp_path):
    """Fig. 4z's calls: zeep builds 1,000 Employee records into its request and reads them back; the
    engine's hooks time the same phases as for the raw envelopes, and the client's round trip is the
    longer by zeep's marshalling."""
    round_trips = {}
    for client in ("raw", "zeep"):
        done = subprocess.run([sys.executable, "-m", "harness", "soap-phases", "--apps", "soap-gsoap", "--kinds", "employees",
                               "--sizes", "1000", "--count", "3", "--warmup-calls", "2", "--jvm-warmup", "0",
                               "--client", client, "--run", client, "--results", str(tmp_path)],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
        assert json.loads((tmp_path / client / "soap-phases.json").read_text())["client"] == client
        calls = read_tsv(tmp_path / client / "soap-phases-calls.tsv")
        assert len(calls) == 3 and all(0 < float(row["unmarshal_us"]) < float(row["round_trip_us"]) for row in calls)
        round_trips[client] = min(float(row["round_trip_us"]) for row in calls)
    assert round_trips["zeep"] > round_trips["raw"], round_trips
