"""Search relevance on a set of rule questions, measured as the reader sees the results.

``python -m rules_index.search.evaluate eval/search-queries.yaml [more.yaml …]`` builds an index
of the content in a temporary folder, runs each question and prints, overall and per language:

- ``recall@3`` and ``MRR@10`` among the FAQ hits (the expected entry's rank among FAQ answers);
- ``shown@3``: the expected entry among the first three hits in the order the page shows them
  (all kinds: answers first, then rules, glossary, mistakes);
- ``card``: the expected entry is the best-answer card.

A question's ``expect`` is ``game/faq-id``; ``kind: fact`` expects the game's "at a glance"
answer (``game/facts``).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from rules_index.content.snapshot import read_content
from rules_index.content.yaml12 import load_text

from .build import build
from .searcher import SearchIndex

CONTENT = Path(__file__).resolve().parents[2] / "content"


@dataclass(frozen=True)
class Case:
    lang: str
    query: str
    game: str
    entry: str
    kind: str = "faq"


@dataclass
class Scores:
    cases: int = 0
    found_at_3: int = 0
    reciprocal: float = 0.0
    shown_at_3: int = 0
    card: int = 0

    def add(self, faq_rank: int | None, shown_rank: int | None, is_card: bool) -> None:
        self.cases += 1
        if faq_rank is not None and faq_rank <= 3:
            self.found_at_3 += 1
        if faq_rank is not None:
            self.reciprocal += 1.0 / faq_rank
        if shown_rank is not None and shown_rank <= 3:
            self.shown_at_3 += 1
        self.card += is_card

    def rate(self, count: int | float) -> float:
        return count / self.cases if self.cases else 0.0

    @property
    def recall_at_3(self) -> float:
        return self.rate(self.found_at_3)

    @property
    def mrr(self) -> float:
        return self.rate(self.reciprocal)


@dataclass(frozen=True)
class Outcome:
    case: Case
    faq_rank: int | None    # among answers (FAQ entries and facts), within 10
    shown_rank: int | None  # among all hits as shown
    is_card: bool


def load_cases(path: Path) -> list[Case]:
    rows = load_text(Path(path).read_text(encoding="utf-8")) or []
    cases = []
    for row in rows:
        game, entry = row["expect"].split("/", 1)
        cases.append(Case(row["lang"], row["q"], game, entry, row.get("kind", "faq")))
    return cases


def run_case(index: SearchIndex, case: Case) -> Outcome:
    hits = index.search(case.query, case.lang, limit=30).hits
    target = (case.kind, case.game, case.entry)
    shown = [(h.kind, h.game, h.entry) for h in hits]
    answers = [key for key in shown if key[0] in ("faq", "fact")][:10]
    faq_rank = answers.index(target) + 1 if target in answers else None
    shown_rank = shown.index(target) + 1 if target in shown else None
    is_card = any(h.best and (h.kind, h.game, h.entry) == target for h in hits)
    return Outcome(case, faq_rank, shown_rank, is_card)


def evaluate(index: SearchIndex, cases: list[Case]) -> tuple[dict[str, Scores], list[Outcome]]:
    scores: dict[str, Scores] = defaultdict(Scores)
    outcomes = []
    for case in cases:
        outcome = run_case(index, case)
        for key in ("all", case.lang):
            scores[key].add(outcome.faq_rank, outcome.shown_rank, outcome.is_card)
        outcomes.append(outcome)
    return dict(scores), outcomes


def index_of(content: Path, folder: Path) -> SearchIndex:
    """A fresh index of ``content`` in ``folder``."""
    link = folder / "index"
    build(read_content(content)[0], link, content)
    return SearchIndex(link)


def report(scores: dict[str, Scores], outcomes: list[Outcome]) -> str:
    lines = [f"{'set':<6}{'cases':>6}{'recall@3':>10}{'MRR@10':>9}{'shown@3':>9}{'card':>7}"]
    for key in ["all", *sorted(k for k in scores if k != "all")]:
        s = scores[key]
        lines.append(f"{key:<6}{s.cases:>6}{s.recall_at_3:>10.3f}{s.mrr:>9.3f}{s.rate(s.shown_at_3):>9.3f}{s.rate(s.card):>7.3f}")
    for o in outcomes:
        if not o.is_card:
            lines.append(f"  answer {o.faq_rank or '-':>2} shown {o.shown_rank or '-':>2}: [{o.case.lang}] {o.case.query!r} -> {o.case.game}/{o.case.entry}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules_index.search.evaluate", description=(
        "Search relevance as the search page shows it: recall@3 and MRR@10 of the answer, the rank it is "
        "shown at, and whether it is the answer card; misses are listed."))
    parser.add_argument("sets", nargs="*", type=Path, default=[Path("eval/search-queries.yaml")],
                        help="YAML files of questions (query, lang, game, entry)")
    paths = parser.parse_args(argv[1:]).sets
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        parser.error(f"no such file: {', '.join(missing)}")
    with tempfile.TemporaryDirectory() as folder:
        index = index_of(CONTENT, Path(folder))
        for path in paths:
            print(f"== {path}")
            print(report(*evaluate(index, load_cases(path))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
