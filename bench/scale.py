"""In-process search against SQLite FTS5 on the same documents and queries, at any size.

    python -m bench.scale build --out DIR (--real | --entries N)
    python -m bench.scale query --dir DIR

``build`` writes our index (``DIR/index``), the FTS5 table (``DIR/fts5.sqlite3``) and the queries
(``DIR/queries.json``), and prints its figures as JSON; ``query`` runs in a fresh process (so
its memory is that of a process serving searches at this size), opens both, answers the warm-up
queries, then the measured ones alternately with each engine, and prints JSON. ``--real`` indexes
the content with ``rules_index.search.build`` itself; ``--entries N`` indexes N synthetic FAQ
entries x 3 languages (``bench.synthetic``) with the same schema and field mapping.

Queries: distinct, from the documents' own titles, three languages, a quarter with a typo
(``bench.queries``); the query result cache is cleared before each, so every search is computed.
Both engines first answer as many other distinct queries (warm-up, as a serving process is);
the share of term postings and snippets the per-generation caches answered is reported. FTS5 is
also timed with our analyzers' stop words left out of its queries (``fts5_nostop_*``: its
unicode61 tokenizer has no stop list, so the main baseline also scores "der", "the", "il").
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A serving process is warm: it has answered many queries before. The warm-up queries (as many
# as the measured ones, all distinct from them) fill the per-term caches of both engines.
WARMUP_QUERIES = 1000
MEASURED_QUERIES = 1000
BUILD_PROCS = 1  # Whoosh's multiprocessing writer (procs=2) was slower on 2 cores (bench/RESULTS.md)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build(out: Path, real: bool, entries: int) -> dict:
    from rules_index.content import load_library
    from rules_index.search import build as build_index
    from rules_index.search.documents import library_documents

    from .fts5 import Fts5Index
    from .indexing import directory_mb, write_index
    from .queries import make_queries
    from .synthetic import Generator

    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"--out {out}: give a new (or empty) directory")
    out.mkdir(parents=True, exist_ok=True)
    content = ROOT / "content"
    library = load_library(content)
    if real:
        docs = list(library_documents(library))
        start = time.perf_counter()
        generation = build_index(library, out / "index", content)
        build_s = time.perf_counter() - start
        index_dir = generation
    else:
        docs = list(Generator(library).documents(entries))
        start = time.perf_counter()
        write_index(docs, out / "index", procs=BUILD_PROCS)
        build_s = time.perf_counter() - start
        index_dir = out / "index"
    start = time.perf_counter()
    fts = Fts5Index(out / "fts5.sqlite3")
    fts.add(docs)
    fts.close()
    fts5_build_s = time.perf_counter() - start
    queries = make_queries(docs, WARMUP_QUERIES + MEASURED_QUERIES, seed=7)
    (out / "queries.json").write_text(json.dumps(queries, ensure_ascii=False), encoding="utf-8")
    return {
        "entries": len({(d.game, d.entry) for d in docs if d.kind == "faq"}),
        "docs": len(docs),
        "build_s": build_s,
        "index_mb": directory_mb(Path(index_dir)),
        "fts5_build_s": fts5_build_s,
        "fts5_mb": (out / "fts5.sqlite3").stat().st_size / 1e6,
        "queries": len(queries),
    }


def query(directory: Path) -> dict:
    from rules_index.search import SearchIndex
    from rules_index.search.analysis import LANGS, stopwords

    from .fts5 import Fts5Index

    stops = frozenset().union(*(stopwords(lang) for lang in LANGS))
    queries = [tuple(q) for q in json.loads((directory / "queries.json").read_text(encoding="utf-8"))]
    warm, measured = queries[:WARMUP_QUERIES], queries[WARMUP_QUERIES:]
    index = SearchIndex(directory / "index")
    fts = Fts5Index.open(directory / "fts5.sqlite3")
    for lang, text in warm:
        index.search(text, lang)
        fts.search(text)
        fts.search(text, drop=stops)
    gen = index.generation()
    counts = {"postings": 0, "postings_read": 0}
    postings, read = gen.postings, gen._read_postings

    def counted_postings(*args):
        counts["postings"] += 1
        return postings(*args)

    def counted_read(*args):
        counts["postings_read"] += 1
        return read(*args)

    gen.postings, gen._read_postings = counted_postings, counted_read
    snippets_before = gen.snippet.cache_info()
    times: dict[str, list[float]] = {"ours": [], "fts5": [], "fts5_nostop": []}
    for i, (lang, text) in enumerate(measured):
        index.results.clear()  # the query result cache: every measured search is computed
        runs = [("ours", lambda: index.search(text, lang)), ("fts5", lambda: fts.search(text)),
                ("fts5_nostop", lambda: fts.search(text, drop=stops))]
        for name, run in runs if i % 2 == 0 else runs[::-1]:
            start = time.perf_counter()
            run()
            times[name].append((time.perf_counter() - start) * 1000)
    ours, theirs = times["ours"], times["fts5"]
    fts.close()
    snippets = gen.snippet.cache_info()
    snippet_calls = (snippets.hits + snippets.misses) - (snippets_before.hits + snippets_before.misses)
    return {
        "p50_ms": statistics.median(ours),
        "p99_ms": percentile(ours, 0.99),
        "fts5_p50_ms": statistics.median(theirs),
        "fts5_p99_ms": percentile(theirs, 0.99),
        # FTS5 with the stop words of our analyzers left out of its queries (informative).
        "fts5_nostop_p50_ms": statistics.median(times["fts5_nostop"]),
        "fts5_nostop_p99_ms": percentile(times["fts5_nostop"], 0.99),
        "warmup_queries": len(warm),
        "measured_queries": len(measured),
        "rss_mb": rss_mb(),
        # How much the per-generation caches answered during the measured (distinct) queries.
        "term_postings_cached": 1 - counts["postings_read"] / max(1, counts["postings"]),
        "snippets_cached": (snippets.hits - snippets_before.hits) / max(1, snippet_calls),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--out", type=Path, required=True)
    what = b.add_mutually_exclusive_group(required=True)
    what.add_argument("--real", action="store_true")
    what.add_argument("--entries", type=int)
    q = sub.add_parser("query")
    q.add_argument("--dir", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "build":
        result = build(args.out, args.real, args.entries or 0)
    else:
        result = query(args.dir)
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main()
