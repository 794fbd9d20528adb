"""Does a text say what its ruling says? The verdict word and every number, per language.

An answer's opening verdict word is checked here (``verdict_problems``; its statements are
bound to facts in bindings.py). A common mistake's correction agrees with its ruling when, in
every language:

- it opens with the verdict word (Ja/Nein, Yes/No, Sì/No) for a yes/no verdict, states the
  verdict as its first number for a number verdict, names the words of the verdict phrase in its
  first paragraph for a choice (in any word form), and opens with no yes/no word otherwise;
- every number it states is a fact of the ruling, one of the ruling's ``other_numbers``, or a
  page of its citation written as a page ("S. 2");
- it still states each of those numbers (0 and 1 are not counted: they are also said in words,
  "kostenlos", "ein"), so that a number cannot be swapped for another number the ruling holds.

Numbers are counted as ``numbers.py`` counts them: digits and number words of 2 to 12.

Only text is read here; whether the facts are true is the rule engine's part (verification).
"""
from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Mapping

from rules_index.caches import MiB, ByteCache, text_key

from .numbers import numbers_in_order, prose, stated_numbers
from .schema import LANGS, Fact, Localized, Ruling

VERDICT_WORDS = {
    "yes": {"de": ("ja",), "en": ("yes",), "it": ("sì",)},
    "no": {"de": ("nein",), "en": ("no",), "it": ("no",)},
}
# "Si" without its accent is also the pronoun ("Si va avanti"): a yes only when punctuation follows.
_UNACCENTED_SI = re.compile(r"^si\s*[,.!;:–-]")
SHOWN_WORD = {"yes": {"de": "Ja", "en": "Yes", "it": "Sì"}, "no": {"de": "Nein", "en": "No", "it": "No"}}
# "No one ..." opens an answer without answering no.
_NOT_A_VERDICT = {"en": ("no one",)}
# A page reference, as the page shows it: emphasis marks in it ("S. *9*", "*p.* 9") are read
# through, so that every check finds the page a reader sees; its digits are ASCII ("৪" is 4 to
# Python and looks like 8: text, not a page).
_EM = "[*_`]*"
# Never after an apostrophe: "the Merchant's 1 gold" names no page.
PAGE = re.compile(rf"(?<!['’])\b(?:S|p|pp|pag|Seite|Seiten|page|pages|pagina|pagine)\.?{_EM}\s*{_EM}([0-9]+){_EM}"
                  rf"(?:\s*[-–]\s*{_EM}([0-9]+){_EM})?", re.I)
_MARKUP = re.compile(r"[*_`#>|~]+")
_WORD = re.compile(r"[^\W\d_]+|\d+")


@dataclass(frozen=True)
class ClaimProblem:
    """A way a text disagrees with its ruling or its bound facts, in one language: ``message`` in
    English (logs, the API), ``code`` and ``params`` for the editors' pages (web.gate_words)."""

    lang: str
    message: str
    code: str | None = None
    params: tuple = ()


def plain(text: str) -> str:
    """Markdown emphasis, headings, list marks and link targets removed; spaces collapsed."""
    text = re.sub(r"^\s*(?:[-+*]|\d+\.)\s+", "", prose(text), flags=re.M)
    return " ".join(_MARKUP.sub("", text).split())


def opening_word(text: str) -> str:
    words = _WORD.findall(plain(text)[:80])
    return words[0].casefold() if words else ""


def first_paragraph(text: str) -> str:
    return re.split(r"\n\s*\n", prose(text).strip(), maxsplit=1)[0]


def verdict_word(text: str, lang: str) -> str | None:
    """``yes`` or ``no`` when the text opens with that word in ``lang``; otherwise None."""
    opening = plain(text).casefold()
    if any(opening.startswith(phrase) for phrase in _NOT_A_VERDICT.get(lang, ())):
        return None
    word = opening_word(text)
    if lang == "it" and _UNACCENTED_SI.match(opening):
        return "yes"
    for verdict, words in VERDICT_WORDS.items():
        if word in words[lang]:
            return verdict
    return None


def _without_page_references(text: str, pages: tuple[int, int] | None) -> str:
    """Page references to the cited pages are part of the citation, not claims."""
    if pages is None:
        return text

    def keep_or_drop(match: re.Match) -> str:
        first = int(match.group(1))
        last = int(match.group(2) or first)
        return " " if pages[0] <= first <= last <= pages[1] else match.group(0)

    return PAGE.sub(keep_or_drop, text)


def _fact_names(facts: list[Fact], value: int) -> str:
    return ", ".join(f.place for f in facts if f.states_number and f.value == value)


def _shown(values) -> str:
    return ", ".join(str(v) for v in sorted(values)) or "none"


def verdict_problems(ruling: Ruling, text: str, lang: str, field: str) -> list[ClaimProblem]:
    verdict = ruling.verdict
    if verdict is None:
        return []
    said = verdict_word(text, lang)
    where = f"{field} ({lang})"
    if verdict in VERDICT_WORDS:
        if said == verdict:
            return []
        if said is not None:
            return [ClaimProblem(lang, f"{where}: opens with \"{SHOWN_WORD[said][lang]}\", but the ruling's verdict is {verdict}",
                                 "verdict-opens", (("said", SHOWN_WORD[said][lang]), ("verdict", SHOWN_WORD[verdict][lang])))]
        return [ClaimProblem(lang, f"{where}: does not open with \"{SHOWN_WORD[verdict][lang]}\", the ruling's verdict",
                             "verdict-missing", (("verdict", SHOWN_WORD[verdict][lang]),))]
    if said is not None:
        kind = "leaves the question open" if verdict == "none" else f"answers with {_verdict_text(verdict, lang)}"
        shown = "" if verdict == "none" else _verdict_text(verdict, lang)
        return [ClaimProblem(lang, f"{where}: opens with \"{SHOWN_WORD[said][lang]}\", but the ruling {kind}",
                             "verdict-open" if verdict == "none" else "verdict-opens", (("said", SHOWN_WORD[said][lang]), ("verdict", shown)))]
    if isinstance(verdict, int):
        ordered = numbers_in_order(text, lang)
        if not ordered or ordered[0] != verdict:
            first = ordered[0] if ordered else "no number"
            return [ClaimProblem(lang, f"{where}: its first number is {first}, but the ruling's verdict is {verdict}",
                                 "verdict-number", (("first", str(first)), ("verdict", str(verdict))))]
    elif isinstance(verdict, Localized):
        phrase = verdict.get(lang)
        if not names(first_paragraph(text), phrase):
            return [ClaimProblem(lang, f"{where}: its first paragraph does not name \"{phrase}\", the ruling's verdict",
                                 "verdict-phrase", (("verdict", phrase),))]
    return []


def _key(word: str) -> str:
    return unicodedata.normalize("NFKD", word.casefold()).encode("ascii", "ignore").decode()[:5]


def names(text: str, phrase: str) -> bool:
    """Whether ``text`` names every word of 4 letters or more of ``phrase``, in any form that keeps
    its first 5 letters ("Bauwerken" names "Bauwerke"), so that a rewording keeps the choice."""
    said = _said(text)
    return all(_key(w) in said for w in _WORD.findall(phrase) if len(w) >= 4)


# A text is asked for many phrases (every name of every character a question might name): its
# words are read once.
_words_said = ByteCache(4 * MiB)


@_words_said.memoize(key=text_key)
def _said(text: str) -> frozenset[str]:
    return frozenset(_key(w) for w in _WORD.findall(plain(text)))


def _verdict_text(verdict, lang: str) -> str:
    if isinstance(verdict, Localized):
        return f"\"{verdict.get(lang)}\""
    return str(verdict)


def number_problems(
    ruling: Ruling, text: str, lang: str, field: str,
    pages: tuple[int, int] | None = None,
) -> list[ClaimProblem]:
    stated = stated_numbers(_without_page_references(text, pages), lang)
    facts = ruling.numbers()
    declared = {value: _fact_names(ruling.facts, value) for value in facts}
    for value, reason in ruling.other_numbers.items():
        declared.setdefault(value, f"not a rule value: {reason}")
    where = f"{field} ({lang})"
    problems = []
    for value in sorted(stated - set(declared)):
        problems.append(ClaimProblem(lang, f"{where}: states {value}, which is no fact of the ruling (its facts: {_shown(facts)})"))
    # 0 and 1 are also said in words ("kostenlos", "ein"): only larger numbers must stay stated.
    for value in sorted(v for v in set(declared) - stated if v >= 2):
        problems.append(ClaimProblem(lang, f"{where}: no longer states {value}, a number of the ruling ({declared[value]})"))
    return problems


def text_problems(
    ruling: Ruling, texts: Mapping[str, str], field: str = "answer",
    pages: tuple[int, int] | None = None,
) -> list[ClaimProblem]:
    """Every disagreement of ``texts`` ({lang: text}) with ``ruling``, language by language.

    Kept by its arguments' values: a reload after an accept compares only the changed entry's
    texts again (every argument is a value; the result is a new list each time)."""
    arguments = (ruling.model_dump_json(), sorted(texts.items()), field, pages)
    key = hashlib.sha256(json.dumps(arguments, ensure_ascii=False).encode()).digest()
    return list(_compared.remembered(key, lambda: tuple(_text_problems(ruling, texts, field, pages))))


# The problems found, by the digest of the arguments (a small key: the weight is the problems').
_compared = ByteCache(4 * MiB)


def _text_problems(ruling: Ruling, texts: Mapping[str, str], field: str, pages) -> list[ClaimProblem]:
    problems: list[ClaimProblem] = []
    for lang in LANGS:
        if lang in texts:
            problems += verdict_problems(ruling, texts[lang], lang, field)
            problems += number_problems(ruling, texts[lang], lang, field, pages)
    return problems


def ruling_shape_problems(ruling: Ruling, check_count: int) -> list[str]:
    """A ruling that cannot hold: facts of missing checks, a number verdict that is no fact."""
    problems = []
    for index, fact in enumerate(ruling.facts):
        if fact.check > check_count:
            problems.append(f"ruling.facts.{index}: check {fact.check} does not exist (the entry has {check_count} check(s))")
    if isinstance(ruling.verdict, int) and ruling.verdict not in ruling.numbers():
        problems.append(f"ruling.verdict: {ruling.verdict} is no fact of the ruling; bind it to a check's output")
    return problems
