"""Corrections for unknown words: Whoosh's suggester's answer, found without an automaton.

``searcher.suggest(field, word, limit, maxdist, prefix=1)`` builds a Levenshtein automaton per
word and walks the field's term graph with it: tens of milliseconds per word. ``Spelling`` keeps
the spelling words of one field in memory (read per index segment through the public
``reader.lexicon``, ``SegmentWords``) and returns the same words in the same order: those with
the same first letter and the rest within ``maxdist`` edits, most frequent first (ties: the
greater word), as Whoosh's ``ReaderCorrector`` ranks them. Candidates are narrowed by first
letter, length and letter set before any edit distance is computed. ``tests/search/test_spelling.py`` holds the
answers against Whoosh's own.
"""
from __future__ import annotations

import heapq
from functools import lru_cache

from wordfreq import get_frequency_dict, zipf_frequency

from .analysis import LANGS


def letter_bits(word: str) -> int:
    """The set of a word's characters as bits (hashed): one edit changes at most two bits."""
    mask = 0
    for ch in word:
        mask |= 1 << (ord(ch) % 61)
    return mask


def within(a: str, b: str, limit: int) -> bool:
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


class SegmentWords:
    """The spelling words of one field in one index segment (a leaf reader of
    ``reader.leaf_readers()``), by first letter and length, and the segment they were read from."""

    __slots__ = ("by_start", "segment")

    def __init__(self, leaf, field_name: str):
        self.segment = leaf.segment()
        spelling = leaf.schema[field_name].spelling_fieldname(field_name)
        self.by_start: dict[tuple[str, int], list[tuple[str, int]]] = {}
        for raw in leaf.lexicon(spelling):
            word = leaf.schema[spelling].from_bytes(raw)
            self.by_start.setdefault((word[:1], len(word)), []).append((word, letter_bits(word)))


class Spelling:
    """The spelling words of one field (those of each segment), for Whoosh's correction rule."""

    def __init__(self, field_name: str, segments: list[SegmentWords]):
        self.field_name = field_name
        self.segments = segments

    @classmethod
    def read(cls, reader, field_name: str, known: "Spelling | None" = None) -> "Spelling":
        """The field's words from every segment of ``reader``. Whoosh writes a segment once (a
        deletion leaves its words in place), so the words of a segment that ``known`` (the same
        field's words of another generation of the index) read already are taken as they are:
        a published change reads only the segment it wrote."""
        kept = {} if known is None or known.field_name != field_name else \
            {words.segment: words for words in known.segments if words.segment is not None}
        segments = []
        for leaf, _offset in reader.leaf_readers():
            segment = leaf.segment()
            found = kept.get(segment) if segment is not None else None
            segments.append(found if found is not None else SegmentWords(leaf, field_name))
        return cls(field_name, segments)

    def suggestions(self, reader, word: str, maxdist: int, limit: int = 8) -> list[str]:
        """What ``searcher.suggest(field, word, limit, maxdist, prefix=1)`` returns."""
        if not word:
            return []
        mask, found, seen = letter_bits(word), [], {word}
        for length in range(max(1, len(word) - maxdist), len(word) + maxdist + 1):
            for segment in self.segments:
                for candidate, letters in segment.by_start.get((word[0], length), ()):
                    if candidate in seen:  # a word of several segments is one candidate
                        continue
                    seen.add(candidate)
                    if (mask ^ letters).bit_count() <= 2 * maxdist and within(word[1:], candidate[1:], maxdist):
                        frequency = reader.frequency(self.field_name, candidate) or 1
                        found.append((0 - (maxdist + (1.0 / frequency * 0.5)), candidate))
        # Whoosh keeps the ``limit`` greatest (score, word) pairs, then lists them best score first.
        kept = heapq.nlargest(limit, found)
        kept.sort(key=lambda item: (-item[0], item[1]))
        return [candidate for _, candidate in kept]


# wordfreq's Zipf scale is log10 of a word's frequency per billion words. At 3 (one in a million,
# wordfreq's "small" lists: 30,000 to 40,000 words per language) a word is plainly the language's.
# Below, the lists hold rare words and common misspellings alike ("theif" 1.9, "recieve" 2.8).
COMMON_ZIPF = 3.0
RARE_ZIPF = 2.0
# A rare word is a typo only of a word a hundred times as frequent ("recieve" 2.8, "receive" 4.9):
# two real words often lie one letter apart at frequencies alike ("austeilt" 2.5, "ausstellt" 2.9).
TYPO_MARGIN = 2.0


@lru_cache(maxsize=None)
def _common_words(lang: str) -> frozenset[str]:
    # wordfreq's "small" list, the words from COMMON_ZIPF up: read once per process (50 ms, a few
    # MB); a set lookup, where zipf_frequency takes about 5 microseconds a word and language.
    return frozenset(get_frequency_dict(lang, "small"))


def _zipf(word: str, langs) -> float:
    return max(zipf_frequency(word, lang) for lang in langs)


def language_knows(word: str, langs) -> bool:
    """Whether ``word`` (lower case) is a common word of any of the languages ``langs``."""
    # wordfreq lists words case-folded: "groß" as "gross".
    folded = word.casefold()
    return any(folded in _common_words(lang) for lang in langs)


def rather_a_word(word: str, correction: str, lang: str, langs) -> bool:
    """Whether ``word`` (lower case), rare but known to one of ``langs``, is more likely meant as
    it is than as ``correction`` of ``lang``: unless that is a hundred times as frequent."""
    here = _zipf(word, langs)
    return here >= RARE_ZIPF and zipf_frequency(correction, lang) - here < TYPO_MARGIN


# Ten times as frequent in another language (wordfreq's Zipf scale is a log10): the word is that
# language's, though loans put most words of one into the others' lists ("page" in Italian).
FOREIGN_ZIPF = 1.0


def plainly_of_another_language(word: str, lang: str) -> bool:
    """Whether ``word`` (lower case) is plainly a word of one of the other languages, not ``lang``'s."""
    here = zipf_frequency(word, lang)
    return any(zipf_frequency(word, other) > here + FOREIGN_ZIPF for other in LANGS if other != lang)


def transpositions(word: str) -> list[str]:
    """``word`` with two neighbouring letters swapped, each way: the typo that Levenshtein's
    distance counts as two edits ("lador" for "ladro")."""
    return list(dict.fromkeys(word[:i] + word[i + 1] + word[i] + word[i + 2:]
                              for i in range(len(word) - 1) if word[i] != word[i + 1]))


def doublings(word: str) -> list[str]:
    """``word`` with one or two of its single letters doubled: double letters typed once, two
    edits for Levenshtein's distance in a short word ("asasin" for "assassin", "comisario")."""
    def doubled(text: str) -> list[str]:
        return [text[:i + 1] + text[i] + text[i + 1:] for i in range(len(text))
                if text[i].isalpha() and text[i:i + 2] != text[i] * 2 and text[max(0, i - 1):i + 1] != text[i] * 2]

    once = doubled(word)
    return list(dict.fromkeys([*once, *(twice for text in once for twice in doubled(text))]))
