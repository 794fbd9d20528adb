"""How fast the content loads and validates, against parsing the same YAML files alone.

    python -m bench.content_load [--repeat N]

Baseline: PyYAML's C parse of every content file (what loading cannot avoid).
Measured: ``rules_index.content.load`` (parse + schema + cross-file checks + Markdown split).
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from rules_index.content import load
from rules_index.content.yaml12 import load_text

ROOT = Path(__file__).resolve().parents[1]


def parse_only(content: Path) -> int:
    count = 0
    for path in sorted(content.rglob("*.yaml")):
        load_text(path.read_text(encoding="utf-8"))
        count += 1
    return count


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    content = ROOT / "content"
    files = parse_only(content)
    base = statistics.median(timed(lambda: parse_only(content), args.repeat))
    full = statistics.median(timed(lambda: load(content), args.repeat))
    library, problems = load(content)
    entries = sum(len(g.faq) + len(g.sections) + len(g.mistakes) + len(g.glossary) for g in library)
    print(f"content: {len(library.games)} games, {files} YAML files, {entries} entries, {len(problems)} problems")
    print(f"{'yaml C parse (baseline)':<30}{base * 1000:>9.1f} ms")
    print(f"{'load + validate':<30}{full * 1000:>9.1f} ms")
    print(f"{'ratio load / parse':<30}{full / base:>9.2f}")


if __name__ == "__main__":
    main()
