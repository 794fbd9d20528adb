"""Snippets under each result: Whoosh's highlighter over cached tokens, the verdict kept.

A FAQ answer's snippet always starts with its verdict (the first sentence: "Nein, …", "Yes: …"),
the query's words marked in it; if the words are found only further on, the best fragment
around them follows. Other texts start at their beginning unless the match lies further on,
where Whoosh's context fragmenter picks the passage.
"""
from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from functools import lru_cache
from typing import NamedTuple

from markupsafe import Markup, escape
from whoosh import highlight
from whoosh.analysis import Token

from rules_index.caches import Cache
from rules_index.folding import TOKEN_PATTERN

HIGHLIGHT_WORDS = 32768  # per language: the highlighter's word analyses
LEAD_CHARS = 240       # the longest verdict sentence shown whole
START_CHARS = 220      # a text whose first match is near its start is shown from there
NEAR_START = 150
# A sentence ends at . ! ? or : followed by white space; a very short first sentence ("Nein.")
# takes the next one with it.
_SENTENCE_END = re.compile(r"[.!?:](?=\s)")
MIN_LEAD = 40


class CachedTokens:
    """An analyzer for the highlighter that tokenizes each text once (kept in ``texts``, a
    ``caches.Cache``).

    Every filter of the language analyzers works on one token at a time, so a text's tokens are
    the analysis of its words one by one; ``matched`` tells which of a query's terms a text has,
    so texts without any skip the highlighter.
    """

    def __init__(self, analyzer, lang: str, texts: Cache):
        self._analyzer = analyzer
        # Asked for every word of every new text: functools' cache costs a tenth of a cachetools
        # lookup. Its keys are words of the index's own stored texts, never a reader's, so a
        # count bounds it (about 270 bytes each).
        self._word = lru_cache(maxsize=HIGHLIGHT_WORDS)(self._analyze_word)
        self.spans = texts.memoize(key=lambda text: (lang, text))(self._analyze)

    def _analyze_word(self, word: str) -> tuple[str, ...]:
        return tuple(t.text for t in self._analyzer(word, mode="query", removestops=False))

    def _analyze(self, text: str) -> "TextSpans":
        word_terms = self._word
        terms: list[str] = []
        starts, ends = array("i"), array("i")
        for match in TOKEN_PATTERN.finditer(text):
            found = word_terms(match.group())
            if found:
                terms.extend(found)
                starts.extend([match.start()] * len(found))
                ends.extend([match.end()] * len(found))
        return TextSpans(tuple(terms), starts, ends)

    def matched(self, text: str, wanted: frozenset[str]) -> frozenset[str]:
        """The terms of ``wanted`` that ``text`` has."""
        return wanted.intersection(self.spans(text).terms)

    def __call__(self, text: str, **_options):
        spans = self.spans(text)
        return _tokens(spans.terms, spans.starts, spans.ends, 0)


def _tokens(terms, starts, ends, offset: int):
    token = Token(chars=True, boost=1.0, removestops=False)  # one token, refilled, as Whoosh's tokenizers do
    for term, start, end in zip(terms, starts, ends):
        token.text, token.startchar, token.endchar = term, start - offset, end - offset
        token.stopped = False
        yield token


class TextSpans(NamedTuple):
    """A text's tokens: their terms, and where each starts and ends, in words' order.

    Three objects whatever the text's length: a cache keeps thousands of these, and the garbage
    collector walks every object a new entry adds (a tuple per token made each collection of
    new entries take 5-15 ms). No set of the terms: intersecting a query's few terms with the
    tuple is as quick, and a set weighed more than the rest of the entry.
    """

    terms: tuple[str, ...]
    starts: array
    ends: array

    def part(self, start: int, end: int) -> "_Part":
        """The tokens inside ``text[start:end]``, placed as in that part."""
        # Tokens are in text order and never overlap (a word's terms share its place).
        first, stop = bisect_left(self.starts, start), bisect_right(self.ends, end)
        return _Part(self.terms[first:stop], self.starts[first:stop], self.ends[first:stop], start)

    def first_of(self, wanted: frozenset[str]) -> int | None:
        """Where the first token with one of ``wanted`` terms starts."""
        return next((start for term, start in zip(self.terms, self.starts) if term in wanted), None)


def split_lead(text: str) -> tuple[str, str]:
    """(the verdict sentence, the rest) of an answer."""
    for match in _SENTENCE_END.finditer(text):
        if match.end() >= MIN_LEAD or match.end() == len(text):
            return text[:match.end()], text[match.end():].lstrip()
    return text, ""


class _Part:
    """An analyzer for a part of a text from the whole text's cached spans: the part's tokens
    without analysing it again."""

    def __init__(self, terms, starts, ends, offset: int):
        self._spans = (terms, starts, ends, offset)

    def terms(self) -> frozenset[str]:
        return frozenset(self._spans[0])

    def __call__(self, text: str, **_options):
        return _tokens(*self._spans)


def _formatter():
    return highlight.HtmlFormatter(tagname="mark", between=" … ")


def _clip(text: str, limit: int) -> int:
    """Where to cut ``text`` to at most ``limit`` characters (at a space where possible)."""
    if len(text) <= limit:
        return len(text)
    cut = text.rfind(" ", 0, limit)
    return cut if cut > limit // 2 else limit


def _marked_whole(text: str, part: _Part, matched: frozenset[str]) -> str:
    """``text`` whole, with the matched words marked (escaped HTML)."""
    if matched & part.terms():
        marked = highlight.highlight(text, matched, part, highlight.WholeFragmenter(), _formatter(), top=1)
        if marked:
            return marked
    return str(escape(text))


def _around(text: str, part: _Part, matched: frozenset[str], top: int) -> str:
    """The passages of ``text`` around the matched words (escaped HTML, marked), with "…" after
    the last unless it reaches the end of the text: a passage cut mid-sentence says so."""
    fragment = highlight.highlight(
        text, matched, part, highlight.ContextFragmenter(maxchars=START_CHARS, surround=60), _formatter(), top=top)
    if not fragment:
        return fragment
    # Compared as words: the passage's text shown (tags out, entities read) and the text's end.
    tail = Markup(fragment).striptags()[-40:]
    return fragment if " ".join(text.split()).endswith(tail) else f"{fragment} …"


def answer_snippet(text: str, matched: frozenset[str], tokens: CachedTokens) -> str:
    """A FAQ answer: the verdict first, then the passage with the query's words if they come later."""
    spans = tokens.spans(text)
    lead, rest = split_lead(text)
    lead_end = _clip(lead, LEAD_CHARS)
    lead_part = spans.part(0, lead_end)
    lead_html = _marked_whole(text[:lead_end], lead_part, matched) + (" …" if lead_end < len(lead) else "")
    rest_start = len(text) - len(rest)
    rest_part = spans.part(rest_start, len(text))
    if rest and (matched & rest_part.terms()) - lead_part.terms():
        fragment = _around(rest, rest_part, matched, top=1)
        if fragment:
            return f"{lead_html} … {fragment}"
    return lead_html + (" …" if rest else "")


def text_snippet(text: str, matched: frozenset[str], tokens: CachedTokens) -> str:
    """Any other text: from its beginning, unless the query's words are found only further on."""
    spans = tokens.spans(text)
    first = spans.first_of(matched)
    if first is not None and first >= NEAR_START:
        fragment = _around(text, spans.part(0, len(text)), matched, top=2)
        if fragment:
            return f"… {fragment}"  # further on: the text has begun before it
        matched = frozenset()  # no passage found: the beginning, unmarked
    end = _clip(text, START_CHARS)
    return _marked_whole(text[:end], spans.part(0, end), matched) + (" …" if end < len(text) else "")
