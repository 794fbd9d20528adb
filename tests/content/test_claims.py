"""An answer's text against its ruling: verdict words, number verdicts, choices, every number."""
from __future__ import annotations

import pytest

from rules_index.content.claims import text_problems, verdict_word
from rules_index.content.schema import FaqRuling, Localized


def ruling(verdict, numbers=(), other=None):
    facts = [{"value": n, "check": 1, "output": f"out{n}"} for n in numbers]
    return FaqRuling.model_validate({"verdict": verdict, "facts": facts, "other_numbers": other or {}})


NO_8 = ruling("no", [8])
TEXTS_8 = {
    "de": "Nein. Sobald eine Stadt **8 oder mehr** Bauwerke hat, ist sie sicher.",
    "en": "No. Cities with **eight or more** districts are safe.",
    "it": "No. Le città con **8 o più** quartieri sono al sicuro.",
}


def messages(rul, texts, **kwargs):
    return [p.message for p in text_problems(rul, texts, **kwargs)]


def test_agreeing_texts_pass():
    assert messages(NO_8, TEXTS_8) == []


@pytest.mark.parametrize("lang,text,expected", [
    ("de", "Ja. Sobald eine Stadt 8 oder mehr Bauwerke hat, ist sie sicher.", 'answer (de): opens with "Ja", but the ruling\'s verdict is no'),
    ("en", "Yes, cities with 8 or more districts are safe.", 'answer (en): opens with "Yes", but the ruling\'s verdict is no'),
    ("it", "Sì. Le città con 8 o più quartieri sono al sicuro.", 'answer (it): opens with "Sì", but the ruling\'s verdict is no'),
    ("de", "Sobald eine Stadt 8 oder mehr Bauwerke hat, ist sie sicher.", 'answer (de): does not open with "Nein", the ruling\'s verdict'),
])
def test_verdict_word_must_match(lang, text, expected):
    assert messages(NO_8, {**TEXTS_8, lang: text}) == [expected]


def test_markup_around_the_verdict_word_is_no_change():
    assert messages(NO_8, {**TEXTS_8, "de": "**Nein.** Sobald eine Stadt 8 oder mehr Bauwerke hat, ist sie sicher."}) == []


@pytest.mark.parametrize("text,expected", [
    ("No one may do that.", None), ("No, never.", "no"), ("Nobody.", None), ("Yes – always.", "yes"),
])
def test_verdict_word_in_english(text, expected):
    assert verdict_word(text, "en") == expected


def test_a_number_no_fact_holds_is_named():
    texts = {**TEXTS_8, "en": "No. Cities with **nine or more** districts are safe."}
    assert messages(NO_8, texts) == [
        "answer (en): states 9, which is no fact of the ruling (its facts: 8)",
        "answer (en): no longer states 8, a number of the ruling (check 1 out8)",
    ]


def test_one_is_not_counted_as_digit_or_word():
    # "ein", "one" and "uno" are also articles: 1 is left out whether written as a digit or a word.
    for extra in (" Ein Bauwerk kostet 1 Gold.", " Ein Bauwerk, eine Karte."):
        assert messages(NO_8, {**TEXTS_8, "de": TEXTS_8["de"] + extra}) == []
    assert messages(NO_8, {**TEXTS_8, "de": TEXTS_8["de"] + " Ein Bauwerk kostet 2 Gold."}) == [
        "answer (de): states 2, which is no fact of the ruling (its facts: 8)",
    ]


def test_other_numbers_and_cited_pages_are_no_claims():
    rul = ruling("none", [], other={2005: "the year China appeared"})
    texts = {lang: "China (2005), see p. 8." for lang in ("de", "en", "it")}
    assert messages(rul, texts, pages=(8, 8)) == []
    assert messages(rul, texts, pages=(2, 2)) == [f"answer ({lang}): states 8, which is no fact of the ruling (its facts: none)" for lang in ("de", "en", "it")]


def test_link_targets_state_no_numbers():
    texts = {**TEXTS_8, "en": TEXTS_8["en"] + " See [the rules](https://example.org/rules/2024/page-12)."}
    assert messages(NO_8, texts) == []


def test_number_verdict_is_the_first_number():
    rul = ruling(3, [2, 3])
    good = {"de": "**Höchstens 3** pro Zug, dazu 2 Karten.", "en": "**At most three** per turn, plus 2 cards.", "it": "**Al massimo 3** per turno, più 2 carte."}
    assert messages(rul, good) == []
    assert messages(rul, {**good, "it": "Più 2 carte, e al massimo 3 per turno."}) == ["answer (it): its first number is 2, but the ruling's verdict is 3"]


def test_choice_verdict_is_named_in_the_first_paragraph_in_any_word_form():
    rul = ruling(Localized(de="bisherige König", en="current King", it="Re attuale"))
    good = {"de": "Der **bisherige König**. Er behält die Krone.", "en": "The **current King**. He keeps it.", "it": "Il **Re attuale**. La tiene."}
    assert messages(rul, good) == []
    reworded = {**good, "de": "Die Krone bleibt beim bisherigen Königs-Spieler.", "en": "It stays with the King who currently holds it."}
    assert messages(rul, reworded) == []
    assert messages(rul, {**good, "en": "The new King.\n\nThe current King loses it."}) == [
        'answer (en): its first paragraph does not name "current King", the ruling\'s verdict',
    ]


def test_open_questions_do_not_answer_yes_or_no():
    rul = ruling("none")
    texts = {"de": "Das sagt die Regel nicht.", "en": "The rules do not say.", "it": "Il regolamento non lo dice."}
    assert messages(rul, texts) == []
    assert messages(rul, {**texts, "de": "Nein. Das sagt die Regel nicht."}) == [
        'answer (de): opens with "Nein", but the ruling leaves the question open',
    ]


def test_each_comparison_is_made_once_per_value_and_answers_its_own_arguments(monkeypatch):
    from rules_index.content import claims

    made = []
    real = claims._text_problems
    monkeypatch.setattr(claims, "_text_problems", lambda *args: made.append(args) or real(*args))
    # Texts no other test compares (the comparisons are kept for the whole process).
    texts = {**TEXTS_8, "de": TEXTS_8["de"] + " Einmalig.", "en": "No. Cities with **seven or more** districts are safe, kept apart."}
    first = messages(NO_8, texts)
    assert first and len(made) == 1
    assert messages(NO_8, dict(texts)) == first and len(made) == 1  # the same values: kept
    assert messages(ruling("no", [7]), texts) != first and len(made) == 2  # another ruling
    assert messages(NO_8, {**texts, "en": TEXTS_8["en"]}) == [] and len(made) == 3  # another text
    assert messages(NO_8, texts, field="correction") != first and len(made) == 4
    found = text_problems(NO_8, texts)
    found.clear()  # the caller's own list
    assert messages(NO_8, texts) == first
