"""The CPU profiles' pure parts on recorded perf output of every runtime (tests/fixtures/perf: perf
script of the servers' CPU while wrk or `make profile` drove one app, every 8th sample kept; owners.json says which lab
server each process was): perf script's text read as samples, each sample put in its component by
harness/judge/cpu_components.json, and a profile added up."""
import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from harness.judge.cpu_components import Classifier, against_measured, breakdown, objects, rules, rules_from, shares
from harness.measure.perf_script import Sample, frame_key, samples, within
from harness.run.profile import measured_server_cpu

PERF = Path(__file__).parent.parent / "fixtures" / "perf"
OWNERS = json.loads((PERF / "owners.json").read_text())
RUNTIMES = sorted(OWNERS)


def recorded(name):
    return samples(gzip.open(PERF / f"{name}.txt.gz", "rt").read())


def owners(name):
    return {int(pid): server for pid, server in OWNERS[name].items()}


def components(name):
    classifier, own = Classifier(), owners(name)
    return [classifier.component(sample, own.get(sample.pid)) for sample in recorded(name)]


def test_a_recorded_sample_reads_as_thread_pid_cpu_period_and_frames_from_the_leaf():
    first = recorded("php")[0]
    assert (first.thread, first.pid, first.tid, first.cpu, first.period_ns) == ("apache2", 18619, 18619, 1, 1001001)
    assert first.frames[0] == ("[unknown]", "/usr/lib/php/20220829/mysqlnd.so")
    assert first.time_s is None  # recorded without the time field


def test_thread_names_with_spaces_and_jit_symbols_with_parentheses_are_kept_whole():
    java = [sample for sample in recorded("soap-cxf") if sample.thread == "C2 CompilerThre"]
    assert java and all(sample.pid == 18401 for sample in java)
    named = [frame for sample in recorded("pooled-servlet") for frame in sample.frames if "(" in frame[0]]
    assert named and all(dso.startswith("/tmp/perf-") for _, dso in named)


def test_a_jvm_frame_is_named_by_its_class_and_method_alone():
    assert frame_key("int sun.nio.ch.NioSocketImpl.tryRead(java.io.FileDescriptor, byte[], int, int)",
                     "/tmp/perf-18401.map") == "java:sun.nio.ch.NioSocketImpl.tryRead"
    assert frame_key("Interpreter", "/tmp/perf-18401.map") == "java:Interpreter"
    assert frame_key("tcp_v4_rcv", "[kernel.kallsyms]") == "tcp_v4_rcv ([kernel.kallsyms])"


def test_an_object_with_its_own_parentheses_and_timed_samples_read():
    text = ("java 7/8 [001] 12.500000:    1001001 \n\t    c6a83 [unknown] (/memfd:jit-cache (deleted))\n\n"
            "java 7/8 [001] 13.000000:    1001001 \n\t    c6a84 f (/usr/lib/x86_64-linux-gnu/libc.so.6)\n")
    found = samples(text)
    assert found[0].frames == (("[unknown]", "/memfd:jit-cache (deleted)"),)
    assert [sample.time_s for sample in within(found, 12.0, 12.9)] == [12.5]


def test_text_that_is_no_perf_script_is_refused():
    with pytest.raises(ValueError):
        samples("Requests/sec: 12\n")


def test_the_profilers_timed_output_is_cut_to_a_window():
    timed = recorded("php-timed")
    assert len(timed) == 150 and timed[0].time_s == 23301.064721
    assert len(within(timed, 23301.1, 23301.2)) == sum(1 for sample in timed if 23301.1 <= sample.time_s <= 23301.2)


@pytest.mark.parametrize("name", RUNTIMES)
def test_every_runtime_leaves_less_than_a_fifteenth_unclassified(name):
    found = Counter(components(name))
    assert found["other"] / sum(found.values()) < 0.15 / 2


@pytest.mark.parametrize("name, expected", [
    ("php", {"runtime", "web-server", "db-driver", "db-server", "kernel-network", "kernel-other", "libc"}),
    ("php-fpm", {"runtime", "web-server", "db-driver", "db-server", "kernel-network"}),
    ("soap-php-lighttpd", {"runtime", "web-server", "xml", "db-driver", "db-server", "libc"}),
    ("soap-gsoap", {"xml", "app-code", "web-server", "db-driver", "db-server", "libc", "kernel-other"}),
    ("pooled-servlet", {"web-server", "db-driver", "jit", "runtime", "app-code", "db-server"}),
    ("servlet", {"web-server", "db-driver", "jit", "db-server"}),
    ("soap", {"xml", "app-code", "web-server", "db-driver", "jit"}),
    ("soap-cxf", {"xml", "app-code", "web-server", "db-driver", "jit"}),
    ("soap-axis2", {"xml", "app-code", "web-server", "db-driver", "jit"}),
    ("go", {"web-server", "db-driver", "app-code", "gc", "runtime", "db-server", "kernel-network"}),
    ("node", {"web-server", "db-driver", "app-code", "jit", "db-server", "kernel-network"}),
    ("rust", {"web-server", "db-driver", "app-code", "runtime", "libc", "db-server", "kernel-network"}),
])
def test_each_runtime_shows_the_components_it_is_made_of(name, expected):
    assert expected <= set(components(name))


def sample_of(name, index):
    return recorded(name)[index], owners(name)


@pytest.mark.parametrize("name, index, component", [
    ("php", 0, "db-driver"),        # mysqlnd.so in an Apache worker
    ("php", 1, "db-server"),        # MariaDB, whatever it runs (libc's strlen here)
    ("php", 2, "runtime"),          # libphp8.2.so
    ("php", 3, "kernel-other"),     # fstat
    ("php", 5, "web-server"),       # libaprutil
    ("php", 6, "kernel-network"),   # a socket's inode allocated: sock_alloc_inode above the leaf
    ("php", 31, "libc"),            # memmove called by PHP
    ("php", 60, "jit"),             # Tomcat's C1 compiler thread, whatever its frames
    ("php", 231, "xml"),            # libxml2 in mod_php
    ("soap-gsoap", 4, "kernel-network"),  # accept()
    ("soap-gsoap", 11, "xml"),      # soap_peek_element in libgsoap
    ("soap-gsoap", 54, "app-code"),  # the generated skeleton's soap_serve
    ("soap-gsoap", 85, "db-driver"),  # libmariadb
    ("soap-gsoap", 135, "web-server"),  # soap_closesock: gSOAP's own HTTP
    ("soap-cxf", 2, "app-code"),    # CXF's invoker
    ("soap-cxf", 4, "xml"),         # HashMap under JAXB's serializer: the JDK frame is transparent
    ("soap-cxf", 5, "web-server"),  # Tomcat's CoyoteAdapter
    ("soap-cxf", 6, "db-driver"),   # a socket write the driver made, JDK frames between
    ("soap-cxf", 8, "runtime"),     # libjvm (a JNI call) in a request thread
    ("soap-php-lighttpd", 68, "kernel-other"),  # the vDSO's clock
    ("soap-php-lighttpd", 87, "web-server"),  # Lighttpd
    ("go", 7, "web-server"),        # net/http's connection reader, under bufio
    ("go", 15, "db-driver"),        # the runtime's select under go-sql-driver/mysql's rows.Close
    ("go", 53, "app-code"),         # a map grown by the runtime for the app's own parameters
    ("go", 107, "gc"),              # the scavenger's tree walk
    ("node", 4, "jit"),             # Turbofan's code generator
    ("node", 6, "db-driver"),       # V8's inline cache under the mariadb pool's release
    ("node", 9, "app-code"),        # String.prototype.split, called by the server's own JavaScript
    ("rust", 7, "runtime"),         # tokio's worker loop
    ("rust", 8, "db-driver"),       # sqlx's MySqlConnection
    ("rust", 11, "web-server"),     # the http crate's HeaderMap
    ("rust", 22, "app-code"),       # the page's escaping, with an i32 formatted under it
])
def test_known_samples_land_in_their_components(name, index, component):
    sample, own = sample_of(name, index)
    assert Classifier().component(sample, own.get(sample.pid)) == component


def test_a_jvm_gc_thread_is_gc_whatever_it_runs():
    gc = Sample("GC Thread#0", 5, 6, 1, 1_000_000, (("memmove", "/usr/lib/x86_64-linux-gnu/libc.so.6"),))
    assert Classifier().component(gc, "tomcat") == "gc"


def test_a_stack_of_jdk_frames_alone_is_the_runtime():
    jdk = Sample("http-nio", 5, 6, 1, 1_000_000, (("int java.lang.String.hashCode()", "/tmp/perf-5.map"),
                                                   ("Interpreter", "/tmp/perf-5.map")))
    assert Classifier().component(jdk, "tomcat") == "runtime"


def test_a_breakdown_adds_up_to_its_samples_and_sets_other_tasks_apart():
    found = recorded("php")
    result = breakdown(found, owners("php"))
    counted = [sample for sample in found if sample.pid in owners("php")]
    assert result["servers_s"] == pytest.approx(sum(sample.period_ns for sample in counted) / 1e9, abs=1e-3)
    assert result["seconds"] + result["outside_s"] == pytest.approx(sum(s.period_ns for s in found) / 1e9, abs=1e-3)
    assert sum(result["components"].values()) == pytest.approx(result["seconds"], abs=1e-3)
    assert sum(shares(result).values()) == pytest.approx(1, abs=0.01)
    assert set(result["servers"]) <= {"apache", "mariadb", "tomcat", "softirq"}


def test_softirq_work_in_the_idle_task_counts_and_other_work_does_not():
    softirq = Sample("swapper", 0, 0, 1, 1_000_000, (("tcp_v4_rcv", "[kernel.kallsyms]"),
                                                     ("net_rx_action", "[kernel.kallsyms]")))
    other = Sample("cron", 99, 99, 1, 3_000_000, (("main", "/usr/sbin/cron"),))
    result = breakdown([softirq, other], {})
    assert result["seconds"] == 0.001 and result["servers_s"] == 0 and result["outside_s"] == 0.003
    assert result["servers"] == {"softirq": {"kernel-network": 0.001}}


def test_a_servers_samples_add_up_by_the_object_their_leaf_ran_in():
    found = recorded("soap-axis2")
    result = objects(found, owners("soap-axis2"))
    own = [sample for sample in found if owners("soap-axis2").get(sample.pid) == "tomcat"]
    assert sum(result["tomcat"].values()) == pytest.approx(sum(sample.period_ns for sample in own) / 1e9, abs=1e-3)
    # A JVM's compiled code is one object, named as ICWS'08's Fig. 13 could not: its perf map's.
    assert list(result["tomcat"])[0] == "JIT-compiled Java" and "libjvm.so" in result["tomcat"]
    php = objects(recorded("soap-php-lighttpd"), owners("soap-php-lighttpd"))["php-fpm"]
    assert {"kernel", "php-fpm8.2", "libc.so.6", "libxml2.so.2.9.14", "soap.so"} <= set(php)


def test_the_profile_is_set_against_the_servers_processes_measured_cpu():
    assert against_measured({"servers_s": 5.14}, 5.0) == 1.028
    assert against_measured({"servers_s": 1.0}, 0) is None
    figures = {"apache_cpu_s": 3.0, "mariadb_cpu_s": 1.5, "other_cpu_s": 0.4, "softirq_cpu1_s": 0.5,
               "softirq_cpu0_s": 0.2, "irq_cpu1_s": 0.0, "kernel_threads_cpu_s": 0.1}
    assert measured_server_cpu(figures, [1]) == {"processes_s": 4.5, "softirq_s": 0.5, "irq_s": 0.0}


def test_rules_that_name_no_component_or_match_nothing_are_refused():
    table = json.loads(json.dumps({"components": {"web-server": "web server"}, "rules": []}))
    with pytest.raises(ValueError, match="unknown component"):
        rules_from({**table, "rules": [{"component": "gc", "thread": "GC"}]})
    with pytest.raises(ValueError, match="names no thread"):
        rules_from({**table, "rules": [{"component": "web-server"}]})
    assert rules().title("xml") == "XML parsing and serialization"
