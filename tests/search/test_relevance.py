"""Relevance floor on the project's question set: a change cannot silently lose answers."""
from pathlib import Path

from rules_index.search.evaluate import evaluate, load_cases

CASES = Path(__file__).parents[2] / "eval" / "search-queries.yaml"


def test_recall_and_mrr_floor(client):
    scores, misses = evaluate(client, load_cases(CASES))
    assert scores["all"].cases >= 30
    assert scores["all"].recall_at_3 >= 0.95, misses
    assert scores["all"].mrr >= 0.85, misses
    for lang in ("de", "en", "it"):
        assert scores[lang].recall_at_3 >= 0.9, (lang, misses)
