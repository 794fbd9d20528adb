"""The gate on every edit of every kind (gate_edits.py), over several fresh seeds: how many
wrong edits are refused or held, how many right ones go live at once, and the spread.

    .venv/bin/python tests/corrections/gate_eval.py [--seeds 5]      (make gate-eval)
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parents[1])]

from apptools import real_library  # noqa: E402
from gate_edits import RIGHT, WRONG, edits  # noqa: E402
from rules_index.corrections.gate import UNCHANGED, review_faq, updated_faq  # noqa: E402
from rules_index.corrections.holds import content_words, hold_reasons  # noqa: E402


def judge(library, edit) -> str:
    game = library.game(edit.game)
    stored = updated_faq(game.faq_entry(edit.faq), {edit.lang: {"answer": edit.before}})
    change = {edit.lang: {"answer": edit.after, **({"question": edit.question} if edit.question else {})}}
    problems, new = review_faq(game, stored, change)
    if [p for p in problems if p.message != UNCHANGED]:
        return "refused"
    return "held" if hold_reasons(stored, new, game.glossary, content_words(game, edit.faq)) else "accepted"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    library = real_library()
    caught, live_right, refused_right = [], [], []
    for _ in range(args.seeds):
        seed = random.SystemRandom().randrange(10**6)
        wrong = Counter(judge(library, e) for e in edits(library, WRONG, random.Random(seed)))
        right = Counter(judge(library, e) for e in edits(library, RIGHT, random.Random(seed)))
        caught.append((wrong["refused"] + wrong["held"]) / sum(wrong.values()))
        live_right.append(right["accepted"] / sum(right.values()))
        refused_right.append(right["refused"])
        print(f"seed {seed}: wrong {sum(wrong.values())} (refused {wrong['refused']}, held {wrong['held']}, "
              f"live {wrong['accepted']}); right {sum(right.values())} (live {right['accepted']}, held {right['held']}, "
              f"refused {right['refused']})", flush=True)
    for name, values in (("wrong edits refused or held", caught), ("right edits live at once", live_right)):
        print(f"{name}: min {min(values):.1%}  median {statistics.median(values):.1%}  max {max(values):.1%}")
    print(f"right edits refused: {sum(refused_right)} in {args.seeds} runs")


if __name__ == "__main__":
    main()
