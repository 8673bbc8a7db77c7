"""Where a profile's CPU went: each perf sample put in one component (the kernel's network, the web
server, the language runtime, GC, XML, the database driver, ...) by the rules of
cpu_components.json, and a profile's samples added up into a breakdown. Pure.

Which samples are the servers' CPU is the profiler's to say (`owners`: pid -> the lab server whose
process it is): a server's samples are counted; another task's only when it is running the network's
softirq work on the servers' CPUs (the idle task or a kernel thread interrupted for it), kept apart
as "softirq"; the rest is set apart as outside the servers. The servers' own samples are what the
step's measured server CPU (their processes' CPU time) is set against: softirq work done on a
server's stack is in both (on this kernel, without IRQ time accounting, /proc/stat's softirq time
counts it a second time, so it is not added; docs/profiles.md)."""
import json
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from harness.measure.perf_script import JIT_MAP, KERNEL, frame_key

RULES = Path(__file__).with_name("cpu_components.json")
SOFTIRQ = re.compile(r"^(handle_softirqs|__do_softirq|do_softirq|net_rx_action|__napi_poll|process_backlog)")
OTHER = "other"


@dataclass(frozen=True)
class Rules:
    components: dict  # id -> title, in the table's order
    by_thread: tuple  # ((compiled regex, component), ...)
    by_server: dict  # server -> component
    kernel: tuple  # ((compiled regex or None, component), ...)
    frames: tuple  # ((compiled regex, component, transparent), ...)

    def title(self, component):
        return self.components.get(component, component)


def rules_from(table):
    """The rules of a table as cpu_components.json writes it; ValueError naming a rule that names an
    unknown component or says nothing it matches."""
    components = dict(table["components"])
    by_thread, by_server, kernel, frames = [], {}, [], []
    for number, rule in enumerate(table["rules"], start=1):
        component = rule["component"]
        if component not in components:
            raise ValueError(f"rule {number}: unknown component {component!r}")
        if "thread" in rule:
            by_thread.append((re.compile(rule["thread"]), component))
        elif "server" in rule:
            by_server[rule["server"]] = component
        elif rule.get("kernel"):
            kernel.append((re.compile(rule["any_frame"]) if "any_frame" in rule else None, component))
        elif "frame" in rule:
            frames.append((re.compile(rule["frame"]), component, bool(rule.get("transparent"))))
        else:
            raise ValueError(f"rule {number}: names no thread, server, kernel or frame")
    return Rules(components, tuple(by_thread), by_server, tuple(kernel), tuple(frames))


@lru_cache(maxsize=1)
def rules():
    return rules_from(json.loads(RULES.read_text()))


def softirq(sample):
    return any(dso == KERNEL and SOFTIRQ.match(symbol) for symbol, dso in sample.frames)


class Classifier:
    """Puts samples in components by `table` (Rules), remembering what each frame's name matched."""

    def __init__(self, table=None):
        self.table = table or rules()
        self.frame_rules = {}

    def frame_rule(self, symbol, dso):
        key = frame_key(symbol, dso)
        if key not in self.frame_rules:
            self.frame_rules[key] = next(((component, transparent) for pattern, component, transparent
                                          in self.table.frames if pattern.search(key)), None)
        return self.frame_rules[key]

    def kernel_component(self, sample):
        kernel_symbols = [symbol for symbol, dso in sample.frames if dso == KERNEL]
        for pattern, component in self.table.kernel:
            if pattern is None or any(pattern.match(symbol) for symbol in kernel_symbols):
                return component
        return OTHER

    def component(self, sample, server=None):
        """The component of one of a server's samples (`server`: its name), or of another task's
        softirq work."""
        for pattern, component in self.table.by_thread:
            if pattern.match(sample.thread):
                return component
        if server in self.table.by_server:
            return self.table.by_server[server]
        if sample.in_kernel:
            return self.kernel_component(sample)
        fallback = None
        for symbol, dso in sample.frames:
            if dso == KERNEL:
                continue
            found = self.frame_rule(symbol, dso)
            if found is None:
                continue
            component, transparent = found
            if not transparent:
                return component
            fallback = fallback or component
        return fallback or OTHER


def leaf_name(sample):
    return frame_key(*sample.frames[0]) if sample.frames else "(no frames)"


def breakdown(samples, owners, classifier=None):
    """A profile's samples added up: {"seconds": the servers' CPU in it, with other tasks' softirq work,
    "servers_s": the servers' processes' alone, "components": {component: seconds}, "servers": {server:
    {component: seconds}} ("softirq" for other tasks' softirq work), "outside_s": other tasks' time,
    "samples": how many were counted, "other_leaves": the ten leaf frames with most seconds in `other`}."""
    classifier = classifier or Classifier()
    components, servers, others = Counter(), {}, Counter()
    outside_ns, servers_ns, counted = 0, 0, 0
    for sample in samples:
        server = owners.get(sample.pid)
        if server is None and not (sample.in_kernel and softirq(sample)):
            outside_ns += sample.period_ns
            continue
        component = classifier.component(sample, server)
        counted += 1
        servers_ns += sample.period_ns if server else 0
        components[component] += sample.period_ns
        servers.setdefault(server or "softirq", Counter())[component] += sample.period_ns
        if component == OTHER:
            others[leaf_name(sample)] += sample.period_ns
    return {"seconds": round(sum(components.values()) / 1e9, 4), "servers_s": round(servers_ns / 1e9, 4),
            "components": seconds(components),
            "servers": {server: seconds(counter) for server, counter in servers.items()},
            "outside_s": round(outside_ns / 1e9, 4), "samples": counted,
            "other_leaves": seconds(Counter(dict(others.most_common(10))))}


def object_name(sample):
    """The object a sample's leaf frame ran in, as ICWS'08's Figs. 10-12 name a profile's parts: a
    shared object's or executable's file name, "kernel", or "JIT-compiled Java" for a JVM's perf map."""
    if not sample.frames:
        return "(no frames)"
    dso = sample.frames[0][1]
    if dso == KERNEL:
        return "kernel"
    if JIT_MAP.match(dso):
        return "JIT-compiled Java"
    return dso.rsplit("/", 1)[-1]


def objects(samples, owners):
    """Each server's own samples added up by the object their leaf frame ran in: {server: {object:
    seconds}}, largest first (other tasks' softirq work is no server's: breakdown keeps it)."""
    found = {}
    for sample in samples:
        server = owners.get(sample.pid)
        if server is not None:
            found.setdefault(server, Counter())[object_name(sample)] += sample.period_ns
    return {server: seconds(counter) for server, counter in found.items()}


def seconds(counter):
    """{name: seconds} of a Counter of nanoseconds, largest first."""
    return {name: round(ns / 1e9, 4) for name, ns in counter.most_common()}


def shares(result):
    """{component: its share of the servers' CPU in the profile, 0-1}, largest first."""
    total = result["seconds"]
    if not total:
        return {}
    return {name: round(value / total, 4)
            for name, value in sorted(result["components"].items(), key=lambda item: -item[1])}


def against_measured(result, measured_s):
    """How the profile's servers' samples compare with the servers' processes' CPU time the step's
    monitors measured: profiled / measured (None when nothing was measured)."""
    return round(result["servers_s"] / measured_s, 3) if measured_s else None
