"""Ranking: Whoosh's BM25F over an OR of terms, computed term at a time over cached postings.

The score of a document is what Whoosh's ``Or([Term(field, token, boost=b), …], scale=0.3)``
gives it: the sum of the matching terms' BM25F scores, plus the coordination bonus for documents
that match more of the terms. Whoosh computes it through a binary tree of union matchers, one
Python call per posting and tree level; here each term's postings are read once through the
public ``Searcher.postings`` (its matcher scores them with the searcher's BM25F), kept as two
arrays, and summed per document. ``tests/search/test_agreement.py`` compares the top ten with
``Searcher.search`` of the equivalent query.

A generation's scores depend on the whole index (a term's idf, a field's average length), so each
generation scores anew; what a term's postings are in one segment does not change (an update
only adds segments and deletes documents). ``SegmentTerm`` keeps them as read: document numbers,
weights and field lengths. A new generation scores the kept ones with its own statistics through
Whoosh's ``bm25`` (what the matcher's ``score()`` computes from the same weight and length), and
reads only the segments it has not seen.
"""
from __future__ import annotations

import heapq
import sys
from array import array
from bisect import bisect_left
from itertools import islice

from whoosh.reading import TermNotFound
from whoosh.scoring import BM25FScorer, bm25

from rules_index.caches import ENTRY_BYTES

COORD_SCALE = 0.3  # Whoosh's Or(scale=...) coordination bonus for documents matching more terms


class Postings:
    """A term's documents (ascending) and their boosted BM25F scores, with the highest score."""

    __slots__ = ("ids", "scores", "best")

    def __init__(self, ids: array, scores: array):
        self.ids = ids
        self.scores = scores
        self.best = max(scores)

    def __len__(self) -> int:
        return len(self.ids)


def postings_bytes(postings: Postings) -> int:
    """One cached term's weight: its two arrays, the object and the cache entry's bookkeeping."""
    return sys.getsizeof(postings.ids) + sys.getsizeof(postings.scores) + sys.getsizeof(postings) + ENTRY_BYTES


def read_postings(searcher, field_name: str, token: str, boost: float) -> Postings | None:
    """The term's (document numbers, BM25F scores × boost), or None if no document has it."""
    if (field_name, token) not in searcher.reader():
        return None
    try:
        matcher = searcher.postings(field_name, token)
    except TermNotFound:
        return None
    ids, scores = array("i"), array("d")
    while matcher.is_active():
        ids.append(matcher.id())
        scores.append(matcher.score() * boost)
        matcher.next()
    return Postings(ids, scores) if ids else None


class SegmentTerm:
    """A term's postings in one segment as read: local document numbers, weights and field
    lengths (empty if the segment does not have the term), without ``deleted``, the segment's
    documents deleted when it was read; and the term's document frequency in the segment (which
    counts deleted documents, as Whoosh's idf does)."""

    __slots__ = ("ids", "weights", "lengths", "deleted", "frequency")

    def __init__(self, ids: array, weights: array, lengths: array, deleted: frozenset[int], frequency: int):
        self.ids, self.weights, self.lengths, self.deleted, self.frequency = ids, weights, lengths, deleted, frequency

    def cache_bytes(self) -> int:
        return sum(sys.getsizeof(a) for a in (self.ids, self.weights, self.lengths)) + sys.getsizeof(self)


class Frequencies:
    """What the weighting's ``idf(searcher, field, text)`` asks a searcher, answered for one term
    from its segments' frequencies: so the idf is Whoosh's, without looking the term up in every
    segment again."""

    def __init__(self, frequency: int, documents: int):
        self.frequency, self.documents = frequency, documents

    def get_parent(self) -> "Frequencies":
        return self

    def doc_frequency(self, _field_name: str, _text: str) -> int:
        return self.frequency

    def doc_count_all(self) -> int:
        return self.documents


def field_lengths(leaf) -> array:
    """An empty table of the segment's documents' lengths in one field (0: not read yet), for
    ``read_segment_term`` to fill: a document's length is asked for by every term it has."""
    return array("i", bytes(4 * leaf.doc_count_all()))


def read_segment_term(leaf, field_name: str, token: str, table=None) -> SegmentTerm:
    """The term's postings in the segment of ``leaf`` (a leaf reader of ``reader.leaf_readers()``),
    with the lengths the matcher's scorer takes (``doc_field_length``, 1 if unknown), taken from
    and written to the table ``table()`` gives (``field_lengths``); without a table, no lengths
    (a field that is only looked up, never scored)."""
    ids, weights, lengths = array("i"), array("d"), array("i")
    frequency = leaf.doc_frequency(field_name, token)
    if frequency:
        matcher = leaf.postings(field_name, token)
        # The matcher's methods bound once: a common word has tens of thousands of postings.
        active, docnum, weight, step = matcher.is_active, matcher.id, matcher.weight, matcher.next
        add_id, add_weight = ids.append, weights.append
        while active():
            add_id(docnum())
            add_weight(weight())
            step()
        if table is not None:
            known = table()
            for doc in ids:
                if not known[doc]:
                    known[doc] = leaf.doc_field_length(doc, field_name, 1)
            lengths = array("i", [known[doc] for doc in ids])
    return SegmentTerm(ids, weights, lengths, leaf.deleted_docs_set, frequency)


class SegmentLexicon:
    """The terms of a segment's fields, per field, for the fields it was given (each of at most
    ``max_terms`` terms, all together weighing about ``max_bytes`` at most, if set): a term it
    lacks is not looked up in the segment. Most terms a query asks for are in no document (a
    German word in the English fields, a typo): each such look-up in Whoosh's term table costs
    tens of microseconds, and a new query makes dozens."""

    __slots__ = ("terms", "weight")

    def __init__(self, leaf, field_names=None, max_terms: int | None = None, max_bytes: int | None = None):
        self.terms: dict[str, frozenset[str]] = {}
        weight = 0
        names = leaf.indexed_field_names() if field_names is None else [n for n in field_names if n in leaf.schema]
        for name in names:
            if max_bytes is not None and weight >= max_bytes:
                break  # the fields left are looked up in the segment
            field = leaf.schema[name]
            raw_terms = leaf.lexicon(name)
            if max_terms is not None:
                raw_terms = islice(raw_terms, max_terms + 1)
            terms = frozenset(field.from_bytes(raw) for raw in raw_terms)
            if max_terms is not None and len(terms) > max_terms:
                continue  # too many to keep: looked up in the segment
            self.terms[name] = terms
            weight += sys.getsizeof(terms) + sum(map(sys.getsizeof, terms))
        self.weight = weight + sys.getsizeof(self.terms) + sys.getsizeof(self)

    def lacks(self, field_name: str, token: str) -> bool:
        """Whether the segment has no such term (False for a field not kept: it may have it)."""
        terms = self.terms.get(field_name)
        return terms is not None and token not in terms

    def has(self, field_name: str, token: str) -> bool:
        """Whether the segment has the term (False for a field not kept: not known here)."""
        return token in self.terms.get(field_name, ())

    def cache_bytes(self) -> int:
        return self.weight


def bm25_parameters(searcher, field_name: str, token: str) -> tuple[float, float, float] | None:
    """(average field length, B, K1) of the searcher's weighting for the field, as its scorer for
    an indexed term holds them; None if that scorer is not BM25F's."""
    scorer = searcher.weighting.scorer(searcher, field_name, token)
    if not isinstance(scorer, BM25FScorer):
        return None
    return scorer.avgfl, scorer.B, scorer.K1


def scored_postings(parts: list[tuple[int, SegmentTerm, frozenset[int]]], idf: float,
                    parameters: tuple[float, float, float], boost: float) -> Postings | None:
    """The term's ``Postings`` from its segments' ``(offset, SegmentTerm, documents deleted since
    it was read)``, scored with the generation's idf and BM25F parameters.

    A posting's score depends only on its weight and field length: Whoosh's ``bm25`` is called
    once per distinct pair (a common word's 20,000 postings have about 200), and the postings
    take their scores from that table."""
    avgfl, b, k1 = parameters
    ids, scores = array("i"), array("d")
    score: dict[tuple[float, int], float] = {}
    for offset, term, gone in parts:
        for pair in dict.fromkeys(zip(term.weights, term.lengths)):  # the distinct pairs, gathered in C
            if pair not in score:
                score[pair] = bm25(idf, pair[0], pair[1], avgfl, b, k1) * boost
        if not gone:
            ids.extend(term.ids if not offset else array("i", [offset + docnum for docnum in term.ids]))
            scores.extend(map(score.__getitem__, zip(term.weights, term.lengths)))
            continue
        for docnum, weight, length in zip(term.ids, term.weights, term.lengths):
            if docnum not in gone:
                ids.append(offset + docnum)
                scores.append(score[weight, length])
    return Postings(ids, scores) if ids else None


def one_word(lists: list[Postings], overlap: float) -> Postings | None:
    """The postings of one asked word from those of its terms (its stem in each field, its prefix,
    the rulebooks' words a players' word stands for): a document scores its best match of the
    word, plus ``overlap`` of its other matches. Summed whole, a word that a document holds in its
    question, players' words, answer and prefixes counted four times over: in a question told as
    a situation, one incidental word ("hand", "end", "board") in an entry's question then
    outweighed the words the asked entry holds once each."""
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
