"""Recognising a text that restates one of a game's common mistakes (in any of its languages).

The mistakes in ``mistakes.yaml`` are the project's own catalogue of false statements. Texts are
compared sentence by sentence, through the search analyzers (stems, folded accents and umlauts,
German compound parts), so that other word forms and word orders are recognised. A sentence
restates a mistake when

- they share most of their words (Dice's coefficient), or the sentence is a shortened form of
  the mistake (nearly all its words are the mistake's, and it holds half of them);
- it states the mistake's numbers with the same words ("2 Steine" is not "1 Stein");
- it has the mistake's polarity: a sentence with a negation ("er zahlt nicht den vollen Preis")
  denies a mistake without one, and the other way round;
- it is not at least as close to the mistake's correction.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from .content import LANGS, Game
from .content.claims import plain
from .content.bindings import CONTRACTED as _CONTRACTED, NEGATIONS
from .content.marks import unmarked
from .content.numbers import number_value, prose_tokens
from .content.schema import Mistake
from .search.analysis import german_vocabulary, language_analyzer, stopwords

# Pasted mistakes score 1.0; the closest sentence of the shipped content scores 0.8 (the tests
# hold both, and every mistake pasted into its FAQ entry must be refused).
THRESHOLD = 0.85
# A shortened restatement: this share of its words come from the mistake, and it holds at
# least MIN_COVER of the mistake's words.
CONTAINED = 0.9
MIN_COVER = 0.5
MIN_WORDS = 3
# Stop words for search, but here they carry the claim: "only", "all", "own", "before" ...
KEEP = {
    "de": {"alle", "allem", "allen", "aller", "alles", "ander", "andere", "anderem", "anderen", "anderer",
           "anderes", "jede", "jedem", "jeden", "jeder", "jedes", "nur", "selbst", "noch", "wieder", "weiter",
           "ohne", "vor", "nach", "einmal", "viel", "viele", "manche", "gegen", "sofort", "bis", "über", "unter"},
    "en": {"all", "any", "both", "each", "few", "more", "most", "only", "other", "own", "same", "some",
           "once", "again", "before", "after", "until", "further", "than", "against", "over", "under"},
    "it": {"tutti", "tutto", "più", "contro", "anche"},
}
_ANSWER_WORD = re.compile(r"^\W*(?:ja|nein|yes|no|sì|si)\s*[,.!;:–-]", re.I)
# Sentence ends, paragraphs and list items; single line breaks inside a paragraph are kept.
_SENTENCES = re.compile(r"(?<![0-9][.])(?<=[.!?;])\s+|\n\s*\n|\n\s*(?=[-+*]\s|\d+\.\s)")
_WORDS = re.compile(r"[^\W\d_]+", re.U)
PAIR_REACH = 3  # a number belongs to the first word within this many words after it


@dataclass(frozen=True)
class Restatement:
    """A sentence of a text in ``lang`` that restates ``mistake``."""

    mistake: Mistake
    lang: str
    sentence: str
    score: float


@dataclass(frozen=True)
class Statement:
    """A text as the comparison sees it: analysed words, numbers with their words, polarity."""

    words: frozenset[str]
    numbers: frozenset[tuple[int, str]]
    negated: bool


class Comparer:
    """The analyzers of one game's content, and its mistakes already analysed."""

    def __init__(self, game: Game):
        self.game = game
        vocabulary = german_vocabulary(_german_texts(game))
        self.analyzers = {lang: language_analyzer(lang, vocabulary if lang == "de" else (), KEEP[lang]) for lang in LANGS}
        self.stops = {lang: stopwords(lang) - KEEP[lang] for lang in LANGS}
        self.mistakes = [
            (mistake, {lang: (self.statement(mistake.text(lang).mistake, lang), self.statements(mistake.text(lang).correction, lang)) for lang in LANGS})
            for mistake in game.mistakes
        ]

    def stems(self, text: str, lang: str) -> frozenset[str]:
        return frozenset(token.text for token in self.analyzers[lang](text))

    def numbers(self, text: str, lang: str) -> frozenset[tuple[int, str]]:
        """Each number stated, with the first word after it that means something ("2 Steine")."""
        tokens = prose_tokens(text)
        pairs = set()
        for index, token in enumerate(tokens):
            value = number_value(token, lang)
            if value is None:
                continue
            word = ""
            for following in tokens[index + 1: index + 1 + PAIR_REACH]:
                if number_value(following, lang) is None and following.lower() not in self.stops[lang]:
                    word = min(self.stems(following, lang), default="")
                    break
            pairs.add((value, word))
        return frozenset(pairs)

    def statement(self, text: str, lang: str) -> Statement:
        text = _ANSWER_WORD.sub("", text, count=1)
        numbers = self.numbers(text, lang)
        words = self.stems(text, lang) | {f"#{value}" for value, _ in numbers}
        return Statement(words, numbers, negated(text, lang))

    def statements(self, text: str, lang: str) -> list[Statement]:
        """The text as a whole and each of its sentences."""
        parts = sentences(text)
        return [self.statement(text, lang)] + ([self.statement(p, lang) for p in parts] if len(parts) > 1 else [])

    def restatements(self, text: str, lang: str) -> list[Restatement]:
        """Every mistake of the game that a sentence of ``text`` restates (the closest sentence)."""
        found: dict[str, Restatement] = {}
        for sentence in sentences(text):
            said = self.statement(sentence, lang)
            if not said.words:
                continue
            for mistake, statements in self.mistakes:
                false, corrections = statements[lang]
                score = closeness(false, said)
                if score == 0.0 or any(score <= closeness(c, said) for c in corrections):
                    continue
                best = found.get(mistake.id)
                if best is None or score > best.score:
                    found[mistake.id] = Restatement(mistake, lang, sentence, score)
        return list(found.values())


def closeness(claim: Statement, said: Statement) -> float:
    """How far ``said`` says what ``claim`` says: its Dice score when it restates it, else 0."""
    if claim.negated != said.negated or not claim.words or not said.words:
        return 0.0
    if _numbers_disagree(claim.numbers, said.numbers):
        return 0.0
    in_claim = _found(said.words, claim.words)
    in_said = _found(claim.words, said.words)
    dice = (in_claim + in_said) / (len(claim.words) + len(said.words))
    shortened = (
        len(said.words) >= MIN_WORDS
        and in_claim / len(said.words) >= CONTAINED
        and in_said / len(claim.words) >= MIN_COVER
    )
    return dice if dice >= THRESHOLD or shortened else 0.0


def _found(words: frozenset[str], within: frozenset[str]) -> int:
    """How many of ``words`` occur in ``within``, counting stems the stemmer left one or two
    letters apart as the same ("zahl"/"zahlt", "spiel"/"spieler")."""
    return sum(1 for word in words if word in within
               or (len(word) >= 4 and not word.startswith("#") and any(_near(word, other) for other in within)))


def _near(a: str, b: str) -> bool:
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 4 and len(long) - len(short) <= 2 and long.startswith(short)


def _numbers_disagree(claim: frozenset[tuple[int, str]], said: frozenset[tuple[int, str]]) -> bool:
    """A number of the claim that the sentence leaves out, or states of the same thing differently."""
    said_values = {value for value, _ in said}
    for value, word in claim:
        if value not in said_values:
            return True
        if word and (value, word) not in said and any(w == word for _, w in said):
            return True
    return False


def _german_texts(game: Game):
    for faq in game.faq:
        yield faq.de.question
        yield unmarked(faq.de.answer)
    for mistake in game.mistakes:
        yield mistake.de.mistake
        yield mistake.de.correction
    for section in game.sections:
        yield section.body("de")


def sentences(text: str) -> list[str]:
    """The sentences and list items of a Markdown text, as plain text."""
    return [part for part in (plain(piece) for piece in _SENTENCES.split(text)) if part]


def negated(text: str, lang: str) -> bool:
    """Whether the text denies something: it holds a negation beyond an opening "Nein,"."""
    text = _ANSWER_WORD.sub("", text, count=1)
    if _CONTRACTED.search(text):
        return True
    return any(word.casefold() in NEGATIONS[lang] for word in _WORDS.findall(text))


def restated_mistakes(library) -> list[tuple[str, str, Restatement]]:
    """(game, FAQ id, restatement) for every answer of the library that restates a mistake."""
    found = []
    for game in library:
        compare = comparer(game)
        for faq in game.faq:
            for lang in LANGS:
                found += [(game.slug, faq.id, r) for r in compare.restatements(faq.text(lang).answer, lang)]
    return found


_COMPARERS: dict[int, tuple[Game, Comparer]] = {}
_COMPARERS_LOCK = threading.Lock()


def comparer(game: Game) -> Comparer:
    """The game's comparer, kept while that Game object is the loaded one (a reload brings new ones)."""
    with _COMPARERS_LOCK:
        cached = _COMPARERS.get(id(game))
        if cached is not None and cached[0] is game:
            return cached[1]
    made = Comparer(game)
    with _COMPARERS_LOCK:
        if len(_COMPARERS) >= 16:
            _COMPARERS.clear()
        _COMPARERS[id(game)] = (game, made)
    return made
