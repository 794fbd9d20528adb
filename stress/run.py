"""Load and fault scenarios against the service on loopback; prints a table, writes results.

    python -m stress.run              # every scenario (make stress), about 12-15 minutes
    python -m stress.run --only 3,4   # some of them
    python -m stress.run memory       # the same, by name (mixed, rebuild, kill-build, kill-submissions, memory,
                                      # hostile, slowloris, login-flood)
    python -m stress.run memory --baseline ../before   # scenario 5 on another checkout too, to compare
    python -m stress.run --quick      # small counts: a smoke run of the harness itself

Scenarios: 1 mixed load (reads and submissions), 2 index rebuilds under load, 3 SIGKILL during an
index build (of the build, of gunicorn, of both), 4 SIGKILL of gunicorn during submissions,
5 memory of 2 workers under 30,000 searches of random words, 6 hostile input; behind nginx with
deploy/nginx.conf (stress/proxied.py, skipped without nginx): 7 slowloris, 8 a login flood.
Each runs on its own temp instance folder (SQLite, index, a snapshot of content/) and a gunicorn
on 127.0.0.1; everything it starts it also ends. Exit status 1 if any check failed.
Writes stress/results.json and stress/RESULTS.md; a run of some scenarios writes its own section
of RESULTS.md (replacing that section of an earlier run of the same ones) and keeps the rest.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import traceback
from pathlib import Path

from . import hosts, proxied  # noqa: F401  (scenarios 7 and 8, behind nginx; 9, two hosts)
from .proxy import nginx_version
from .scenarios import NAMES, SCENARIOS, Options, Row

HERE = Path(__file__).resolve().parent

COLUMNS = [
    ("scenario", 4), ("requests", 8), ("errors", 6), ("p50 ms", 7), ("p99 ms", 7),
    ("RSS before", 10), ("RSS after", 9), ("acked", 6), ("stored", 6), ("result", 6),
]


def fmt(value, unit: str = "") -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.0f}{unit}" if value >= 100 else f"{value:.1f}{unit}"
    return f"{value}{unit}"


def result_word(row: Row) -> str:
    return "FAILED" if not row.passed else "warn" if row.warned else "ok"


def cells(row: Row) -> list[str]:
    errors = fmt(row.errors) if not row.unexpected else f"{fmt(row.errors)}+{row.unexpected}"
    return [
        row.id, fmt(row.requests), errors, fmt(row.p50_ms), fmt(row.p99_ms),
        fmt(row.rss_before_mib, " MiB"), fmt(row.rss_after_mib, " MiB"),
        fmt(row.acknowledged), fmt(row.stored), result_word(row),
    ]


def text_table(rows: list[Row]) -> str:
    widths = [max(w, len(name), *(len(cells(r)[i]) for r in rows)) for i, (name, w) in enumerate(COLUMNS)]
    lines = ["  ".join(name.ljust(w) for (name, _), w in zip(COLUMNS, widths))]
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        lines.append("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells(row), widths))))
    lines.append("")
    for row in rows:
        lines.append(f"{row.id:<4}{row.name}")
        for note in row.notes:
            lines.append(f"      {note}")
        for check in row.checks:
            if not check["ok"]:
                word = "FAILED" if check["severity"] == "fail" else "warning"
                lines.append(f"      {word}: {check['check']}: {check['detail']}")
    return "\n".join(lines)


def findings(rows: list[Row]) -> list[str]:
    """The run's results in sentences, worded from the figures (nothing here is written in advance)."""
    by_id = {r.id: r for r in rows}
    lines = []
    loaded = [r for r in rows if r.requests is not None and not r.id.endswith("-direct")]
    total = sum(r.requests for r in loaded)
    errors = sum((r.errors or 0) + (r.unexpected or 0) for r in loaded)
    faults = any(r.id[:1] in "234" for r in rows)
    lines.append(f"{total} requests in all, {errors} of them failed (5xx, connection error, timeout or an unexpected status)"
                 + ("." if errors else ": none, also while the index was rebuilt and after every kill and restart."
                    if faults else ": none."))
    acked = sum(r.acknowledged or 0 for r in rows)
    stored = sum(r.stored or 0 for r in rows)
    if acked:
        lines.append(f"Submissions: {acked} acknowledged with 201, {stored} of them found in the database afterwards"
                     + (" (every one, also those acknowledged just before a SIGKILL of the whole server)." if acked == stored else "."))
    if (one := by_id.get("1")) and one.details.get("memory_samples"):
        load = one.details["load"]
        lines.append(f"Mixed load: {load['rps']} requests/s on average with {load['requests']} requests; p50 {one.p50_ms} ms, "
                     f"p99 {one.p99_ms} ms at 32 connections on 4 workers"
                     + f". Worker memory: {one.rss_before_mib} MiB after warm-up, {one.rss_after_mib} MiB at the end"
                     + (f" (+{one.details['memory_samples'][-1]['total_mib'] - one.details['memory_samples'][-2]['total_mib']:.1f} MiB "
                        f"in the last {one.details['memory_samples'][-1]['t_s'] - one.details['memory_samples'][-2]['t_s']:.0f} s)"
                        if len(one.details["memory_samples"]) >= 2 else "") + ".")
    if (two := by_id.get("2")) and "around_switch" in two.details:
        a, d, o = two.details["around_switch"], two.details["during_builds"], two.details["outside_builds"]
        lines.append(f"Rebuilds under load cost latency, not errors: p99 {a['p99_ms']} ms for reads in flight at a switch of "
                     f"the index link, {d['p99_ms']} ms for other reads while a build ran, {o['p99_ms']} ms for the rest. "
                     "On the first request after a switch each worker reloads the content, reruns the rule checks and opens "
                     "the new index; all four do it at the same moment, while the build process holds a CPU of its own.")
    kills = [r for r in rows if r.id.startswith("3")]
    if kills:
        ok = all(r.passed for r in kills)
        lines.append("SIGKILL during an index build (of the build, of gunicorn, of both): "
                     + ("the previous index kept serving, restarts served at once, and `index build --if-stale` recovered."
                        if ok else "see the failed checks below."))
    if (four := by_id.get("4")) and four.details.get("rounds"):
        lines.append(f"SIGKILL of gunicorn mid-submissions ({len(four.details['rounds'])} rounds): integrity_check "
                     + ", ".join(r["integrity"] for r in four.details["rounds"])
                     + f"; {four.stored} of {four.acknowledged} acknowledged reports stored.")
    for mem in (r for r in rows if r.id.startswith("5") and "growth_mib" in r.details):
        d = mem.details
        before, after = d["memory_before"], d["memory_after"]
        lines.append((f"Baseline ({d.get('commit') or d['code']}), s" if mem.id != "5" else "S") + f"earches of random words ({mem.requests} in "
                     f"{d['load']['duration_s']} s, p50 {mem.p50_ms} ms, p99 {mem.p99_ms} ms on 2 workers): worker RSS "
                     + ", ".join(f"{before['rss_kib'][pid] / 1024:.0f} -> {after['rss_kib'].get(pid, 0) / 1024:.0f} MiB"
                                 for pid in before["rss_kib"])
                     + ", growth " + ", ".join(f"{g:+.1f} MiB" for g in d["growth_mib"])
                     + f" (bound {d['bound_mib']} MiB per worker).")
    for row in (r for r in rows if r.id in ("7", "8") and "p99_ratio" in r.details):
        lines.append(attack_finding(row, by_id.get(f"{row.id}-direct")))
    for row in rows:
        for check in row.checks:
            if not check["ok"]:
                word = ("Failed" if check["severity"] == "fail" else "Baseline, reported and not enforced"
                        if row.id.endswith(("-before", "-direct")) else "Known defect (warning, does not fail the run)")
                lines.append(f"{word} in {row.id}: {check['check']}: {check['detail']}")
    return lines


def attack_finding(row: Row, direct: Row | None) -> str:
    """Scenarios 7 and 8 in a sentence: the readers' p99 during the attack against steady state."""
    d = row.details
    attack = d.get("attack", {})
    what = ("Slowloris behind nginx" if row.id == "7" else "Login flood behind nginx")
    windows = " and ".join(str(w["p99_ms"]) for w in d.get("steady_windows", [d["steady"]]))
    line = (f"{what}: readers' p99 {d['during']['p99_ms']} ms during the attack against {d['steady']['p99_ms']} ms in steady "
            f"state (the lower of {windows} ms before and after), {d['p99_ratio']}x (bar 3x); "
            f"p50 {d['during']['p50_ms']} against {d['steady']['p50_ms']} ms.")
    if row.id == "7":
        line += (f" The attacker kept {attack.get('max_open')} slow heads open at once; nginx dropped each after "
                 f"{attack.get('dropped_after_s', {}).get('p50')} s (client_header_timeout) and none reached gunicorn.")
        if direct is not None and "during" in direct.details:
            dd, ds = direct.details["during"], direct.details["steady"]
            line += (f" The same attack on gunicorn alone: {dd['requests']} reads in {dd['duration_s']} s, {dd['errors']} of "
                     f"them unanswered (timeout) or failed; without it, {ds['requests']} reads in {ds['duration_s']} s, "
                     f"{ds['errors']} failed.")
    else:
        statuses = attack.get("statuses", {})
        line += (f" {attack.get('posts')} wrong passwords posted ({attack.get('per_second')}/s): "
                 f"{d.get('posts_at_gunicorn')} reached gunicorn, {statuses.get('401', 0)} were checked (401), "
                 f"{statuses.get('503', 0)} found no free check slot (503), the rest were limited (429, most by nginx).")
    return line


def setup_sentence(rows: list[Row], meta: dict) -> str:
    """How the servers of the scenarios in ``rows`` ran."""
    parts = []
    if any(r.id[:1] in "123456" for r in rows):
        parts.append("Scenarios 1-6: gunicorn with gunicorn.conf.py (threaded workers, 8 threads each), 4 workers (2 in "
                     "scenarios 5 and 6) on 127.0.0.1. Latency is measured by the client (threads with http.client, "
                     "connections kept alive) from send to the last byte.")
    if any(r.id[:1] in "78" for r in rows):
        opts = meta.get("options", {})
        parts.append(f"Scenarios 7 and 8: gunicorn as `make serve` runs it (gunicorn.conf.py: 2 workers of 8 threads, "
                     f"RULES_PROXY_HOPS=1) behind {meta.get('nginx') or 'nginx'} with `deploy/nginx.conf` on 127.0.0.1; "
                     f"readers: {opts.get('reader_connections')} kept-alive connections to nginx, each pausing "
                     f"{opts.get('reader_pause', 0) * 1000:.0f} ms on average after an answer, {opts.get('steady_s'):.0f} s "
                     f"alone (steady state), then {opts.get('attack_s'):.0f} s during the attack, which runs as a process "
                     f"of its own, then {opts.get('steady_s'):.0f} s alone again; the row's requests and latencies are the "
                     "readers' during the attack, its ratio is against the lower steady p99.")
    return " ".join(parts)


def markdown(rows: list[Row], meta: dict, section: str | None = None) -> str:
    """The report of a run; with ``section`` (the scenarios of a partial run), a section of its own
    instead of the whole file."""
    head = "##" if section is None else "###"
    title = "# Stress and fault results" if section is None else f"## Scenario {section}, run on its own"
    baseline = meta.get("options", {}).get("baseline")
    command = "`make stress`" if section is None else f"`python -m stress.run {section.replace(', ', ' ')}" + (
        f" --baseline {baseline}`" if baseline else "`")
    out = [
        title,
        "",
        (f"{command} on {meta['started']} ({meta['machine']}, {meta['cpus']} CPUs, Python {meta['python']}), "
        f"{meta['seconds']:.0f} s in all; 1-minute load average {meta['loadavg_start'][0]} at the start, "
        f"{meta['loadavg_end'][0]} at the end (other work on the machine shares its CPUs). SQLite in a temp instance "
        f"folder, a snapshot of `content/`. {setup_sentence(rows, meta)} Errors: 5xx, connection errors "
        "and timeouts (+ any unexpected status). RSS: sum over the workers."),
        "",
        "| # | scenario | requests | errors | p50 ms | p99 ms | RSS before | RSS after | acknowledged | stored | result |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        c = cells(row)
        out.append(f"| {c[0]} | {row.name} | {' | '.join(c[1:])} |")
    out.append("")
    out.append(f"{head} What it shows")
    out.append("")
    out.extend(f"- {line}" for line in findings(rows))
    out.append("")
    out.append(f"{head} What each row checked")
    out.append("")
    for row in rows:
        out.append(f"**{row.id}. {row.name}**")
        out.append("")
        for note in row.notes:
            out.append(f"- {note}")
        for check in row.checks:
            mark = "ok" if check["ok"] else "**FAILED**" if check["severity"] == "fail" else "**warning**"
            detail = f" ({check['detail']})" if check["detail"] and (not check["ok"] or len(check["detail"]) < 120) else ""
            out.append(f"- {mark}: {check['check']}{detail}")
        out.append("")
    return "\n".join(out)


def write_markdown(path: Path, rows: list[Row], meta: dict, selected: list[str]) -> None:
    """A run of every scenario writes the whole file; a run of some of them replaces (or adds)
    only their own section, between markers, and leaves the rest of the file as it was."""
    if set(selected) == set(SCENARIOS) or not path.exists():
        path.write_text(markdown(rows, meta) + "\n")
        return
    section = ", ".join(selected)
    begin, end = f"<!-- scenario {section} -->", f"<!-- /scenario {section} -->"
    block = f"{begin}\n{markdown(rows, meta, section)}\n{end}"
    text = path.read_text()
    if begin in text and end in text:
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text)


def row_from_json(data: dict) -> Row:
    row = Row(data["id"], data["name"])
    for key, value in data.items():
        if key not in ("passed", "warned"):
            setattr(row, key, value)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*", help=f"scenario numbers or names ({', '.join(NAMES)}); default: all")
    parser.add_argument("--only", default=",".join(SCENARIOS), help="comma-separated scenario numbers (default: all)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="scenario 5 also serves this checkout (e.g. a worktree of the parent commit), for a before/after")
    parser.add_argument("--quick", action="store_true", help="small counts: checks the harness in about a minute")
    parser.add_argument("--requests", type=int, default=None, help="scenario 1: planned requests (default 20000)")
    parser.add_argument("--keep", action="store_true", help="keep the temp instance folders and server logs")
    parser.add_argument("--out", type=Path, default=HERE, help="where results.json and RESULTS.md go")
    parser.add_argument("--render", action="store_true", help="only rewrite RESULTS.md (and print the table) from results.json")
    args = parser.parse_args(argv)
    if args.render:
        saved = json.loads((args.out / "results.json").read_text())
        rows = [row_from_json(r) for r in saved["rows"]]
        print(text_table(rows))
        write_markdown(args.out / "RESULTS.md", rows, saved["meta"], saved["meta"].get("selected", list(SCENARIOS)))
        return 0 if all(r.passed for r in rows) else 1

    opts = Options(keep=args.keep)
    if args.quick:
        opts = Options(requests=1500, mixed_max_s=60, rebuilds=2, rebuild_min_s=10, rebuild_max_s=90,
                       build_kills=("writing-postings",), kill_rounds=1, kill_after_acks=60, memory_searches=2000,
                       steady_s=8, attack_s=8, slow_connections=100, direct_s=5, flood_connections=4, keep=args.keep)
    if args.requests:
        opts.requests = args.requests
    opts.baseline = args.baseline.resolve() if args.baseline else None
    chosen = args.scenarios or args.only.split(",")
    selected = [NAMES.get(s.strip(), s.strip()) for s in chosen if s.strip()]
    unknown = [s for s in selected if s not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenario(s) {unknown}; choose from {', '.join(SCENARIOS)}")

    started = time.time()
    load_at_start = os.getloadavg()
    rows: list[Row] = []
    timings = {}
    for key in selected:
        t0 = time.monotonic()
        print(f"scenario {key} ...", flush=True)
        try:
            new_rows = SCENARIOS[key](opts)
        except Exception:  # the harness itself broke: one failed row, the others still run
            row = Row(key, f"scenario {key}: harness error")
            row.check("scenario ran to the end", False, traceback.format_exc()[-1500:])
            new_rows = [row]
        timings[key] = round(time.monotonic() - t0, 1)
        for row in new_rows:
            print(f"  {row.id}: {result_word(row)} ({timings[key]} s)", flush=True)
        rows.extend(new_rows)

    meta = {
        "started": time.strftime("%Y-%m-%d %H:%M", time.localtime(started)),
        "machine": platform.platform(terse=True), "cpus": os.cpu_count(), "python": platform.python_version(), "nginx": nginx_version(),
        "seconds": time.time() - started, "loadavg_start": [round(x, 2) for x in load_at_start],
        "loadavg_end": [round(x, 2) for x in os.getloadavg()], "scenario_seconds": timings, "quick": args.quick, "selected": selected,
        "options": {k: v for k, v in opts.__dict__.items()},
    }
    table = text_table(rows)
    print()
    print(table)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps({"meta": meta, "rows": [r.as_json() for r in rows]}, indent=1, default=str) + "\n")
    write_markdown(args.out / "RESULTS.md", rows, meta, selected)
    print(f"\nwrote {args.out / 'results.json'} and {args.out / 'RESULTS.md'} ({meta['seconds']:.0f} s)")
    return 0 if all(r.passed for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
