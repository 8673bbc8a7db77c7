"""The sweep's command line: the options a user gives, checked (a bad value gets one line naming it
and what it accepts) and turned into the run's context (context.py), over sweep.json's defaults and
presets. Nothing here is a literal of its own."""
import argparse
import random
from dataclasses import fields, replace
from datetime import datetime

from harness import drivers
from harness.judge.verdict import Thresholds
from harness.results.chosen import add_results_argument
from harness.run import study
from harness.run.context import GROUPS, RunContext, defaults, preset, size_sweep, sweep
from harness.run.option_types import listed, number
from stack import registry, settings, topology, workload_names


class OneLineErrors(argparse.ArgumentParser):
    """A bad option gets one line naming it and what it accepts (not argparse's usage block first)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} ({self.prog} --help lists the options)\n")

    def add_argument(self, *names, **settings):
        # The helps are plain text, many from sweep.json ("10 %"): argparse would read a % as a format.
        if settings.get("help"):
            settings["help"] = settings["help"].replace("%", "%%")
        return super().add_argument(*names, **settings)


def field_options():
    """(flag, context field, argparse settings) of each knob whose field gives it a flag (context.py's
    `default`): such a knob is its field and its default and about in sweep.json, nothing here."""
    return tuple((item.metadata["flag"], item.name, item.metadata["option"])
                 for group in GROUPS.values() for item in fields(group) if "flag" in item.metadata)


def field_values(args):
    """{context field: value} of the field options given (field_options)."""
    return {field: getattr(args, field) for _, field, _ in field_options() if getattr(args, field) is not None}


def parser(description):
    return add_arguments(OneLineErrors(description=description))


def add_arguments(arguments):
    """The sweep's options, each over its sweep.json default."""
    arguments.add_argument("--set", dest="app_set", default=None, choices=list(registry.sets()),
                           help=f"a named selection of apps: {', '.join(registry.sets())} (default "
                                f"{registry.default_set()}, {defaults()['default_set_rounds']} rounds; other sets run {defaults()['other_set_rounds']} round(s) unless --rounds says otherwise)")
    arguments.add_argument("--apps", type=listed, default=None, help="these apps of the set only")
    arguments.add_argument("--engines", type=listed, default=None,
                           help="default: " + ", ".join(registry.engines()))
    arguments.add_argument("--workloads", type=listed, default=tuple(workload_names.workloads()))
    arguments.add_argument("--mode", choices=("adaptive", "linear"), default=None,
                           help=f"default {defaults()['mode']} (STUDY=1: linear)")
    for flag, field, kind in field_options():
        arguments.add_argument(flag, dest=field, default=None, help=sweep()["options_about"][field], **kind)
    arguments.add_argument("--no-warmup", action="store_true",
                           help="no warm-up before a cell's steps, nor of a JVM before a round (warmup_cap_s and "
                                "jvm_warmup_cap_s 0), as the 2006 study's httperf runs began; the plan then starts "
                                "blind unless its rates are listed")
    arguments.add_argument("--seed", type=number(int, 0), default=None, help="the seed of the rounds' random order "
                           "(default: drawn at random and kept in the manifest; a resumed run keeps its own)")
    arguments.add_argument("--sizes", type=listed, default=None,
                           help="the size sweep: its workload at these counts (e.g. "
                                + ",".join(map(str, size_sweep()["counts"][size_sweep()["workload"]])) + ") instead of --workloads")
    arguments.add_argument("--size-workload", default=None, choices=workload_names.size_kinds(),
                           help=f"the workload the size sweep grows by N (default {size_sweep()['workload']}): "
                                + sweep()["size_sweep_about"])
    arguments.add_argument("--size-sweep", action="store_true",
                           help="make size-sweep: sweep.json's size_sweep (its counts, set, engines and rounds), "
                                "unless --sizes, --set, --engines or --rounds say otherwise")
    arguments.add_argument("--run", default=None, help="run id (re-use one to resume it)")
    arguments.add_argument("--quick", action="store_true", help=preset("quick")["about"] + " " + ", ".join(
        f"{key}={value}" for key, value in preset("quick")["options"].items()) + " (experiments/presets/quick.json)")
    arguments.add_argument("--study", action="store_true", help=preset(study.STUDY_PRESET)["about"])
    add_results_argument(arguments)
    return arguments


def chosen_apps(app_set, apps):
    """The set's apps (the default set's when none is named), narrowed to `apps` when given; without
    a named set, `apps` may name any registry app."""
    unknown = [name for name in apps or () if name not in registry.apps() + registry.test_only_apps()]
    if unknown:
        raise SystemExit(f"unknown apps {', '.join(unknown)}; the registry has {', '.join(registry.apps())}")
    members = registry.set_members(app_set or registry.default_set())
    if not apps:
        return tuple(members)
    outside = [name for name in apps if name not in members]
    if app_set and outside:
        raise SystemExit(f"{', '.join(outside)} not in set {app_set} ({', '.join(members)})")
    return tuple(apps)


def sized_workloads(counts, kind):
    """A size sweep's workload names: `kind` (workload_names.size_kinds) at these counts, each within the
    contract's cap."""
    largest = workload_names.largest_count(kind)
    wrong = [count for count in counts if not count.isdigit() or not 1 <= int(count) <= largest]
    if wrong:
        raise SystemExit(f"{kind} counts must be integers from 1 to {largest:,}: not {', '.join(wrong)}")
    return tuple(workload_names.sized(count, kind) for count in counts)


def size_sweep_cells(args, apps):
    """(apps, workloads) of a size sweep: its kind at its counts; an echo kind adds sweep.json's
    echo_extras (getQuote, and the engine-less SOAP baselines' apps unless --apps names the apps)."""
    kind = args.size_workload or size_sweep()["workload"]
    workloads = sized_workloads(args.sizes or tuple(map(str, size_sweep()["counts"][kind])), kind)
    if kind == workload_names.size_workload():
        return apps, workloads
    extras = size_sweep()["echo_extras"]
    added = () if args.apps else tuple(app for name in extras["sets"] for app in registry.set_members(name))
    return apps + tuple(app for app in added if app not in apps), workloads + tuple(extras["workloads"])


def from_argv(argv, description):
    """(RunContext, run id, results folder) from the command line."""
    return from_args(parser(description).parse_args(argv))


def from_args(args):
    """(RunContext, run id, results folder) from the parsed options."""
    sizing = bool(args.size_sweep or args.sizes or args.size_workload)
    if args.size_sweep:
        args.app_set = args.app_set or size_sweep()["set"]
        args.engines = args.engines or tuple(size_sweep()["engines"])
        args.rounds = args.rounds or size_sweep()["rounds"]
    engines = args.engines or tuple(registry.engines())
    apps = chosen_apps(args.app_set, args.apps)
    workloads = args.workloads
    if sizing:
        apps, workloads = size_sweep_cells(args, apps)
    unknown = [value for value in engines if value not in registry.engines()]
    if unknown:
        raise SystemExit(f"unknown engines {', '.join(unknown)}; the registry has "
                         f"{', '.join(registry.engines())}")
    unknown = [value for value in workloads if not workload_names.is_workload(value)]
    if unknown:
        raise SystemExit(f"unknown workloads {', '.join(unknown)}; the registry has "
                         f"{', '.join(workload_names.workloads())}, {', '.join(workload_names.echo_workloads())}, "
                         f"and {', '.join(workload_names.size_kinds())} as NAME-N (--sizes)")
    try:
        httperf_build = drivers.checked_build("httperf", settings.knob("LARGE_BODY_HTTPERF"))
    except ValueError as error:
        raise SystemExit(str(error)) from None
    if args.quick and args.study:
        raise SystemExit("QUICK=1 and STUDY=1 are two methods: choose one")
    presets = ("quick",) * args.quick + (study.STUDY_PRESET,) * args.study
    values = {key: value for name in presets for key, value in preset(name)["options"].items()}
    thresholds = Thresholds(**values.pop("thresholds", {}))
    preset_mode = values.pop("mode", defaults()["mode"])
    if args.app_set not in (None, registry.default_set()):
        values["rounds"] = defaults()["other_set_rounds"]
    elif "rounds" not in values:
        values["rounds"] = defaults()["default_set_rounds"]
    given = field_values(args)
    # Naming what the turns set against each other asks for them, on any set.
    asks_turns = args.app_set in (None, registry.default_set()) or "turn_pairs" in given
    if asks_turns and not sizing and "turn_cycles" not in values:
        values["turn_cycles"] = defaults()["default_set_turn_cycles"]
    values.update(given, httperf_build=httperf_build)
    if args.no_warmup:
        values.update(warmup_cap_s=0, jvm_warmup_cap_s=0)
    calls, most = values.get("calls", defaults()["calls"]), settings.int_knob("KEEPALIVE_REQUESTS")
    if calls > most:
        raise SystemExit(f"CALLS={calls} is more than the servers' KEEPALIVE_REQUESTS={most}: each connection "
                         f"would be closed by the server before its last call; lower CALLS or raise KEEPALIVE_REQUESTS")
    if values.get("rounds") == "auto":
        # Stein's first stage: the default rounds, whatever a preset or a set would run.
        values.update(rounds=defaults()["rounds"], auto_rounds=True)
    try:
        hosts = topology.current()
    except ValueError as error:
        raise SystemExit(str(error)) from None
    if hosts.load_clients and not args.clients:
        values["clients"] = len(hosts.load_clients)  # one httperf on each load client host
    values["seed"] = random.SystemRandom().randrange(1, 10**6) if args.seed is None else args.seed
    context = RunContext.of(apps, engines=engines, workloads=workloads, mode=args.mode or preset_mode,
                            app_set=args.app_set or registry.default_set(), presets=presets, topology=hosts,
                            thresholds=thresholds, **values)
    size_suffix = "-sizes" + ("" if (args.size_workload or size_sweep()["workload"]) == workload_names.size_workload()
                              else f"-{args.size_workload}")
    run_id = args.run or (datetime.now().strftime("%Y%m%d-%H%M%S") + (size_suffix if sizing else "")
                          + "".join(f"-{preset}" for preset in presets))
    if context.plan.mode == "linear" and context.plan.linear_rates and not context.plan.rates:
        reference_run, figures = study.kept_or_found(args.results, run_id, context.selection.cells,
                                                     context.plan.reference_run)
        context = replace(context, plan=replace(context.plan, reference_run=reference_run, reference_figures=figures))
    return context, run_id, args.results
