"""The saturation table of a run, beside the 2006 study's figures: summary.tsv and summary.md rows,
and the report's title and table pages. Pure: a run's records in, rows and lines out."""
from harness.bottleneck import bottleneck
from harness.report.series import throughput_text
from harness.report.view import engine_title, workload_title
from harness.results.store import cell_text, read_tsv
from stack.settings import ROOT

STUDY_FILE = ROOT / "plots" / "study-2006.tsv"
SUMMARY_COLUMNS = ["workload", "engine", "app", "status", "saturation_rps", "lower_bound",
                   "saturation_offered", "overload_offered", "reply_ms_low", "reply_ms_saturation",
                   "p50_ms_saturation", "p99_ms_saturation", "server_cpu_pct_saturation",
                   "server_rss_mb_saturation", "ratio_to_fastest", "bottleneck", "bottleneck_why", "study_2006_rps",
                   "study_2006_reply_ms_low"]


def study_figures(study_rows=None):
    rows = read_tsv(STUDY_FILE) if study_rows is None else study_rows
    return {(row["workload"], row["engine"], row["app"]): row for row in rows}


def summary_rows(view, study):
    """summary.tsv: the saturation table, one row per cell, grouped like the study's Overall tables
    (workload, then engine, then app), with each app's ratio to the fastest app of its group."""
    duration = view.manifest.options.get("duration_s") or 1
    by_cell = {(row.workload, row.engine, row.app): row for row in view.run.saturation}
    rows = []
    for workload in view.present("workloads"):
        for engine in view.present("engines"):
            group = [by_cell[(workload, engine, app)] for app in view.apps if (workload, engine, app) in by_cell]
            fastest = max((row.saturation_rps or 0 for row in group), default=0)
            for row in group:
                cpu = row.server_cpu_s_saturation
                old = study.get((workload, engine, row.app), {})
                limit, why = bottleneck(row, view.run.steps.get(row.key, []), view.manifest.server_cores)
                rows.append({
                    "workload": workload, "engine": engine, "app": row.app, "status": row.status,
                    "saturation_rps": cell_text(row.saturation_rps),
                    "lower_bound": int(row.lower_bound),
                    "saturation_offered": cell_text(row.saturation_offered),
                    "overload_offered": cell_text(row.overload_offered),
                    "reply_ms_low": cell_text(row.reply_ms_low),
                    "reply_ms_saturation": cell_text(row.reply_ms_saturation),
                    "p50_ms_saturation": cell_text(row.p50_ms_saturation),
                    "p99_ms_saturation": cell_text(row.p99_ms_saturation),
                    "server_cpu_pct_saturation": "" if cpu is None else round(100 * cpu / duration),
                    "server_rss_mb_saturation": cell_text(row.server_rss_mb_saturation),
                    "ratio_to_fastest": "" if not row.saturation_rps or not fastest
                    else round(row.saturation_rps / fastest, 2),
                    "bottleneck": limit, "bottleneck_why": why,
                    "study_2006_rps": old.get("saturation_rps", ""),
                    "study_2006_reply_ms_low": old.get("response_ms_low", ""),
                })
    return rows


def summary_markdown(view, rows):
    manifest, options = view.manifest, view.manifest.options
    lines = [f"# Saturation summary, run {manifest.run_id}", "",
             f"{manifest.started or '?'} to {manifest.finished or 'unfinished'}; "
             f"{manifest.host['cores']} cores, {manifest.host['memory_gib']} GiB; "
             f"{options['mode']} plan, {options['duration_s']:g} s steps, "
             f"precision {options['precision']:.0%}.", "",
             "Throughput is the highest reply rate among passing steps (req/s); \">=\" marks a lower bound "
             "(the client or the plan ran out before the server failed). Reply times are request sent to "
             "last byte, at the lowest passing rate and at saturation; p50 / p99 are the percentiles of connect-to-close "
             "times in httperf's 1 ms bins (failed requests count as lasting the whole timeout). CPU is the servers' CPU time over the "
             "saturation step, in % of one core; RSS their summed peak. The bottleneck is what ran out first, "
             "named from the saturation step and the failing step above it (harness/bottleneck.py). The 2006 study ran on a 2x Pentium 4 "
             "3 GHz server with MySQL 5.0 (plots/study-2006.tsv): compare the shape, not the numbers.", ""]
    for workload in view.present("workloads"):
        for engine in view.present("engines"):
            group = [row for row in rows if row["workload"] == workload and row["engine"] == engine]
            if not group:
                continue
            lines += [f"## {workload_title(workload)}, {engine_title(engine)}", "",
                      "| app | throughput (req/s) | ratio to fastest | 2006 (req/s) | reply ms low | "
                      "reply ms at saturation | p50 / p99 ms at saturation | overload at (req/s offered) | "
                      "server CPU % | server RSS MB | bottleneck |",
                      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
            for row in group:
                lines.append(f"| {view.title(row['app'])} | {throughput_text(row)} | {row['ratio_to_fastest']} | "
                             f"{row['study_2006_rps'] or '-'} | {row['reply_ms_low']} | "
                             f"{row['reply_ms_saturation']} | {spread_text(row)} | {row['overload_offered'] or '-'} | "
                             f"{row['server_cpu_pct_saturation']} | {row['server_rss_mb_saturation']} | "
                             f"{bottleneck_text(row)} |")
            lines.append("")
    return "\n".join(lines)


def bottleneck_text(row):
    return f"{row['bottleneck']}: {row['bottleneck_why']}" if row["bottleneck"] else "-"


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
            f"httperf on CPUs {manifest.pinning['client_cpus']}, servers on {manifest.pinning['server_cpus']}",
            f"plan: {options['mode']}, {options['duration_s']:g} s steps, precision {options['precision']:.0%}, "
            f"at most {options['max_steps']} steps a cell; {warmup_text(options)}",
            f"verdict: {', '.join(f'{key} {value}' for key, value in options['thresholds'].items())}",
            disturbance_line(view), "", "versions:"]
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
        return (f"warm-up until {options['warmup_windows']} windows agree within {options['warmup_tolerance']:.0%} "
                f"(at most {options['warmup_cap_s']:g} s), their median the probe")
    return f"probe {options['probe_s']:g} s, JIT warm-up {options['warmup_s']:g} s"


def disturbance_line(view):
    """How often other work shared the CPUs: steps redone, and what the run's quiet check saw."""
    options = view.manifest.options
    if "max_other_pct" not in options:
        return "disturbance: not checked (a run from before the check existed)"
    disturbed = sum(row.disturbed_steps for row in view.run.saturation)
    quiet = view.manifest.data.get("quiet_check") or {}
    return (f"disturbance: {disturbed} step(s) redone because other work shared the CPUs (other > "
            f"{options['max_other_pct']:g} % of a CPU or steal > {options['max_steal_pct']:g} %); "
            f"before the run: {quiet.get('disturbed') or 'quiet'}")


def table_lines(view, rows):
    header = (f"{'workload':<8} {'engine':<7} {'app':<15} {'req/s':>11} {'ratio':>6} {'2006':>5} "
              f"{'ms low':>8} {'ms sat':>8} {'overload':>9} {'CPU %':>6} {'RSS MB':>8}  {'status':<12} bottleneck")
    body = [header, "-" * len(header)]
    for row in rows:
        body.append(f"{row['workload']:<8} {row['engine']:<7} {row['app']:<15} {throughput_text(row):>11} "
                    f"{row['ratio_to_fastest']!s:>6} {row['study_2006_rps'] or '-':>5} {row['reply_ms_low']!s:>8} "
                    f"{row['reply_ms_saturation']!s:>8} {row['overload_offered'] or '-':>9} "
                    f"{row['server_cpu_pct_saturation']!s:>6} {row['server_rss_mb_saturation']!s:>8}  {row['status']:<12} "
                    f"{row['bottleneck'] or '-'}")
    body += ["", "req/s: highest reply rate of a passing step (>= lower bound: client or plan limit, not the server).",
             "ratio: to the fastest app of the same workload and engine. 2006: the study's figure (other hardware).",
             "ms low / ms sat: reply time at the lowest passing rate / at saturation. overload: lowest failing",
             "offered rate above saturation. CPU %: servers' CPU over the saturation step, % of one core.",
             "bottleneck: what ran out first (summary.md says from what): the servers' CPU, the database, the",
             "pool, a listen queue, the client; \"unexplained\" when none of these did."]
    return [f"Saturation table, run {view.manifest.run_id}"], body
