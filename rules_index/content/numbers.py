"""The numbers a text states, so translations can be compared (3 in German must be 3 in Italian).

Digits count, and so do unambiguous number words of 2 to 12 (cardinal and ordinal). The number 1 is
left out: "ein", "one" and "uno" are also articles and pronouns.
"""
from __future__ import annotations

import re

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
        # "sei" (also "you are") and "secondo" (also "according to") are ambiguous: write digits.
        2: "due seconda secondi seconde", 3: "tre terzo terza terzi terze",
        4: "quattro quarto quarta quarti", 5: "cinque quinto quinta", 6: "sesto sesta",
        7: "sette settimo settima", 8: "otto ottavo ottava ottavi", 9: "nove nono nona",
        10: "dieci decimo decima", 11: "undici", 12: "dodici",
    },
}
_LOOKUP = {
    lang: {word: value for value, words in table.items() for word in words.split()}
    for lang, table in _WORDS.items()
}
_TOKEN = re.compile(r"\d+|[^\W\d_]+")


def numbers_in(text: str, lang: str) -> set[int]:
    found: set[int] = set()
    words = _LOOKUP.get(lang, {})
    for token in _TOKEN.findall(text):
        if token.isdigit():
            value = int(token)
        else:
            value = words.get(token.lower(), 1)
        if value != 1:
            found.add(value)
    return found
