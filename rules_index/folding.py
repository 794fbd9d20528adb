"""How words and names are compared, for search and for the content's checks alike: accents,
umlauts and their transliterations folded, so that "Kardinal & König", "Kardinal und Konig" and
"kardinal koenig" are one name."""
from __future__ import annotations

import re
import unicodedata

# Words, with apostrophes (straight or typographic) as separators: "l'assassino" -> "l", "assassino".
TOKEN_PATTERN = re.compile(r"[^\W_]+", re.UNICODE)
# Words that join the parts of a title ("Kardinal & König", "Web of Power"): a player may type
# them or not.
CONNECTORS = frozenset({"und", "and", "e", "ed", "of", "the", "di", "del", "der", "die", "das"})

_UMLAUTS = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "ss"})
# ae, oe, ue at the start or after a letter a-z: "Soeldner" -> "Soldner".
_TRANSLIT = re.compile(r"(?<![^a-z])([aou])e")


def fold_accents(text: str) -> str:
    """``citta`` and ``città`` are one word."""
    if text.isascii():  # most words: nothing to fold
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def fold_german(word: str) -> str:
    """``Söldner``, ``Soeldner`` and ``Soldner`` all become ``soldner``."""
    word = word.translate(_UMLAUTS)
    word = _TRANSLIT.sub(r"\1", word) if "q" not in word else word
    return fold_accents(word)


def fold(word: str) -> str:
    """A word as names are compared: lower case, umlauts and accents folded."""
    return fold_german(word.lower())


def name_words(name: str) -> tuple[str, ...]:
    """A name's words as they are compared: folded, connectors left out (what picks a game in a
    question, and what two games' names must not share)."""
    return tuple(word for word in map(fold, TOKEN_PATTERN.findall(name)) if word not in CONNECTORS)
