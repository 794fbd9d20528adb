"""Relevance floors, measured as the reader sees the results: a change cannot silently lose answers.

Two question sets: the tuning set, and players' own phrasings (game names typed in, typos,
colloquial words, other editions' names, facts asked before a game).
"""
from pathlib import Path

import pytest

from rules_index.search.evaluate import evaluate, load_cases

EVAL = Path(__file__).parents[2] / "eval"


@pytest.fixture(scope="module")
def outcomes(index):
    return {name: evaluate(index, load_cases(EVAL / name)) for name in ("search-queries.yaml", "player-questions.yaml")}


def test_tuning_set_floor(outcomes):
    scores, misses = outcomes["search-queries.yaml"]
    assert scores["all"].cases >= 30
    assert scores["all"].recall_at_3 >= 0.95, misses
    assert scores["all"].mrr >= 0.85, misses
    for lang in ("de", "en", "it"):
        assert scores[lang].recall_at_3 >= 0.9, (lang, misses)


@pytest.mark.parametrize("name", ["search-queries.yaml", "player-questions.yaml"])
def test_the_answer_is_shown_first(outcomes, name):
    scores, misses = outcomes[name]
    all_ = scores["all"]
    assert all_.rate(all_.shown_at_3) >= 0.93, [m for m in misses if not m.shown_rank or m.shown_rank > 3]
    assert all_.rate(all_.card) >= 0.85, [m for m in misses if not m.is_card]


def test_players_questions_cover_every_language_and_kind():
    cases = load_cases(EVAL / "player-questions.yaml")
    assert len(cases) >= 55
    assert {c.lang for c in cases} == {"de", "en", "it"}
    assert any(c.kind == "fact" for c in cases)
