"""Answering queries from the index: the only code that opens it.

One ``SearchIndex`` per process keeps the opened generations' caches and a pool of warm
searchers, one lent to each search under way; which generation answers is the caller's
(``rules_index.web.state`` opens and installs the one of its snapshot).

A query is cleaned and its game's name and stop words taken out (``query``); scored with BM25F
over every language's fields and the word prefixes, each asked word counting its best match whole
and a share of the others (``scoring``); its unknown words corrected (``spelling``), the words as
typed searched only when the correction finds nothing; and the leading answers weighed by how
well their own question fits (``_weigh_questions``). Answers come first; the first is flagged
``best`` only when it clearly leads (``answer_confidence``), else the two or three that fit about
as well are flagged ``close``.

Every cache is per generation and bounded, so a flood of new words cannot grow a process without
end: term postings in bytes (``SEARCH_POSTINGS_CACHE_BYTES``), least frequently used out, since a
common word's long postings serve many queries; the others in entries (``MAX_ENTRIES``).
"""
from __future__ import annotations

import json
import math
import os
import re
import threading
from array import array
from bisect import bisect_left
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable, Iterator

from whoosh import index as whoosh_index
from whoosh.query import And, Term

from cachetools import LFUCache, LRUCache

from rules_index.caches import MiB, Cache
from rules_index.folding import TOKEN_PATTERN, fold

from . import schema as f
from .analysis import LANGS, separable_verbs
from .build import MARKER
from .documents import COMPONENTS_ID, CREDITS_ID, FACTS_ID
from .link import IndexLink
from .query import (THE_GAME, GameNames, in_rules_words, PlayersWords, all_stopwords, asks_what_it_is, clean_query, content_words, question_kinds,
                    scoring_words)
from .scoring import field_lengths, one_word, postings_bytes as postings_bytes_of, read_postings, top
from .snippets import CachedTokens, answer_snippet, text_snippet
from .spelling import Spelling, doublings, language_knows, plainly_of_another_language, rather_a_word, transpositions

MAX_LIMIT = 50
POSTINGS_BYTES = 128 * MiB  # the default of SEARCH_POSTINGS_CACHE_BYTES
# The most entries each of a generation's other caches keeps.
MAX_ENTRIES = {"missed": 4096, "analyses": 32768, "lines": 16384, "words": 8192, "spans": 8192, "snippets": 8192,
               "documents": 16384, "texts": 4096, "results": 1024}
# Searchers a new generation opens ahead: as many as the previous one lent at once, at most this.
MAX_READY_SEARCHERS = 16
# Field weights: the question outranks players' words, which outrank the answer.
WEIGHTS = {"title": 4.0, "keywords": 2.5, "body": 1.0}
PREFIX_WEIGHT = 0.6
# A part of a compound asked ("Spieler" of "Startspieler") weighs this share of the compound's
# weight; only German's analysis splits compounds.
PART_WEIGHT = 0.5
COMPOUNDING = ("de",)
CORRECTED_WEIGHT = 0.8
READER_LANG_BONUS = 1.15  # per term, on the fields of the reader's language
# One asked word's matches in a document: the best one counts whole, the others (the same word in
# its other fields, its prefix, the rulebooks' words for a players' word) this share of theirs
# (``scoring.one_word``). Calibrated on the tuning sets and eval/situations.yaml.
WORD_OVERLAP = 0.2
ANSWER_KINDS = ("faq", "fact")
TITLE_FACTS = (FACTS_ID, CREDITS_ID, COMPONENTS_ID)  # a game's name alone: these, in this order
SHOWN_ORDER = {"faq": 0, "fact": 0, "section": 1, "glossary": 2, "mistake": 3}
# A glossary term that scores this many times the best answer is what was asked ("mercenary",
# another edition's name of a character): it is shown first, and no answer is put forward.
TERM_LEAD = 1.5
# ... or this many times, when the question asks what a thing is or does ("Was macht der
# Baumeister?", ``query.asks_what_it_is``): what its glossary entry says.
WHAT_TERM_LEAD = 1.0
# A rules section that scores this many times the best answer, both weighed (``_weigh_questions``):
# the question is about the rules at large ("How do you set it up?"), which the rules summary
# answers better than any one answer: the section is shown first and no answer is put forward.
# Calibrated on the tuning sets and eval/rules-at-large.yaml: at 1.0 the section led for 0.87 of
# the latter, but 72 right cards of the former went; at 1.5, 0.63 and 4; at 2.0, 0.47 and 1.
# A section also leads, whatever its score, when players ask for it just as it was asked (one of
# its ways of asking holds the asked words and no others: "How do you win?" of "how do you win web
# of power") and no answer shown is asked so: the tie-break answer outscored the goal of the game
# on "win". With no game named, only where an asked word is the section's game's alone
# (``SearchIndex.exact_fits``). On the tuning sets, with the sections' ways of asking that a fact
# answers removed: rules at large led 0.633 -> 0.667, 1 right card more.
SECTION_LEAD = 1.5
# The answer card (``answer_confidence``): the first answer clearly leads when the next one scores
# under ``CARD_MARGIN`` of it; else the answers within it (at most ``MAX_CLOSE``) are shown side by
# side. Calibrated on the tuning sets for a card right at least 97 % of the times it is shown
# (eval/held-out-*.yaml measure it unseen).
CARD_MARGIN = 0.88
MAX_CLOSE = 3
# An answer to the same question in another game within this share of the first, when the asker
# named no game and no asked word belongs to the first answer's game alone (``tells_games_apart``):
# which game's verdict applies is open, so no card.
NAMESAKE_MARGIN = 0.5
# ... and an answer of another game under another id that is asked about the asked words too
# ("tie breaker": each game's answer on ties has its own id), within this share of the first.
OTHER_NAMESAKE_MARGIN = 0.8
# The leading answers (``REWEIGHED``) gain up to this share of their score for the asked words
# that their own question holds (``_weigh_questions``).
QUESTION_WEIGHT = 0.3
# ... and up to this share for how near players' nearest way of asking it comes to the asked words.
ASKED_WEIGHT = 0.3
# ... and up to this share for the share of the asked words it holds in any of its fields and
# languages: the words one answer holds and another lacks ("AAB", "hand", "lay out") weigh beside
# one word that both hold and a rare one scores high ("castle" in most answers of one game).
WORDS_WEIGHT = 0.3
REWEIGHED = 6
SECTIONS_REWEIGHED = 2  # the leading rules sections, weighed the same way (``SECTION_LEAD``)
# ... and this share when its question asks for the kind of answer the asked words do ("how many",
# "who", "when": ``query.question_kinds``).
KIND_WEIGHT = 0.3
# The fields of what an answer is asked about: its question, its keywords and players' words.
ASKED_FIELDS = (f.title_field(""), f.keywords_field(""))
# The card, and each answer shown side by side, claims to answer the question asked: it is asked
# about (``ASKED_FIELDS``) at least this share of the asked words, each weighed by how much it
# tells (``_Generation.word_weight``). A question the content does not answer ("How much does Web
# of Power cost?", "Was macht der Butler?") otherwise got a card for a common word it shares
# ("cost", "macht") while the word it is about is in no answer's question. Calibrated on the
# tuning sets and eval/out-of-scope.yaml.
CARD_ASKED_SHARE = 0.37
# ... and its own question must fit what was asked: the weighing (``_weigh_questions``) must have
# raised it by at least this share. An answer that leads only on words of its text ("Is Citadels
# worth buying?": the answer on gold at the end) fits no question asked of it. Calibrated on the
# tuning sets and the out-of-scope ones (cards 18 and 19 of 90 -> 11 and 12; no right card fewer).
CARD_FIT = 0.25
WORD_FIELDS = (*ASKED_FIELDS, f.body_field(""))  # every field of words, not the word prefixes


def answer_confidence(answers: list[tuple[tuple, float]]) -> tuple[tuple | None, frozenset]:
    """(the answer that clearly leads, or None; if none does, the answers that fit about as well
    as the first). ``answers``: (key, score), best first."""
    if not answers:
        return None, frozenset()
    (first_key, first), rest = answers[0], answers[1:]
    second = rest[0][1] if rest else 0.0
    if second < first * CARD_MARGIN:
        return first_key, frozenset()
    return None, frozenset(key for key, score in answers[:MAX_CLOSE] if score >= first * CARD_MARGIN)


def at_a_glance(game: str, first: frozenset[str] = frozenset()) -> dict[tuple, float]:
    """A game's facts, credits and components as hits, in that order (``TITLE_FACTS``), those of
    ``first`` before the others."""
    ordered = sorted(TITLE_FACTS, key=lambda fact: fact not in first)
    return {("fact", game, fact): float(len(ordered) - rank) for rank, fact in enumerate(ordered)}


def section_leads(chosen: list[tuple[tuple, float]], asked_exactly: Callable[[], frozenset] = frozenset
                  ) -> tuple[tuple, float] | None:
    """The rules section that is what was asked, if any (``chosen``: (key, score) of the hits
    shown): one that scores ``SECTION_LEAD`` times every answer (players ask it exactly as asked,
    if one of those is such), else the best one that players ask exactly as asked while they ask
    no answer shown so (``asked_exactly``: those hits' keys)."""
    answer = max((score for key, score in chosen if key[0] in ANSWER_KINDS), default=0.0)
    sections = [(key, score) for key, score in chosen if key[0] == "section"]
    if answer <= 0 or not sections:
        return None
    leading = [kv for kv in sections if kv[1] >= SECTION_LEAD * answer]
    if len(leading) == 1:
        return leading[0]
    exactly = asked_exactly()
    if leading:  # of those, one players ask just so ("Explain the game" before "board explained")
        return max([kv for kv in leading if kv[0] in exactly] or leading, key=lambda kv: kv[1])
    if any(key in exactly for key, _score in chosen if key[0] in ANSWER_KINDS):
        return None
    return max((kv for kv in sections if kv[0] in exactly), key=lambda kv: kv[1], default=None)


def term_asked(chosen: list[tuple[tuple, float]], lead: float = TERM_LEAD) -> tuple[tuple, float] | None:
    """The glossary hit that outscores every answer ``lead`` times, if any (``chosen``: (key,
    score) of the hits shown)."""
    answer = max((score for key, score in chosen if key[0] in ANSWER_KINDS), default=0.0)
    term = max(((key, score) for key, score in chosen if key[0] == "glossary"), key=lambda kv: kv[1], default=None)
    return term if term is not None and term[1] >= lead * answer else None


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
    best: bool = False   # the answer card: this answer clearly leads
    close: bool = False  # one of two or three answers that fit about as well (shown side by side)


@dataclass
class SearchResult:
    query: str
    lang: str
    hits: list[Hit] = field(default_factory=list)
    suggestion: str | None = None
    game: str | None = None  # the game a name in the query picked
    corrected: bool = False  # the hits are the suggestion's ("Showing results for"), not the words as typed
    # A word alone that names no game ("Dieb", "rules"), or the rules at large of several games
    # ("Wie läuft ein Zug ab?"): which game is meant is open.
    subject: bool = False
    # ... and the games of the hits that hold the word itself, not only its first letters, in the
    # order of the hits: "Händler" is no word of Adel Verpflichtet, though its prefix matches
    # "Handlungskarte" there.
    subject_games: tuple[str, ...] = ()


@dataclass(frozen=True)
class Answer:
    """What the weighing and the card read of one answer (``_Generation.answer``)."""
    docs: frozenset[int]  # its live documents, one per language
    question: dict[str, frozenset[str]]  # per language: the terms of its question, what it names (a fact: how asked)
    asked: dict[str, tuple[frozenset[str], ...]]  # per language: the terms of each of players' ways of asking it
    phrased: dict[str, frozenset[str]]  # per language: every term of those ways of asking
    kinds: frozenset[str]  # the kinds of answer its question asks for, in any language (``query.question_kinds``)
    phrasing_kinds: frozenset[str]  # ... and those players' ways of asking it ask for
    # per language: the same ways of asking as (terms, kinds of answer asked for), a set for the
    # exact fit's look-ups; the weighing's loop reads ``asked``, a tuple of terms alone
    exactly: dict[str, frozenset[tuple[frozenset[str], frozenset[str]]]]


class Analyses:
    """How a generation analyses text, and what it worked out that depends on that alone: each
    word's terms, a text's highlight spans, snippets. Nothing here refers to the generation."""

    def __init__(self, schema):
        self.fields = {name: schema[name].analyzer for name in schema.names()}
        self.by_id = {id(analyzer): analyzer for analyzer in self.fields.values()}
        self.cache = Cache(LRUCache(MAX_ENTRIES["analyses"]))
        self.spans = Cache(LRUCache(MAX_ENTRIES["spans"]))
        self.snippets = Cache(LRUCache(MAX_ENTRIES["snippets"]))
        self.highlight_tokens = {
            lang: CachedTokens(self.fields[f.body_field(lang)], lang, self.spans) for lang in LANGS
        }
        self.word_terms = self.cache.memoize()(self._analyze_word)
        # A German verb split in two is joined over its clause (``analysis.SeparableVerbFilter``):
        # a text analysed word by word is joined first, as the index joined it.
        self.verbs = {id(analyzer): found for analyzer in self.fields.values() if (found := separable_verbs(analyzer))}
        # Players' ways of asking, a line each: analysed once for every generation that analyses
        # alike (a switch starts with its caches empty, and readers must not pay for them again).
        self.lines = Cache(LRUCache(MAX_ENTRIES["lines"]))
        self.line_terms = self.lines.memoize()(self._analyze_line)
        # The matched terms in a sorted tuple, not the frozenset given: a key of strings and tuples
        # of strings is left out of the garbage collector's passes, a frozenset never is.
        self.snippet = self.snippets.memoize(
            key=lambda kind, text, lang, matched: (kind, text, lang, tuple(sorted(matched))))(self._snippet)

    def fits(self, schema) -> bool:
        """Whether ``schema`` analyses every field as these analyses do (then they can be shared)."""
        return {name: schema[name].analyzer for name in schema.names()} == self.fields

    def _analyze_word(self, analyzer: int, word: str) -> tuple[str, ...]:
        return tuple(t.text for t in self.by_id[analyzer](word))

    def rejoined(self, analyzer: int, text: str) -> str:
        """``text`` with its split German verbs joined as the analyzer joins them (unchanged for
        an analyzer that joins none)."""
        verbs = self.verbs.get(analyzer)
        return verbs.rejoined(text) if verbs is not None else text

    def _analyze_line(self, analyzer: int, line: str) -> frozenset[str]:
        return frozenset(term for word in TOKEN_PATTERN.findall(self.rejoined(analyzer, line))
                         for term in self.word_terms(analyzer, word))

    def _snippet(self, kind: str, text: str, lang: str, matched: frozenset[str]) -> str:
        tokens = self.highlight_tokens[lang]
        if kind == "faq":
            return answer_snippet(text, matched, tokens)
        return text_snippet(text, matched, tokens)


class _Generation:
    """One built index, opened, with its caches."""

    def __init__(self, path: str, postings_bytes: int = POSTINGS_BYTES, readers: int = 0,
                 analyses: Analyses | None = None, spellings: dict | None = None):
        """``readers``: how many searchers ``warm`` opens ahead; ``analyses`` and ``spellings``:
        the previous generation's, reused where this one analyses alike or shares segments."""
        if not os.path.exists(os.path.join(path, MARKER)):
            raise IndexUnavailable(f"{path} is not an index built by this service")
        self.path = path
        self.index = whoosh_index.open_dir(path)
        self.schema = self.index.schema
        self.info = json.loads(Path(path, MARKER).read_text())
        self.game_names = GameNames(self.info.get("games", {}))
        self.players = PlayersWords(self.info.get("lexicon"))
        self._local = threading.local()  # the searcher lent to this thread's search under way
        self.readers = min(max(readers, 1), MAX_READY_SEARCHERS)
        self._idle: list = []  # searchers not lent now: opened ahead, or given back
        self._pool_lock = threading.Lock()
        self._lent = 0
        self.peak = 0  # the most searchers lent at once: how many the next generation opens ahead
        self.analyses = analyses if analyses is not None and analyses.fits(self.schema) else Analyses(self.schema)
        self.postings_cache = Cache(LFUCache(postings_bytes, getsizeof=postings_bytes_of))
        self.missed_terms = Cache(LRUCache(MAX_ENTRIES["missed"]))  # terms no document has
        self.words = Cache(LRUCache(MAX_ENTRIES["words"]))
        self.texts = Cache(LRUCache(MAX_ENTRIES["texts"]))
        self.documents = Cache(LRUCache(MAX_ENTRIES["documents"]))
        self.highlight_tokens = self.analyses.highlight_tokens
        self.snippet = self.analyses.snippet
        self._spellings: dict[str, Spelling] = {}
        self._earlier_spellings = dict(spellings or {})  # let go of once read
        self._lengths: dict[str, array] = {}

    def warm(self) -> None:
        """Read every language's spelling words (seconds at 30,000 entries: a reader must not wait
        for them) and open the ``readers`` searchers of the pool. Runs in a thread of its own."""
        with self.borrowed():
            for lang in LANGS:
                self.spelling(lang)
        self.peak = 0  # warming is no reader
        for _ in range(self.readers - len(self._idle)):
            opened = self.index.searcher()
            with self._pool_lock:
                self._idle.append(opened)

    @contextmanager
    def borrowed(self) -> Iterator[None]:
        """Lend this thread a searcher of the pool for the block (one opened if none is idle; a
        thread already lent one keeps it), and take it back after: Whoosh's searchers are not for
        two threads at once."""
        if getattr(self._local, "lent", None) is not None:
            yield
            return
        with self._pool_lock:
            lent = self._idle.pop() if self._idle else None
            self._lent += 1
            self.peak = max(self.peak, self._lent)
        try:
            if lent is None:
                lent = self.index.searcher()  # opening one reads every segment's headers, 2-15 ms
            self._local.lent = lent
            self._local.read = {}
            yield
        finally:
            self._local.lent = self._local.read = None
            with self._pool_lock:
                self._lent -= 1
                if lent is not None:
                    self._idle.append(lent)

    def retire(self) -> None:
        """Empty this generation's caches: readers have a newer one, and a search still under way
        here must not keep them all alive until it ends."""
        for cache in (self.postings_cache, self.missed_terms, self.words, self.texts, self.documents):
            cache.clear()

    def searcher(self):
        """The searcher of this thread's search under way (``borrowed``); outside a lending block,
        a searcher of the thread's own, opened on first use and kept with the generation."""
        lent = getattr(self._local, "lent", None)
        if lent is None:
            lent = getattr(self._local, "own", None)
            if lent is None:
                lent = self._local.own = self.index.searcher()
        return lent

    def rejoined(self, text: str) -> str:
        """A question with its split German verbs joined (``analysis.SeparableVerbFilter``), in
        any language: a German question may be asked on a page of another."""
        return self.analyses.rejoined(id(self.analyses.fields[f.title_field("de")]), text)

    def analyze(self, field_name: str, text: str, memo: dict | None = None) -> list[str]:
        """The field's terms of ``text`` (distinct, in order), analysed word by word and cached per
        analyzer: the same terms as the whole text, as every filter works on one token at a time.
        ``memo`` keeps the terms per analyzer while one text is analysed for several fields."""
        analyzer = id(self.analyses.fields[field_name])
        if memo is not None and analyzer in memo:
            return memo[analyzer]
        terms: dict[str, None] = {}
        for word in TOKEN_PATTERN.findall(text):
            for term in self.analyses.word_terms(analyzer, word):
                terms[term] = None
        found = list(terms)
        if memo is not None:
            memo[analyzer] = found
        return found

    def compound_parts(self, field_name: str, text: str) -> frozenset[str]:
        """The terms of ``text`` that are only parts of a compound of it ("spiel" of "Startspieler";
        the compound splitter yields a word's whole first, then its parts)."""
        analyzer = id(self.analyses.fields[field_name])
        wholes, parts = set(), set()
        for word in TOKEN_PATTERN.findall(text):
            found = self.analyses.word_terms(analyzer, word)
            wholes.update(found[:1])
            parts.update(found[1:])
        return frozenset(parts - wholes)

    def searched(self, key, make):
        """``make()``, kept for the rest of this thread's search under way (``borrowed``): one
        search never reads the same postings twice, whatever the postings cache lets go meanwhile
        (at 30,000 entries its common words did, between the ranking and the weighing)."""
        read = getattr(self._local, "read", None)
        if read is None:
            return make()
        if key not in read:
            read[key] = make()
        return read[key]

    def postings(self, field_name: str, token: str, boost: float):
        """(document numbers, boosted BM25F scores) of one term, or None if no document has it. A
        term is read once (``_read_postings``, not boosted) and kept with each boost asked for
        (the reader's language weighs its fields more: one term, two boosts)."""
        return self.searched((field_name, token, boost), partial(self._cached_postings, field_name, token, boost))

    def _cached_postings(self, field_name: str, token: str, boost: float):
        key = (field_name, token, boost)
        found = self.postings_cache.get(key)
        if found is not None or self.missed_terms.get(key[:2]):
            return found
        found = self.postings_cache.get(key[:2])
        if found is None:
            found = self._read_postings(field_name, token)
            if found is None:
                self.missed_terms.put(key[:2], True)
                return None
            self.postings_cache.put(key[:2], found)
        if boost != 1.0:
            found = found.boosted(boost)
            self.postings_cache.put(key, found)
        return found

    def _read_postings(self, field_name: str, token: str):
        searcher = self.searcher()
        lengths = self._lengths.get(field_name)
        if lengths is None:  # each scored field's document lengths, read as terms ask for them
            lengths = self._lengths.setdefault(field_name, field_lengths(searcher.reader()))
        return read_postings(searcher, field_name, token, 1.0, lengths)

    def top(self, terms: list[tuple], count: int, allowed: frozenset[int] | None = None):
        """``scoring.top`` of the OR of ``terms``: each a (field, token, boost), or an asked word's
        terms together (a tuple of them, ``SearchIndex.words``), scored as one (``word_postings``)."""
        lists = [self.postings(*term) if isinstance(term[0], str) else self.word_postings(term) for term in terms]
        return top([p for p in lists if p is not None], count, allowed)

    def word_postings(self, terms: tuple[tuple[str, str, float], ...]):
        """The postings of one asked word (``scoring.one_word`` of its terms' postings), or None if
        no document has any of its terms; kept with the terms' own postings."""
        return self.searched(("word", terms, WORD_OVERLAP), partial(self._cached_word_postings, terms))

    def _cached_word_postings(self, terms: tuple[tuple[str, str, float], ...]):
        key = ("word", terms, WORD_OVERLAP)
        found = self.postings_cache.get(key)
        if found is not None or self.missed_terms.get(key):
            return found
        found = one_word([self.postings(*term) for term in terms], WORD_OVERLAP)
        if found is None:
            self.missed_terms.put(key, True)
        else:
            self.postings_cache.put(key, found)
        return found

    def _document(self, docnum: int) -> tuple[str, str, str, str, str, str, str, str]:
        """A document's (kind, game, entry, lang, title, text, named, asked) as stored, kept once read."""
        def read():
            stored = self.searcher().stored_fields(docnum)
            return (*(stored[name] for name in (f.KIND, f.GAME, f.ENTRY, f.LANG, f.TITLE_TEXT, f.BODY_TEXT)),
                    stored.get(f.NAMED, ""), stored.get(f.ASKED, ""))

        return self.documents.remembered(docnum, read)

    def docinfo(self, docnum: int) -> tuple[str, str, str, str]:
        """(kind, game, entry, lang) of a document."""
        return self._document(docnum)[:4]

    def stored(self, docnum: int) -> tuple[str, str]:
        """(title, text) of a document as stored."""
        return self._document(docnum)[4:6]

    def docnum(self, key: str) -> int | None:
        """The document number of a live document's KEY, kept once looked up."""
        return self.documents.remembered(key, lambda: self.searcher().document_number(**{f.KEY: key}))

    def entry_docnum(self, key: tuple, lang: str) -> int | None:
        """The document number of an entry's (kind, game, entry) live document in ``lang``."""
        return self.docnum(":".join((*key, lang)))

    @staticmethod
    def any_holds(postings, docs: frozenset[int]) -> bool:
        """Whether any of ``docs`` is among the postings (None: no document has the term). The
        shorter side is walked: a game's documents are tens of thousands at scale, a rare word's
        postings a handful, and an entry's documents three."""
        if postings is None:
            return False
        ids = postings.ids
        if len(ids) <= len(docs):
            return any(doc in docs for doc in ids)
        for doc in docs:
            at = bisect_left(ids, doc)
            if at < len(ids) and ids[at] == doc:
                return True
        return False

    def words_of(self, text: str, lang: str) -> str:
        """The words of ``text`` that may be searched in the fields of ``lang``: not those plainly
        of another language (``plainly_of_another_language``) that no text of ``lang`` has."""
        return " ".join(word for word in TOKEN_PATTERN.findall(text) if self.words.remembered(
            ("of", word, lang), partial(self._word_of, word, lang)))

    def _word_of(self, word: str, lang: str) -> bool:
        lowered = word.casefold()
        return not plainly_of_another_language(lowered, lang) or self.live_word(f.words_field(lang), lowered)

    def known_word(self, word: str) -> bool:
        """Whether the content has ``word`` in any language (kept once worked out)."""
        return self.words.remembered(("known", word), lambda: any(self.live_word(f.words_field(lang), word) for lang in LANGS))

    def live_word(self, field_name: str, word: str) -> bool:
        """Whether a document of the content has ``word`` in the field. A generation updated in
        place of a rebuild (``incremental``) keeps the replaced documents as deleted ones, and
        their words in the lexicon: those words count only with a live document."""
        reader = self.searcher().reader()
        return (field_name, word) in reader and reader.postings(field_name, word).is_active()

    def spelling(self, lang: str) -> Spelling:
        """The spelling words of a language, read once per generation."""
        found = self._spellings.get(lang)
        if found is None:
            found = self._spellings[lang] = Spelling.read(self.searcher().reader(), f.words_field(lang),
                                                          self._earlier_spellings.pop(lang, None))
        return found

    def spellings_read(self) -> dict[str, Spelling]:
        """The languages' spelling words read so far."""
        return dict(self._spellings)

    def suggest(self, word: str, lang: str, maxdist: int) -> str | None:
        """The correction of ``word`` (``_suggest_word``), kept once worked out."""
        return self.words.remembered(("suggest", word, lang, maxdist), partial(self._suggest_word, word, lang, maxdist))

    def _suggest_word(self, word: str, lang: str, maxdist: int) -> str | None:
        """Whoosh's correction of ``word`` from the words of the reader's language, else of the
        other languages; never a stop word of any language ("abd" must not become "and")."""
        reader = self.searcher().reader()
        stops = all_stopwords()
        for distance in dict.fromkeys((1, maxdist)):
            for words_lang in (lang, *(other for other in LANGS if other != lang)):
                for candidate in self.spelling(words_lang).suggestions(reader, word, distance):
                    if candidate not in stops and len(candidate) >= 3 and self.live_word(f.words_field(words_lang), candidate):
                        return candidate
        return None

    def retyped(self, word: str, lang: str) -> str | None:
        """A word of the content (the reader's language first) that ``word`` is with two
        neighbouring letters swapped or with double letters typed once (``spelling.doublings``),
        the most frequent one; None if there is none."""
        reader = self.searcher().reader()
        candidates = [*transpositions(word), *doublings(word)]
        for words_lang in (lang, *(other for other in LANGS if other != lang)):
            field_name = f.words_field(words_lang)
            found = [(reader.frequency(field_name, w), w) for w in candidates if self.live_word(field_name, w)]
            if found:
                return max(found)[1]
        return None

    def found_word(self, word: str) -> bool:
        """Whether ``word`` is a word of the content spelled without its umlauts or accents, as
        search finds it ("konig" for "König", "soeldner" for "Söldner", "citta" for "città").
        Kept once worked out."""
        return self.words.remembered(("found", word), partial(self._found_word, word))

    def _found_word(self, word: str) -> bool:
        reader = self.searcher().reader()
        folded = fold(word)
        # One edit puts back an umlaut or accent; "oe" for "ö" or "ss" for "ß" takes two.
        distance = 2 if any(pair in word for pair in ("ae", "oe", "ue", "ss")) else 1
        return any(fold(candidate) == folded for lang in LANGS
                   for candidate in self.spelling(lang).suggestions(reader, word, distance, limit=64))

    def answer(self, key: tuple) -> Answer:
        """What the weighing and the card read of an answer (kind, game, entry), worked out once per
        generation: one look-up per answer in a search, not one per language and purpose."""
        return self.texts.remembered(("answer", key), partial(self._answer, key))

    def _answer(self, key: tuple) -> Answer:
        docs = {lang: d for lang in LANGS if (d := self.entry_docnum(key, lang)) is not None}
        question, asked, kinds, phrasing_kinds, exactly = {}, {}, set(), set(), {}
        for lang, docnum in docs.items():
            title, _text, named, phrasings = self._document(docnum)[4:]
            # Every edition's name of a character the question names counts as the question's own word.
            analyzer = id(self.analyses.fields[f.title_field(lang)])
            # Analysed word by word: a split German verb joined first, as the index joined it.
            question[lang] = frozenset(self.analyze(f.title_field(lang), self.analyses.rejoined(analyzer, f"{title} {named}")))
            lines = phrasings.split("\n")
            exactly[lang] = frozenset(
                (terms, question_kinds(line)) for line in lines if (terms := self.analyses.line_terms(analyzer, line)))
            asked[lang] = tuple(terms for terms, _kinds in exactly[lang])
            kinds |= question_kinds(title)
            phrasing_kinds.update(*(question_kinds(line) for line in lines))
        phrased = {lang: frozenset().union(*terms) for lang, terms in asked.items()}
        if key[0] == "fact":  # a fact's title is a label ("Spielerzahl, Spieldauer, Alter"): players ask it so
            question = {lang: terms | phrased.get(lang, frozenset()) for lang, terms in question.items()}
        elif key[0] == "section":  # ... and a section is asked only so: where an answer asks its title, it has no ways
            question = phrased
        return Answer(frozenset(docs.values()), question, asked, phrased, frozenset(kinds), frozenset(phrasing_kinds), exactly)

    def word_weight(self, word: tuple) -> float:
        """How much an asked word (its terms) tells: the inverse document frequency of its
        rarest token in the fields of words (not its prefix): the greatest for a word no document
        has ("Butler") or a compound none has ("Straßenwertung", though many have "Wertung"), the
        least for one that most have. Kept per generation."""
        def weigh() -> float:
            held: dict[str, set[int]] = {}
            for term in word:
                if term[0].startswith(WORD_FIELDS):
                    postings = self.postings(*term)
                    held.setdefault(term[1], set()).update(postings.ids if postings is not None else ())
            holding = min(map(len, held.values()), default=0)
            return 1.0 + math.log(self.searcher().doc_count() / (1 + holding))

        return self.words.remembered(("weight", word), weigh)

    def game_docs(self, game: str) -> frozenset[int]:
        return self.texts.remembered(("game", game), lambda: frozenset(self.searcher().docs_for_query(Term(f.GAME, game))))


class SearchIndex:
    """The opened index and the cache of whole results.

    The web process opens a generation (``open``), installs it with the library of the same
    generation (``rules_index.web.state``) and passes it to each search; without a ``gen``, a
    search answers from the generation the link points at (commands, evaluation, tests).
    ``postings_bytes``: the bound of each generation's postings cache.
    """

    def __init__(self, link: Path | IndexLink, postings_bytes: int = POSTINGS_BYTES):
        self.index_link = link if isinstance(link, IndexLink) else IndexLink(link)
        self.link = self.index_link.path
        self.postings_bytes = postings_bytes
        self._generation: _Generation | None = None
        self._lock = threading.Lock()
        self.results = Cache(LRUCache(MAX_ENTRIES["results"]))  # whole results, emptied at a switch

    def generation(self) -> _Generation:
        """The generation the link points at now, opened in this thread and installed if the link
        moved."""
        real = self.index_link.generation()
        with self._lock:
            if self._generation is None or self._generation.path != real:
                self.install(self.open(real))
            return self._generation

    def open(self, real: str | None) -> _Generation:
        """The generation at ``real``, with as many searchers to open ahead as the installed one
        lent at once. Raises IndexUnavailable without one."""
        if real is None or not os.path.isdir(real):
            raise IndexUnavailable(f"no index at {self.link}")
        previous = self._generation
        if previous is None:
            return _Generation(real, self.postings_bytes)
        return _Generation(real, self.postings_bytes, readers=previous.peak, analyses=previous.analyses,
                           spellings=previous.spellings_read())

    def install(self, gen: _Generation) -> None:
        """Make ``gen`` the installed generation and let go of what the previous one cached."""
        previous, self._generation = self._generation, gen
        self.results.clear()
        if previous is not None and previous is not gen:
            previous.retire()

    # -- queries -------------------------------------------------------------------------
    def terms(self, gen: _Generation, text: str, lang: str, game: str | None = None) -> list[tuple[str, str, float]]:
        """(field, token, boost) of the query's words in every language's fields and the prefixes;
        the fields of the reader's language ``lang`` weigh ``READER_LANG_BONUS`` more."""
        memo: dict = {}
        words = scoring_words(text, gen.players, game)
        parts = []
        for field_lang in LANGS:
            bonus = READER_LANG_BONUS if field_lang == lang else 1.0
            # Another language's stemmer makes words of its own out of a word it does not know
            # ("page" → Italian "pag", as in "paga"; "lands" → German "land"): a word plainly of
            # another language is searched there only as that language's content has it.
            said = words if field_lang == lang else gen.words_of(words, field_lang)
            # A compound's parts stand in for it where a text lacks the compound itself: a part in
            # one text's question ("spielen") must not outweigh the compound in another's. (A
            # language's fields share one analysis.)
            compound = gen.compound_parts(f.title_field(field_lang), said) if field_lang in COMPOUNDING else frozenset()
            for kind, weight in WEIGHTS.items():
                name = f"{kind}_{field_lang}"
                parts.extend((name, token, weight * bonus * (PART_WEIGHT if token in compound else 1.0))
                             for token in gen.analyze(name, said, memo if said == words else None))
        parts.extend((f.PREFIXES, p, PREFIX_WEIGHT) for p in gen.analyze(f.PREFIXES, words, memo))
        return parts

    def words(self, gen: _Generation, text: str, lang: str, game: str | None = None) -> list[tuple]:
        """The query's terms (``terms``) word by word: for each asked word (a players' word with
        the rulebooks' words for it), its (field, token, boost) not already one of an earlier word's."""
        words, taken = [], set()
        for word in TOKEN_PATTERN.findall(content_words(text)):
            own = tuple(term for term in self.terms(gen, word, lang, game=game) if term[:2] not in taken)
            if own:
                taken.update(term[:2] for term in own)
                words.append(own)
        return words

    @staticmethod
    def glance(gen: _Generation, game: str, text: str) -> dict[tuple, float]:
        """``at_a_glance`` of ``game``, first the answers that players ask the kind of question
        ``text`` asks (``query.question_kinds`` of their ways of asking)."""
        kinds = question_kinds(text)
        return at_a_glance(game, frozenset(
            fact for fact in TITLE_FACTS if kinds & gen.answer(("fact", game, fact)).phrasing_kinds))

    def _rank(self, gen: _Generation, text: str, lang: str, game: str | None, limit: int,
              seen: dict | None = None, asked: list[tuple] | None = None) -> dict[tuple, float]:
        """Each entry's best score over its languages: {(kind, game, entry): score}; ``seen``
        gets the number of each document ranked, by (kind, game, entry, language)."""
        words = self.words(gen, text, lang, game) if asked is None else asked
        best: dict[tuple, float] = {}
        if not words:
            return best
        # An entry has a document per language: one among the best ``limit`` entries has its best
        # document among the best ``limit * len(LANGS)`` (those above it are of fewer entries);
        # one entry's documents more for equal scores at the cut.
        count = (limit + 1) * len(LANGS)
        for docnum, score in gen.top(words, count, gen.game_docs(game) if game else None):
            kind, game_slug, entry, doc_lang = gen.docinfo(docnum)
            key = (kind, game_slug, entry)
            if seen is not None:
                seen[(*key, doc_lang)] = docnum
            if score > best.get(key, 0.0):
                best[key] = score
        return best

    def _suggest(self, gen: _Generation, text: str, lang: str) -> str | None:
        """The query with its misspelled words (``needs_correction``) corrected in their place, or
        None if none is: the content's nearest word (Whoosh's rule), else one with two neighbouring
        letters swapped or its double letters typed once (``_Generation.retyped``)."""
        # A word in capitals among lower-case ones is a code or an abbreviation ("AABD", the
        # letters of an exhibition), as word processors leave it by default, not a typo.
        lower_case = any(c.islower() for c in text)

        def corrected(match: re.Match) -> str:
            word = match.group()
            lower = word.lower()
            if lower_case and word.isupper():
                return word
            if self.needs_correction(gen, lower):
                found = gen.suggest(lower, lang, 2 if len(lower) >= 8 else 1) or gen.retyped(lower, lang)
                if found and not rather_a_word(lower, found, lang, LANGS):
                    return found.upper() if word.isupper() else found.capitalize() if word[:1].isupper() else found
            return word

        # Only the words change: what stands between them ("l'", "c'è", a question mark) stays.
        fixed = TOKEN_PATTERN.sub(corrected, text)
        return fixed if fixed != text else None

    @staticmethod
    def needs_correction(gen: _Generation, word: str) -> bool:
        """Whether ``word`` (lower case) is misspelled: none of a stop word, a players' word, a word
        of the content (as typed, or as search finds it: "konig" finds "König"), a word of German,
        English or Italian at large (wordfreq), a number or a word of under 3 letters."""
        return (len(word) >= 3 and not word.isdigit() and word not in all_stopwords() and word not in gen.players
                and not gen.known_word(word) and not language_knows(word, LANGS) and not gen.found_word(word))

    @staticmethod
    def tells_games_apart(gen: _Generation, game: str, others: set[str], asked: list[tuple]) -> bool:
        """Whether an asked word (``asked``: each word's terms) is held by ``game``'s documents and
        by none of the ``others``' ("Bauwerke" tells Ohne Furcht und Adel from Kardinal & König)."""
        docs = gen.game_docs(game)
        other_docs = [gen.game_docs(other) for other in others]
        for word in asked:
            postings = gen.word_postings(word)
            if gen.any_holds(postings, docs) and not any(gen.any_holds(postings, other) for other in other_docs):
                return True
        return False

    @staticmethod
    def names_what_was_asked(gen: _Generation, key: tuple, asked: list[tuple], fields: tuple[str, ...] = ASKED_FIELDS) -> bool:
        """Whether the answer ``key`` holds an asked word (``asked``: each word's terms) in one of
        ``fields`` (their names' beginnings), in any language: an answer whose text only mentions
        the words ("terms of service" → "served") does not answer what was asked."""
        return SearchIndex.asked_share(gen, key, asked, fields) > 0

    @staticmethod
    def asked_share(gen: _Generation, key: tuple, asked: list[tuple], fields: tuple[str, ...] = ASKED_FIELDS) -> float:
        """The share of the asked words, each weighed by how much it tells (``word_weight``), that
        the answer ``key`` holds in one of ``fields`` or in players' ways of asking it (a game's
        facts keep theirs stored, not indexed)."""
        answer = gen.answer(key)
        title = f.title_field("")

        def held(word) -> bool:
            return any(gen.any_holds(gen.postings(*term), answer.docs) for term in word if term[0].startswith(fields)) or any(
                term[1] in answer.phrased.get(term[0][len(title):], ()) for term in word if term[0].startswith(title))

        if not asked:
            return 0.0
        weights = [gen.word_weight(word) for word in asked]
        return sum(w for w, word in zip(weights, asked) if held(word)) / sum(weights)

    def exact_fits(self, gen: _Generation, chosen: list[tuple[tuple, float]], words: str, asked: list[tuple] | None,
                   game: str | None) -> frozenset[tuple]:
        """The hits shown that players ask just as asked (``asked_exactly``), for ``section_leads``.
        With no game named, a section only if an asked word belongs to its game alone among the
        hits ("Darf der Meuchler sich selbst nennen?"): "fine della partita" is asked of one game's
        end section, and the four games' answers on the end are put forward."""
        if asked is None:
            return frozenset()
        found = self.asked_exactly(gen, [key for key, _score in chosen], words, game)
        if game is not None:
            return found
        games = {key[1] for key, _score in chosen}
        return frozenset(key for key in found if key[0] != "section"
                         or self.tells_games_apart(gen, key[1], games - {key[1]}, asked))

    @staticmethod
    def question_terms(gen: _Generation, words: str, game: str | None) -> dict[str, frozenset[str]]:
        """The asked words (with the rulebooks' words for players' words) as each language's
        question field analyses them: what an answer's question and ways of asking are held against."""
        asked = scoring_words(words, gen.players, game)
        return {field_lang: frozenset(gen.analyze(f.title_field(field_lang), asked)) for field_lang in LANGS}

    @staticmethod
    def asked_exactly(gen: _Generation, keys: list[tuple], words: str, game: str | None) -> frozenset[tuple]:
        """Those of ``keys`` (answers, sections) that players ask with just the asked words: one of
        their ways of asking, analysed, holds the words of ``words`` and no others, in some language,
        and asks the same kind of question ("In quanti si gioca?" is no "Come si gioca?"); in
        players' words as typed or in the rulebooks' words for them ("Gebäude" is "Bauwerke"); a
        game named or chosen is what a way of asking calls "the game" (``query.THE_GAME``)."""
        if not keys:
            return frozenset()
        forms = gen.words.remembered(("exactly", words, game), partial(SearchIndex.exact_forms, gen, words, game))
        return frozenset(key for key in keys if key[0] in (*ANSWER_KINDS, "section") and any(
            not wanted.isdisjoint(gen.answer(key).exactly.get(field_lang, ())) for field_lang, wanted in forms))

    @staticmethod
    def exact_forms(gen: _Generation, words: str, game: str | None) -> tuple:
        """(language, the (terms, kinds) of each form the asked words may take in it), for
        ``asked_exactly``."""
        typed, kinds = content_words(words), question_kinds(words)
        forms: dict[str, set] = {}
        for text in dict.fromkeys((typed, in_rules_words(typed, gen.players, game))):
            for field_lang in LANGS:
                terms = frozenset(gen.analyze(f.title_field(field_lang), text))
                if terms:
                    forms.setdefault(field_lang, set()).add((terms, kinds))
                if terms and game is not None:
                    forms[field_lang].update((terms | frozenset(gen.analyze(f.title_field(field_lang), word)), kinds)
                                             for word in THE_GAME[field_lang])
        return tuple((field_lang, frozenset(found)) for field_lang, found in forms.items())

    def _weigh_questions(self, gen: _Generation, scores: dict[tuple, float], words: str, asked_words: list[tuple],
                         game: str | None) -> dict[tuple, float]:
        """The leading answers' scores raised by how well they fit the asked words (``asked_words``:
        each word's terms): their question's share of them, players' nearest way of asking them,
        the share they hold at all, and the kind of question (the ``*_WEIGHT`` constants)."""
        answers = sorted(((key, score) for key, score in scores.items() if key[0] in ANSWER_KINDS), key=lambda kv: (-kv[1], kv[0]))
        if not answers:
            return scores
        # The leading rules sections are weighed as the answers are: a question about the rules at
        # large ("How do you win?") fits a section's ways of asking better than any answer's.
        sections = sorted(((key, score) for key, score in scores.items() if key[0] == "section"), key=lambda kv: (-kv[1], kv[0]))
        wanted = self.question_terms(gen, words, game)
        kinds = question_kinds(words)
        scores = dict(scores)
        # Each asked word's postings once, not once per answer: at scale a common word's postings
        # are tens of thousands, and the cache may have let them go since the ranking read them.
        word_lists = [gen.word_postings(word) for word in asked_words]
        for key, score in [*answers[:REWEIGHED], *sections[:SECTIONS_REWEIGHED]]:
            answer = gen.answer(key)
            share = nearest = 0.0
            for field_lang, terms in wanted.items():
                if not terms:
                    continue
                held = answer.question.get(field_lang)
                if held:
                    share = max(share, len(terms & held) / len(terms))
                # A way of asking fits as far as the words it and the question share go, over the
                # longer of the two: a long phrasing holding every asked word is no exact fit.
                for phrasing in answer.asked.get(field_lang, ()):
                    nearest = max(nearest, len(terms & phrasing) / max(len(terms), len(phrasing)))
            held_words = sum(gen.any_holds(postings, answer.docs) for postings in word_lists) / max(1, len(asked_words))
            same_kind = bool(kinds) and bool(kinds & answer.kinds)
            scores[key] = score * (1.0 + QUESTION_WEIGHT * share + ASKED_WEIGHT * nearest + WORDS_WEIGHT * held_words
                                   + KIND_WEIGHT * same_kind)
        return scores

    def search(self, text: str, lang: str, game: str | None = None, limit: int = 10, correct: bool = True,
               gen: _Generation | None = None) -> SearchResult:
        """The hits for ``text`` in ``gen`` (default: ``generation()``); ``correct=False`` searches
        the words as typed even when their correction would score better (the suggestion is still
        given)."""
        gen = gen or self.generation()
        query_text = clean_query(text)
        limit = max(1, min(limit, MAX_LIMIT))
        cache_key = (gen.path, query_text, lang, game, limit, correct)
        found = self.results.get(cache_key)
        if found is not None:
            return found
        with gen.borrowed():
            result = self._search(gen, query_text, lang, game, limit, correct)
        self.results.put(cache_key, result)
        return result

    def _search(self, gen: _Generation, query_text: str, lang: str, game: str | None, limit: int,
                correct: bool) -> SearchResult:
        understood = gen.game_names.understand(query_text)
        game_filter = game or understood.game
        result = SearchResult(query=query_text, lang=lang, game=understood.game)
        # Joined before the stop words go: "auf" of "Wie baut man … auf?" is one.
        words = gen.rejoined(understood.text)
        seen: dict[tuple, int] = {}  # ranked documents: most hits need no lookup of their key
        if understood.title_only:
            # A game's name alone asks what the game is: its facts at a glance answer, its credits
            # and components follow, unless players ask one of them the kind of question asked
            # ("Von wem ist …?": the credits). A word of a title elsewhere names nothing ("König").
            scores = self.glance(gen, understood.game, query_text)
            corrected, asked = None, None
        else:
            corrected = self._suggest(gen, query_text, lang) if words else None
            result.suggestion = corrected
            scores = {}
            if corrected and correct:
                # A word that no language knows is a typo: the corrected question is searched
                # ("Showing results for …", with a link to the words as typed). Scores of different
                # words are not on one scale: compared by them, "bottnio chi sceglie" as typed won
                # with a Citadels answer over the sharing of the loot.
                fixed_words = gen.rejoined(gen.game_names.understand(corrected).text)
                asked = self.words(gen, fixed_words, lang, game_filter)
                scores = self._rank(gen, fixed_words, lang, game_filter, limit, seen, asked)
                if scores:
                    words, result.corrected = fixed_words, True
            if not scores:
                # Each asked word's terms, once: the ranking, the weighing and the card use them.
                asked = self.words(gen, words, lang, game_filter)
                scores = self._rank(gen, words, lang, game_filter, limit, seen, asked)
        unmatched = understood.game is not None and not scores
        if unmatched:
            # A game named, and nothing of it holds the other words ("Chi ha inventato Adel
            # Verpflichtet?"): the game at a glance, as for its name alone, but put forward as no answer.
            scores = self.glance(gen, understood.game, query_text)
        matched = scores
        if asked is not None and not unmatched:  # a game's name alone: its facts, credits and components, in that order
            scores = self._weigh_questions(gen, scores, words, asked, game_filter)
        ranked = sorted(scores.items(), key=lambda item: -item[1])
        chosen = sorted(ranked[:limit], key=lambda item: (SHOWN_ORDER.get(item[0][0], 9), -item[1]))
        result.subject = asked is not None and game_filter is None and len(asked) <= 1
        section = section_leads(chosen, lambda: self.exact_fits(gen, chosen, words, asked, game_filter))
        lead, open_hits = self._lead(gen, chosen, matched, section, asked, game_filter, asks_what_it_is(words))
        if lead is not None:
            chosen.sort(key=lambda item: item[0] != lead)  # stable: the rest keep their order
        # The rules at large asked, of a game left open ("Regeln"): no answer either.
        if lead is not None or unmatched or section is not None or open_hits:
            best, close = None, frozenset()
        else:
            answers = [(key, score) for key, score in chosen if key[0] in ANSWER_KINDS]
            best, close = answer_confidence(answers)
            if best is not None and asked is not None and game_filter is None:
                # The same question answered for another game, further behind: which game's verdict
                # applies is open unless an asked word belongs to the first answer's game alone.
                namesakes = [key for key, score in answers if key[1] != best[1] and (
                    score >= answers[0][1] * NAMESAKE_MARGIN if key[2] == best[2]
                    else score >= answers[0][1] * OTHER_NAMESAKE_MARGIN and self.names_what_was_asked(gen, key, asked))]
                if namesakes and not self.tells_games_apart(gen, best[1], {key[1] for key in namesakes}, asked):
                    best, close = None, frozenset([best, *namesakes[:MAX_CLOSE - 1]])
            if (best is not None or close) and asked is not None and game_filter is None and len({key[1] for key, _score in chosen}) > 1:
                # Asked just as players ask hits of several games, answers or rules sections ("How
                # does scoring work?", "How do you win?"), and no asked word of one of them alone:
                # which game is open, and each game's hit asked so is what was asked.
                exactly = self.asked_exactly(gen, [key for key, _score in chosen], words, None)
                games = {key[1] for key in exactly} | ({best[1]} if best is not None else set())
                if len(games) > 1 and not any(self.tells_games_apart(gen, one, games - {one}, asked) for one in games):
                    open_hits = exactly
                    best, close = None, frozenset()
            if asked is not None:
                # A word alone that names no game names a subject ("rules", "setup", "Dieb"), not a
                # question: which game, and which of its answers, is open. The card and the answers
                # side by side must each be asked about most of what was asked (``CARD_ASKED_SHARE``),
                # and the card's own question must fit it (``CARD_FIT``).
                if best is not None and (result.subject or self.asked_share(gen, best, asked) < CARD_ASKED_SHARE
                                         or scores[best] < matched[best] * (1.0 + CARD_FIT)):
                    best = None
                close = frozenset(key for key in close if self.asked_share(gen, key, asked) >= CARD_ASKED_SHARE)
                # A word alone puts forward only the answers of different games ("Spielende": which
                # game's end?), never one game's answers as if the word had named it ("ladro").
                if len(close) < 2 or result.subject and len({key[1] for key in close}) < 2:
                    close = frozenset()
        if open_hits:
            # The rules at large of several games ("Wie läuft ein Zug ab?"), or what players ask of
            # several games' hits just so ("How do you win?"): those first, the higher score first,
            # and the reader asked which game.
            chosen.sort(key=lambda item: (item[0] not in open_hits, -item[1] if item[0] in open_hits else 0.0))
            result.subject = True
        if close:
            # The answers shown side by side come first, the higher score first: too close for a
            # card, but the first is the right one more often (162 against 135 of the tuning sets'
            # 278 side by side, where a fixed (game, entry) order put them).
            chosen.sort(key=lambda item: (SHOWN_ORDER.get(item[0][0], 9), item[0] not in close, -item[1], item[0]))
        snippet_terms = frozenset(gen.analyze(f.body_field(lang), scoring_words(words, gen.players, game_filter)))
        for key, score in chosen:
            kind, game_slug, entry = key
            docnum = seen.get((*key, lang))
            if docnum is None:
                docnum = gen.entry_docnum(key, lang)
            if docnum is None:
                continue
            title, body = gen.stored(docnum)
            matched = gen.highlight_tokens[lang].matched(body, snippet_terms) if body else frozenset()
            snippet = gen.snippet(kind, body, lang, matched) if body else ""
            result.hits.append(Hit(kind, game_slug, entry, title, snippet, round(score, 4), key == best, key in close))
        if result.subject:
            result.subject_games = tuple(dict.fromkeys(
                hit.game for hit in result.hits if self.names_what_was_asked(gen, (hit.kind, hit.game, hit.entry), asked, WORD_FIELDS)))
        return result

    def _lead(self, gen: _Generation, chosen: list[tuple[tuple, float]], matched: dict[tuple, float],
              section: tuple[tuple, float] | None, asked: list[tuple] | None, game: str | None,
              what_it_is: bool = False) -> tuple[tuple | None, tuple[tuple, ...]]:
        """The hit that is what was asked rather than any answer, if one is: a glossary term asked
        alone or asked what it is (``term_asked``, by the words matched: an answer's question naming
        the term in any edition ranks it among the answers), or the rules section that leads
        (``section``: ``section_leads``, weighed), the rules at large. When both lead, the one
        further ahead of the answers: a section holds every term it explains ("How does scoring
        work?" names the scoring field). With it, the sections of several games that lead about
        as high when no game is named and none can be told apart (which game's rules?) and no term
        leads, or the terms of several games asked so ("what does the thief do"), else ()."""
        term = term_asked([(key, matched[key]) for key, _score in chosen], WHAT_TERM_LEAD if what_it_is else TERM_LEAD)
        if section is not None and game is None and asked is not None:
            # Another game's section about as high, and no asked word of this game alone: which
            # game's rules were asked is open ("Spielende").
            others = {key[1] for key, score in chosen
                      if key[0] == "section" and key[1] != section[0][1] and score >= section[1] * NAMESAKE_MARGIN}
            if others and not self.tells_games_apart(gen, section[0][1], others, asked):
                open_sections = tuple(key for key, score in chosen if key[0] == "section" and key[1] in {section[0][1], *others}
                                      and score >= section[1] * NAMESAKE_MARGIN)
                return (term[0], ()) if term is not None else (None, open_sections)
        if term is None or section is None:
            lead = term or section
        else:
            answer = max(score for key, score in chosen if key[0] in ANSWER_KINDS)
            answer_matched = max(matched[key] for key, _score in chosen if key[0] in ANSWER_KINDS)
            lead = section if section[1] / answer > term[1] / answer_matched else term
        if lead is not None and lead is term and game is None and asked is not None:
            # Another game's term of about as high a match, and no asked word of this game alone:
            # which game's term was asked is open ("what does the thief do": Citadels' or Hoity Toity's).
            namesakes = tuple(key for key, _score in chosen if key[0] == "glossary" and key[1] != term[0][1]
                              and matched[key] >= term[1] * NAMESAKE_MARGIN)
            if namesakes and not self.tells_games_apart(gen, term[0][1], {key[1] for key in namesakes}, asked):
                return None, (term[0], *namesakes)
        return (lead[0] if lead is not None else None), ()

    def related(self, kind: str, game: str, entry: str, lang: str, limit: int = 4,
                gen: _Generation | None = None) -> list[str]:
        """Entries of the same kind and game most like this one (more-like-this on its text), in
        ``gen`` (default: ``generation()``). Kept per generation: they depend on nothing else.
        """
        gen = gen or self.generation()
        def related():
            with gen.borrowed():
                return tuple(self._related(gen, kind, game, entry, lang, limit))

        return list(gen.texts.remembered(("related", kind, game, entry, lang, limit), related))

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
