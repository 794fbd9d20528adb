"""How fast the content loads and validates, against parsing the same YAML files alone.

    python -m bench.content_load [--repeat N]

Baseline: ruamel.yaml's C parse of every content file (what loading cannot avoid); the
round-trip parse, used only to locate problems, is shown for comparison.
Measured: ``rules_index.content.load`` (parse + schema + cross-file checks + Markdown split).
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from rules_index.content import load
from rules_index.content.yamlfile import fast_yaml, round_trip_yaml

ROOT = Path(__file__).resolve().parents[1]


def parse_only(content: Path, yaml_factory=fast_yaml) -> int:
    yaml = yaml_factory()
    count = 0
    for path in sorted(content.rglob("*.yaml")):
        yaml.load(path.read_text(encoding="utf-8"))
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
    round_trip = statistics.median(timed(lambda: parse_only(content, round_trip_yaml), args.repeat))
    full = statistics.median(timed(lambda: load(content), args.repeat))
    library, problems = load(content)
    entries = sum(len(g.faq) + len(g.sections) + len(g.mistakes) + len(g.glossary) for g in library)
    print(f"content: {len(library.games)} games, {files} YAML files, {entries} entries, {len(problems)} problems")
    print(f"{'yaml C parse (baseline)':<30}{base * 1000:>9.1f} ms")
    print(f"{'yaml round-trip parse':<30}{round_trip * 1000:>9.1f} ms")
    print(f"{'load + validate':<30}{full * 1000:>9.1f} ms")
    print(f"{'ratio load / parse':<30}{full / base:>9.2f}")


if __name__ == "__main__":
    main()
