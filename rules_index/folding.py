"""How words and names are compared, for search and for the content's checks alike.

- ``fold_accents``: accents off (``citta`` and ``città`` are one word).
- ``fold_german``: umlauts and their transliterations too (``Söldner``, ``Soeldner``, ``Soldner``).
- ``fold``: a word lower case and folded, as names are compared.
- ``name_words``: the folded words of a name less the words that join its parts ("Kardinal &
  König", "Kardinal und Konig" and "kardinal koenig" are one name): what picks a game in a
  question, and what two games' names must not share.
"""
from __future__ import annotations

import re
import unicodedata

# Words, with apostrophes (straight or typographic) as separators: "l'assassino" -> "l", "assassino".
TOKEN_PATTERN = re.compile(r"[^\W_]+", re.UNICODE)
# Words that join the parts of a title ("Kardinal & König", "Web of Power"): a player may type
# them or not.
CONNECTORS = frozenset({"und", "and", "e", "ed", "of", "the", "di", "del", "der", "die", "das"})

_UMLAUTS = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "ss"})
_TRANSLIT = re.compile(r"(?<=[a-z])(ae|oe|ue)|^(ae|oe|ue)")


def fold_accents(text: str) -> str:
    if text.isascii():  # most words: nothing to fold
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def fold_german(word: str) -> str:
    """``Söldner``, ``Soeldner`` and ``Soldner`` all become ``soldner``."""
    word = word.translate(_UMLAUTS)
    word = _TRANSLIT.sub(lambda m: (m.group(1) or m.group(2))[0], word) if "q" not in word else word
    return fold_accents(word)


def fold(word: str) -> str:
    """A word as names are compared: lower case, umlauts and accents folded."""
    return fold_german(word.lower())


def name_words(name: str) -> tuple[str, ...]:
    """A name's words as they are compared: folded, connectors left out."""
    return tuple(word for word in map(fold, TOKEN_PATTERN.findall(name)) if word not in CONNECTORS)
