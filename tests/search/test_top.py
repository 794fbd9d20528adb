"""``scoring.top``: the best documents of an OR of terms, against the sum written out per document."""
from __future__ import annotations

from array import array

from hypothesis import given
from hypothesis import strategies as st

from rules_index.search.scoring import COORD_SCALE, Postings, one_word, top


def written_out(lists: list[Postings], count: int, allowed=None) -> list[tuple[int, float]]:
    """Whoosh's Or(scale=COORD_SCALE) score of every document, one by one: best ``count``."""
    total = len(lists)
    sums: dict[int, float] = {}
    matching: dict[int, int] = {}
    for postings in lists:
        for doc, score in zip(postings.ids, postings.scores):
            sums[doc] = sums.get(doc, 0.0) + score
            matching[doc] = matching.get(doc, 0) + 1
    scores = {}
    for doc, value in sums.items():
        if allowed is not None and doc not in allowed:
            continue
        if total > 1:
            value = (value + (matching[doc] - 1) / (total - COORD_SCALE) ** 2) * (total - 1) / total
        scores[doc] = value
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:count]


def postings(docs: list[int], scores: list[float]) -> Postings:
    return Postings(array("i", docs), array("d", scores))


term = st.dictionaries(st.integers(0, 60), st.sampled_from([0.5, 1.0, 1.25, 2.0, 3.5]), min_size=1, max_size=25)


@given(st.lists(term, min_size=1, max_size=6), st.integers(1, 12), st.none() | st.sets(st.integers(0, 60)))
def test_the_best_documents_are_those_of_the_written_out_sum(terms, count, allowed):
    lists = [postings(sorted(found), [found[doc] for doc in sorted(found)]) for found in terms]
    ours = top(lists, count, None if allowed is None else frozenset(allowed))
    expected = written_out(lists, count, allowed)
    assert [doc for doc, _ in ours] == [doc for doc, _ in expected]  # ties: the lower number first
    assert all(abs(a - b) <= 1e-12 * max(1.0, abs(b)) for (_, a), (_, b) in zip(ours, expected))


long_term = st.builds(
    lambda docs, seed, top_score: {doc: top_score * ((doc * 7 + seed) % 11 + 1) / 11 for doc in docs},
    st.sets(st.integers(0, 700), min_size=257, max_size=500), st.integers(0, 10), st.sampled_from([0.5, 2.0, 4.0]))
rare_term = st.dictionaries(st.integers(0, 700), st.sampled_from([0.5, 1.0, 3.0, 6.0]), min_size=1, max_size=40)


@given(st.lists(st.one_of(rare_term, long_term), min_size=2, max_size=6), st.integers(1, 40),
       st.none() | st.sets(st.integers(0, 700), max_size=300))
def test_long_lists_pruned_still_give_the_written_out_best(terms, count, allowed):
    """Lists of over 256 postings are where top() stops adding to documents that cannot make it."""
    lists = [postings(sorted(found), [found[doc] for doc in sorted(found)]) for found in terms]
    ours = top(lists, count, None if allowed is None else frozenset(allowed))
    expected = written_out(lists, count, allowed)
    # Sums of several terms in another order may differ in the last bit: documents of the same
    # score (to 1e-12) may come in either order, and either may be the last one taken.
    assert len(ours) == len(expected)
    assert all(abs(a - b) <= 1e-12 * max(1.0, abs(b)) for (_, a), (_, b) in zip(ours, expected))
    for (doc, score), (other, _) in zip(ours, expected):
        if doc != other:
            assert any(d == doc and abs(s - score) <= 1e-12 * max(1.0, abs(s)) for d, s in written_out(lists, 10_000, allowed))
    tied = lambda pairs: {doc for doc, score in pairs if score > expected[-1][1] * (1 + 1e-12) + 1e-12} if pairs else set()
    assert tied(ours) == tied(expected)


def test_a_document_matching_more_terms_gets_the_coordination_bonus():
    # Same sum of scores: the document matching both terms ranks first.
    lists = [postings([1, 2], [1.0, 2.0]), postings([1], [1.0])]
    assert [doc for doc, _ in top(lists, 2)] == [1, 2]
    assert top([], 5) == []


def test_one_word_counts_its_best_match_whole_and_a_share_of_the_others():
    # Document 1 holds the word in three fields (3 + 2 + 1), document 2 in one (4): summed, 1 led.
    fields = [postings([1, 2], [3.0, 4.0]), postings([1], [2.0]), postings([1], [1.0])]
    word = one_word([*fields, None], 0.2)
    assert list(word.ids) == [1, 2] and list(word.scores) == [3.0 + 0.2 * 3.0, 4.0]
    assert [doc for doc, _ in top([word], 2)] == [2, 1]
    assert one_word([fields[0]], 0.2) is fields[0] and one_word([None], 0.2) is None
