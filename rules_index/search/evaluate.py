"""Search relevance on a set of rule questions, measured as the reader sees the results.

``python -m rules_index.search.evaluate eval/search-queries.yaml [more.yaml …]`` builds an index
of the content in a temporary folder, runs each question and prints, overall and per language:

- ``recall@3`` and ``MRR@10`` among the FAQ hits (the expected entry's rank among FAQ answers);
- ``shown@3``: the expected entry among the first three hits in the order the page shows them
  (all kinds: answers first, then rules, glossary, mistakes);
- ``card shown``: a best-answer card is shown at all (coverage: search is sure of an answer);
- ``card right``: of the cards shown, the share that is the expected entry (precision);
- ``card``: the expected entry is the best-answer card (of all questions).

A question's ``expect`` is ``game/faq-id``; ``kind: fact`` expects the game's "at a glance"
answer (``game/facts``).

A held-out set (``eval/held-out-*.yaml``) prints its totals only: the questions it missed stay
unseen, so that it is never tuned on.

A set whose questions have no ``expect`` is a spelling set: a question with ``fixed`` is
misspelled and ``fixed`` is it corrected; one without is spelled right and should get no
suggestion. Reported: suggestions made and the share right, spelled-right questions that got
one, typos fixed, and typos whose results were searched as corrected ("Showing results for").

A set whose questions all expect ``kind: section`` or ``kind: glossary`` asks about a game's rules
at large ("How do you win?") or what a thing is ("Was macht der Baumeister?"): what is right is
that section or term shown first and no answer put forward as the card. Reported: the expected hit
shown first, among the first three, and the questions shown a card.

A set whose questions each say ``why`` the content does not answer them is an out-of-scope set
(prices, apps, a Queen in Citadels, another game): what is right is no answer put forward.
Reported: the questions shown a card, and those shown answers side by side.
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
from rules_index.folding import TOKEN_PATTERN, fold

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
    card: int = 0         # the expected entry is the card
    cards_shown: int = 0  # a card is shown
    shown_first: int = 0

    def add(self, faq_rank: int | None, shown_rank: int | None, is_card: bool, card_shown: bool) -> None:
        self.cases += 1
        self.cards_shown += card_shown or is_card
        if faq_rank is not None:
            self.found_at_3 += faq_rank <= 3
            self.reciprocal += 1.0 / faq_rank
        self.shown_at_3 += shown_rank is not None and shown_rank <= 3
        self.shown_first += shown_rank == 1
        self.card += is_card

    def rate(self, count: int | float) -> float:
        return count / self.cases if self.cases else 0.0

    @property
    def recall_at_3(self) -> float:
        return self.rate(self.found_at_3)

    @property
    def mrr(self) -> float:
        return self.rate(self.reciprocal)

    @property
    def card_coverage(self) -> float:
        """The share of questions shown a best-answer card."""
        return self.rate(self.cards_shown)

    @property
    def card_precision(self) -> float:
        """Of the cards shown, the share that is the expected entry (1.0 when none is shown)."""
        return self.card / self.cards_shown if self.cards_shown else 1.0


@dataclass(frozen=True)
class Outcome:
    case: Case
    faq_rank: int | None    # among answers (FAQ entries and facts), within 10
    shown_rank: int | None  # among all hits as shown
    is_card: bool
    card_shown: bool = False  # some entry is the card


@dataclass(frozen=True)
class SpellingCase:
    lang: str
    query: str
    fixed: str | None = None  # None: spelled right


@dataclass
class SpellingScores:
    right_cases: int = 0     # questions spelled right
    false_alarms: int = 0    # ... that got a suggestion
    typo_cases: int = 0
    fixed: int = 0           # typos whose suggestion is the expected correction
    searched_fixed: int = 0  # typos whose results are the corrected query's
    suggestions: int = 0
    suggestions_right: int = 0

    @property
    def precision(self) -> float:
        return self.suggestions_right / self.suggestions if self.suggestions else 1.0


def _rows(path: Path) -> list[dict]:
    return load_text(Path(path).read_text(encoding="utf-8")) or []


def is_out_of_scope_set(path: Path) -> bool:
    rows = _rows(path)
    return bool(rows) and all("why" in row and "expect" not in row for row in rows)


def is_spelling_set(path: Path) -> bool:
    rows = _rows(path)
    return bool(rows) and all("expect" not in row and "why" not in row for row in rows)


def evaluate_out_of_scope(index: SearchIndex, rows: list[dict]) -> tuple[dict[str, list[int]], list[tuple]]:
    """Per language and overall: [questions, shown a card, shown answers side by side]; and the
    questions that got either, with what they got."""
    scores: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    put_forward = []
    for row in rows:
        hits = index.search(row["q"], row["lang"], limit=10).hits
        card = [h.entry for h in hits if h.best]
        close = [h.entry for h in hits if h.close]
        for key in ("all", row["lang"]):
            scores[key][0] += 1
            scores[key][1] += bool(card)
            scores[key][2] += bool(close)
        if card or close:
            put_forward.append((row, "card" if card else "side by side", card or close))
    return dict(scores), put_forward


def out_of_scope_report(scores: dict[str, list[int]], put_forward: list[tuple]) -> str:
    lines = [f"{'set':<6}{'cases':>6}{'card':>7}{'side by side':>14}{'neither':>9}"]
    for key in ["all", *sorted(k for k in scores if k != "all")]:
        cases, card, close = scores[key]
        lines.append(f"{key:<6}{cases:>6}{card / cases:>7.3f}{close / cases:>14.3f}{(cases - card - close) / cases:>9.3f}")
    for row, what, entries in put_forward:
        lines.append(f"  {what:<12} [{row['lang']}] {row['q']!r}: {', '.join(entries)}")
    return "\n".join(lines)


def load_spelling_cases(path: Path) -> list[SpellingCase]:
    return [SpellingCase(row["lang"], row["q"], row.get("fixed")) for row in _rows(path)]


def same_words(a: str, b: str) -> bool:
    """Whether two queries have the same words (lower case, accents and umlauts folded)."""
    return [fold(w) for w in TOKEN_PATTERN.findall(a)] == [fold(w) for w in TOKEN_PATTERN.findall(b)]


def evaluate_spelling(index: SearchIndex, cases: list[SpellingCase]) -> tuple[dict[str, SpellingScores], list[tuple]]:
    """Suggestions on spelling cases, overall and per language; the misses as (case, suggestion)."""
    scores: dict[str, SpellingScores] = defaultdict(SpellingScores)
    misses = []
    for case in cases:
        result = index.search(case.query, case.lang, limit=10)
        suggestion = result.suggestion
        right = suggestion is not None and case.fixed is not None and same_words(suggestion, case.fixed)
        for key in ("all", case.lang):
            s = scores[key]
            s.suggestions += suggestion is not None
            s.suggestions_right += right
            if case.fixed is None:
                s.right_cases += 1
                s.false_alarms += suggestion is not None
            else:
                s.typo_cases += 1
                s.fixed += right
                s.searched_fixed += right and result.corrected
        if (case.fixed is None) != (suggestion is None) or (case.fixed is not None and not right):
            misses.append((case, suggestion))
    return dict(scores), misses


def spelling_report(scores: dict[str, SpellingScores], misses: list[tuple]) -> str:
    lines = [f"{'set':<6}{'right':>6}{'alarms':>7}{'typos':>6}{'fixed':>6}{'searched':>9}{'suggest':>8}{'precision':>10}"]
    for key in ["all", *sorted(k for k in scores if k != "all")]:
        s = scores[key]
        lines.append(f"{key:<6}{s.right_cases:>6}{s.false_alarms:>7}{s.typo_cases:>6}{s.fixed:>6}{s.searched_fixed:>9}"
                     f"{s.suggestions:>8}{s.precision:>10.3f}")
    for case, suggestion in misses:
        lines.append(f"  [{case.lang}] {case.query!r}: suggested {suggestion!r}, expected {case.fixed!r}")
    return "\n".join(lines)


def load_cases(path: Path) -> list[Case]:
    cases = []
    for row in _rows(path):
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
    return Outcome(case, faq_rank, shown_rank, is_card, any(h.best for h in hits))


def evaluate(index: SearchIndex, cases: list[Case]) -> tuple[dict[str, Scores], list[Outcome]]:
    scores: dict[str, Scores] = defaultdict(Scores)
    outcomes = []
    for case in cases:
        outcome = run_case(index, case)
        for key in ("all", case.lang):
            scores[key].add(outcome.faq_rank, outcome.shown_rank, outcome.is_card, outcome.card_shown)
        outcomes.append(outcome)
    return dict(scores), outcomes


def index_of(content: Path, folder: Path) -> SearchIndex:
    """A fresh index of ``content`` in ``folder``."""
    link = folder / "index"
    build(read_content(content)[0], link, content)
    return SearchIndex(link)


def is_held_out(path: Path) -> bool:
    """A held-out set (``eval/held-out-*.yaml``): measured, never tuned on, so its questions that
    missed are not printed (only its totals)."""
    return Path(path).name.startswith("held-out-")


def report(scores: dict[str, Scores], outcomes: list[Outcome]) -> str:
    lines = [f"{'set':<6}{'cases':>6}{'recall@3':>10}{'MRR@10':>9}{'shown@3':>9}{'card shown':>11}{'card right':>11}{'card':>7}"]
    for key in ["all", *sorted(k for k in scores if k != "all")]:
        s = scores[key]
        lines.append(f"{key:<6}{s.cases:>6}{s.recall_at_3:>10.3f}{s.mrr:>9.3f}{s.rate(s.shown_at_3):>9.3f}"
                     f"{s.card_coverage:>11.3f}{s.card_precision:>11.3f}{s.rate(s.card):>7.3f}")
    for o in outcomes:
        if not o.is_card:
            what = "WRONG CARD" if o.card_shown else "no card"
            lines.append(f"  {what:<10} answer {o.faq_rank or '-':>2} shown {o.shown_rank or '-':>2}: [{o.case.lang}] {o.case.query!r} -> {o.case.game}/{o.case.entry}")
    return "\n".join(lines)


def what_was_asked_report(scores: dict[str, Scores], outcomes: list[Outcome]) -> str:
    """The report of a set asking for a rules section or a term: it first, no card."""
    lines = [f"{'set':<6}{'cases':>6}{'first':>7}{'shown@3':>9}{'card shown':>11}"]
    for key in ["all", *sorted(k for k in scores if k != "all")]:
        s = scores[key]
        lines.append(f"{key:<6}{s.cases:>6}{s.rate(s.shown_first):>7.3f}{s.rate(s.shown_at_3):>9.3f}{s.card_coverage:>11.3f}")
    for o in outcomes:
        if o.card_shown or o.shown_rank != 1:
            what = "CARD" if o.card_shown else "not first"
            lines.append(f"  {what:<10} shown {o.shown_rank or '-':>2}: [{o.case.lang}] {o.case.query!r} -> {o.case.game}/{o.case.entry}")
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
            hidden = is_held_out(path)
            if is_out_of_scope_set(path):
                scores, put_forward = evaluate_out_of_scope(index, _rows(path))
                print(out_of_scope_report(scores, [] if hidden else put_forward))
            elif is_spelling_set(path):
                scores, misses = evaluate_spelling(index, load_spelling_cases(path))
                print(spelling_report(scores, [] if hidden else misses))
            else:
                cases = load_cases(path)
                scores, outcomes = evaluate(index, cases)
                if all(case.kind in ("section", "glossary") for case in cases):
                    print(what_was_asked_report(scores, [] if hidden else outcomes))
                else:
                    print(report(scores, [o for o in outcomes if o.is_card] if hidden else outcomes))
            if hidden:
                print("  (a held-out set: totals only)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
