"""Which changes the engine cannot judge: they wait for a second editor.

The gate refuses what contradicts the engine (a bound span that says another value, gate.py).
What the engine cannot see is the words around the bound spans: a "nicht" in a later sentence,
an "only", "before" for "after", a new condition, another question. So a changed FAQ entry goes
live at once only when, language by language, each statement of the new text is a statement of
the old one (same words in the same order, the same marks), allowing

- statements moved (a reordering of sentences, list items or rows);
- a number written another way ("3" / "drei"): numbers are compared by value;
- a page reference changed (the validator holds it to the citation);
- a typo fixed: a word that is no word of the language, nor a form of one (its lemma, by
  simplemma), nor of the game's glossary, replaced by a close one; never a negation, quantifier,
  order or function word ("der"/"den" swaps who does what).

Anything else is held, with its reasons: added or dropped statements, reworded ones, changed
marks, a changed question, ruling, checks or citation. Pure functions; no database, no files.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import simplemma
from wordfreq import zipf_frequency

from rules_index.content import LANGS
from rules_index.content.bindings import NEGATIONS, PAGE, Statement, diverging_langs, statements
from rules_index.content.numbers import number_value, prose
from rules_index.content.marks import unmarked
from rules_index.content.schema import Faq, GlossaryEntry
from rules_index.search.analysis import stopwords

# Words whose change changes what a statement claims, beyond the negations.
QUANTIFIERS = {
    "de": {"nur", "immer", "stets", "höchstens", "mindestens", "genau", "alle", "jeder", "jede", "jedes", "jeden",
           "jedem", "ausschließlich", "auch", "einzige", "einzig", "sämtliche", "beide", "manche", "mehr", "weniger"},
    "en": {"only", "always", "most", "least", "exactly", "all", "every", "each", "any", "also", "both", "some",
           "more", "fewer", "less", "sole", "just"},
    "it": {"solo", "soltanto", "solamente", "sempre", "massimo", "minimo", "almeno", "esattamente", "tutti", "tutte",
           "ogni", "ciascun", "ciascuno", "ciascuna", "anche", "entrambi", "più", "meno", "unico", "unica"},
}
ORDER = {
    "de": {"vor", "vorher", "bevor", "nach", "nachdem", "danach", "zuerst", "dann", "erst", "sofort", "bis", "sobald",
           "später", "zuletzt", "während", "anschließend", "gleich"},
    "en": {"before", "after", "afterwards", "first", "then", "until", "once", "immediately", "later", "last", "while",
           "during", "next", "previous"},
    "it": {"prima", "dopo", "poi", "subito", "finché", "appena", "durante", "ultimo", "ultima", "successivo",
           "precedente", "mentre"},
}
KNOWN_ZIPF = 2.0  # a word this frequent (wordfreq's Zipf scale) is a word of the language, not a typo
_TOKEN = re.compile(r"\d+|[^\W\d_]+(?:['’][^\W\d_]+)?")
# Link targets "](…)", autolinks "<scheme:…>" and bare web addresses.
_ADDRESS = re.compile(r"\]\(\s*<?([^)\s>]*)|<([a-z][a-z0-9+.-]*:[^>]*)>|\b((?:https?|ftp)://\S+|www\.\S+)", re.I)


@dataclass(frozen=True)
class HoldReason:
    """Why a change waits for a second editor; ``lang`` is the edited language it concerns;
    ``code`` and ``params`` let the editors' pages say it in the editor's language."""

    message: str
    lang: str | None = None
    code: str | None = None
    params: tuple = ()

    def as_json(self) -> dict:
        """As the API answers it."""
        return {"message": self.message, **({"lang": self.lang} if self.lang else {})}

    def stored(self) -> dict:
        """As a held change keeps it (the queue shows it in each editor's language)."""
        return {**self.as_json(), "code": self.code, "params": dict(self.params)}


def _tokens(text: str, lang: str) -> tuple[str, ...]:
    """The words of a text as compared: casefolded, numbers as their values, pages left out, and
    every address it links to (a link added or changed is never a typo fix)."""
    plain = re.sub(r"[*_`#>|~]+", " ", PAGE.sub(" ", prose(unmarked(text))))
    words = []
    for token in _TOKEN.findall(plain):
        value = number_value(token, lang)
        words.append(f"#{value}" if value is not None else token.casefold())
    return tuple(words) + tuple(f"@{''.join(parts)}" for parts in _ADDRESS.findall(text))


def _signature(statement: Statement, lang: str) -> tuple:
    marks = tuple((mark.facts, mark.aside, _tokens(mark.words, lang)) for mark in statement.marks)
    return _tokens(statement.source, lang), marks


class Words:
    """What counts as a word of a language for one game: wordfreq's lists and the glossary."""

    def __init__(self, glossary: list[GlossaryEntry]):
        self.glossary = {
            lang: {word.casefold() for entry in glossary for term in [getattr(entry, lang)]
                   for phrase in [term.term, *term.aliases] for word in _TOKEN.findall(phrase)}
            for lang in LANGS
        }

    def known(self, word: str, lang: str) -> bool:
        """A word of the language or the game, in this form or as a form of a known lemma
        ("Meuchlers" is a form of the glossary's "Meuchler", not a typo)."""
        forms = {word, _lemma(word, lang)}
        return any(form in self.glossary[lang] or zipf_frequency(form, lang) >= KNOWN_ZIPF for form in forms)

    def typo_fix(self, old: str, new: str, lang: str) -> bool:
        """Whether ``new`` for ``old`` fixes a typo rather than changing the claim: ``old`` is no
        word of the language or the game, and ``new`` is a close one. Another form of a real word
        is not a typo ("Karte"/"Karten" changes a count, "der"/"den" who does what)."""
        claim_words = NEGATIONS[lang] | QUANTIFIERS[lang] | ORDER[lang] | _stops(lang)
        if old in claim_words or old.startswith(("#", "@")) or new.startswith(("#", "@")):
            return False
        # A misspelt "nohting" may become "nothing": the word was meant, only its letters were wrong.
        return not self.known(old, lang) and _distance(old, new) <= (1 if len(old) <= 5 or new in claim_words else 2)


@lru_cache(maxsize=3)
def _stops(lang: str) -> frozenset[str]:
    return frozenset(stopwords(lang))


@lru_cache(maxsize=4096)
def _lemma(word: str, lang: str) -> str:
    return simplemma.lemmatize(word, lang=lang).casefold()


def _distance(a: str, b: str) -> int:
    """Edit distance counting a swap of two neighbouring letters as one edit (Damerau)."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows.append(row)
    return rows[-1][-1]


def _same_but_typos(old: tuple, new: tuple, lang: str, words: Words) -> bool:
    (old_tokens, old_marks), (new_tokens, new_marks) = old, new
    if len(old_tokens) != len(new_tokens) or len(old_marks) != len(new_marks):
        return False
    if any(a[:2] != b[:2] for a, b in zip(old_marks, new_marks)):
        return False  # a mark that binds another fact, or became or stopped being an aside
    return all(a == b or words.typo_fix(a, b, lang) for a, b in zip(old_tokens, new_tokens))


def _short(text: str, length: int = 80) -> str:
    text = " ".join(unmarked(text).split())
    return text if len(text) <= length else text[: length - 1] + "…"


def text_changes(before: str, after: str, lang: str, words: Words, field: str) -> list[HoldReason]:
    """The statements of ``after`` that are not statements of ``before`` bar reordering and typos,
    and the statements of ``before`` that are gone."""
    if before == after:
        return []
    old = [(s, _signature(s, lang)) for s in statements(before)]
    new = [(s, _signature(s, lang)) for s in statements(after)]
    remaining_old = list(old)
    left = []
    for statement, sig in new:
        same = next((i for i, (_, old_sig) in enumerate(remaining_old) if old_sig == sig), None)
        if same is None:
            left.append((statement, sig))
        else:
            remaining_old.pop(same)
    reasons = []
    for statement, sig in left:
        match = next((i for i, (_, old_sig) in enumerate(remaining_old) if _same_but_typos(old_sig, sig, lang, words)), None)
        if match is not None:
            remaining_old.pop(match)
            continue
        reasons.append(HoldReason(f"{field} ({lang}): new or reworded statement \"{_short(statement.source)}\"", lang,
                                  "new", (("field", field), ("text", _short(statement.source)))))
    for statement, _ in remaining_old:
        reasons.append(HoldReason(f"{field} ({lang}): drops or rewords the statement \"{_short(statement.source)}\"", lang,
                                  "dropped", (("field", field), ("text", _short(statement.source)))))
    return reasons


_STRUCTURED = ("ruling", "check", "citation", "basis", "editions", "section")


def hold_reasons(before: Faq, after: Faq, glossary: list[GlossaryEntry]) -> list[HoldReason]:
    """Why the change from ``before`` to ``after`` needs a second editor (empty: it goes live)."""
    words = Words(glossary)
    reasons = []
    old, new = before.model_dump(mode="json"), after.model_dump(mode="json")
    changed = [key for key in _STRUCTURED if old.get(key) != new.get(key)]
    if changed:
        reasons.append(HoldReason(f"changes {', '.join(changed)}: what the checks and facts mean is read by a second editor",
                                  None, "structured", (("fields", ", ".join(changed)),)))
    for lang in LANGS:
        reasons += text_changes(before.text(lang).question, after.text(lang).question, lang, words, "question")
        reasons += text_changes(before.text(lang).answer, after.text(lang).answer, lang, words, "answer")
    # The languages compared with each other: one that now binds other facts than the rest is
    # the edited one, and it is named (not the untouched ones).
    for lang, bound in diverging_langs(after).items():
        facts = ", ".join(f"{name}×{count}" if count > 1 else name for name, count in sorted(bound.items())) or "none"
        reasons.append(HoldReason(f"answer ({lang}) binds other facts than the other languages ({facts})", lang,
                                  "diverging", (("facts", facts),)))
    return reasons
