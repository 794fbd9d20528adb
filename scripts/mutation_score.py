"""Mutation score of the rule engines from mutmut's results: killed / (killed + survived + no tests).

    python scripts/mutation_score.py

Prints the score per engine and overall. Timeouts count as killed (the mutant broke the game
loop), as mutmut itself counts them.
"""
from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

BIN = Path(sys.executable).parent
KILLED = {"killed", "timeout"}
LIVE = {"survived", "no tests"}


def results() -> list[tuple[str, str]]:
    out = subprocess.run([str(BIN / "mutmut"), "results", "--all", "true"], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        match = re.match(r"\s*(\S+): (.+)$", line)
        if match:
            rows.append((match.group(1), match.group(2).strip()))
    return rows


def main() -> int:
    per_engine: dict[str, Counter] = defaultdict(Counter)
    for name, status in results():
        parts = name.split(".")
        engine = parts[2] if len(parts) > 3 and parts[1] == "engines" else "shared"
        per_engine[engine][status] += 1
    total = Counter()
    print(f"{'engine':<26}{'mutants':>9}{'killed':>8}{'survived':>10}{'no tests':>10}{'score':>8}")
    for engine, counts in sorted(per_engine.items()):
        total.update(counts)
        killed = sum(counts[s] for s in KILLED)
        live = sum(counts[s] for s in LIVE)
        score = killed / (killed + live) if killed + live else 0.0
        print(f"{engine:<26}{sum(counts.values()):>9}{killed:>8}{counts['survived']:>10}{counts['no tests']:>10}{score:>8.1%}")
    killed = sum(total[s] for s in KILLED)
    live = sum(total[s] for s in LIVE)
    score = killed / (killed + live) if killed + live else 0.0
    print(f"{'all':<26}{sum(total.values()):>9}{killed:>8}{total['survived']:>10}{total['no tests']:>10}{score:>8.1%}")
    other = {s: n for s, n in total.items() if s not in KILLED | LIVE}
    if other:
        print("not counted:", ", ".join(f"{s} {n}" for s, n in sorted(other.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
