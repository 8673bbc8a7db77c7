"""A paper as a declaration (experiments/papers/<paper>.json) and its values (the TSV beside it, each
value with its line in the paper's text), checked; the figures chosen and each one's experiment. Pure:
no file is read here."""
from harness.results.chosen import Refused


X_KINDS = ("app", "items", "connections", "breakdown", "memory", "rate")
FIGURE_FIELDS = {"id", "title", "x", "reference", "series", "options", "differs", "profiled_servers", "verb", "measure",
                 "kind", "sides"}
PAPER_FIELDS = {"about", "paper", "text", "values", "breakdowns", "load", "differs", "figures", "not_run", "sides"}
# What each side of a comparison with the paper timed and in what shape: a figure's verdicts say "like
# for like" only when the paper's side and ours read the same in every one of these.
SIDE_FIELDS = ("measure", "client", "message", "load")
SIDES = ("paper", "ours")
# A value row's measure and the x of the figures that draw it.
MEASURES = {"replies/s": ("app", "rate"), "ratio": ("app", "items", "connections"), "MB": ("memory", "items"),
            "MB per process": ("memory",), "items/s": ("items",), "ms": ("rate",), "packets/s": ("items",),
            "MB/1000 packets": ("items",)}
LOAD_VERB = "concurrency-sweep"  # a figure's experiment: a closed-loop level (or ladder) per cell
PHASES_VERB = "soap-phases"  # or one request at a time, each engine's phases timed by its own hooks
SWEEP_VERB = "sweep"  # or open loop at the offered rates a figure lists (the 2006 study's per-rate tables)
VERBS = (LOAD_VERB, PHASES_VERB, SWEEP_VERB)
# A sweep figure's x: the offered rate (a per-rate table), or an app (its cell's saturation, a bar).
SWEEP_XS = ("rate", "app")
# What a soap-phases figure draws against N, and its axis: a column of soap-phases-calls.tsv, the
# items a phase handles a second (N over its time: Lublin's variables per second), or the megabytes a
# phase took (its bytes as its engine counts them, harness/measure/soap_phases.py: Lublin's RAM).
PHASE_MEASURES = {"unmarshal_us": "un-marshalling time (ms)", "marshal_us": "marshalling time (ms)",
                  "round_trip_us": "round-trip time (ms)", "logic_us": "business logic's time (ms)",
                  "unmarshal_rate": "deserialization rate (items/s)", "marshal_rate": "serialization rate (items/s)",
                  "unmarshal_mb": "deserialization memory (MB)", "marshal_mb": "serialization memory (MB)",
                  "packets": "packets a call (TCP segments, both ways)",
                  "data_packets": "packets carrying data a call (both ways)",
                  "packets_per_s": "packets a second over a call's round trip",
                  "mb_per_1000_packets": "memory per 1,000 packets (MB)"}
# Of those, what a call's TCP segments give (Lublin's Tables 5 and 6): its packets, those that carried
# data (one each way for a message that fits one segment), their rate over its round trip, and the
# bytes its engine counted (every phase's) per 1,000 of them.
PACKET_MEASURES = ("packets", "data_packets", "packets_per_s", "mb_per_1000_packets")
RATE_OF = {"unmarshal_rate": "unmarshal_us", "marshal_rate": "marshal_us"}
BYTES_OF = {"unmarshal_mb": "unmarshal_b", "marshal_mb": "marshal_b"}


def verb_of(declaration, figure):
    """The verb a figure's experiment runs: its own, else the paper's load's."""
    return figure.get("verb", declaration["load"]["verb"])


def checked(declaration, source):
    """The paper's declaration with its fields checked; Refused naming the first wrong one."""
    def refuse(what):
        raise Refused(f"{source}: {what}", code=2)
    if not isinstance(declaration, dict):
        refuse(f"a paper is a JSON object with {', '.join(sorted(PAPER_FIELDS))}")
    unknown = sorted(set(declaration) - PAPER_FIELDS)
    if unknown:
        refuse(f"{', '.join(unknown)}: no such field; a paper has {', '.join(sorted(PAPER_FIELDS))}")
    for field in ("paper", "text", "values", "load", "figures"):
        if field not in declaration:
            refuse(f"{field}: missing")
    if declaration["load"].get("verb") not in VERBS:
        refuse(f"load.verb: a paper's figures run under {' or '.join(VERBS)}, not {declaration['load'].get('verb')!r}")
    if not isinstance(declaration.get("sides", {}), dict):
        refuse("sides: an object with the paper's side and ours")
    ids = [figure.get("id") for figure in declaration["figures"]]
    if len(set(ids)) != len(ids):
        refuse(f"figures: an id twice ({', '.join(map(str, ids))})")
    for figure in declaration["figures"]:
        where = f"figure {figure.get('id')}"
        unknown = sorted(set(figure) - FIGURE_FIELDS)
        if unknown:
            refuse(f"{where}: {', '.join(unknown)}: no such field; a figure has {', '.join(sorted(FIGURE_FIELDS))}")
        missing = sorted({"id", "title", "x", "reference", "series", "options"} - set(figure))
        if missing:
            refuse(f"{where}: {', '.join(missing)} missing")
        if figure["x"] not in X_KINDS:
            refuse(f"{where}: x: {figure['x']!r} is none of {', '.join(X_KINDS)}")
        if (figure["x"] == "breakdown") != bool(figure["options"].get("profile")):
            refuse(f"{where}: a breakdown, and only a breakdown, takes options.profile: true")
        if figure["x"] == "breakdown" and "breakdowns" not in declaration:
            refuse(f"{where}: a breakdown needs the paper's `breakdowns` file")
        if verb_of(declaration, figure) not in VERBS:
            refuse(f"{where}: verb: {figure['verb']!r} is none of {', '.join(VERBS)}")
        phases = verb_of(declaration, figure) == PHASES_VERB
        if verb_of(declaration, figure) == SWEEP_VERB and figure["x"] not in SWEEP_XS:
            refuse(f"{where}: a {SWEEP_VERB} figure is drawn against the offered rate (x: rate) or as each cell's "
                   "saturation, a bar per app (x: app)")
        if figure["x"] == "rate" and verb_of(declaration, figure) != SWEEP_VERB:
            refuse(f"{where}: only a {SWEEP_VERB} figure is drawn against the offered rate (x: rate)")
        if figure["x"] == "rate" and not experiment_of(declaration, figure)["options"].get("rates"):
            refuse(f"{where}: a figure against the offered rate lists its rates (options.rates)")
        if phases and (figure["x"] != "items" or figure.get("measure") not in PHASE_MEASURES):
            refuse(f"{where}: a {PHASES_VERB} figure is drawn against items, its measure one of {', '.join(PHASE_MEASURES)}")
        if not phases and ("measure" in figure or "kind" in figure):
            refuse(f"{where}: measure, kind: only a {PHASES_VERB} figure names them (the others draw replies/s)")
        missing = [f"{side}.{field}" for side in SIDES for field in SIDE_FIELDS
                   if not sides_of(declaration, figure)[side].get(field)]
        if missing:
            refuse(f"{where}: a figure sets the paper beside ours, each side's measure and shape declared "
                   f"(the paper's sides, the figure's over them): sides {', '.join(missing)} missing")
        kinds = experiment_of(declaration, figure)["options"].get("kinds")
        if "kind" in figure and figure["kind"] not in (kinds or ()):
            refuse(f"{where}: kind: {figure['kind']!r} is not among the kinds its experiment runs ({', '.join(kinds or ())})")
    return {**declaration, "figures": [{**figure, "sides": sides_of(declaration, figure)} for figure in declaration["figures"]]}


def sides_of(declaration, figure):
    """{"paper": {...}, "ours": {...}}: what each side of the figure's comparisons measured and in
    what shape, the figure's own fields over the paper's."""
    declared, own = declaration.get("sides", {}), figure.get("sides", {})
    return {side: {**declared.get(side, {}), **own.get(side, {})} for side in SIDES}


def unlike(sides):
    """[(field, the paper's, ours)] where the two sides differ; [] when like for like."""
    return [(field, sides["paper"][field], sides["ours"][field]) for field in SIDE_FIELDS
            if sides["paper"][field] != sides["ours"][field]]


def checked_values(rows, declaration, source):
    """The value rows, each naming a declared figure, a measure this page draws and series the figure
    maps to apps; Refused naming the first that does not."""
    figures = {figure["id"]: figure for figure in declaration["figures"]}
    for number, row in enumerate(rows, start=1):
        figure = figures.get(row["figure"])
        where = f"{source}: row {number}"
        if figure is None:
            raise Refused(f"{where}: figure {row['figure']!r} is not declared", code=2)
        if row["measure"] not in MEASURES:
            raise Refused(f"{where}: measure {row['measure']!r} is none of {', '.join(MEASURES)}", code=2)
        if figure["x"] not in MEASURES[row["measure"]]:
            raise Refused(f"{where}: a figure against {figure['x']} draws no {row['measure']}", code=2)
        for label in filter(None, (row["series"], row["over"])):
            if label not in figure["series"]:
                raise Refused(f"{where}: {label!r} is not one of figure {row['figure']}'s series", code=2)
        if not row["line"].isdigit():
            raise Refused(f"{where}: line {row['line']!r}: each value names its line in the paper's text", code=2)
    return rows


def figure_by_id(declaration, figure_id):
    return next(figure for figure in declaration["figures"] if figure["id"] == figure_id)


def chosen_figures(declaration, ids):
    """The declared figures named in `ids` (every one when empty), in the declaration's order."""
    known = [figure["id"] for figure in declaration["figures"]]
    unknown = [figure for figure in ids if figure not in known]
    if unknown:
        raise Refused(f"no figure {', '.join(unknown)} in {declaration['paper']}: it has {', '.join(known)}", code=2)
    return [figure for figure in declaration["figures"] if not ids or figure["id"] in ids]


def experiment_of(declaration, figure, apps=None):
    """The experiment declaration (harness/experiments.py) of a figure: the paper's load (when the
    figure runs its verb), the figure's options over it, and its apps narrowed to `apps` when given."""
    verb = verb_of(declaration, figure)
    load = declaration["load"]["options"] if verb == declaration["load"]["verb"] else {}
    options = {**load, **figure["options"]}
    if apps is not None:
        options = {**{name: value for name, value in options.items() if name != "set"}, "apps": list(apps)}
    return {"verb": verb, "options": options}


def shared_folder(declaration, figure):
    """A soap-phases or sweep figure's run folder: that of the first figure with the same experiment
    (one run of the phases gives the un-marshalling, marshalling and round trip alike; one sweep
    every cell it measures)."""
    same = [other["id"] for other in declaration["figures"]
            if experiment_of(declaration, other) == experiment_of(declaration, figure)]
    return f"fig-{same[0]}"
