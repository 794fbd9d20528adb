"""Bound statements turned into their opposite: what the engine checked, said the other way round.

A bound span says its fact's value (bindings.py), but the words around the value carry the claim
too: "[at most 1] district" and "[at least 1] district" state the same number; "[the previous
King keeps the crown]" and "[… loses the crown]" name the same player; "he may build [up to 3]"
and "he may not build [up to 3]" the same count. The stored text was checked; a change that keeps
a fact's span but denies its clause where the stored text affirmed it (or the reverse), or puts a
claim word's opposite where the stored text had the word ("höchstens" → "mindestens", "vor" →
"nach", "behält" → "verliert"), says the opposite of what was checked, whatever the value.

Each span is read in its own clause (cut at commas, colons, semicolons, dashes and the words that
join two clauses). A span that sets two claims against each other ("may name the Assassin but not
the character he took out") is read part by part, each fact in the parts that name its subject.
Text only: no engine, no files.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from .bindings import BindingProblem, Vocabulary, answer_word, names_subject, negative, own_clause, statements
from .schema import LANGS, Faq, GlossaryEntry

# Claim words in pairs of opposites, per language. Longer phrases are read first, so "no more
# than" is a bound from above, not a denial of "more".
OPPOSITES = {
    "max": {"de": ("höchstens", "maximal", "bis zu", "nicht mehr als"),
            "en": ("at most", "up to", "maximum", "no more than", "not more than"),
            "it": ("al massimo", "al più", "fino a", "massimo", "non più di")},
    "min": {"de": ("mindestens", "wenigstens", "nicht weniger als"),
            "en": ("at least", "minimum", "no fewer than", "no less than", "not less than"),
            "it": ("almeno", "minimo", "non meno di")},
    "before": {"de": ("vor", "bevor", "vorher", "zuvor"), "en": ("before", "beforehand"), "it": ("prima",)},
    "after": {"de": ("nach", "nachdem", "danach", "hinterher"), "en": ("after", "afterwards"), "it": ("dopo",)},
    "keep": {"de": ("behält", "behalten", "behaltet", "bleibt", "bleiben"),
             "en": ("keeps", "keep", "stays", "stay", "remains", "remain"),
             "it": ("mantiene", "mantengono", "tiene", "tengono", "resta", "restano", "rimane", "rimangono")},
    "lose": {"de": ("verliert", "verlieren", "verloren", "abgeben", "gibt ab"),
             "en": ("loses", "lose", "lost", "gives up"),
             "it": ("perde", "perdono", "perso", "cede", "cedono")},
    "more": {"de": ("mehr",), "en": ("more",), "it": ("più",)},
    "fewer": {"de": ("weniger",), "en": ("fewer", "less"), "it": ("meno",)},
    "first": {"de": ("erste", "ersten", "erster", "zuerst"), "en": ("first",), "it": ("primo", "primi")},  # "prima": before
    "last": {"de": ("letzte", "letzten", "letzter", "zuletzt"), "en": ("last",), "it": ("ultimo", "ultima", "ultimi")},
    "start": {"de": ("anfang", "beginn"), "en": ("start", "beginning"), "it": ("inizio",)},
    "end": {"de": ("ende",), "en": ("end",), "it": ("fine",)},
}
PAIRS = (("max", "min"), ("before", "after"), ("keep", "lose"), ("more", "fewer"), ("first", "last"), ("start", "end"))
OPPOSITE = {a: b for pair in PAIRS for a, b in (pair, pair[::-1])}
# Words that set one claim against another inside a span: each side is read on its own.
CONTRAST = re.compile(r"[;:]|\s(?:but|whereas|aber|sondern|jedoch|während|ma|però|bensì|mentre|invece)\s", re.I)

_PHRASES = {lang: sorted(((phrase, word_class) for word_class, words in OPPOSITES.items() for phrase in words[lang]),
                         key=lambda item: -len(item[0])) for lang in LANGS}


def phrase_pattern(phrase: str) -> re.Pattern:
    """``phrase`` as whole words, any white space between them, any case."""
    return re.compile(r"(?<![^\W_])" + r"\s+".join(map(re.escape, phrase.split())) + r"(?![^\W_])", re.I)


_PATTERNS = {lang: [(phrase_pattern(phrase), word_class) for phrase, word_class in _PHRASES[lang]] for lang in LANGS}


@dataclass(frozen=True)
class Reading:
    """How one span's clause (or part) says its claim: denied or not, and its claim words."""

    denied: bool
    words: frozenset[str]  # classes of OPPOSITES
    span: str = ""  # the span's words, to name it


def reading(text: str, lang: str, span: str = "") -> Reading:
    """``text``'s claim words (longest phrase first, each word read once) and, with them taken
    out, whether it is denied."""
    found = set()
    for pattern, word_class in _PATTERNS[lang]:
        if pattern.search(text):
            found.add(word_class)
            text = pattern.sub(" ", text)
    return Reading(negative(text, lang), frozenset(found), span)


def _parts(statement, mark) -> list[str]:
    """The span in its own clause, cut where it sets claims against each other; the first part
    keeps the words of its clause before the span, the last those after it."""
    own = own_clause(statement, mark)
    words = re.sub(r"\s+", " ", mark.words).strip()
    at = own.find(words) if words else -1
    pieces = CONTRAST.split(words)
    if at < 0 or len(pieces) < 2:
        return [own]
    pieces[0] = own[:at] + pieces[0]
    pieces[-1] = pieces[-1] + own[at + len(words):]
    return pieces


def readings(text: str, lang: str, facts: dict, vocabulary: Vocabulary) -> dict[str, list[Reading]]:
    """Each bound fact's readings in ``text``: one per span (per part naming the fact's subject,
    where the span sets claims against each other)."""
    found: dict[str, list[Reading]] = {}
    for statement in statements(text):
        for mark in statement.marks:
            answer = answer_word(mark.words, lang)
            if answer is not None:  # the verdict word: "Nein" denies, whatever its clause
                for name in mark.facts:
                    found.setdefault(name, []).append(Reading(not answer, frozenset(), mark.words))
                continue
            parts = _parts(statement, mark)
            for name in mark.facts:
                fact = facts.get(name)
                subject = getattr(fact, "subject", None)
                mine = [p for p in parts if subject is not None and names_subject(p, subject, lang, vocabulary)] if len(parts) > 1 else parts
                found.setdefault(name, []).extend(reading(part, lang, mark.words) for part in (mine or [" ".join(parts)]))
    return found


def reversal_problems(before: Faq, after: Faq, glossary: Iterable[GlossaryEntry], field: str = "answer") -> list[BindingProblem]:
    """Each span of ``after`` that says the opposite of how ``before`` (the checked text) said the
    same fact, language by language."""
    vocabulary = Vocabulary(glossary)
    facts = {fact.name: fact for fact in after.ruling.facts if fact.name}
    problems = []
    for lang in LANGS:
        old = readings(getattr(before.text(lang), field), lang, facts, vocabulary)
        new = readings(getattr(after.text(lang), field), lang, facts, vocabulary)
        where = f"{field} ({lang})"
        for name, found in new.items():
            checked = old.get(name)
            if not checked:
                continue
            denials = {r.denied for r in checked}
            words = frozenset().union(*(r.words for r in checked))
            for now in found:
                turned = sorted(w for w in now.words - words if OPPOSITE[w] in words)
                params = (("words", now.span), ("fact", name))
                if now.denied not in denials:
                    code = "reversed-denied" if now.denied else "reversed-affirmed"
                    how = "denies what the checked text affirms" if now.denied else "affirms what the checked text denies"
                elif turned:
                    said, was = _shown(turned[0], lang), _shown(OPPOSITE[turned[0]], lang)
                    code, how = "reversed-word", f"says \"{said}\" where the checked text says \"{was}\""
                    params += (("said", said), ("checked", was))
                else:
                    continue
                problems.append(BindingProblem(lang, f"{where}: \"{now.span}\" (fact '{name}') {how}: the opposite of what the engine checked",
                                               code, params))
                break
    return problems


def _shown(word_class: str, lang: str) -> str:
    return OPPOSITES[word_class][lang][0]
