"""A letter of another alphabet or a compatibility form in an editor's text ("nоt" with a Cyrillic
"о", a fullwidth "２") makes a word pass for one it is not, to readers and to the checks: the
gate refuses it (content may hold none), and the edit form says so at the field."""
from __future__ import annotations

import pytest

from rules_index import characters as chars
from rules_index.corrections.gate import UNCHANGED, review_faq
from rules_index.content.versions import stored_faq_data

from apptools import real_library
from formtools_shared import csrf_token, form_values, login

CYRILLIC_O, GREEK_O, FULLWIDTH_TWO = "\u043e", "\u03bf", "\uff12"


@pytest.mark.parametrize("text,found", [
    (f"n{CYRILLIC_O}t", CYRILLIC_O), (f"n{GREEK_O}n", GREEK_O), (f"nur {FULLWIDTH_TWO} Karten", FULLWIDTH_TWO),
    ("\ufb01nal", "\ufb01"), ("10\u00b2", "\u00b2"),
    # Latin letters that no word of these languages has: dotless "ı", small capital "ᴏ".
    ("n\u0131cht", "\u0131"), ("n\u1d0ft", "\u1d0f"),
    # Digits of other scripts: Gurmukhi "੧" reads as 9, Bengali "৪" as 8.
    ("\u0a67 Karte", "\u0a67"), ("\u09ea carte", "\u09ea"),
    ("Königin, Straße, città, perché, 1ª mano, 2º giro", None), ("3 × 2 – «così» · „so“", None),
    ("Michał Oracz, Vlaada Chvátil, Œuvre, Bjørn", None),  # names of a game's credits
])
def test_a_character_that_only_looks_like_one_of_the_languages_is_found(text, found):
    assert chars.lookalike_character(text) == found


def _refusals(lang: str, old: str, new: str, faq: str = "tie-break", game: str = "ohne-furcht-und-adel") -> list[str]:
    entry = real_library().game(game).faq_entry(faq)
    answer = entry.text(lang).answer
    assert old in answer
    problems, _ = review_faq(real_library().game(game), entry, {lang: {"answer": answer.replace(old, new, 1)}})
    return [p.message for p in problems if p.message != UNCHANGED]


@pytest.mark.parametrize("lang,old,lookalike", [
    ("de", "nicht", f"n{chr(0x456)}cht"),  # Cyrillic "і"
    ("en", "not", f"n{CYRILLIC_O}t"),
    ("it", "non", f"n{GREEK_O}n"),
])
def test_the_gate_refuses_a_negation_spelled_in_lookalike_letters(lang, old, lookalike):
    found = _refusals(lang, old, lookalike, "warlord-destroy-cost")
    assert any("only looks like a letter or digit" in message for message in found), found


def test_an_enclosing_mark_is_a_hidden_character():
    assert chars.hidden_character("may\u20e0 still") == "\u20e0"  # a "no" sign over "may"
    assert chars.hidden_character("perché già") is None


def test_the_gate_refuses_a_fullwidth_digit():
    found = _refusals("de", "1", FULLWIDTH_TWO, "warlord-destroy-cost")
    assert any("FULLWIDTH DIGIT TWO" in message for message in found), found


def test_the_edit_form_names_a_lookalike_at_its_field_in_the_editors_language(site):
    client = site.test_client()
    assert login(client).status_code == 302
    url = "/editor/entries/ohne-furcht-und-adel/faq/tie-break"
    page = client.get(url).get_data(as_text=True)
    values = form_values(page, ["question_de", "answer_de", "question_en", "answer_en", "question_it", "answer_it",
                                "citation", "ruling", "check", "base_version", "base_entry"])
    values["answer_de"] = values["answer_de"].replace("Punkte", f"Punkt{chr(0x435)}", 1)  # Cyrillic "е"
    response = client.post(url, data={"csrf_token": csrf_token(page), "action": "check", **values})
    body = response.get_data(as_text=True)
    assert response.status_code == 400 and f"Bitte tippe &#39;{chr(0x435)}&#39; neu" in body
    assert chr(0x435) not in stored_faq_data(site.content_dir, "ohne-furcht-und-adel", "tie-break")["de"]["answer"]
