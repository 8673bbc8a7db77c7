"""gnuplot at the edge: a script of plots/ run with its variables set (`gnuplot -e`), the rate figure
every run's report draws (plots/rates.gp) as a PDF or, for the HTML pages, an SVG, and two runs'
cells drawn together for `make compare`'s page."""
import subprocess

from harness.report.series import points, spans_decades
from harness.results.chosen import Refused
from stack.settings import ROOT

SCRIPTS = ROOT / "plots"


class ReportError(Refused):
    """Something the user can fix: gnuplot missing, a script failing."""


def gnuplot(script, **variables):
    def literal(value):
        if isinstance(value, (int, float)):
            return f"{value:g}"
        return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
    assignments = "; ".join(f"{name}={literal(value)}" for name, value in variables.items())
    result = subprocess.run(["gnuplot", "-e", assignments, str(SCRIPTS / script)],
                            capture_output=True, text=True)
    errors = [line for line in result.stderr.splitlines() if "warning" not in line.lower() and line.strip()]
    if result.returncode != 0:
        raise ReportError(f"gnuplot {script} failed for {variables.get('output')}:\n" + "\n".join(errors))


def rates_figure(output, heading, series, logx, svg=False):
    """series: (data file, title, colour, dash) per line; an SVG instead of a PDF when `svg`."""
    variables = {"output": output, "heading": heading, "n": len(series), "logx": int(logx), "svg": int(svg)}
    for index, (data, title, colour, dash) in enumerate(series, start=1):
        variables.update({f"file{index}": data, f"title{index}": title, f"colour{index}": colour,
                          f"dash{index}": dash})
    gnuplot("rates.gp", **variables)


def series_file(data, visit):
    """Where a run's plots/data/ keeps one measurement's rate series (`make plots` writes it)."""
    return data / f"{visit.key.name}-round-{visit.round}-{visit.replica}.tsv"


# The first run's line and the second's on a comparison's figure (Okabe-Ito blue and vermilion).
COMPARED = (("#0072B2", 1), ("#D55E00", 2))


def comparison_figures(out, first, second, rows):
    """Each cell of `rows` (harness/report/compare.py's) with both runs' measurement of its median
    drawn together, an SVG in `out`: [(the cell, the SVG's path)] of the cells whose series both runs'
    `make plots` wrote."""
    drawn = []
    for row in rows:
        series, offered = [], []
        for run, figures, (colour, dash) in zip((first, second), (row["first"], row["second"]), COMPARED):
            visit = figures.representative.visit
            path = series_file(run.directory / "plots" / "data", visit)
            if path.exists():
                series.append((path, f"{run.manifest.run_id}, round {visit.round}: "
                                     f"{figures.median.estimate:,.1f} req/s (the median)", colour, dash))
                offered += [point[0] for block in points(run.steps[visit]) for point in block]
        if len(series) == 2:
            out.mkdir(parents=True, exist_ok=True)
            svg = out / f"{row['key'].name}.svg"
            rates_figure(svg, f"{row['cell']}: {first.manifest.run_id} against {second.manifest.run_id}", series,
                         spans_decades(offered), svg=True)
            drawn.append((row["cell"], svg))
    return drawn
