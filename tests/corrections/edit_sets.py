"""Wrong and right edits of every FAQ entry, generated from the content, for the editor API tests.

Wrong edits (each must be refused):
- the verdict turned round in all three languages (entries that open with Ja/Nein);
- a number changed in all three languages (each number an answer states);
- a common mistake pasted in as the answer (each mistake into the FAQ entry it is linked to);
- one language contradicting the other two (its verdict turned round, or one number changed).

Right edits (none may be refused): markup (the first line bold), which goes live at once; a
neutral sentence added as an editorial aside, and a one-language rewording, which wait for a
second editor (the engine cannot judge new words).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules_index.content import LANGS
from rules_index.content.numbers import number_value, stated_numbers

VERDICTS = {"yes": {"de": "Ja", "en": "Yes", "it": "Sì"}, "no": {"de": "Nein", "en": "No", "it": "No"}}
NEUTRAL = {
    "de": "Mehr dazu steht im Regelheft.",
    "en": "The rulebook says more about this.",
    "it": "Il regolamento ne parla più a fondo.",
}
# One-language rewordings that keep the meaning: plain word swaps that leave verdict and numbers alone.
REWORDINGS = [("cannot", "can not"), ("doesn't", "does not"), ("don't", "do not"), ("isn't", "is not"), ("only", "just")]


@dataclass
class Edit:
    kind: str
    game: str
    faq: str
    text: dict  # {lang: {"answer": ...}}
    label: str = ""
    expect: set = field(default_factory=set)  # problem kinds that must name the cause


def _flip(text: str, lang: str) -> str | None:
    match = re.match(r"^(\W*)(Ja|Nein|Yes|No|Sì)\b", text)
    if not match:
        return None
    word = match.group(2)
    turned = VERDICTS["no"][lang] if word == VERDICTS["yes"][lang] else VERDICTS["yes"][lang]
    return text[:match.start(2)] + turned + text[match.end(2):]


def _change_number(text: str, lang: str, old: int, new: int) -> str | None:
    """The first statement of ``old`` (as digits or a number word, not a list item's number) as ``new``."""
    for match in re.finditer(r"[^\W_]+", text):
        if number_value(match.group(0), lang) != old:
            continue
        line_start = text.rfind("\n", 0, match.start()) + 1
        if re.fullmatch(r"\s*", text[line_start:match.start()]) and text[match.end():match.end() + 1] == ".":
            continue  # "2. Die offene Auslage …": a list item's number
        return text[:match.start()] + str(new) + text[match.end():]
    return None


def _answers(faq) -> dict:
    return {lang: faq.text(lang).answer for lang in LANGS}


def wrong_edits(library) -> list[Edit]:
    edits = []
    for game in library:
        for faq in game.faq:
            answers = _answers(faq)
            flipped = {lang: _flip(answers[lang], lang) for lang in LANGS}
            if all(flipped.values()):
                edits.append(Edit("verdict, all languages", game.slug, faq.id, {l: {"answer": t} for l, t in flipped.items()}, expect={"claim"}))
                edits.append(Edit("one language contradicts", game.slug, faq.id, {"en": {"answer": flipped["en"]}}, "verdict (en)", {"claim"}))
            for number in sorted(stated_numbers(answers["de"], "de")):
                new = number + 1
                changed = {lang: _change_number(answers[lang], lang, number, new) for lang in LANGS}
                if all(changed.values()):
                    edits.append(Edit("number, all languages", game.slug, faq.id, {l: {"answer": t} for l, t in changed.items()}, f"{number}->{new}", {"claim"}))
                    edits.append(Edit("one language contradicts", game.slug, faq.id, {"it": {"answer": changed["it"]}}, f"number (it) {number}->{new}", {"claim"}))
            for mistake in game.mistakes_for(faq.id):
                pasted = {lang: {"answer": mistake.text(lang).mistake} for lang in LANGS}
                edits.append(Edit("mistake pasted as the answer", game.slug, faq.id, pasted, mistake.id, {"mistake"}))
    return edits


def right_edits(library) -> list[Edit]:
    edits = []
    for game in library:
        for faq in game.faq:
            answers = _answers(faq)
            markup = {}
            for lang, text in answers.items():
                first, _, rest = text.strip().partition("\n")
                markup[lang] = {"answer": f"**{first.strip()}**" + (f"\n{rest}" if rest else "")}
            edits.append(Edit("markup (bold)", game.slug, faq.id, markup))
            edits.append(Edit("neutral sentence", game.slug, faq.id, {l: {"answer": f"{t.rstrip()}\n\n[{NEUTRAL[l]}]{{.editorial}}"} for l, t in answers.items()}))
            reworded = answers["en"]
            for old, new in REWORDINGS:
                if re.search(rf"\b{old}\b", reworded):
                    reworded = re.sub(rf"\b{old}\b", new, reworded, count=1)
                    break
            else:
                reworded = f"{reworded.rstrip()}\n\n[{NEUTRAL['en']}]{{.editorial}}"
            edits.append(Edit("one-language rewording", game.slug, faq.id, {"en": {"answer": reworded}}))
    return edits
