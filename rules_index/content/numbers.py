"""The numbers a text states, so that they can be held against an answer's ruling.

Digits count, and so do unambiguous number words of 2 to 12 (cardinal and ordinal). The number 1 is
left out: "ein", "one" and "uno" are also articles and pronouns, and writing 1 as a digit or as a
word must not make a difference. Link targets and addresses are not prose and state nothing.
"""
from __future__ import annotations

import re

from .marks import unmarked

_WORDS = {
    "de": {
        2: "zwei zweite zweiter zweites zweiten zweitem zweimal",
        3: "drei dritte dritter drittes dritten drittem dreimal",
        4: "vier vierte vierter viertes vierten viertem",
        5: "fünf fünfte fünfter fünftes fünften fünftem",
        6: "sechs sechste sechster sechstes sechsten sechstem",
        7: "sieben siebte siebter siebtes siebten siebtem",
        8: "acht achte achter achtes achten achtem",
        9: "neun neunte neunter neuntes neunten",
        10: "zehn zehnte zehnter zehntes zehnten",
        11: "elf elfte elfter elftes elften",
        12: "zwölf zwölfte zwölfter zwölftes zwölften",
    },
    "en": {
        2: "two second twice", 3: "three third", 4: "four fourth", 5: "five fifth",
        6: "six sixth", 7: "seven seventh", 8: "eight eighth", 9: "nine ninth",
        10: "ten tenth", 11: "eleven eleventh", 12: "twelve twelfth",
    },
    "it": {
        # "sei" (also "you are") and "secondo" (also "according to"): see AMBIGUOUS.
        2: "due seconda secondi seconde", 3: "tre terzo terza terzi terze",
        4: "quattro quarto quarta quarti", 5: "cinque quinto quinta", 6: "- sesto sesta",
        7: "sette settimo settima", 8: "otto ottavo ottava ottavi", 9: "nove nono nona",
        10: "dieci decimo decima", 11: "undici", 12: "dodici",
    },
}
# Number words that are other words too ("sei": "you are"; "secondo": "according to"): read as
# numbers only where a text is bound to name a count (``ambiguous_numbers``), never in prose.
AMBIGUOUS = {"de": {}, "en": {}, "it": {"sei": 6, "secondo": 2}}
# Cardinals beyond 12 ("dreißig Goldstücke"): counted like the rest.
_LARGER = {
    "de": {13: "dreizehn", 14: "vierzehn", 15: "fünfzehn", 16: "sechzehn", 17: "siebzehn", 18: "achtzehn", 19: "neunzehn",
           20: "zwanzig", 30: "dreißig", 40: "vierzig", 50: "fünfzig", 60: "sechzig", 70: "siebzig", 80: "achtzig",
           90: "neunzig", 100: "hundert"},
    "en": {13: "thirteen", 14: "fourteen", 15: "fifteen", 16: "sixteen", 17: "seventeen", 18: "eighteen", 19: "nineteen",
           20: "twenty", 30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty", 90: "ninety",
           100: "hundred"},
    "it": {13: "tredici", 14: "quattordici", 15: "quindici", 16: "sedici", 17: "diciassette", 18: "diciotto", 19: "diciannove",
           20: "venti", 30: "trenta", 40: "quaranta", 50: "cinquanta", 60: "sessanta", 70: "settanta", 80: "ottanta",
           90: "novanta", 100: "cento"},
}
# How many play or act together, after "zu": "zu zweit", "zu dritt" (a count, like the cardinal).
_GROUPS = {"de": {"zweit": 2, "dritt": 3, "viert": 4, "fünft": 5, "sechst": 6, "siebt": 7, "neunt": 9, "zehnt": 10},
           "en": {}, "it": {}}
_GROUP_AFTER = {"de": "zu"}
# A list starts with its cardinal, or with "-" where no word can stand for the count.
_LOOKUP = {
    lang: {**{word: value for value, words in table.items() for word in words.split() if word != "-"},
           **{word: value for value, word in _LARGER[lang].items()}}
    for lang, table in _WORDS.items()
}
# The cardinal of each value is the first word of its list; the others are ordinals or "twice".
_CARDINALS = {lang: {words.split()[0] for words in table.values()} - {"-"} | set(_LARGER[lang].values()) for lang, table in _WORDS.items()}
# Digits are ASCII only: another script's digits ("৪", "٣") are not read as numbers here.
_TOKEN = re.compile(r"[0-9]+|[^\W\d_]+")
# Markdown link targets "](...)", autolinks "<http...>" and bare addresses.
_NOT_PROSE = re.compile(r"\]\([^)]*\)|<[a-z][a-z0-9+.-]{1,31}:[^<>\s]*>|\b(?:https?|ftp)://\S+|\bwww\.\S+", re.I)


def ambiguous_numbers(text: str, lang: str) -> set[int]:
    """The counts ``text`` names in words that are other words too (``AMBIGUOUS``)."""
    return {AMBIGUOUS[lang][t.lower()] for t in _TOKEN.findall(text) if t.lower() in AMBIGUOUS[lang]}


def _values(tokens: list[str], lang: str):
    """The number each token states (or None), each read with the word before it."""
    return (number_value(token, lang, previous) for token, previous in zip(tokens, [None, *tokens]))


def numbers_in(text: str, lang: str) -> set[int]:
    return {value for value in _values(_TOKEN.findall(text), lang) if value is not None and value != 1}


_LIST_NUMBER = re.compile(r"^(\s*)\d+\.(?=\s)", re.M)


def prose(text: str) -> str:
    """The text without marks, link targets, web addresses and the numbers of ordered list items (their
    digits are not statements)."""
    text = _LIST_NUMBER.sub(r"\1", unmarked(text))
    return _NOT_PROSE.sub(lambda m: "]" if m.group(0).startswith("]") else " ", text)


def prose_tokens(text: str) -> list[str]:
    """The words and digit groups of the prose of ``text``, in order."""
    return _TOKEN.findall(prose(text))


def number_value(token: str, lang: str, previous: str | None = None) -> int | None:
    """The number a token states (ASCII digits, or a number word), else None. ``previous``: the
    word before it ("zu" makes "zweit" a count)."""
    if token.isascii() and token.isdigit():
        return int(token)
    word = token.lower()
    if word in _GROUPS.get(lang, {}):
        return _GROUPS[lang][word] if (previous or "").lower() == _GROUP_AFTER.get(lang) else None
    return _LOOKUP.get(lang, {}).get(word)


def is_ordinal(token: str, lang: str) -> bool:
    """Whether a number word counts a place or a time ("zweite", "second", "twice"), not a quantity."""
    word = token.lower()
    return word in _LOOKUP.get(lang, {}) and word not in _CARDINALS.get(lang, set())


def numbers_in_order(text: str, lang: str) -> list[int]:
    """The numbers the prose of ``text`` states, in order, the digit 1 included (a verdict may be 1)."""
    return [value for value in _values(prose_tokens(text), lang) if value is not None]


def stated_numbers(text: str, lang: str) -> set[int]:
    """The numbers the prose of ``text`` states, as ``numbers_in`` counts them (1 left out)."""
    return numbers_in(prose(text), lang)
