"""Ranking: Whoosh's BM25F over an OR of terms, computed term at a time over cached postings.

The score of a document is what Whoosh's ``Or([Term(field, token, boost=b), …], scale=0.3)``
gives it: the sum of the matching terms' BM25F scores, plus the coordination bonus for documents
that match more of the terms. Whoosh computes it through a binary tree of union matchers, one
Python call per posting and tree level; here each term's postings are read once through the
public ``Searcher.postings`` (its matcher scores them with the searcher's BM25F), kept as two
arrays, and summed per document. ``tests/search/test_agreement.py`` compares the top ten with
``Searcher.search`` of the equivalent query.
"""
from __future__ import annotations

import heapq
import sys
from array import array
from bisect import bisect_left

from whoosh.reading import TermNotFound
from whoosh.scoring import BM25FScorer, bm25

COORD_SCALE = 0.3  # Whoosh's Or(scale=...) coordination bonus for documents matching more terms
# A cache entry's key and bookkeeping (about 210 bytes measured on cachetools 8, plus a typical key).
ENTRY_BYTES = 320


class Postings:
    """A term's documents (ascending) and their boosted BM25F scores, with the highest score."""

    __slots__ = ("ids", "scores", "best")

    def __init__(self, ids: array, scores: array):
        self.ids = ids
        self.scores = scores
        self.best = max(scores)

    def __len__(self) -> int:
        return len(self.ids)

    def boosted(self, boost: float) -> "Postings":
        """The same documents, each score times ``boost`` (as Whoosh's boosted term scores them)."""
        return Postings(self.ids, array("d", [score * boost for score in self.scores]))


def postings_bytes(postings: Postings) -> int:
    """One cached term's weight: its two arrays, the object and the cache entry's bookkeeping."""
    return sys.getsizeof(postings.ids) + sys.getsizeof(postings.scores) + sys.getsizeof(postings) + ENTRY_BYTES


def field_lengths(reader) -> array:
    """An empty table of the documents' lengths in one field (0: not read yet), for
    ``read_postings`` to fill: a document's length is asked for by every term it has."""
    return array("i", bytes(4 * reader.doc_count_all()))


def read_postings(searcher, field_name: str, token: str, boost: float, lengths: array | None = None) -> Postings | None:
    """The term's (document numbers, BM25F scores × boost), or None if no document has it.

    The scores are Whoosh's matcher's, computed through Whoosh's ``bm25`` once per distinct
    (weight, field length) pair, which a common word's postings share, with the lengths kept in
    the field's table ``lengths``; without one, or for another weighting, the matcher scores each
    posting."""
    reader = searcher.reader()
    if (field_name, token) not in reader:
        return None
    try:
        matcher = reader.postings(field_name, token)  # live documents only
    except TermNotFound:
        return None
    scorer = searcher.weighting.scorer(searcher, field_name, token)
    ids = array("i")
    if lengths is None or not isinstance(scorer, BM25FScorer):
        scores = array("d")
        matcher = searcher.postings(field_name, token)
        while matcher.is_active():
            ids.append(matcher.id())
            scores.append(matcher.score() * boost)
            matcher.next()
        return Postings(ids, scores) if ids else None
    weights = array("d")
    # The matcher's methods bound once: a common word has tens of thousands of postings.
    active, docnum, weight, step = matcher.is_active, matcher.id, matcher.weight, matcher.next
    add_id, add_weight = ids.append, weights.append
    while active():
        add_id(docnum())
        add_weight(weight())
        step()
    if not ids:
        return None
    for doc in ids:
        if not lengths[doc]:
            lengths[doc] = reader.doc_field_length(doc, field_name, 1)
    idf, avgfl, b, k1 = scorer.idf, scorer.avgfl, scorer.B, scorer.K1
    score: dict[tuple[float, int], float] = {}
    pairs = list(zip(weights, map(lengths.__getitem__, ids)))
    for pair in dict.fromkeys(pairs):  # the distinct pairs, gathered in C
        score[pair] = bm25(idf, pair[0], pair[1], avgfl, b, k1) * boost
    return Postings(ids, array("d", map(score.__getitem__, pairs)))


def one_word(lists: list[Postings], overlap: float) -> Postings | None:
    """The postings of one asked word from those of its terms (its stem in each field, its prefix,
    the rulebooks' words a players' word stands for): a document scores its best match of the
    word, plus ``overlap`` of its other matches, so that a word held in every field does not
    outweigh the other asked words."""
    lists = [p for p in lists if p is not None]
    if len(lists) <= 1:
        return lists[0] if lists else None
    best: dict[int, float] = {}
    total: dict[int, float] = {}
    for postings in lists:
        for docnum, value in zip(postings.ids, postings.scores):
            total[docnum] = total.get(docnum, 0.0) + value
            if value > best.get(docnum, 0.0):
                best[docnum] = value
    ids = array("i", sorted(total))
    return Postings(ids, array("d", [best[d] + overlap * (total[d] - best[d]) for d in ids]))


def top(lists: list[Postings], count: int, allowed: frozenset[int] | None = None) -> list[tuple[int, float]]:
    """The ``count`` best (document number, score) for the OR of the terms behind ``lists``.

    The score is Whoosh's for ``Or(terms, scale=COORD_SCALE)``: the sum of the matching terms'
    scores, plus ``(matching - 1) / (T - scale)**2``, times ``(T - 1) / T``, T being the number of
    terms that occur in the index. The bonus is added per posting (``bonus`` each, one taken off
    at the end), so one pass suffices.

    Terms go highest possible share first (MaxScore): once the shares still to come cannot lift a
    document that has none of the terms so far to the ``count``-th score, the long lists of common
    words only add to the documents that can still make it. Exact.
    """
    lists = sorted(lists, key=lambda p: -p.best)
    total = len(lists)
    if not total:
        return []
    bonus = 1.0 / (total - COORD_SCALE) ** 2 if total > 1 else 0.0
    factor = (total - 1) / total if total > 1 else 1.0
    remaining = [0.0] * (total + 1)  # remaining[i]: the most lists[i:] can add to one document
    for i in range(total - 1, -1, -1):
        remaining[i] = remaining[i + 1] + lists[i].best + bonus
    scores: dict[int, float] = {}
    get = scores.get
    for i, postings in enumerate(lists):
        if i and len(postings) > 256 and len(scores) >= count:
            threshold = _threshold(scores, count, allowed)
            if threshold is not None and remaining[i] < threshold:
                scores = _finish(scores, lists[i:], bonus, threshold - remaining[i], allowed)
                break
        for docnum, value in zip(postings.ids, postings.scores):
            scores[docnum] = get(docnum, 0.0) + value + bonus
    if allowed is not None:
        scores = {d: v for d, v in scores.items() if d in allowed}
    if len(scores) > count:
        threshold = heapq.nlargest(count, scores.values())[-1]
        best = [(d, v) for d, v in scores.items() if v >= threshold]
    else:
        best = list(scores.items())
    best.sort(key=lambda item: (-item[1], item[0]))
    return [(d, (v - bonus) * factor) for d, v in best[:count]]


def _threshold(scores: dict[int, float], count: int, allowed: frozenset[int] | None) -> float | None:
    """The ``count``-th best score so far (a lower bound of the final one), None if fewer."""
    values = scores.values() if allowed is None else [v for d, v in scores.items() if d in allowed]
    if len(values) < count:
        return None
    return heapq.nlargest(count, values)[-1]


def _finish(scores, lists: list[Postings], bonus: float, floor: float, allowed) -> dict[int, float]:
    """Add ``lists`` to the documents whose score so far is at least ``floor`` (the others cannot
    reach the best any more); documents not yet found are not added."""
    alive = {d: v for d, v in scores.items() if v >= floor and (allowed is None or d in allowed)}
    for postings in lists:
        ids, values = postings.ids, postings.scores
        if len(alive) * 16 < len(ids):
            size = len(ids)
            for docnum in alive:
                at = bisect_left(ids, docnum)
                if at < size and ids[at] == docnum:
                    alive[docnum] += values[at] + bonus
        else:
            for docnum, value in zip(ids, values):
                if docnum in alive:
                    alive[docnum] += value + bonus
    return alive
