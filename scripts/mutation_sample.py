"""Mutation testing on a random sample of the engines' mutants (an estimate of the score).

    python scripts/mutation_sample.py [N]          (MUTATION_SEED=… repeats a sample)

Generates every mutant (mutmut), draws N of them with a fresh seed each run (printed, so that no
fixed sample can be tuned to), runs those, and prints the score with scripts/mutation_score.py.
The full run (make mutation-all) takes hours on 2 cores.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from mutation_score import BIN, main as score, results  # noqa: E402


def main() -> int:
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    # A name that matches no mutant: mutmut generates all mutants and collects test stats only.
    subprocess.run([str(BIN / "mutmut"), "run", "no.such.mutant"], check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    names = sorted(name for name, _status in results())
    seed = int(os.environ.get("MUTATION_SEED") or random.SystemRandom().randrange(10**6))
    sample = sorted(random.Random(seed).sample(names, min(size, len(names))))
    print(f"{len(sample)} of {len(names)} mutants, seed {seed} (MUTATION_SEED={seed} repeats it)", flush=True)
    subprocess.run([str(BIN / "mutmut"), "run", "--max-children", "2", *sample], check=False, stdout=subprocess.DEVNULL)
    return score()


if __name__ == "__main__":
    sys.exit(main())
