"""Snippets under each result: Whoosh's highlighter over cached tokens, the verdict kept.

A FAQ answer's snippet always starts with its verdict (the first sentence: "Nein, …", "Yes: …"),
the query's words marked in it; if the words are found only further on, the best fragment
around them follows. Other texts start at their beginning unless the match lies further on,
where Whoosh's context fragmenter picks the passage.
"""
from __future__ import annotations

import re
import sys
from functools import lru_cache
from typing import NamedTuple

from markupsafe import escape
from whoosh import highlight
from whoosh.analysis import Token

from rules_index.caches import ByteCache

from .analysis import TOKEN_PATTERN

HIGHLIGHT_WORDS = 32768  # per language: the highlighter's word analyses
LEAD_CHARS = 240       # the longest verdict sentence shown whole
START_CHARS = 220      # a text whose first match is near its start is shown from there
NEAR_START = 150
# A sentence ends at . ! ? or : followed by white space; a very short first sentence ("Nein.")
# takes the next one with it.
_SENTENCE_END = re.compile(r"[.!?:](?=\s)")
MIN_LEAD = 40


class CachedTokens:
    """An analyzer for the highlighter that tokenizes each text once (per generation).

    Every filter of the language analyzers works on one token at a time, so a text's tokens are
    the analysis of its words one by one; a text's tokens come with the set of their terms, so
    texts without any query term skip the highlighter.
    """

    def __init__(self, analyzer, lang: str, texts: ByteCache):
        self._analyzer = analyzer
        # Asked for every word of every new text: functools' cache costs a tenth of a cachetools
        # lookup. Its keys are words of the index's own stored texts, never a reader's, so a
        # count bounds it (about 270 bytes each).
        self._word = lru_cache(maxsize=HIGHLIGHT_WORDS)(self._analyze_word)
        self.spans = texts.memoize(key=lambda text: ("spans", lang, text))(self._analyze)

    def _analyze_word(self, word: str) -> tuple[str, ...]:
        return tuple(t.text for t in self._analyzer(word, mode="query", removestops=False))

    def _analyze(self, text: str) -> "TextSpans":
        word_terms = self._word
        spans = tuple(
            (term, match.start(), match.end())
            for match in TOKEN_PATTERN.finditer(text)
            for term in word_terms(match.group())
        )
        return TextSpans(spans, frozenset(term for term, _, _ in spans))

    def terms(self, text: str) -> frozenset[str]:
        return self.spans(text)[1]

    def __call__(self, text: str, **_options):
        token = Token(chars=True, boost=1.0, removestops=False)  # one token, refilled, as Whoosh's tokenizers do
        for term, start, end in self.spans(text)[0]:
            token.text, token.startchar, token.endchar = term, start, end
            token.stopped = False
            yield token


# A (term, start, end) tuple and its two numbers.
SPAN_BYTES = sys.getsizeof(("", 0, 0)) + 2 * sys.getsizeof(2**20)


class TextSpans(NamedTuple):
    """A text's tokens as (term, start, end) and the set of their terms, weighed in one step
    (a cache weighs each entry it stores; walking thousands of small tuples cost a quarter of a
    search that analyses new texts)."""

    spans: tuple[tuple[str, int, int], ...]
    terms: frozenset[str]

    def cache_bytes(self) -> int:
        """As a walk through every tuple weighs them: each span's term counted again (on the safe
        side: the spans share the set's strings), at the terms' mean size."""
        terms = sum(map(sys.getsizeof, self.terms))
        per_span = SPAN_BYTES + (terms // len(self.terms) if self.terms else 0)
        return sys.getsizeof(self) + sys.getsizeof(self.spans) + len(self.spans) * per_span + sys.getsizeof(self.terms) + terms


def split_lead(text: str) -> tuple[str, str]:
    """(the verdict sentence, the rest) of an answer."""
    for match in _SENTENCE_END.finditer(text):
        if match.end() >= MIN_LEAD or match.end() == len(text):
            return text[:match.end()], text[match.end():].lstrip()
    return text, ""


class _Part:
    """An analyzer for a part of a text (``text[start:end]``) from the whole text's cached
    spans: the part's tokens without analysing it again."""

    def __init__(self, spans, start: int, end: int):
        self.spans = [(term, s - start, e - start) for term, s, e in spans if s >= start and e <= end]

    def terms(self) -> frozenset[str]:
        return frozenset(term for term, _, _ in self.spans)

    def __call__(self, text: str, **_options):
        token = Token(chars=True, boost=1.0, removestops=False)
        for term, start, end in self.spans:
            token.text, token.startchar, token.endchar = term, start, end
            token.stopped = False
            yield token


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
    return highlight.highlight(
        text, matched, part, highlight.ContextFragmenter(maxchars=START_CHARS, surround=60), _formatter(), top=top)


def answer_snippet(text: str, matched: frozenset[str], tokens: CachedTokens) -> str:
    """A FAQ answer: the verdict first, then the passage with the query's words if they come later."""
    spans = tokens.spans(text)[0]
    lead, rest = split_lead(text)
    lead_end = _clip(lead, LEAD_CHARS)
    lead_part = _Part(spans, 0, lead_end)
    lead_html = _marked_whole(text[:lead_end], lead_part, matched) + (" …" if lead_end < len(lead) else "")
    rest_start = len(text) - len(rest)
    rest_part = _Part(spans, rest_start, len(text))
    if rest and (matched & rest_part.terms()) - lead_part.terms():
        fragment = _around(rest, rest_part, matched, top=1)
        if fragment:
            return f"{lead_html} … {fragment}"
    return lead_html + (" …" if rest else "")


def text_snippet(text: str, matched: frozenset[str], tokens: CachedTokens) -> str:
    """Any other text: from its beginning, unless the query's words are found only further on."""
    spans = tokens.spans(text)[0]
    first = next((start for term, start, _ in spans if term in matched), None)
    if first is None or first < NEAR_START:
        end = _clip(text, START_CHARS)
        return _marked_whole(text[:end], _Part(spans, 0, end), matched) + (" …" if end < len(text) else "")
    fragment = _around(text, _Part(spans, 0, len(text)), matched, top=2)
    return fragment or str(escape(text[:_clip(text, START_CHARS)]))
