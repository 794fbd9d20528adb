"""The term-at-a-time ranking agrees with Whoosh's own ``Searcher.search``, and the search
package uses only Whoosh's public names."""
from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from whoosh.collectors import TopCollector
from whoosh.query import Or, Term

from rules_index.search.evaluate import load_cases
from rules_index.search.scoring import COORD_SCALE

EVAL = Path(__file__).parents[2] / "eval"
PACKAGE = Path(__file__).parents[2] / "rules_index"


def generated_queries(index, count: int = 200, seed: int = 20261201) -> list[tuple[str, str]]:
    """(query, lang): 1 to 4 words drawn from the stored questions and rule titles, now and then
    a made-up word, in a seeded order."""
    rng = random.Random(seed)
    gen = index.generation()
    searcher = gen.searcher()
    words = sorted({
        w for fields in searcher.all_stored_fields() for w in fields["title_text"].split() if w.isalpha() and len(w) > 3
    })
    queries = []
    for _ in range(count):
        picked = rng.sample(words, rng.randint(1, 4))
        if rng.random() < 0.2:
            picked.append("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)))
        queries.append((" ".join(picked), rng.choice(["de", "en", "it"])))
    return queries


def whoosh_top(index, terms, count: int = 10) -> list[tuple[int, float]]:
    """Whoosh's own top ``count`` for the OR of ``terms``. Its collector's matcher replacement
    is off: replacing drops exhausted terms mid-scan, which changes the coordination bonus of the
    documents after that point (their score then depends on where they sit in the index)."""
    gen = index.generation()
    query = Or([Term(name, token, boost=boost) for name, token, boost in terms], scale=COORD_SCALE)
    collector = TopCollector(limit=count, usequality=False, replace=0)
    gen.searcher().search_with_collector(query, collector)
    return [(hit.docnum, hit.score) for hit in collector.results()]


def all_queries(index) -> list[tuple[str, str]]:
    cases = [(c.query, c.lang) for name in ("search-queries.yaml", "player-questions.yaml") for c in load_cases(EVAL / name)]
    return cases + generated_queries(index)


def test_top_ten_agrees_with_whoosh(index):
    gen = index.generation()
    compared = 0
    for text, lang in all_queries(index):
        terms = index.terms(gen, text, lang)
        if not terms:
            continue
        ours = gen.top(terms, 10)
        theirs = whoosh_top(index, terms)
        # Only terms that occur in the index count (Whoosh drops the others from the Or).
        assert len(ours) == len(theirs), text
        if not theirs:
            continue  # none of the words is in the index: both find nothing
        for (our_doc, our_score), (their_doc, their_score) in zip(ours, theirs):
            assert our_score == pytest.approx(their_score, rel=1e-9), text
        # Equal scores may come in either order: compare the documents per score, leaving out the
        # last score (a tie there may be cut at a different document).
        last = round(theirs[-1][1], 6)
        assert {(d, round(s, 6)) for d, s in ours if round(s, 6) != last} == {
            (d, round(s, 6)) for d, s in theirs if round(s, 6) != last}, text
        compared += 1
    assert compared >= 200


def test_the_comparison_can_fail(index):
    # A changed boost must show up as a disagreement: the test above really compares scores.
    gen = index.generation()
    terms = index.terms(gen, "Dieb Meuchler", "de")
    ours = gen.top([(name, token, boost * 1.5 if i == 0 else boost) for i, (name, token, boost) in enumerate(terms)], 10)
    assert [round(s, 6) for _, s in ours] != [round(s, 6) for _, s in whoosh_top(index, terms)]


def _private_whoosh_uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    uses_whoosh = any(
        isinstance(node, (ast.Import, ast.ImportFrom))
        and any((getattr(node, "module", None) or alias.name).startswith("whoosh") for alias in node.names)
        for node in ast.walk(tree)
    )
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("whoosh"):
            found += [f"{path.name}: import {alias.name}" for alias in node.names if alias.name.startswith("_")]
            found += [f"{path.name}: module {node.module}" for part in (node.module or "").split(".") if part.startswith("_")]
        if uses_whoosh and isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                found.append(f"{path.name}:{node.lineno}: .{node.attr}")
    return found


def test_no_private_whoosh_names():
    found = [use for path in sorted(PACKAGE.rglob("*.py")) for use in _private_whoosh_uses(path)]
    assert found == []


def test_the_private_name_check_finds_them(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text("from whoosh.codec.whoosh3 import _lenfield\n\ndef f(matcher):\n    return matcher._ids\n")
    assert len(_private_whoosh_uses(module)) == 2
