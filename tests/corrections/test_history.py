"""An entry's history as plain data: which languages changed, in which order, what else changed."""
from __future__ import annotations

import json

from rules_index.corrections.history import faq_history
from rules_index.corrections.models import Change


def texts(de: str, en: str, it: str) -> dict:
    return {lang: {"question": "Q?", "answer": answer} for lang, answer in (("de", de), ("en", en), ("it", it))}


def change(before: dict, after: dict) -> Change:
    return Change(before=json.dumps(before), after=json.dumps(after))


def test_the_readers_language_comes_first_and_unchanged_languages_are_left_out():
    before = {**texts("Zwölf.", "Twelve.", "Dodici."), "citation": {"pages": 1}}
    after = {**texts("Zwölf.", "Twelve coins.", "Dodici monete."), "citation": {"pages": 2}}
    [item] = faq_history([change(before, after)], "it")
    assert item.own.lang == "it" and item.own.question is None
    assert str(item.own.answer) == "<p>Dodici <ins>monete</ins>.</p>"
    assert [t.lang for t in item.others] == ["en"]
    assert item.other_fields == ["citation"]


def test_a_reader_whose_language_did_not_change_sees_only_the_others():
    before, after = texts("A.", "B.", "C."), texts("A.", "B b.", "C.")
    items = faq_history([change(before, after), change(after, after)], "de")
    assert [(i.own, [t.lang for t in i.others]) for i in items] == [(None, ["en"]), (None, [])]
