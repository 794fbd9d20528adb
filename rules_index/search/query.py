"""What a player typed, made ready for ranking: cleaned, game names found, stop words out.

- ``clean_query``: control and bidirectional formatting characters out, white space folded,
  length capped; this is also what a result echoes as its query.
- ``GameNames``: the titles of every game in every edition ("Citadels", "Cittadelle", "Web of
  Power", "Kardinal und König"…). A name in the query picks the game (as a filter) and leaves
  the words that score: a game's name is in none of its entries, so it would only add noise.
- ``content_words``: the query's words less the stop words of every language. A query is run
  against the fields of all three languages, so "of" or "gilt" must not match German or Italian
  text just because only English or German lists them as stop words.
- ``with_rules_words``: players' colloquial words ("futsch", "nicked", "fregato") followed by the
  word a rulebook uses for the same thing, so that they find the answers written in its words;
  ``scoring_words`` is both steps, what ranking and highlighting search for.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping

from rules_index.characters import without_invisible

from .analysis import LANGS, TOKEN_PATTERN, fold_german, stopwords

MAX_QUERY_CHARS = 200
MAX_QUERY_WORDS = 16
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# Words that join the parts of a title ("Kardinal & König", "Web of Power"): a player may type
# them or not, so names are compared without them.
CONNECTORS = frozenset({"und", "and", "e", "ed", "of", "the", "di", "del", "der", "die", "das"})


def clean_query(text: str) -> str:
    """Control characters out, bidirectional formatting characters removed, white space folded,
    length capped: before any analysis, and what a result echoes as its query."""
    # Bidirectional marks and controls and the BOM (characters.INVISIBLE) only reorder or hide what
    # is shown: an echoed query could be made to read backwards or to spill into the page around it.
    text = unicodedata.normalize("NFC", without_invisible(_CONTROL.sub(" ", text or "")))
    text = " ".join(text.split())[:MAX_QUERY_CHARS]
    words = text.split(" ")
    return " ".join(words[:MAX_QUERY_WORDS])


def fold(word: str) -> str:
    """A word as names are compared: lower case, umlauts and accents folded."""
    return fold_german(word.lower())


@lru_cache(maxsize=1)
def all_stopwords() -> frozenset[str]:
    """The stop words of every language, lower case, and their folded forms."""
    words = frozenset().union(*(stopwords(lang) for lang in LANGS))
    return words | frozenset(fold(w) for w in words)


def content_words(text: str) -> str:
    """``text`` without the words that any language counts as a stop word."""
    stops = all_stopwords()
    return " ".join(w for w in TOKEN_PATTERN.findall(text) if w.lower() not in stops)


# Players' words -> the rulebooks' words, per language (a query's words are looked up lower case).
# Words of the language at large, not of one game: a game's own nicknames for its pieces and
# characters are its glossary's aliases.
COLLOQUIAL = {
    "de": {"futsch": "verloren", "hinüber": "verloren", "flöten": "verloren", "geklaut": "gestohlen",
           "klauen": "stehlen", "klaut": "stiehlt", "abgezockt": "gestohlen", "abzocken": "stehlen",
           "gemopst": "gestohlen", "mopsen": "stehlen", "knete": "Geld", "kohle": "Geld"},
    "en": {"nicked": "stolen", "nick": "steal", "nicks": "steals", "pinched": "stolen", "pinch": "steal",
           "swiped": "stolen", "swipe": "steal", "gone": "lost", "cash": "money", "dough": "money",
           "bucks": "money", "nuke": "destroy", "nuked": "destroyed", "trash": "destroy"},
    "it": {"fregato": "rubato", "fregare": "rubare", "frega": "ruba", "soffiato": "rubato", "soffiare": "rubare",
           "sparito": "perso", "sparisce": "perde", "grana": "denaro", "soldi": "denaro",
           "spaccare": "distruggere", "spacca": "distrugge"},
}
_RULES_WORDS = {word: plain for words in COLLOQUIAL.values() for word, plain in words.items()}


def with_rules_words(text: str) -> str:
    """``text`` with each colloquial word followed by the rulebooks' word for it."""
    out = []
    for word in TOKEN_PATTERN.findall(text):
        out.append(word)
        plain = _RULES_WORDS.get(word.lower())
        if plain:
            out.append(plain)
    return " ".join(out)


def scoring_words(text: str) -> str:
    """The words of ``text`` that are searched for: stop words out, rulebooks' words added."""
    return with_rules_words(content_words(text))


def is_colloquial(word: str) -> bool:
    """Whether ``word`` (lower case) is a players' word ``with_rules_words`` knows."""
    return word in _RULES_WORDS


@dataclass(frozen=True)
class Understood:
    """A query as ranking sees it: the words that score, and the game a name in it picked."""

    text: str
    game: str | None = None
    game_words: tuple[str, ...] = ()


class GameNames:
    """Finds game titles (any language, any edition) in a query."""

    def __init__(self, names: Mapping[str, Iterable[str]]):
        self.names: list[tuple[tuple[str, ...], str]] = []
        for slug, titles in names.items():
            for title in titles:
                words = tuple(fold(w) for w in TOKEN_PATTERN.findall(title) if fold(w) not in CONNECTORS)
                if words:
                    self.names.append((words, slug))
        # Longest names first: "Ohne Furcht und Adel" before any shorter title inside it.
        self.names.sort(key=lambda item: -len(item[0]))

    def understand(self, text: str) -> Understood:
        """The query less the first game title found in it, and that game; unchanged if none,
        or if the title is all there is (then it is the question)."""
        matches = list(TOKEN_PATTERN.finditer(text))
        words = [(fold(m.group()), m) for m in matches]
        content = [(w, m) for w, m in words if w not in CONNECTORS]
        for name, slug in self.names:
            size = len(name)
            for start in range(len(content) - size + 1):
                if tuple(w for w, _ in content[start:start + size]) != name:
                    continue
                first, last = content[start][1], content[start + size - 1][1]
                rest = f"{text[:first.start()]} {text[last.end():]}"
                rest = " ".join(rest.split())
                if not content_words(rest):
                    return Understood(text)
                return Understood(rest, slug, tuple(m.group() for _, m in content[start:start + size]))
        return Understood(text)
