"""Answering queries from the index: the only code that opens it.

One ``SearchIndex`` per process keeps the opened index of the current generation and a warm
searcher per thread; it follows the link to a new generation when a rebuild switched it.

Ranking is Whoosh's BM25F over the query's terms in every language's fields, summed, with the
coordination bonus of ``Or(..., scale=0.3)``, computed term at a time (``_Generation.top``)
instead of through Whoosh's binary tree of union matchers, which costs Python calls per posting
and per tree level (most of a search's time before). Each term's postings are read once, a
block at a time, scored and kept for the next query that uses the term; each word's analysis,
each highlighted snippet (per text and matched terms), each correction and each entry's related
entries are kept per generation too. The scores are the formula's for
every document: Whoosh's collector recomputed the coordination term count whenever it dropped
the matchers of exhausted terms mid-scan, so documents late in the index used to score lower.
Corrections ("did you mean") are Whoosh's (same words, same choice), found without building a
Levenshtein automaton per word.

Memory: every cache is bounded in bytes (``rules_index.caches``: cachetools, each entry weighed
once when stored), per generation, so a flood of new words cannot grow a process without end.
The bounds are ``CacheSizes``, from the app config:

- ``SEARCH_POSTINGS_CACHE_BYTES`` (32 MiB): scored postings of the terms searched last;
- ``SEARCH_MISSED_TERMS`` (4096): terms that no document has, kept apart (a few hundred bytes
  each) so that unknown words neither grow the postings cache nor push real postings out;
- ``SEARCH_WORDS_CACHE_BYTES`` (8 MiB): each word's analysis, known words, corrections;
- ``SEARCH_DOCUMENTS_CACHE_BYTES`` (16 MiB): the stored title and text of each document a hit
  shows, the text's tokens; first in, first out (a hit is one lookup; keyed by the index's own
  documents);
- ``SEARCH_TEXTS_CACHE_BYTES`` (8 MiB): snippets, related entries, the documents of a game filter;
- ``SEARCH_RESULTS_CACHE_BYTES`` (4 MiB): whole results of the queries asked last.

What else a generation keeps is bounded by the index: the length byte of each field in every
document, what each document is (kind, game, entry, language: about 100 bytes a document), the
length normalisation per field, the spelling words, and the highlighter's analyses of the words
of stored texts (at most ``HIGHLIGHT_WORDS`` per language, see ``_CachedTokens``). The stem filters' own caches
(Whoosh keeps up to 50,000 words per filter) are switched off in the searching process: each
word's analysis is cached here, in bytes.
"""
from __future__ import annotations

import heapq
import json
import math
import os
import re
import sys
import threading
import unicodedata
from array import array
from bisect import bisect_left
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from markupsafe import escape
from whoosh import highlight, index as whoosh_index
from whoosh.analysis import StemFilter, Token
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher, _lenfield
from whoosh.query import And, Term
from whoosh.reading import TermNotFound
from whoosh.scoring import BM25F, WeightingModel
from whoosh.util.numeric import byte_to_length, length_to_byte

from rules_index.caches import ENTRY_BYTES, MiB, ByteCache, payload_bytes

from . import schema as f
from .analysis import LANGS, TOKEN_PATTERN
from .build import MARKER

MAX_QUERY_CHARS = 200
MAX_QUERY_WORDS = 16
MAX_LIMIT = 50
# Field weights: the question outranks players' words, which outrank the answer.
WEIGHTS = {"title": 4.0, "keywords": 2.5, "body": 1.0}
PREFIX_WEIGHT = 0.6
CORRECTED_WEIGHT = 0.8
READER_LANG_BONUS = 1.15
COORD_SCALE = 0.3  # Whoosh's Or(scale=...) coordination bonus for documents matching more terms
HIGHLIGHT_WORDS = 32768  # per language: the highlighter's word analyses (see _CachedTokens)
HIT_BYTES = 700  # a Hit without its title, snippet and entry: the object, its dict, kind, game, score
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# Bidirectional marks, embeddings, overrides and isolates: invisible, they only reorder what is
# shown (an echoed query could be made to read backwards or to spill into the page around it).
_BIDI = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True)
class CacheSizes:
    """The bounds of a process's search caches (see the module's docstring)."""

    postings_bytes: int = 32 * MiB
    missed_terms: int = 4096
    words_bytes: int = 8 * MiB
    texts_bytes: int = 8 * MiB
    documents_bytes: int = 16 * MiB
    results_bytes: int = 4 * MiB

    CONFIG = {
        "SEARCH_POSTINGS_CACHE_BYTES": "postings_bytes", "SEARCH_MISSED_TERMS": "missed_terms",
        "SEARCH_WORDS_CACHE_BYTES": "words_bytes", "SEARCH_TEXTS_CACHE_BYTES": "texts_bytes",
        "SEARCH_DOCUMENTS_CACHE_BYTES": "documents_bytes", "SEARCH_RESULTS_CACHE_BYTES": "results_bytes",
    }

    @classmethod
    def from_config(cls, config) -> CacheSizes:
        """The sizes set in ``config`` (an app's config), the defaults for the others."""
        return cls(**{name: int(config[key]) for key, name in cls.CONFIG.items() if key in config})


class IndexUnavailable(Exception):
    """No built index at the configured place."""


@dataclass(frozen=True)
class Hit:
    kind: str
    game: str
    entry: str
    title: str
    snippet: str
    score: float


@dataclass
class SearchResult:
    query: str
    lang: str
    hits: list[Hit] = field(default_factory=list)
    suggestion: str | None = None


def clean_query(text: str) -> str:
    """Control characters out, bidirectional formatting characters removed, white space folded,
    length capped: before any analysis, and what a result echoes as its query."""
    text = unicodedata.normalize("NFC", _BIDI.sub("", _CONTROL.sub(" ", text or "")))
    text = " ".join(text.split())[:MAX_QUERY_CHARS]
    words = text.split(" ")
    return " ".join(words[:MAX_QUERY_WORDS])


class _TextTokens:
    """A text's (term, start, end) spans and the set of their terms."""

    __slots__ = ("spans", "terms")
    SPAN_BYTES = 120  # a (term, start, end) tuple and its two ints; the terms are counted once, in ``terms``

    def __init__(self, spans: tuple[tuple[str, int, int], ...], terms: frozenset[str]):
        self.spans = spans
        self.terms = terms

    def cache_bytes(self) -> int:
        """Weighed without walking every span (a long text has thousands)."""
        return sys.getsizeof(self.spans) + len(self.spans) * self.SPAN_BYTES + payload_bytes(self.terms)


class _CachedTokens:
    """An analyzer for the highlighter that tokenizes each stored text once per generation.

    Every filter of the language analyzers works on one token at a time, so a text's tokens are
    the analysis of its words one by one (each word's analysis cached too); a text's tokens come
    with the set of their terms (in ``documents``), so texts without any query term skip the
    highlighter.

    The word cache is the one cache here counted in entries: it is asked for every token of every
    text the highlighter meets (a cachetools lookup costs ten times ``functools.lru_cache``'s,
    which made a search that highlights new texts half as slow again), and its keys are the words
    of the index's stored texts, never a reader's: ``HIGHLIGHT_WORDS`` of them, about 270 bytes
    each (a word, its terms and the cache's link), at most about 8.5 MiB per language.
    """

    def __init__(self, analyzer, lang: str, documents: ByteCache):
        self._analyzer = analyzer
        self._word = lru_cache(maxsize=HIGHLIGHT_WORDS)(self._analyze_word)
        self.spans = documents.memoize(key=lambda text: ("spans", lang, text))(self._analyze)

    def _analyze_word(self, word: str) -> tuple[str, ...]:
        return tuple(t.text for t in self._analyzer(word, mode="query", removestops=False))

    def _analyze(self, text: str) -> _TextTokens:
        word_terms = self._word
        spans = tuple(
            (term, match.start(), match.end())
            for match in TOKEN_PATTERN.finditer(text)
            for term in word_terms(match.group())
        )
        return _TextTokens(spans, frozenset(term for term, _, _ in spans))

    def __call__(self, text: str, **_ignored):
        token = Token(chars=True, boost=1.0)  # one token, refilled (as Whoosh's tokenizers do)
        for term, start, end in self.spans(text).spans:
            token.text, token.startchar, token.endchar = term, start, end
            yield token


def _context_fragments(text: str, spans, matched: frozenset[str], maxchars: int = 220, surround: int = 60,
                       charlimit: int = highlight.DEFAULT_CHARLIMIT):
    """``highlight.ContextFragmenter(maxchars, surround).fragment_tokens`` line for line, over
    (term, start, end) spans instead of Token objects (only matched tokens become Tokens, as the
    fragmenter's copies): the same fragments, at a third of the cost."""
    first = None
    firsts: deque[int] = deque()
    countdown = -1
    tks: list[Token] = []
    endchar = None
    currentlen = 0
    for term, startchar, endchar in spans:
        tlength = endchar - startchar
        if charlimit and endchar > charlimit:
            break
        is_match = term in matched
        if countdown < 0 and not is_match:
            firsts.append(startchar)
            while firsts and endchar - firsts[0] > surround:
                firsts.popleft()
        elif currentlen + tlength > maxchars:
            countdown = 0
        elif is_match:
            countdown = surround
            if first is None:
                if firsts:
                    first = firsts[0]
                else:
                    first = startchar
                    countdown += surround
            token = Token(chars=True, boost=1.0, text=term, startchar=startchar, endchar=endchar)
            token.matched = True
            tks.append(token)
        if countdown >= 0:
            currentlen += tlength
            countdown -= tlength
            if countdown <= 0:
                yield highlight.mkfrag(text, tks, startchar=first, endchar=endchar)
                tks = []
                firsts = deque()
                first = None
                currentlen = 0
    if tks:
        yield highlight.mkfrag(text, tks, startchar=first, endchar=endchar)


def _letters(word: str) -> int:
    """The set of a word's characters as bits (hashed): one edit changes at most two bits."""
    mask = 0
    for ch in word:
        mask |= 1 << (ord(ch) % 61)
    return mask


def _within(a: str, b: str, limit: int) -> bool:
    """Whether the Levenshtein distance of ``a`` and ``b`` is at most ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return False
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return False
        previous = current
    return previous[-1] <= limit


class _Spelling:
    """The spelling words of a generation in memory, for Whoosh's correction rule: the most
    frequent word (ties: the greatest) with the same first letter and the rest within ``maxdist``
    Levenshtein edits: what ``searcher.suggest(WORDS, word, limit=1, maxdist=..., prefix=1)``
    returns (its automaton accepts exactly these words), without building an automaton per word.
    Candidates are narrowed by first letter, length and letter set before any edit distance."""

    def __init__(self, reader, field_name: str):
        self.field_name = field_name
        spelling = reader.schema[field_name].spelling_fieldname(field_name)
        self.by_start: dict[tuple[str, int], list[tuple[str, int]]] = {}
        for raw in reader.lexicon(spelling):
            word = reader.schema[spelling].from_bytes(raw)
            self.by_start.setdefault((word[:1], len(word)), []).append((word, _letters(word)))

    def suggest(self, reader, word: str, maxdist: int) -> str | None:
        if not word:
            return None
        mask, best = _letters(word), None
        for length in range(max(1, len(word) - maxdist), len(word) + maxdist + 1):
            for candidate, letters in self.by_start.get((word[0], length), ()):
                if candidate == word or (mask ^ letters).bit_count() > 2 * maxdist:
                    continue
                if _within(word[1:], candidate[1:], maxdist):
                    frequency = reader.frequency(self.field_name, candidate) or 1
                    item = (0 - (maxdist + (1.0 / frequency * 0.5)), candidate)
                    if best is None or item > best:
                        best = item
        return best[1] if best else None


def _posting_blocks(matcher):
    """A term's postings as (ids, weights) sequences, one on-disk block at a time.

    whoosh3's block matcher is read directly (its decoded block arrays), which is what makes term
    at a time scoring cheap; any other matcher (inlined postings, deletions) goes one by one.
    """
    if type(matcher) is W3LeafMatcher:
        while True:
            matcher._read_ids()
            matcher._read_weights()
            yield matcher._ids, matcher._weights
            if matcher._lastblock:
                return
            matcher._goto(matcher._nextoffset)
    ids, weights = [], []
    while matcher.is_active():
        ids.append(matcher.id())
        weights.append(matcher.weight())
        matcher.next()
    yield ids, weights


class _Postings:
    """A term's documents (ascending) and their boosted BM25F scores, with the highest score."""

    __slots__ = ("ids", "scores", "best")

    def __init__(self, ids: array, scores: array):
        self.ids = ids
        self.scores = scores
        self.best = max(scores)

    def __len__(self) -> int:
        return len(self.ids)


def _result_bytes(result: SearchResult) -> int:
    """A kept result's weight: its hits' strings and objects (weighed without walking each
    object, which would cost a good part of a search)."""
    hits = sum(HIT_BYTES + sys.getsizeof(hit.title) + sys.getsizeof(hit.snippet) + sys.getsizeof(hit.entry)
               for hit in result.hits)
    return ENTRY_BYTES + sys.getsizeof(result) + sys.getsizeof(result.query) + sys.getsizeof(result.hits) + hits


def _postings_bytes(postings: _Postings) -> int:
    """One cached term's weight: its two arrays, the object and the entry's bookkeeping."""
    return sys.getsizeof(postings.ids) + sys.getsizeof(postings.scores) + sys.getsizeof(postings) + ENTRY_BYTES


def _length_bytes(reader, field_name: str) -> bytes:
    """The encoded length (one byte, as Whoosh stores it) of ``field_name`` in every document."""
    count = reader.doc_count_all()
    column = None
    try:  # whoosh3 (pinned): a one-byte numeric column per field
        column = reader._perdoc._cached_reader(_lenfield(field_name), LENGTHS_COLUMN)
        raw = column._dbfile.get(column._basepos, min(column._count, count)) if column._fixedlen == 1 else None
    except AttributeError:
        raw = None
    if column is None and raw is None:
        return bytes(count)
    if raw is None:
        return bytes(length_to_byte(reader.doc_field_length(d, field_name, 0) or 0) for d in range(count))
    return bytes(raw) + bytes(count - len(raw))


def _without_stem_caches(analyzer) -> None:
    """Switch off the caches of the analyzer's stem filters (each word's analysis is cached by
    the generation, bounded in bytes; Whoosh's would keep up to 50,000 more words per filter)."""
    for item in getattr(analyzer, "items", ()):
        if isinstance(item, StemFilter) and item.cachesize is not None:
            item.cachesize = None
            item.clear()


class _Generation:
    def __init__(self, path: str, sizes: CacheSizes | None = None):
        if not os.path.exists(os.path.join(path, MARKER)):
            raise IndexUnavailable(f"{path} is not an index built by this service")
        sizes = sizes or CacheSizes()
        self.path = path
        self.index = whoosh_index.open_dir(path)
        self.schema = self.index.schema
        self.info = json.loads(Path(path, MARKER).read_text())
        self._local = threading.local()
        self._analyzers = {id(self.schema[name].analyzer): self.schema[name].analyzer for name in self.schema.names()}
        for analyzer in self._analyzers.values():
            _without_stem_caches(analyzer)
        self.postings_cache = ByteCache(sizes.postings_bytes, sizeof=_postings_bytes)
        # Terms no document has: only their keys, a bounded number of them (the oldest go first).
        self.missed_terms = ByteCache(sizes.missed_terms * ENTRY_BYTES, "fifo", sizeof=lambda _found: ENTRY_BYTES)
        self.words = ByteCache(sizes.words_bytes)
        self.texts = ByteCache(sizes.texts_bytes)
        self.documents = ByteCache(sizes.documents_bytes, "fifo")
        self.highlight_tokens = {
            lang: _CachedTokens(self.schema[f.body_field(lang)].analyzer, lang, self.documents) for lang in LANGS
        }
        self._word_terms = self.words.memoize(key=lambda analyzer, word: ("terms", analyzer, word))(self._analyze_word)
        self._lengths: dict[tuple[int, str], bytes] = {}
        self._norms: dict[str, list[float]] = {}
        self._docinfo: list[tuple[str, str, str, str] | None] = [None] * self.index.doc_count_all()
        self._spelling: _Spelling | None = None
        self.suggest = self.words.memoize(key=lambda word, maxdist: ("suggest", word, maxdist))(self._suggest_word)
        self.known_word = self.words.memoize(key=lambda word: ("known", word))(self._known_word)
        self.snippet = self.texts.memoize(key=lambda text, lang, matched: ("snippet", text, lang, matched))(self._snippet)
        self.hit_text = self.documents.memoize(key=lambda key: ("hit", key))(self._hit_text)

    def searcher(self):
        searcher = getattr(self._local, "searcher", None)
        if searcher is None:
            searcher = self.index.searcher()
            self._local.searcher = searcher
        return searcher

    def _analyze_word(self, analyzer: int, word: str) -> tuple[str, ...]:
        return tuple(t.text for t in self._analyzers[analyzer](word))

    def analyze(self, field_name: str, text: str, memo: dict | None = None) -> list[str]:
        """The field's terms of ``text`` (distinct, in order): the analysis of each word, cached
        per analyzer (a language's title, keywords and body fields share theirs). ``memo`` keeps
        the terms per analyzer while one text is analysed for several fields.

        Same terms as analysing the whole text: every field's tokenizer is ``TOKEN_PATTERN`` and
        every filter works on one token at a time.
        """
        analyzer = id(self.schema[field_name].analyzer)
        if memo is not None and analyzer in memo:
            return memo[analyzer]
        terms: dict[str, None] = {}
        for word in TOKEN_PATTERN.findall(text):
            for term in self._word_terms(analyzer, word):
                terms[term] = None
        found = list(terms)
        if memo is not None:
            memo[analyzer] = found
        return found

    # -- term at a time BM25F --------------------------------------------------------------
    def _norm(self, searcher, field_name: str, b: float, k1: float) -> list[float]:
        """BM25's length normalisation ``K1 * (1 - B + B * length / average)`` by length byte."""
        norm = self._norms.get(field_name)
        if norm is None:
            average = searcher.avg_field_length(field_name) or 1
            norm = [k1 * ((1 - b) + b * byte_to_length(byte) / average) for byte in range(256)]
            self._norms[field_name] = norm
        return norm

    def _leaf_lengths(self, leaf: int, reader, field_name: str) -> bytes:
        key = (leaf, field_name)
        lengths = self._lengths.get(key)
        if lengths is None:
            lengths = self._lengths[key] = _length_bytes(reader, field_name)
        return lengths

    def postings(self, field_name: str, token: str, boost: float) -> _Postings | None:
        """(document numbers, boosted BM25F scores) of one term, or None if no document has it."""
        key = (field_name, token, boost)
        if key in self.missed_terms:  # first: a query's words are missing from most fields
            return None
        found = self.postings_cache.get(key)
        if found is not None:
            return found
        found = self._read_postings(field_name, token, boost)
        if found is None:
            self.missed_terms.put(key, True)
        else:
            self.postings_cache.put(key, found)
        return found

    def _read_postings(self, field_name: str, token: str, boost: float) -> _Postings | None:
        searcher = self.searcher()
        weighting = searcher.weighting
        if not isinstance(weighting, BM25F) or not self.schema[field_name].scorable:
            raise TypeError("term at a time scoring needs BM25F on a scorable field")
        try:
            info = searcher.reader().term_info(field_name, token)
        except TermNotFound:
            return None
        if type(weighting).idf is WeightingModel.idf:  # its formula, from the term info just read
            idf = math.log(searcher.doc_count_all() / (info.doc_frequency() + 1)) + 1
        else:
            idf = searcher.idf(field_name, token)
        b, k1 = weighting._field_B.get(field_name, weighting.B), weighting.K1
        norm = self._norm(searcher, field_name, b, k1)
        factor = idf * (k1 + 1) * boost
        ids, scores = array("i"), array("d")
        for leaf, (sub, offset) in enumerate(searcher.leaf_searchers()):
            reader = sub.reader()
            try:
                matcher = reader.postings(field_name, token)
            except TermNotFound:
                continue
            lengths = self._leaf_lengths(leaf, reader, field_name)
            for block_ids, weights in _posting_blocks(matcher):
                ids.extend([d + offset for d in block_ids] if offset else block_ids)
                scores.extend([factor * w / (w + norm[lengths[d]]) for d, w in zip(block_ids, weights)])
        return _Postings(ids, scores) if ids else None

    def top(self, terms: list[tuple[str, str, float]], count: int, allowed: frozenset[int] | None = None) -> list[tuple[int, float]]:
        """The ``count`` best (document number, score) for the OR of ``terms`` (field, token, boost).

        The score is what Whoosh gives ``Or([Term(field, token, boost=...)], scale=COORD_SCALE)``:
        the sum of the matching terms' BM25F scores, plus ``(matching - 1) / (T - scale)**2``,
        times ``(T - 1) / T``, T being the number of terms that occur in the index. The bonus is
        added per posting (``bonus`` each, one taken off at the end), so one pass suffices.

        Terms go highest possible share first (MaxScore): once the shares still to come cannot
        lift a document that has none of the terms so far to the ``count``-th score, the long
        lists of common words only add to the documents that can still make it. Exact.
        """
        lists = sorted((p for p in (self.postings(*term) for term in terms) if p is not None), key=lambda p: -p.best)
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
                threshold = self._threshold(scores, count, allowed)
                if threshold is not None and remaining[i] < threshold:
                    scores = self._finish(scores, lists[i:], bonus, threshold - remaining[i], allowed)
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

    @staticmethod
    def _threshold(scores: dict[int, float], count: int, allowed: frozenset[int] | None) -> float | None:
        """The ``count``-th best score so far (a lower bound of the final one), None if fewer."""
        values = scores.values() if allowed is None else [v for d, v in scores.items() if d in allowed]
        if len(values) < count:
            return None
        return heapq.nlargest(count, values)[-1]

    @staticmethod
    def _finish(scores, lists: list[_Postings], bonus: float, floor: float, allowed) -> dict[int, float]:
        """Add ``lists`` to the documents whose score so far is at least ``floor`` (the others
        cannot reach the best any more); documents not yet found are not added."""
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

    def docinfo(self, docnum: int) -> tuple[str, str, str, str]:
        """(kind, game, entry, lang) of a document, kept once read in a list by document number:
        read for every document a search finds, so a list index, not a cache lookup. Its size is
        the index's (about 100 bytes a document: the strings are interned, shared by all)."""
        info = self._docinfo[docnum]
        if info is None:
            stored = self.searcher().stored_fields(docnum)
            info = tuple(sys.intern(stored[name]) for name in (f.KIND, f.GAME, f.ENTRY, f.LANG))
            self._docinfo[docnum] = info
        return info

    def _snippet(self, text: str, lang: str, matched: frozenset[str]) -> str:
        """The text's best two fragments around the ``matched`` terms (the query's terms that the
        text has: the highlight depends on nothing else, so it is kept per (text, terms)).

        Whoosh's ``highlight.highlight(text, matched, analyzer, ContextFragmenter(maxchars=220,
        surround=60), HtmlFormatter(tagname="mark", between=" … "), top=2)``, its fragmenter run
        over the text's cached spans (``_context_fragments``).
        """
        if matched:
            fragments = highlight.top_fragments(
                _context_fragments(text, self.highlight_tokens[lang].spans(text).spans, matched),
                2, highlight.BasicFragmentScorer(), highlight.FIRST, 1,
            )
            fragment = highlight.HtmlFormatter(tagname="mark", between=" … ")(text, fragments)
            if fragment:
                return fragment
        return str(escape(text[:200] + ("…" if len(text) > 200 else "")))

    def _hit_text(self, key: str) -> tuple[str, str, frozenset[str]] | None:
        """The title, text and the text's terms of the document with this KEY (None if there
        is none): what a hit shows, in one lookup."""
        searcher = self.searcher()
        docnum = searcher.document_number(**{f.KEY: key})
        if docnum is None:
            return None
        stored = searcher.stored_fields(docnum)
        title, body, lang = stored[f.TITLE_TEXT], stored[f.BODY_TEXT], stored[f.LANG]
        return title, body, self.highlight_tokens[lang].spans(body).terms if body else frozenset()

    def _known_word(self, word: str) -> bool:
        """Whether the content has ``word`` (a word of the spelling field)."""
        return (f.WORDS, word) in self.searcher().reader()

    def _suggest_word(self, word: str, maxdist: int) -> str | None:
        """The correction ``searcher.suggest(WORDS, word, limit=1, maxdist=maxdist, prefix=1)`` gives."""
        reader = self.searcher().reader()
        if self._spelling is None:
            self._spelling = _Spelling(reader, f.WORDS)
        return self._spelling.suggest(reader, word, maxdist)

    def game_docs(self, game: str) -> frozenset[int]:
        key = ("game", game)
        docs = self.texts.get(key)
        if docs is None:
            docs = frozenset(self.searcher().docs_for_query(Term(f.GAME, game)))
            self.texts.put(key, docs)
        return docs


class SearchIndex:
    def __init__(self, link: Path, sizes: CacheSizes | None = None):
        self.link = Path(link)
        self.sizes = sizes or CacheSizes()
        self._generation: _Generation | None = None
        self._target: str | None = None  # the link's text when the generation was resolved
        self._lock = threading.Lock()
        self.results = ByteCache(self.sizes.results_bytes, sizeof=_result_bytes)  # emptied at a switch

    def generation(self) -> _Generation:
        """The generation the link points at: one ``readlink`` while it is unchanged (a rebuild
        switches the link to a new directory name), the full ``realpath`` otherwise."""
        try:
            target = os.readlink(self.link)
        except OSError:  # not a link (or gone): resolve every time
            target = None
        current = self._generation
        if current is not None and target is not None and target == self._target:
            return current
        real = os.path.realpath(self.link)
        with self._lock:
            if self._generation is None or self._generation.path != real:
                if not os.path.isdir(real):
                    raise IndexUnavailable(f"no index at {self.link}")
                self._generation = _Generation(real, self.sizes)
                self.results.clear()
            self._target = target
            return self._generation

    # -- queries -------------------------------------------------------------------------
    def _terms(self, gen: _Generation, text: str, memo: dict | None = None) -> list[tuple[str, str, float]]:
        """(field, token, boost) of the query in every language's fields and the prefixes."""
        memo = {} if memo is None else memo
        parts = []
        for lang in LANGS:
            for kind, weight in WEIGHTS.items():
                name = f"{kind}_{lang}"
                parts.extend((name, token, weight) for token in gen.analyze(name, text, memo))
        parts.extend((f.PREFIXES, p, PREFIX_WEIGHT) for p in gen.analyze(f.PREFIXES, text, memo))
        return parts

    def _unknown_words(self, gen: _Generation, text: str) -> list[str]:
        return [w for w in TOKEN_PATTERN.findall(text.lower()) if len(w) >= 3 and not gen.known_word(w)]

    def _suggest(self, gen: _Generation, text: str) -> str | None:
        words = TOKEN_PATTERN.findall(text)
        unknown = set(self._unknown_words(gen, text))
        if not unknown:
            return None
        changed = False
        out = []
        for word in words:
            if word.lower() in unknown:
                found = gen.suggest(word.lower(), 2 if len(word) >= 8 else 1)
                if found:
                    out.append(found)
                    changed = True
                    continue
            out.append(word)
        return " ".join(out) if changed else None

    def _run(self, gen: _Generation, terms, game: str | None, limit: int) -> list[tuple[int, float]]:
        return gen.top(terms, limit * 6 + 12, gen.game_docs(game) if game else None)

    def _collapse(self, gen: _Generation, results, lang: str) -> "OrderedDict[tuple, float]":
        best: OrderedDict[tuple, float] = OrderedDict()
        for docnum, score in results:
            kind, game, entry, doc_lang = gen.docinfo(docnum)
            key = (kind, game, entry)
            score = score * (READER_LANG_BONUS if doc_lang == lang else 1.0)
            if score > best.get(key, 0.0):
                best[key] = score
        return OrderedDict(sorted(best.items(), key=lambda kv: -kv[1]))

    @staticmethod
    def _snippet(gen: _Generation, text: str, text_terms: frozenset[str], terms: frozenset[str], lang: str) -> str:
        if not text:
            return ""
        return gen.snippet(text, lang, terms.intersection(text_terms))

    def search(self, text: str, lang: str, game: str | None = None, limit: int = 10, kinds: tuple[str, ...] | None = None) -> SearchResult:
        gen = self.generation()
        query_text = clean_query(text)
        limit = max(1, min(limit, MAX_LIMIT))
        cache_key = (gen.path, query_text, lang, game, limit, kinds)
        cached = self.results.get(cache_key)
        if cached is not None:
            return cached
        result = SearchResult(query=query_text, lang=lang)
        analysed: dict = {}
        terms = self._terms(gen, query_text, analysed)
        collapsed: OrderedDict = OrderedDict()
        if terms:
            collapsed = self._collapse(gen, self._run(gen, terms, game, limit), lang)
        if query_text:
            result.suggestion = self._suggest(gen, query_text)
        if result.suggestion and len(collapsed) < 3:
            # Typo tolerance only where exact matching found little: search the corrected words too.
            corrected = self._terms(gen, result.suggestion)
            if corrected:
                for key, score in self._collapse(gen, self._run(gen, corrected, game, limit), lang).items():
                    collapsed.setdefault(key, score * CORRECTED_WEIGHT)
        snippet_terms = frozenset(gen.analyze(f.body_field(lang), query_text, analysed))
        for (kind, game_slug, entry), score in collapsed.items():
            if kinds and kind not in kinds:
                continue
            found = gen.hit_text(f"{kind}:{game_slug}:{entry}:{lang}")
            if found is None:
                continue
            title, body, body_terms = found
            result.hits.append(Hit(kind, game_slug, entry, title, self._snippet(gen, body, body_terms, snippet_terms, lang), round(score, 4)))
            if len(result.hits) >= limit:
                break
        self.results.put(cache_key, result)
        return result

    def related(self, kind: str, game: str, entry: str, lang: str, limit: int = 4) -> list[str]:
        """Entries of the same kind and game most like this one (more-like-this on its text).

        Kept per generation: they depend on nothing else.
        """
        gen = self.generation()
        key = ("related", kind, game, entry, lang, limit)
        found = gen.texts.get(key)
        if found is None:
            found = tuple(self._related(gen, kind, game, entry, lang, limit))
            gen.texts.put(key, found)
        return list(found)

    def _related(self, gen: _Generation, kind: str, game: str, entry: str, lang: str, limit: int) -> list[str]:
        searcher = gen.searcher()
        docnum = searcher.document_number(**{f.KEY: f"{kind}:{game}:{entry}:{lang}"})
        if docnum is None:
            return []
        stored = searcher.stored_fields(docnum)
        text = f"{stored[f.TITLE_TEXT]} {stored[f.TITLE_TEXT]} {stored[f.BODY_TEXT]}"
        name = f.body_field(lang)
        filt = And([Term(f.GAME, game), Term(f.KIND, kind), Term(f.LANG, lang)])
        hits = searcher.more_like(docnum, name, text=text, top=limit + 1, numterms=12, filter=filt)
        return [h[f.ENTRY] for h in hits if h[f.ENTRY] != entry][:limit]
