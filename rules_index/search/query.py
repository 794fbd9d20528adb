"""What a player typed, made ready for ranking: cleaned, game names found, stop words out.

- ``clean_query``: control and bidirectional formatting characters out, white space folded,
  length capped; this is also what a result echoes as its query.
- ``GameNames``: the titles of every game in every edition ("Citadels", "Cittadelle", "Web of
  Power", "Kardinal und König"…). A name in the query picks the game (as a filter) and leaves
  the words that score: a game's name is in none of its entries, so it would only add noise.
- ``content_words``: the query's words less the stop words of every language. A query is run
  against the fields of all three languages, so "of" or "gilt" must not match German or Italian
  text just because only English or German lists them as stop words.
- ``with_rules_words``: players' words ("futsch", "nicked", "fregato"; ``PlayersWords``, from the
  content's lexicon) followed by the words a rulebook uses for the same thing, so that they find
  the answers written in its words; ``scoring_words`` is both steps, what ranking and
  highlighting search for.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping

from rules_index import characters as chars
from rules_index.characters import without_invisible
from rules_index.folding import CONNECTORS, TOKEN_PATTERN, fold, fold_german, name_words

from .analysis import LANGS, SEPARABLE_PARTICLES, stopwords

# A question told as a situation ("Tom has 8 districts, the Merchant is still to come – does the
# game end now?") runs to 25 words or more, and what is asked comes last: the caps keep it whole.
MAX_QUERY_CHARS = 300
MAX_QUERY_WORDS = 40
# The one definition of control characters (tab and line ends are white space, folded below).
_CONTROL = re.compile(f"[{chars.regex_class(chars.CONTROLS)}]")


def clean_query(text: str) -> str:
    """Control characters out, bidirectional formatting characters removed, white space folded,
    length capped: before any analysis, and what a result echoes as its query."""
    # Bidirectional marks and controls and the BOM (characters.INVISIBLE) only reorder or hide what
    # is shown: an echoed query could be made to read backwards or to spill into the page around it.
    text = unicodedata.normalize("NFC", without_invisible(_CONTROL.sub(" ", text or "")))
    text = " ".join(text.split())[:MAX_QUERY_CHARS]
    return " ".join(text.split(" ")[:MAX_QUERY_WORDS])


@lru_cache(maxsize=1)
def all_stopwords() -> frozenset[str]:
    """The stop words of every language, lower case, and their folded forms."""
    words = frozenset().union(*(stopwords(lang) for lang in LANGS))
    return words | frozenset(fold(w) for w in words)


def content_words(text: str) -> str:
    """``text`` without the words that any language counts as a stop word."""
    stops = all_stopwords()
    return " ".join(w for w in TOKEN_PATTERN.findall(text) if w.lower() not in stops)


class PlayersWords:
    """The players' words of the content (``content/lexicon.yaml``, kept in the index's BUILD.json
    as ``{lang: {word: [rulebooks' words, game or null]}}``), looked up in every language: a
    question may mix them. A word of one game only adds its rulebooks' words unless the search
    is narrowed to another game."""

    def __init__(self, data: Mapping[str, Mapping[str, list]] | None = None):
        self.words: dict[str, list[tuple[str, str | None]]] = {}
        for words in (data or {}).values():
            for word, (plain, game) in words.items():
                self.words.setdefault(word.lower(), []).append((plain, game))

    def __contains__(self, word: str) -> bool:
        return word.lower() in self.words

    def __eq__(self, other) -> bool:
        return isinstance(other, PlayersWords) and other.words == self.words

    def rules_words(self, word: str, game: str | None = None) -> list[str]:
        """The rulebooks' words for ``word`` (empty if it is none of the players' words), also for
        a German verb's infinitive with "zu" ("abzureißen" is "abreißen")."""
        lower = word.lower()
        found = self.words.get(lower) or self.words.get(without_zu(lower), ())
        return [plain for plain, only in found if only is None or game is None or only == game]


def without_zu(word: str) -> str:
    """A German separable verb's infinitive with "zu" as the plain infinitive ("abzureißen" ->
    "abreißen", "aufzubauen" -> "aufbauen"); any other word as it is."""
    if "zu" not in word[2:9]:
        return word
    for size in range(2, 8):
        particle, rest = word[:size], word[size:]
        if rest.startswith("zu") and len(rest) >= 6 and fold_german(particle) in SEPARABLE_PARTICLES:
            return particle + rest[2:]
    return word


def with_rules_words(text: str, players: PlayersWords, game: str | None = None) -> str:
    """``text`` with each players' word followed by the rulebooks' words for it."""
    out = []
    for word in TOKEN_PATTERN.findall(text):
        out.append(word)
        out.extend(players.rules_words(word, game))
    return " ".join(out)


def in_rules_words(text: str, players: PlayersWords, game: str | None = None) -> str:
    """``text`` with each players' word replaced by the rulebooks' words for it: the question as
    the rulebook would ask it."""
    return " ".join(" ".join(players.rules_words(word, game)) or word for word in TOKEN_PATTERN.findall(text))


def scoring_words(text: str, players: PlayersWords, game: str | None = None) -> str:
    """The words of ``text`` that are searched for: stop words out, rulebooks' words added."""
    return with_rules_words(content_words(text), players, game)


@dataclass(frozen=True)
class Understood:
    """A query as ranking sees it: the words that score, and the game a name in it picked."""

    text: str
    game: str | None = None
    title_only: bool = False  # the game's name is all there is: what is the game?


class GameNames:
    """Finds game titles (any language, any edition) in a query."""

    def __init__(self, names: Mapping[str, Iterable[str]]):
        self.names: list[tuple[tuple[str, ...], str]] = []
        for slug, titles in names.items():
            for title in titles:
                words = name_words(title)
                if words:
                    self.names.append((words, slug))
        # Longest names first: "Ohne Furcht und Adel" before any shorter title inside it.
        self.names.sort(key=lambda item: -len(item[0]))

    def understand(self, text: str) -> Understood:
        """The query less the first game title found in it, and that game; unchanged if none.
        If the title is all there is, the text stays (it is the question) and ``title_only`` says so."""
        words = ((fold(m.group()), m) for m in TOKEN_PATTERN.finditer(text))
        content = [(w, m) for w, m in words if w not in CONNECTORS]
        for name, slug in self.names:
            size = len(name)
            for start in range(len(content) - size + 1):
                if tuple(w for w, _ in content[start:start + size]) != name:
                    continue
                first, last = content[start][1], content[start + size - 1][1]
                rest = " ".join(f"{text[:first.start()]} {text[last.end():]}".split())
                if not content_words(rest):
                    return Understood(text, slug, title_only=True)
                return Understood(rest, slug)
        return Understood(text)


# What players' ways of asking say where a question names the game ("Wie funktioniert das Spiel?"
# is "Wie funktioniert Kardinal & König?"), per language.
THE_GAME = {"de": ("Spiel",), "en": ("game",), "it": ("gioco", "partita")}


# What kind of answer a question asks for, told by its question words in any language: of two
# answers that hold the same words, the one asked the same kind of question fits better ("in
# quanti si gioca?" is how many play, not how two play). Yes/no questions have no word of their own.
QUESTION_KINDS = {
    "count": ("wie viele", "wieviele", "wie viel", "wieviel", "how many", "how much", "quanti", "quante", "quanto"),
    "who": ("wer", "wem", "wen", "wessen", "who", "whom", "whose", "chi"),
    "when": ("wann", "when", "quando"),
}
_KIND_OF = {tuple(phrase.split()): kind for kind, phrases in QUESTION_KINDS.items() for phrase in phrases}
_KIND_LENGTHS = sorted({len(phrase) for phrase in _KIND_OF})
# A question asking what a thing is or does ("Was macht der Baumeister?", "cosa fa il condottiero"):
# what a glossary entry says. Not a kind of the weighing: answers' questions ask "what happens".
WHAT_IT_IS = frozenset(tuple(fold(word) for word in phrase.split()) for phrase in (
    "was macht", "was machen", "was kann", "was können", "was ist", "was sind", "was bringt", "was bedeutet",
    "wofur ist", "wozu ist", "wozu dient", "what does", "what do", "what is", "what s", "what are", "what can",
    "cosa fa", "che fa", "che cosa fa", "cosa fanno", "che cosa fanno", "cosa puo", "cos e", "cosa e", "a cosa serve", "cosa significa",
    "explain", "erklär", "erkläre", "erklärt", "spiegami", "spiega", "spiegatemi"))
_WHAT_LENGTHS = sorted({len(phrase) for phrase in WHAT_IT_IS})


def _folded_words(text: str) -> list[str]:
    return [fold(word) for word in TOKEN_PATTERN.findall(text)]


# ... unless a place follows: "What's in the box?" asks what it holds.
_PLACE_WORDS = frozenset(("in", "im", "on", "at", "inside", "auf", "nella", "nel", "dentro", "sulla", "sul"))


def asks_what_it_is(text: str) -> bool:
    """Whether ``text`` opens by asking what a thing is or does (``WHAT_IT_IS``), not what is in
    or on a place."""
    words = _folded_words(text)
    return any(tuple(words[:size]) in WHAT_IT_IS and (len(words) <= size or words[size] not in _PLACE_WORDS)
               for size in _WHAT_LENGTHS)


def question_kinds(text: str) -> frozenset[str]:
    """The kinds of answer ``text`` asks for (``QUESTION_KINDS``), by its words in any language."""
    words = _folded_words(text)
    return frozenset(_KIND_OF[run] for size in _KIND_LENGTHS for at in range(len(words) - size + 1)
                     if (run := tuple(words[at:at + size])) in _KIND_OF)
