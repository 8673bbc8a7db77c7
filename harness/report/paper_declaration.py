"""A paper as a declaration (experiments/papers/<paper>.json) and its values (the TSV beside it, each
value with its line in the paper's text), checked; the figures chosen and each one's experiment. Pure:
no file is read here."""
from harness.results.chosen import Refused


X_KINDS = ("app", "items", "connections", "breakdown", "memory")
FIGURE_FIELDS = {"id", "title", "x", "reference", "series", "options", "differs", "profiled_servers"}
PAPER_FIELDS = {"about", "paper", "text", "values", "breakdowns", "load", "differs", "figures", "not_run"}
# A value row's measure and the x of the figures that draw it.
MEASURES = {"replies/s": ("app",), "ratio": ("app", "items", "connections"), "MB": ("memory",),
            "MB per process": ("memory",)}
LOAD_VERB = "concurrency-sweep"  # a figure's experiment: a closed-loop level (or ladder) per cell


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
    if declaration["load"].get("verb") != LOAD_VERB:
        refuse(f"load.verb: a paper's figures run under {LOAD_VERB}, not {declaration['load'].get('verb')!r}")
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
    return declaration


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


def chosen_figures(declaration, ids):
    """The declared figures named in `ids` (every one when empty), in the declaration's order."""
    known = [figure["id"] for figure in declaration["figures"]]
    unknown = [figure for figure in ids if figure not in known]
    if unknown:
        raise Refused(f"no figure {', '.join(unknown)} in {declaration['paper']}: it has {', '.join(known)}", code=2)
    return [figure for figure in declaration["figures"] if not ids or figure["id"] in ids]


def experiment_of(declaration, figure, apps=None):
    """The experiment declaration (harness/experiments.py) of a figure: the paper's load, the figure's
    options over it, and its apps narrowed to `apps` when given."""
    options = {**declaration["load"]["options"], **figure["options"]}
    if apps is not None:
        options = {**{name: value for name, value in options.items() if name != "set"}, "apps": list(apps)}
    return {"verb": declaration["load"]["verb"], "options": options}
