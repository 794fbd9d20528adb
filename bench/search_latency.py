"""In-process search latency on the real content, against Whoosh's own floor in the same run.

    python -m bench.search_latency [--rounds N]

Queries: the relevance set plus questions generated from the content's own titles (three
languages, some with a typo), all distinct, the query cache cleared before each.
Baseline: a single-term query on one field of the same index (what any Whoosh search costs).
"""
from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from whoosh.query import Term

from rules_index.content import LANGS, load_library
from rules_index.search import SearchIndex, build
from rules_index.search.evaluate import load_cases

ROOT = Path(__file__).resolve().parents[1]


def generated_queries(library, rng: random.Random, count: int) -> list[tuple[str, str]]:
    titles = [(lang, f.text(lang).question) for g in library for f in g.faq for lang in LANGS]
    queries = []
    for _ in range(count):
        lang, title = rng.choice(titles)
        words = [w.strip("?.,!") for w in title.split() if len(w) > 3]
        picked = rng.sample(words, k=min(len(words), rng.randint(2, 4))) if words else [title]
        if rng.random() < 0.25 and picked:
            word = picked[0]
            if len(word) > 4:
                i = rng.randrange(1, len(word) - 1)
                picked[0] = word[:i] + word[i + 1] + word[i] + word[i + 2:]
        queries.append((lang, " ".join(picked)))
    return queries


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--generated", type=int, default=300)
    args = parser.parse_args()
    content = ROOT / "content"
    library = load_library(content)
    with tempfile.TemporaryDirectory() as tmp:
        link = Path(tmp) / "index"
        start = time.perf_counter()
        build(library, link, content)
        build_s = time.perf_counter() - start
        index = SearchIndex(link)
        gen = index.generation()
        queries = [(c.lang, c.query) for c in load_cases(ROOT / "eval" / "search-queries.yaml")]
        queries += generated_queries(library, random.Random(7), args.generated)
        for lang, text in queries[:20]:
            index.search(text, lang)  # warm the searcher and analyzers
        ours, floor = [], []
        searcher = gen.searcher()
        for _ in range(args.rounds):
            for lang, text in queries:
                index.results.clear()
                start = time.perf_counter()
                index.search(text, lang, limit=10)
                ours.append((time.perf_counter() - start) * 1000)
                word = text.split()[0].lower()
                start = time.perf_counter()
                searcher.search(Term(f"title_{lang}", word), limit=10)
                floor.append((time.perf_counter() - start) * 1000)
        docs = gen.info["documents"]
    print(f"index: {docs} documents, built in {build_s:.2f} s; {len(queries)} distinct queries x {args.rounds}")
    print(f"{'':<28}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for name, values in (("search (ours)", ours), ("single term (baseline)", floor)):
        print(f"{name:<28}{statistics.median(values):>9.2f}{percentile(values, .95):>9.2f}{percentile(values, .99):>9.2f}")
    print(f"{'ratio p50 ours / baseline':<28}{statistics.median(ours) / statistics.median(floor):>9.1f}")


if __name__ == "__main__":
    main()
