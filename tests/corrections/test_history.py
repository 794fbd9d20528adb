"""An entry's history as plain data: which languages changed, in which order, what else changed."""
from __future__ import annotations

from rules_index.corrections.history import history_item
from rules_index.corrections.models import Change


def texts(de: str, en: str, it: str) -> dict:
    return {lang: {"question": "Q?", "answer": answer} for lang, answer in (("de", de), ("en", en), ("it", it))}


def items(pairs: list[tuple[dict, dict]], lang: str) -> list:
    return [history_item(Change(), lang, before, after) for before, after in pairs]


def test_the_readers_language_comes_first_and_unchanged_languages_are_left_out():
    before = {**texts("Zwölf.", "Twelve.", "Dodici."), "citation": {"pages": 1}}
    after = {**texts("Zwölf.", "Twelve coins.", "Dodici monete."), "citation": {"pages": 2}}
    [item] = items([(before, after)], "it")
    assert item.own.lang == "it" and item.own.question is None
    assert str(item.own.answer) == "<p>Dodici <ins>monete</ins>.</p>"
    assert [t.lang for t in item.others] == ["en"]
    assert item.other_fields == ["citation"]


def test_a_reader_whose_language_did_not_change_sees_only_the_others():
    before, after = texts("A.", "B.", "C."), texts("A.", "B b.", "C.")
    shown = items([(before, after), (after, after)], "de")
    assert [(i.own, [t.lang for t in i.others]) for i in shown] == [(None, ["en"]), (None, [])]
