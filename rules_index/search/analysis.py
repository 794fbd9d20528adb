"""Text analysis per language for the index: tokens, stop words, stems, folding, compounds.

- Accents fold everywhere (``citta`` finds ``città``); German also folds umlauts and their
  transliterations (``Soldner``/``Soeldner``/``Söldner``).
- Italian elided articles are dropped (``l'assassino`` -> ``assassino``).
- German compounds also index their parts when both parts are words of the content
  (``Bauwerkkarten`` -> ``bauwerkkarten``, ``bauwerk``, ``karten``), before stemming.
- German verbs split in two are joined again where the content has the joined word: in "Wie baut
  man das Spiel auf?" the verb is "aufbauen" (to set up), not "bauen" (to build).
- Stems are Snowball's, through PyStemmer (the C library): Whoosh's own Snowball ports are pure
  Python, 8-27 microseconds a word against under one, and every new word of a query is stemmed
  in three languages while the reader waits.
"""
from __future__ import annotations

import re
import threading
from bisect import bisect_left
from typing import Callable, Iterable

import Stemmer
from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StopFilter
from whoosh.lang import stopwords_for_language

from rules_index.folding import TOKEN_PATTERN, fold_accents, fold_german

LANGS = ("de", "en", "it")

# Words that carry no meaning in a rules question, beyond each language's stop list.
EXTRA_STOPS = {
    "de": {"darf", "dürfen", "kann", "können", "muss", "müssen", "man", "wie", "viele", "was", "wann",
           "wer", "wen", "wem", "ich", "mein", "meine", "gibt", "passiert", "bekommt", "eigentlich", "gilt",
           "kommt", "geht", "trotzdem", "einfach"},
    "en": {"can", "may", "must", "does", "do", "how", "many", "much", "what", "when", "who", "whom",
           "i", "my", "get", "gets", "happens", "there"},
    "it": {"può", "posso", "puoi", "possono", "deve", "devo", "come", "quanti", "quante", "quanto",
           "cosa", "che", "quando", "chi", "si", "mio", "mia", "succede"},
}
ITALIAN_ELISIONS = {"l", "d", "un", "dell", "all", "nell", "sull", "dall", "quest", "quell", "c", "n", "s", "v", "m", "t"}


class LanguageTokenFilter(Filter):
    """Replaces each token's text by what a function of one language makes of it
    (``function()``, looked up once per text)."""

    def __init__(self, lang: str):
        self.lang = lang

    def __eq__(self, other):
        return type(other) is type(self) and other.lang == self.lang

    def function(self) -> Callable[[str], str]:
        raise NotImplementedError

    def __call__(self, tokens):
        change = self.function()
        for token in tokens:
            token.text = change(token.text)
            yield token


class FoldFilter(LanguageTokenFilter):
    """Folds accents (and, for German, umlaut transliterations)."""

    def function(self) -> Callable[[str], str]:
        return fold_german if self.lang == "de" else fold_accents


SNOWBALL_ALGORITHMS = {"de": "german", "en": "english", "it": "italian"}
_stemmers = threading.local()


def stemmer(lang: str) -> Callable[[str], str]:
    """The Snowball stem function of a language for the calling thread: a PyStemmer object is not
    thread-safe, so each thread has its own. Without PyStemmer's word cache: a stem takes under a
    microsecond, and the searcher keeps each word's analysis in a bounded cache."""
    found = getattr(_stemmers, lang, None)
    if found is None:
        snowball = Stemmer.Stemmer(SNOWBALL_ALGORITHMS[lang], 0)
        found = snowball.stemWord
        setattr(_stemmers, lang, found)
    return found


class SnowballStemFilter(LanguageTokenFilter):
    """Each token's Snowball stem."""

    def function(self) -> Callable[[str], str]:
        return stemmer(self.lang)


class DecompoundFilter(Filter):
    """Adds the parts of German compounds whose parts are known words (by stem).

    ``vocabulary`` holds stems of the content's German words; a compound of two or three parts
    of at least 4 letters, joined directly or by a linking s/n/en/es/e, yields its parts too.
    """

    LINKS = ("", "s", "n", "en", "es", "e")

    def __init__(self, vocabulary: Iterable[str] = ()):
        self.vocabulary = frozenset(vocabulary)

    def __eq__(self, other):
        return isinstance(other, DecompoundFilter) and other.vocabulary == self.vocabulary

    def known(self, part: str) -> bool:
        return len(part) >= 4 and stemmer("de")(part) in self.vocabulary

    def split(self, word: str, depth: int = 0) -> list[str] | None:
        if depth > 1 or len(word) < 8:
            return None
        for cut in range(len(word) - 4, 3, -1):
            head, rest = word[:cut], word[cut:]
            if not self.known(head):
                continue
            for link in self.LINKS:
                if not rest.startswith(link):
                    continue
                tail = rest[len(link):]
                if self.known(tail):
                    return [head, tail]
                deeper = self.split(tail, depth + 1)
                if deeper:
                    return [head, *deeper]
        return None

    def __call__(self, tokens):
        for token in tokens:
            # Split the word as typed: once yielded, the token is stemmed in place downstream.
            original = token.text
            parts = self.split(original) if self.vocabulary else None
            yield token
            if parts:
                for part in parts:
                    token.text = part
                    yield token
                token.text = original


# A German clause's last word that is a separable particle ("Wie baut man das Spiel auf?"): no
# preposition ends a clause, so it is the verb's first part.
SEPARABLE_PARTICLES = frozenset((
    "ab", "an", "auf", "aus", "bei", "durch", "ein", "fest", "fort", "frei", "heraus", "herein", "hinaus", "hinein",
    "los", "mit", "nach", "raus", "rein", "ruber", "um", "vor", "vorbei", "weg", "weiter", "zu", "zuruck", "zusammen"))
# The finite verb stands first in a clause (a yes/no question) or second; "und", "aber" before it don't count.
CLAUSE_OPENERS = frozenset(("und", "oder", "aber", "denn", "sondern"))
# German text is tokenized with the signs that end a clause; ``SeparableVerbFilter`` drops them.
CLAUSE_SIGNS = ".,;:!?()[]–—"
GERMAN_TOKENS = re.compile(TOKEN_PATTERN.pattern + "|[" + re.escape(CLAUSE_SIGNS) + "]", re.UNICODE)
PERSONAL_ENDINGS = ("est", "st", "et", "t", "en", "e", "n")


class SeparableVerbFilter(Filter):
    """Joins a German clause's split verb: the finite verb becomes the stem of the content's
    ``vocabulary`` made of the clause's last word, a separable particle, and the verb's stem
    ("baut … auf" -> "aufbau", "bereitet … vor" -> "vorbereit", "fängt … an" -> "anfang"); the
    shortest such stem, so the verb rather than a longer noun of it. Drops the clause signs that
    ``GERMAN_TOKENS`` yields. Questions and the content's ways of asking go through the same
    analyzer, so they meet in the joined word."""

    def __init__(self, vocabulary: Iterable[str] = ()):
        self.vocabulary = frozenset(vocabulary)
        self._sorted: list[str] | None = None

    def __eq__(self, other):
        return isinstance(other, SeparableVerbFilter) and other.vocabulary == self.vocabulary

    def joined(self, particle: str, verb: str) -> str | None:
        if self._sorted is None:
            self._sorted = sorted(self.vocabulary)
        words = self._sorted
        verb = fold_german(verb)
        for end in (*PERSONAL_ENDINGS, ""):
            if not verb.endswith(end) or len(verb) - len(end) < 3:
                continue
            prefix = particle + verb[: len(verb) - len(end)]
            at, found = bisect_left(words, prefix), []
            while at < len(words) and words[at].startswith(prefix):
                found.append(words[at])
                at += 1
            if found:
                return min(found, key=lambda word: (len(word), word))
        return None

    def split_verb(self, words: list[str]) -> tuple[int, str] | None:
        """(position, joined stem) of a clause's split verb (``words``: the clause's words, lower
        case), or None: the first or second word, after any ``CLAUSE_OPENERS``, joined with the
        last word where that is a separable particle and the vocabulary has the joined stem."""
        start = 0
        while start < len(words) and fold_german(words[start]) in CLAUSE_OPENERS:
            start += 1
        particle = fold_german(words[-1]) if words else ""
        if not self.vocabulary or len(words) - start < 3 or particle not in SEPARABLE_PARTICLES:
            return None
        for at in range(start, start + 2):
            joined = self.joined(particle, words[at])
            if joined:
                return at, joined
        return None

    def rejoined(self, text: str) -> str:
        """``text`` with each clause's split verb replaced by its joined stem (``split_verb``), as
        this filter analyses it: for a question whose stop words are taken out before analysis."""
        out, clause, last = [], [], 0
        for match in [*GERMAN_TOKENS.finditer(text), None]:
            if match is None or match.group() in CLAUSE_SIGNS:
                found = self.split_verb([word.group().lower() for word in clause])
                if found:
                    verb = clause[found[0]]
                    out.append(text[last:verb.start()] + found[1])
                    last = verb.end()
                clause = []
            else:
                clause.append(match)
        return "".join(out) + text[last:]

    def __call__(self, tokens):
        clause = []  # copies: the tokenizer yields one token object, changed in place
        for token in tokens:
            if token.text and token.text in CLAUSE_SIGNS:
                yield from self._joined(clause)
                clause = []
            else:
                clause.append(token.copy())
        yield from self._joined(clause)

    def _joined(self, clause: list):
        found = self.split_verb([token.text for token in clause])
        if found:
            clause[found[0]].text = found[1]
        return clause


def separable_verbs(analyzer) -> SeparableVerbFilter | None:
    """The analyzer's ``SeparableVerbFilter`` (German fields), or None."""
    return next((item for item in getattr(analyzer, "items", ()) if isinstance(item, SeparableVerbFilter)), None)


class ElisionFilter(Filter):
    """Drops Italian elided articles and prepositions left by splitting at the apostrophe."""

    def __call__(self, tokens):
        for token in tokens:
            if token.text not in ITALIAN_ELISIONS:
                yield token


class ItalianStemFilter(Filter):
    """Snowball's Italian stem, plus a light stem (the word less its final vowel).

    Snowball does not conflate some singulars and plurals (``quartiere`` -> ``quart``,
    ``quartieri`` -> ``quartier``); the light stem does, so both are indexed and searched.
    """

    def __eq__(self, other):
        return isinstance(other, ItalianStemFilter)

    def __call__(self, tokens):
        snowball = stemmer("it")
        for token in tokens:
            word = token.text
            stems = [snowball(word)]
            if len(word) > 4 and word[-1] in "aeiouàèéìòù":
                stems.append(word[:-1])
            for stem in dict.fromkeys(stems):
                token.text = stem
                yield token


def stopwords(lang: str) -> frozenset[str]:
    return frozenset(stopwords_for_language(lang)) | EXTRA_STOPS[lang]


def language_analyzer(lang: str, vocabulary: Iterable[str] = (), keep: Iterable[str] = (), verbs: Iterable[str] = ()):
    """The analyzer of one language's text fields; ``keep`` names stop words to keep as words;
    ``vocabulary``: stems of German words, for compounds; ``verbs``: the same, with players' ways
    of asking, for split verbs."""
    verbs = frozenset(verbs)
    if lang == "de" and verbs:
        chain = RegexTokenizer(GERMAN_TOKENS) | LowercaseFilter() | SeparableVerbFilter(verbs)
    else:
        chain = RegexTokenizer(TOKEN_PATTERN) | LowercaseFilter()
    if lang == "it":
        chain = chain | ElisionFilter()
    chain = chain | StopFilter(stoplist=stopwords(lang) - frozenset(keep), minsize=2)
    if lang == "de":
        chain = chain | FoldFilter("de") | DecompoundFilter(vocabulary)
    stem = ItalianStemFilter() if lang == "it" else SnowballStemFilter(lang)
    return chain | stem | FoldFilter(lang)


class PrefixFilter(Filter):
    """Keeps the first ``length`` letters of words at least that long (``kostet``/``kosten`` -> ``koste``)."""

    def __init__(self, length: int = 5):
        self.length = length

    def __eq__(self, other):
        return isinstance(other, PrefixFilter) and other.length == self.length

    def __call__(self, tokens):
        for token in tokens:
            if len(token.text) >= self.length:
                token.text = token.text[: self.length]
                yield token


def prefix_analyzer():
    """Low-weight fallback across languages: word prefixes, for the word forms stemmers miss."""
    stops = frozenset().union(*(stopwords(lang) for lang in LANGS))
    return RegexTokenizer(TOKEN_PATTERN) | LowercaseFilter() | StopFilter(stoplist=stops, minsize=2) | FoldFilter("de") | PrefixFilter(5)


def german_vocabulary(texts: Iterable[str]) -> set[str]:
    """Stems of the German words of the content (the compound splitter's dictionary)."""
    stem = stemmer("de")
    vocab = set()
    stops = stopwords("de")
    for text in texts:
        for word in TOKEN_PATTERN.findall(text.lower()):
            if len(word) >= 4 and word not in stops:
                vocab.add(stem(fold_german(word)))
    return vocab
