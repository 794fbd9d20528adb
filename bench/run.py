"""Every benchmark in one go (``make bench``): prints a table and writes ``bench/results.json``.

    python -m bench.run [--quick] [--sizes 1000,10000,30000] [--skip-http]

1. HTTP on loopback (``bench.http``): hello, FAQ pages and search API under wrk; ratios to hello.
2. In-process search on the real content against SQLite FTS5 on the same documents and queries.
3. Scale: synthetic games at 1k, 10k and 30k FAQ entries x 3 languages, ours against FTS5.
4. Rule engines: random complete games per second; the time of ``rules check``.
5. Start-up: a fresh process until its first answered search (index prebuilt); the index build.

Each figure that matters is a ratio to a baseline measured in the same run (hello route, FTS5,
a fresh process answering hello), so runs on different machines compare by their ratios.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).with_name("results.json")
RESULTS_MD = Path(__file__).with_name("RESULTS.md")
TABLE_START, TABLE_END = "<!-- table: written by python -m bench.run --update-md -->", "<!-- /table -->"
SIZES = (1_000, 10_000, 30_000)
ENGINE_SECONDS = 2.0
COLD_START_RUNS = 3

# (results key, description, target as (comparison, bound)); a target holds when the value does.
TARGETS = [
    ("http.faq_page_ratio", "FAQ page req/s / hello req/s", (">=", 0.8)),
    ("http.search_ratio", "search API req/s / hello req/s", (">=", 0.3)),
]
SCALE_P50_FACTOR = 5.0
SCALE_P99_FACTOR = 2.0


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def child(args: list[str], env: dict | None = None, timeout: float = 900) -> dict:
    """Run ``python -m bench.<args>`` and return the JSON it prints."""
    done = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- 2 and 3: search against FTS5 ------------------------------------------------------------
def search_vs_fts5(workdir: Path, real: bool, entries: int = 0) -> dict:
    out = workdir / ("real" if real else f"synthetic-{entries}")
    built = child(["bench.scale", "build", "--out", str(out), *(["--real"] if real else ["--entries", str(entries)])])
    measured = child(["bench.scale", "query", "--dir", str(out)])
    result = {**built, **measured}
    result["p50_ratio"] = result["p50_ms"] / result["fts5_p50_ms"]
    result["p99_ratio"] = result["p99_ms"] / result["fts5_p99_ms"]
    return result


# -- 4: engines and checks -------------------------------------------------------------------
def engines(library) -> dict:
    from rules_index.engines import state_class

    figures = {}
    for game in library:
        state = state_class(game.slug)
        if state is None:
            continue
        state.play_random(0)  # imports and caches outside the clock
        seed, start = 0, time.perf_counter()
        while True:
            state.play_random(seed)
            seed += 1
            elapsed = time.perf_counter() - start
            if elapsed >= ENGINE_SECONDS and seed >= 10:
                break
        figures[game.slug] = {"games": seed, "seconds": elapsed, "games_per_s": seed / elapsed}
        log(f"  engine {game.slug:<26} {seed / elapsed:>8.1f} games/s")
    return figures


def checks_seconds(library) -> tuple[float, int]:
    from rules_index.verification import verify

    start = time.perf_counter()
    report = verify(library)
    elapsed = time.perf_counter() - start
    if not report.ok:
        raise RuntimeError("rules check fails on the content: run `make check`")
    return elapsed, len(report.results)


# -- 5: start-up ----------------------------------------------------------------------------
_FIRST_ANSWER = """
import sys
from app import create_app
app = create_app()
if app.config.get("BENCH_HELLO"):
    from bench.hello import bp
    app.register_blueprint(bp)
response = app.test_client().get(sys.argv[1])
print(response.status_code, flush=True)
"""


def first_answer_seconds(instance: Path, path: str) -> float:
    """From process start until a fresh interpreter has answered ``path`` (median of runs)."""
    from .http import instance_env

    times = []
    for _ in range(COLD_START_RUNS):
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-c", _FIRST_ANSWER, path], cwd=ROOT, env=instance_env(instance),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = process.stdout.readline()
        elapsed = time.perf_counter() - start
        process.wait(timeout=60)
        if line.strip() != "200":
            raise RuntimeError(f"cold start: {path} answered {line.strip()!r}: {process.stderr.read()[-2000:]}")
        times.append(elapsed)
    return statistics.median(times)


# -- the run ---------------------------------------------------------------------------------
def get(results: dict, dotted: str):
    value = results
    for part in dotted.split("."):
        value = value[part]
    return value


def check(value: float, target: tuple[str, float]) -> bool:
    op, bound = target
    return value >= bound if op == ">=" else value <= bound


def evaluate_targets(results: dict) -> list[dict]:
    rows = []
    for key, description, target in TARGETS:
        try:
            value = get(results, key)
        except KeyError:
            continue
        rows.append({"key": key, "what": description, "value": value, "target": f"{target[0]} {target[1]:g}",
                     "ok": check(value, target)})
    for row in results.get("scale", []):
        n = row["entries"]
        rows.append({"key": f"scale[{n}].p50_ratio", "what": f"{n} entries: our p50 / FTS5 p50", "value": row["p50_ratio"],
                     "target": f"<= {SCALE_P50_FACTOR:g}", "ok": row["p50_ratio"] <= SCALE_P50_FACTOR})
        rows.append({"key": f"scale[{n}].p99_ratio", "what": f"{n} entries: our p99 / FTS5 p99", "value": row["p99_ratio"],
                     "target": f"<= {SCALE_P99_FACTOR:g}", "ok": row["p99_ratio"] <= SCALE_P99_FACTOR})
    return rows


def growth(scale: list[dict], key: str) -> float | None:
    """log(value at the largest size / value at the smallest) / log(size ratio)."""
    if len(scale) < 2:
        return None
    first, last = scale[0], scale[-1]
    return math.log(last[key] / first[key]) / math.log(last["entries"] / first["entries"])


def table(results: dict) -> str:
    lines = []
    add = lines.append
    http = results.get("http")
    if http:
        add(f"HTTP  ({http['server']}; {http['client']})")
        add(f"  {'':<28}{'req/s':>10}{'p99 ms':>9}{'/ hello':>9}  (medians of the rounds; ratio min-max)")
        for name, label in (("hello", "hello (baseline)"), ("faq_page", "FAQ permalink pages"), ("search", "search API")):
            if f"{name}_rps" not in http:
                continue
            spread = http.get(f"{name}_ratio_spread")
            shown = f"{spread['median']:>9.2f}  ({spread['min']:.2f}-{spread['max']:.2f})" if spread else f"{'1.00':>9}"
            add(f"  {label:<28}{http[f'{name}_rps']:>10.1f}{http[f'{name}_p99_ms']:>9.2f}{shown}")
        add("  ('/ hello': per round, req/s over the mean of the round's two hello runs)")
    search = results.get("search")
    if search:
        add("")
        add(f"Search in-process, real content ({search['docs']} documents; {search['measured_queries']} distinct queries"
            f" after {search['warmup_queries']} others)")
        add(f"  {'':<28}{'p50 ms':>9}{'p99 ms':>9}")
        add(f"  {'ours':<28}{search['p50_ms']:>9.2f}{search['p99_ms']:>9.2f}")
        add(f"  {'SQLite FTS5 (baseline)':<28}{results['fts5']['p50_ms']:>9.2f}{results['fts5']['p99_ms']:>9.2f}")
        add(f"  {'ratio ours / FTS5':<28}{search['fts5_ratio']:>9.2f}{search['fts5_p99_ratio']:>9.2f}")
        nostop = results["fts5"].get("nostop_p50_ms")
        if nostop:
            add(f"  {'FTS5 without stop words':<28}{nostop:>9.2f}{results['fts5']['nostop_p99_ms']:>9.2f}"
                "   (informative: our analyzers drop them)")
    scale = results.get("scale")
    if scale:
        add("")
        add("Scale: synthetic games, FAQ entries x 3 languages (ms per search; FTS5 on the same documents and queries)")
        add(f"  {'entries':>8}{'docs':>8}{'build s':>9}{'index MB':>9}{'p50':>8}{'p99':>8}{'FTS5 p50':>9}{'FTS5 p99':>9}"
            f"{'p50 x':>7}{'p99 x':>7}{'RSS MB':>8}{'cached':>8}")
        for row in scale:
            add(f"  {row['entries']:>8}{row['docs']:>8}{row['build_s']:>9.1f}{row['index_mb']:>9.1f}{row['p50_ms']:>8.2f}"
                f"{row['p99_ms']:>8.2f}{row['fts5_p50_ms']:>9.2f}{row['fts5_p99_ms']:>9.2f}{row['p50_ratio']:>7.2f}"
                f"{row['p99_ratio']:>7.2f}{row['rss_mb']:>8.0f}{row['term_postings_cached']:>8.0%}")
        add(f"  ({scale[0]['measured_queries']} distinct queries per size after {scale[0]['warmup_queries']} others;"
            " cached: share of term postings the per-process cache answered)")
        if "fts5_nostop_p50_ms" in scale[0]:
            add("  FTS5 without our stop words (informative): " + ", ".join(
                f"{row['entries']}: p50 {row['fts5_nostop_p50_ms']:.2f} ({row['p50_ms'] / row['fts5_nostop_p50_ms']:.2f}x)"
                f" p99 {row['fts5_nostop_p99_ms']:.2f} ({row['p99_ms'] / row['fts5_nostop_p99_ms']:.2f}x)" for row in scale))
        g = results.get("scale_growth", {})
        if g.get("p50_exponent") is not None:
            add(f"  growth 1k -> 30k as an exponent of size: ours p50 {g['p50_exponent']:.2f}, FTS5 p50 {g['fts5_p50_exponent']:.2f}"
                f" (1.0 = linear)")
    if "engines" in results:
        add("")
        add("Rule engines (random complete games, seeded)")
        for slug, row in results["engines"].items():
            add(f"  {slug:<30}{row['games_per_s']:>9.1f} games/s")
        add(f"  {'rules check (' + str(results['checks']) + ' checks)':<30}{results['checks_s']:>9.3f} s")
    if "cold_start_s" in results:
        add("")
        add("Start-up")
        add(f"  {'first search, fresh process':<30}{results['cold_start_s']:>9.2f} s"
            f"   ({results['cold_start_ratio']:.2f} x a fresh process answering hello: {results['cold_start_hello_s']:.2f} s)")
        add(f"  {'index build, real content':<30}{results['index_build_s']:>9.2f} s"
            f"   ({results['index_build_ratio']:.1f} x FTS5 indexing the same documents: {results['fts5_build_s']:.3f} s)")
    targets = results.get("targets", [])
    if targets:
        add("")
        add("Targets")
        for row in targets:
            add(f"  {'ok  ' if row['ok'] else 'MISS'} {row['what']:<40}{row['value']:>8.2f}  (target {row['target']})")
    add("")
    meta = results["meta"]
    add(f"total {meta['duration_s']:.0f} s on {meta['cpus']} CPUs (load average before {meta['loadavg_before'][0]:.2f},"
        f" after {meta['loadavg_after'][0]:.2f})")
    return "\n".join(lines)


def update_markdown(text: str) -> None:
    """Replace the table block of RESULTS.md (between its markers) with ``text``."""
    document = RESULTS_MD.read_text(encoding="utf-8")
    start, end = document.index(TABLE_START) + len(TABLE_START), document.index(TABLE_END)
    RESULTS_MD.write_text(document[:start] + "\n```text\n" + text + "\n```\n" + document[end:], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="synthetic sizes in FAQ entries (comma separated)")
    parser.add_argument("--http-duration", type=float, default=15.0, help="seconds per route, spread over the rounds")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--output", type=Path, default=RESULTS)
    parser.add_argument("--table", action="store_true", help="only print the table of an existing results file")
    parser.add_argument("--update-md", action="store_true", help=f"also put the table into {RESULTS_MD.name}")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.table:
        results = json.loads(args.output.read_text(encoding="utf-8"))
        print(table(results))
        if args.update_md:
            update_markdown(table(results))
        return 0

    from rules_index.content import load_library
    from rules_index.search.documents import library_documents

    from . import http

    started = time.perf_counter()
    library = load_library(ROOT / "content")
    docs = list(library_documents(library))
    results: dict = {"meta": {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "cpus": os.cpu_count(), "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version, "whoosh3": metadata.version("whoosh3"), "machine": platform.machine(),
        "loadavg_before": os.getloadavg(),
    }}
    with tempfile.TemporaryDirectory(prefix="rules-bench-") as tmp:
        workdir = Path(tmp)
        instance = workdir / "instance"
        log("preparing an instance (database, index) ...")
        http.prepare_instance(instance)
        if not args.skip_http:
            log("HTTP (gunicorn + wrk) ...")
            results["http"] = http.measure(library, docs, instance, workdir, duration=args.http_duration, log=log)

        log("start-up ...")
        results["cold_start_s"] = first_answer_seconds(instance, "/api/v1/search?q=Baumeister&lang=de")
        results["cold_start_hello_s"] = first_answer_seconds(instance, "/bench/hello")
        results["cold_start_ratio"] = results["cold_start_s"] / results["cold_start_hello_s"]

        log("search on the real content against FTS5 ...")
        real = search_vs_fts5(workdir, real=True)
        results["search"] = {
            "docs": real["docs"], "warmup_queries": real["warmup_queries"], "measured_queries": real["measured_queries"],
            "p50_ms": real["p50_ms"], "p99_ms": real["p99_ms"], "fts5_ratio": real["p50_ratio"],
            "fts5_p99_ratio": real["p99_ratio"], "term_postings_cached": real["term_postings_cached"],
            "snippets_cached": real["snippets_cached"], "rss_mb": real["rss_mb"],
        }
        results["fts5"] = {"p50_ms": real["fts5_p50_ms"], "p99_ms": real["fts5_p99_ms"],
                           "nostop_p50_ms": real["fts5_nostop_p50_ms"], "nostop_p99_ms": real["fts5_nostop_p99_ms"]}
        results["index_build_s"] = real["build_s"]
        results["fts5_build_s"] = real["fts5_build_s"]
        results["index_build_ratio"] = real["build_s"] / real["fts5_build_s"]
        log(f"  ours p50 {real['p50_ms']:.2f} ms p99 {real['p99_ms']:.2f} ms; FTS5 p50 {real['fts5_p50_ms']:.2f} ms"
            f" p99 {real['fts5_p99_ms']:.2f} ms")

        log("rule engines ...")
        results["engines"] = engines(library)
        results["checks_s"], results["checks"] = checks_seconds(library)

        results["scale"] = []
        for entries in sizes:
            log(f"scale: {entries} synthetic FAQ entries x 3 languages ...")
            row = search_vs_fts5(workdir, real=False, entries=entries)
            results["scale"].append(row)
            log(f"  built in {row['build_s']:.1f} s ({row['index_mb']:.1f} MB); ours p50 {row['p50_ms']:.2f} ms"
                f" p99 {row['p99_ms']:.2f} ms; FTS5 p50 {row['fts5_p50_ms']:.2f} ms p99 {row['fts5_p99_ms']:.2f} ms")
        results["scale_growth"] = {
            "p50_exponent": growth(results["scale"], "p50_ms"),
            "fts5_p50_exponent": growth(results["scale"], "fts5_p50_ms"),
            "p99_exponent": growth(results["scale"], "p99_ms"),
            "fts5_p99_exponent": growth(results["scale"], "fts5_p99_ms"),
        }
    results["targets"] = evaluate_targets(results)
    results["meta"]["duration_s"] = time.perf_counter() - started
    results["meta"]["loadavg_after"] = os.getloadavg()
    args.output.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(table(results))
    print(f"\nwritten: {args.output}")
    if args.update_md:
        update_markdown(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
