"""The saturation table of a run, beside the 2006 study's figures: summary.tsv and summary.md rows,
and the report's title and table pages. Pure: a run's records in, rows and lines out."""

from harness.judge.bottleneck import bottleneck
from harness.judge.verdict import recorded_thresholds
from harness.report.comparisons import comparison_lines, differences_lines
from harness.report.costs import moved_lines, price_lines, price_title_text, spread_lines
from harness.report.drift import drift_lines
from harness.report.memory import memory_lines
from harness.report.papers import paper_lines
from harness.report.profiles import bottleneck_parts
from harness.report.profiles import summary_lines as profile_lines
from harness.report.series import database_work_text, ratio_text, short_interval, throughput_text
from harness.report.sizes import size_lines
from harness.report.soap_phases import summary_lines as phase_lines
from harness.report.turns import capacity_section, turn_lines
from harness.report.write_share import write_share_lines
from harness.report.writes import write_lines
from harness.report.trust import (calibration_lines, database_work_line, disturbance_line, rounds_line, rounds_sentence,
                                  minutes_line, speed_line)
from harness.results.records import DATABASE_WORK
from harness.results.store import cell_text, read_tsv
from stack.registry import NO_ENGINE, servers
from stack.settings import ROOT
from stack.workload_names import QUOTE_WORKLOAD, workload_title

STUDY_FILE = ROOT / "plots" / "study-2006.tsv"
SUMMARY_COLUMNS = ["workload", "engine", "app", "status", "saturation_rps", "lower_bound", "rounds",
                   "round_figures", "median_low", "median_high", "median_confidence", "gmean_rps",
                   "gmean_low", "gmean_high",
                   "saturation_offered", "overload_offered", "reply_ms_low", "reply_ms_saturation",
                   "response_ms_low", "transfer_ms_low", "response_ms_saturation", "transfer_ms_saturation",
                   "p50_ms_saturation", "p99_ms_saturation", "server_cpu_pct_saturation",
                   "server_rss_mb_saturation", "ratio_to_fastest", "constant_baseline_fraction",
                   "static_baseline_fraction", "bottleneck", "bottleneck_why", "study_2006_rps",
                   "study_2006_response_ms_low", *(f"db_{name}_per_reply" for name in DATABASE_WORK),
                   "work_missing_steps"]


def study_figures(study_rows=None):
    rows = read_tsv(STUDY_FILE) if study_rows is None else study_rows
    return {(row["workload"], row["engine"], row["app"]): row for row in rows}


def interval_columns(figures):
    """The rounds' columns of a summary row: each round's figure, the median's order-statistic
    interval and the geometric mean's t-interval (empty where one round gives none)."""
    median, geometric = figures.median, figures.geometric

    def number(value, digits=2):
        return "" if value is None else round(value, digits)
    return {"rounds": len(figures.rows),
            "round_figures": " ".join(f"{value:g}" for _, value in sorted(figures.figures.items())),
            "median_low": number(median and median.low), "median_high": number(median and median.high),
            "median_confidence": number(median and median.confidence, 4),
            "gmean_rps": number(geometric and geometric.estimate), "gmean_low": number(geometric and geometric.low),
            "gmean_high": number(geometric and geometric.high)}


def summary_rows(view, study):
    """summary.tsv: the saturation table, one row per cell, grouped like the study's Overall tables
    (workload, then engine, then app), with each app's ratio to the fastest app of its group. The
    throughput is the median over the rounds; the other figures are its representative round's."""
    duration = view.manifest.options.get("duration_s") or 1
    by_cell = {(key.workload, key.engine, key.app): figures for key, figures in view.cells.items()}
    judged_by = declared_by(view.manifest)
    rows = []
    for workload in view.present("workloads"):
        for engine in view.present("engines"):
            group = [by_cell[(workload, engine, app)] for app in view.apps if (workload, engine, app) in by_cell]
            medians = {figures.key: figures.median.estimate if figures.median else None for figures in group}
            fastest = max((value or 0 for value in medians.values()), default=0)
            for figures in group:
                row, median = figures.representative, medians[figures.key]
                cpu = row.server_cpu_s_saturation
                old = study.get((workload, engine, row.app), {})
                limit, why = bottleneck(row, view.steps_of(row.key), judged_by)
                rows.append({
                    "workload": workload, "engine": engine, "app": row.app, "status": row.status,
                    "saturation_rps": "" if median is None else cell_text(round(median, 2)),
                    "lower_bound": int(figures.lower_bound),
                    **interval_columns(figures),
                    "saturation_offered": cell_text(row.saturation_offered),
                    "overload_offered": cell_text(row.overload_offered),
                    "reply_ms_low": cell_text(row.reply_ms_low),
                    "reply_ms_saturation": cell_text(row.reply_ms_saturation),
                    **{name: cell_text(getattr(row, name)) for name in ("response_ms_low", "transfer_ms_low",
                                                                       "response_ms_saturation", "transfer_ms_saturation")},
                    "p50_ms_saturation": cell_text(row.p50_ms_saturation),
                    "p99_ms_saturation": cell_text(row.p99_ms_saturation),
                    "server_cpu_pct_saturation": "" if cpu is None else round(100 * cpu / duration),
                    "server_rss_mb_saturation": cell_text(row.server_rss_mb_saturation),
                    "ratio_to_fastest": "" if not median or not fastest else round(median / fastest, 2),
                    "bottleneck": limit, "bottleneck_why": why,
                    "study_2006_rps": old.get("saturation_rps", ""),
                    "study_2006_response_ms_low": old.get("response_ms_low", ""),
                    **{f"db_{name}_per_reply": cell_text(getattr(row, f"db_{name}_per_reply_saturation"))
                       for name in DATABASE_WORK},
                    "work_missing_steps": sum(each.work_missing_steps for each in figures.rows),
                })
    return with_baseline_fractions(rows, view.manifest.baselines_of)


def with_baseline_fractions(rows, baselines_of):
    """Pure: each database app's row with its figure as a fraction of its own server's baselines in
    the same workload (the constant-row page and the static file), and each SOAP app's echo or quote
    row as a fraction of its server's engine-less SOAP baselines' getQuote (the canned answer read
    from a page and from a file); blank where the run has none."""
    by_cell = {(row["workload"], row["engine"], row["app"]): row for row in rows}
    result = []
    for row in rows:
        if row["engine"] != NO_ENGINE:
            references = {kind: (row["workload"], app) for kind, app in baselines_of(row["app"]).items()}
        else:
            references = {kind: (QUOTE_WORKLOAD, app) for kind, app in baselines_of(row["app"], "soap_baselines").items()}
        result.append({**row, "constant_baseline_fraction": "", "static_baseline_fraction": "",
                       **{f"{kind}_baseline_fraction": ratio_text(row, by_cell.get((workload, NO_ENGINE, app)),
                                                                  suffix="", missing="")
                          for kind, (workload, app) in references.items()}})
    return result


def connections_text(options):
    """How the run's steps used connections (CONN=; runs before it closed every one)."""
    if options.get("connection", "close") == "close":
        return "a new connection per request"
    return (f"connections kept alive, up to {options['calls']} requests each, opened at the offered rate / "
            f"their calls (no p50 / p99: httperf times whole connections)")


def summary_markdown(view, rows):
    manifest, options = view.manifest, view.manifest.options
    server_title = declared_by(manifest).server_title
    lines = [f"# Saturation summary, run {manifest.run_id}", "",
             f"{manifest.started or '?'} to {manifest.finished or 'unfinished'}; "
             f"{manifest.host['cores']} cores, {manifest.host['memory_gib']} GiB; "
             f"hosts on {manifest.topology_text}; {connections_text(options)}; {options['mode']} plan, "
             f"{options['duration_s']:g} s steps, "
             + "; ".join(filter(None, [f"precision {options['precision']:.0%}", manifest.database_text])) + ".", "",
             *turn_lines(view), *(["## The saturation figures", ""] if view.run.turns else []),
             rounds_sentence(view), "", *study_method_lines(options), *calibration_lines(view),
             "Throughput is the highest reply rate among passing steps (req/s), the median over the rounds, "
             "with each round's figure and the median's distribution-free interval (its confidence beside it: "
             "three rounds give [min, max] at 75 %, 95 % needs six); the other columns are from the round "
             "whose figure is the median. \">=\" marks a lower bound "
             "(the client or the plan ran out before the server failed). Reply times are request sent to "
             "last byte, at the lowest passing rate and at saturation, with httperf's two parts in brackets: "
             "response (to the first byte) + transfer (on to the last). The 2006 study's response times are "
             "the first part alone, so they stand beside ours in a column of their own; p50 / p99 are the percentiles of connect-to-close "
             "times in httperf's 1 ms bins (failed requests count as lasting the whole timeout). CPU is the servers' CPU time over the "
             "saturation step, in % of one core; RSS their summed peak. The bottleneck is what ran out first, "
             "named from the saturation step and the failing step above it (harness/judge/bottleneck.py). The 2006 study ran on a 2x Pentium 4 "
             "3 GHz server with MySQL 5.0 (plots/study-2006.tsv): compare the shape, not the numbers. The database per reply is "
             "MariaDB's own count over the saturation step (its Com_select, Rows_read and Connections) per 2xx reply, "
             "then each other command the replies sent it (prepares, executes, statement closes and resets, pings, SETs; "
             "those counted at all): each workload declares its SELECTs and rows, each app its commands, and a cell any of whose steps did less (by more than "
             f"{recorded_thresholds(options)['max_missing_work_ratio']:.0%}) has no figure (\"database work missing\"; docs/method.md).", ""]
    for workload in view.present("workloads"):
        for engine in view.present("engines"):
            group = [row for row in rows if row["workload"] == workload and row["engine"] == engine]
            if not group:
                continue
            lines += [f"## {workload_title(workload)}, {view.engine_title(engine)}", "",
                      "| app | throughput (req/s) | rounds: interval | ratio to fastest | of its server's baseline: "
                      "constant row / static file | 2006 (req/s) | response ms low: ours / 2006 | "
                      "reply ms low (response + transfer) | reply ms at saturation (response + transfer) | "
                      "p50 / p99 ms at saturation | overload at (req/s offered) | server CPU % | server RSS MB | "
                      "database per reply: SELECTs / rows / connections | bottleneck |",
                      "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
            for row in group:
                lines.append(f"| {view.title(row['app'])} | {throughput_text(row)} | {rounds_with_interval(row)} | "
                             f"{row['ratio_to_fastest']} | {baseline_text(row)} | "
                             f"{row['study_2006_rps'] or '-'} | {row['response_ms_low'] or '-'} / "
                             f"{row['study_2006_response_ms_low'] or '-'} | {reply_parts_text(row, 'low')} | "
                             f"{reply_parts_text(row, 'saturation')} | {spread_text(row)} | {row['overload_offered'] or '-'} | "
                             f"{row['server_cpu_pct_saturation']} | {row['server_rss_mb_saturation']} | "
                             f"{database_work_text(row)} | {bottleneck_text(row, view.run.profiles, server_title)} |")
            lines.append("")
    return "\n".join(lines + capacity_section(view) + write_lines(view) + write_share_lines(view, rows) + size_lines(view, rows) + paper_lines(view, rows)
                     + [line for set_name, declared in view.manifest.comparisons.items()
                        for line in comparison_lines(view, rows, set_name, declared)]
                     + differences_lines(view) + price_lines(view.run.prices) + moved_lines(view.cells, view.run.prices)
                     + spread_lines(view.cells) + drift_lines(view.cells, view.run.prices) + memory_lines(view) + profile_lines(view.run.profiles, view.title)
                     + phase_lines(view.run.soap_phases, view.title))


def study_method_lines(options):
    """A STUDY=1 run's method in words (the 2006 study's, experiments/presets/study.json); else none."""
    if "study" not in options.get("presets", []):
        return []
    thresholds = recorded_thresholds(options)
    rates = (f"{options['linear_rates']} rates from {options['linear_low']:.0%} to {options['linear_high']:.0%} of "
             f"run {options.get('reference_run') or '?'}'s figure for each cell" if options.get("linear_rates")
             else "rates raised linearly from the study's first rate")
    return [f"The 2006 study's method (STUDY=1): {options['duration_s']:g} s steps at {rates}; httperf --timeout "
            f"{options['step_timeout_s']:g} s, shortened where rate x timeout would pass {options['fd_budget']} "
            f"open descriptors (such steps say so in steps.tsv); each cell stopped at the first rate whose reply rate "
            f"fell below {thresholds['min_reply_ratio']:.0%} of the offered rate, the study's reading "
            "(errors not judged apart: a timed-out request is no reply), or whose replies were more than "
            f"{thresholds['max_non2xx_ratio']:.0%} not 2xx, the lab's rule in every run (httperf's reply "
            "rate, which the study read, counts an error page as a reply). Its figure is the best reply rate "
            "below that rate.", ""]


def reply_parts_text(row, where):
    """A summary row's reply time with httperf's two parts, e.g. "4.6 (4.1 + 0.5)"; the total alone
    for a run recorded before the parts were kept."""
    total, response, transfer = (row[f"{part}_ms_{where}"] for part in ("reply", "response", "transfer"))
    return f"{total} ({response} + {transfer})" if response != "" and transfer != "" else f"{total}"


def baseline_text(row):
    constant, static = row["constant_baseline_fraction"], row["static_baseline_fraction"]
    return f"{constant or '-'} / {static or '-'}" if constant or static else "-"


def rounds_with_interval(row):
    """Each round's figure, then the median's interval and its confidence."""
    if row["median_low"] == "":
        return row["round_figures"] or "-"
    return (f"{row['round_figures']}: [{float(row['median_low']):,.1f}, {float(row['median_high']):,.1f}] "
            f"at {float(row['median_confidence']):.0%}")


def declared_by(manifest):
    """The run's manifest as its cells are judged and its servers named: with the servers the run
    declared, or, for a run from before it recorded their declarations, with today's."""
    return manifest if manifest.declares_servers else manifest.with_servers(servers())


def bottleneck_text(row, profiles=None, title=str):
    """What ran out first and why; with the run's CPU profile (`make profile`), what took the CPU, its
    servers named by `title`."""
    text = f"{row['bottleneck']}: {row['bottleneck_why']}" if row["bottleneck"] else "-"
    parts = bottleneck_parts(profiles or {}, f"{row['app']}/{row['engine']}/{row['workload']}", title)
    return f"{text}; profile: {parts}" if parts else text


def spread_text(row):
    """p50 / p99 from the histogram httperf prints (1 ms bins: a sub-millisecond app reads 1)."""
    if not row["p50_ms_saturation"]:
        return "-"
    return f"{float(row['p50_ms_saturation']):g} / {float(row['p99_ms_saturation']):g}"


def title_lines(view):
    manifest = view.manifest
    host, options, data = manifest.host, manifest.options, manifest.data
    body = [f"run {manifest.run_id}: {manifest.started or '?'} to {manifest.finished or 'unfinished'}",
            f"git {data.get('git', {}).get('commit', '?')}"
            f"{' (uncommitted changes)' if data.get('git', {}).get('dirty') else ''}",
            f"machine: {host['cores']} cores ({host.get('cpu_model', '?')}), {host['memory_gib']} GiB; "
            f"httperf on CPUs {manifest.pinning['client_cpus']}, {manifest.servers_pinning_text}",
            f"hosts: {manifest.topology_text}",
            f"plan: {options['mode']}, {options['duration_s']:g} s steps, precision {options['precision']:.0%}, "
            f"at most {options['max_steps']} steps a cell; {warmup_text(options)}",
            f"connections: {connections_text(options)}",
            f"verdict: {', '.join(f'{key} {value}' for key, value in options['thresholds'].items())}",
            rounds_line(view), minutes_line(view), disturbance_line(view), database_work_line(view), speed_line(view),
            price_title_text(view.run.prices), "",
            "versions:"]
    body += [f"  {name:<16} {version}" for name, version in data["versions"].items()]
    body += ["", "settings:"]
    settings = list(data["settings"].items())
    for index in range(0, len(settings), 3):
        body.append("  " + "".join(f"{f'{key}={value}':<36}" for key, value in settings[index:index + 3]))
    body += ["", "Pages: the saturation table; saturation bars per workload; the apps overlaid per workload",
             "and engine; MyISAM against InnoDB per app; then every cell. Hollow circles are steps not",
             "judged (client-bound or disturbed), diamonds the saturation points. Source data: results/"
             f"{manifest.run_id}/cells/*/steps.tsv and raw/."]
    return ["Web architectures under load: PHP, servlet, pooled servlet, SOAP",
            f"Saturation sweep {manifest.run_id}"], body


def warmup_text(options):
    if "warmup_cap_s" in options:
        counting = options.get("warmup_counting_sds")
        return (f"warm-up until {options['warmup_windows']} windows agree within {options['warmup_tolerance']:.0%}"
                + (f" or {counting:g}× their counting noise" if counting else "")
                + f" (at most {options['warmup_cap_s']:g} s), their median the probe")
    return f"probe {options['probe_s']:g} s, JIT warm-up {options['warmup_s']:g} s"


def table_lines(view, rows):
    header = (f"{'workload':<10} {'engine':<7} {'app':<15} {'req/s':>11} {'interval':>19} {'ratio':>6} {'2006':>5} "
              f"{'ms low':>8} {'ms sat':>8} {'resp low':>8} {'2006':>6} {'overload':>9} {'CPU %':>6} {'RSS MB':>8}  {'status':<12} bottleneck")
    body = [header, "-" * len(header)]
    for row in rows:
        body.append(f"{row['workload']:<10} {row['engine']:<7} {row['app']:<15} {throughput_text(row):>11} "
                    f"{short_interval(row):>19} "
                    f"{row['ratio_to_fastest']!s:>6} {row['study_2006_rps'] or '-':>5} {row['reply_ms_low']!s:>8} "
                    f"{row['reply_ms_saturation']!s:>8} {row['response_ms_low'] or '-':>8} "
                    f"{row['study_2006_response_ms_low'] or '-':>6} {row['overload_offered'] or '-':>9} "
                    f"{row['server_cpu_pct_saturation']!s:>6} {row['server_rss_mb_saturation']!s:>8}  {row['status']:<12} "
                    f"{row['bottleneck'] or '-'}")
    body += ["", "req/s: highest reply rate of a passing step, median over the rounds (>= lower bound: client or plan",
             "limit, not the server). interval: the median's order-statistic interval (3 rounds: min to max, 75 %).",
             "ratio: to the fastest app of the same workload and engine. 2006: the study's figure (other hardware).",
             "ms low / ms sat: reply time (to the last byte) at the lowest passing rate / at saturation. resp low:",
             "its response part (to the first byte), the 2006 study's response time beside it. overload: lowest failing",
             "offered rate above saturation. CPU %: servers' CPU over the saturation step, % of one core.",
             "bottleneck: what ran out first (summary.md says from what): the servers' CPU, the database, the",
             "pool, a listen queue, the client; \"unexplained\" when none of these did."]
    return [f"Saturation table, run {view.manifest.run_id}"], body
