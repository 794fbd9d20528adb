"""Editors' text is cleaned as readers' text is, by one definition (rules_index.characters):
bidirectional controls and marks and the BOM removed, NEL refused, LINE and PARAGRAPH SEPARATOR
made line feeds, over the API and the edit form; search queries drop the same invisible set."""
from __future__ import annotations

import re
import tokenize
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from rules_index import characters as chars
from rules_index.content.versions import stored_faq_data
from rules_index.corrections.change_requests import EntryText
from rules_index.corrections.reports import Proposal
from rules_index.search.query import clean_query
from rules_index.web.state import library

from apptools import read_first
from formtools_shared import csrf_token, form_values, login

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
FAQ_FIELDS = ["question_de", "answer_de", "question_en", "answer_en", "question_it", "answer_it", "citation", "ruling", "check",
              "base_version", "base_entry"]
INVISIBLE = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\ufeff"
PACKAGE = Path(__file__).resolve().parents[2] / "rules_index"


def hostile(text: str) -> str:
    """``text`` with each invisible character and the line separators worked in (before a page
    reference: a change the gate lets go live at once)."""
    words = text.split(" ")
    return "\ufeff" + " ".join(w + INVISIBLE[i % len(INVISIBLE)] for i, w in enumerate(words)) + "\u2028\u2029(p. 2)"


def cleaned(text: str) -> str:
    return text + "\n\n(p. 2)"


def english_answer(site) -> str:
    with site.app_context():
        return library().game(GAME).faq_entry(FAQ).en.answer


def test_the_api_stores_an_editors_text_without_invisible_characters(site):
    answer = english_answer(site).rstrip()
    body = {"game": GAME, "kind": "faq", "id": FAQ, "text": {"en": {"answer": hostile(answer)}}, "dry_run": False}
    client = site.test_client()
    response = client.post("/api/v1/changes", json=read_first(client, body), headers={"Authorization": f"Bearer {site.config['TEST_TOKEN']}"})
    assert response.status_code == 201, response.get_json()
    stored = stored_faq_data(site.content_dir, GAME, FAQ)["en"]["answer"]
    assert stored.rstrip("\n") == cleaned(answer)
    shown = client.get(f"/api/v1/games/{GAME}/faq/{FAQ}?lang=en").get_data(as_text=True)
    page = client.get(f"/en/{GAME}/faq/{FAQ}").get_data(as_text=True)
    for text in (stored, shown, page):
        assert not set(text) & set(INVISIBLE + "\u2028\u2029\x85")


def test_the_api_refuses_nel_naming_the_field(site):
    body = {"game": GAME, "kind": "faq", "id": FAQ, "text": {"en": {"answer": "One\x85two"}}, "dry_run": True}
    response = site.test_client().post("/api/v1/changes", json=body, headers={"Authorization": f"Bearer {site.config['TEST_TOKEN']}"})
    assert response.status_code == 400
    assert response.get_json()["error"] == "text.en.answer: may not hold the control character U+0085"


def test_the_edit_form_stores_an_editors_text_without_invisible_characters(site):
    client = site.test_client()
    assert login(client).status_code == 302
    url = f"/editor/entries/{GAME}/faq/{FAQ}"
    page = client.get(url).get_data(as_text=True)
    values = form_values(page, FAQ_FIELDS)
    answer = values["answer_en"].rstrip()
    values["answer_en"] = hostile(answer)
    values["question_en"] = "\u202e" + values["question_en"]
    response = client.post(url, data={"csrf_token": csrf_token(page), "action": "save", **values})
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    stored = stored_faq_data(site.content_dir, GAME, FAQ)["en"]
    assert stored["answer"].rstrip("\n") == cleaned(answer)
    assert not set(stored["question"]) & set(INVISIBLE)


def test_the_edit_form_refuses_nel_in_the_field(site):
    client = site.test_client()
    assert login(client).status_code == 302
    url = f"/editor/entries/{GAME}/faq/{FAQ}"
    page = client.get(url).get_data(as_text=True)
    values = form_values(page, FAQ_FIELDS)
    values["answer_de"] = "Eins\x85zwei"
    response = client.post(url, data={"csrf_token": csrf_token(page), "action": "save", **values})
    assert response.status_code == 400
    assert "U+0085" in response.get_data(as_text=True)
    assert "\x85" not in stored_faq_data(site.content_dir, GAME, FAQ)["de"]["answer"]


@pytest.mark.parametrize("char", ["\u00ad", "\u200b", "\u200d", "\u2060"])
def test_the_edit_form_names_a_character_the_content_may_not_hold_at_its_field(site, char):
    # A soft hyphen or a zero-width space pasted from a PDF: said at the field, in the editor's
    # language, not as the validator's English with a file's path and line.
    client = site.test_client()
    assert login(client).status_code == 302
    url = f"/editor/entries/{GAME}/faq/{FAQ}"
    page = client.get(url).get_data(as_text=True)
    values = form_values(page, FAQ_FIELDS)
    values["answer_de"] = values["answer_de"].replace("Gleichstand", f"Gleich{char}stand", 1).replace("Punkte", f"Punk{char}te", 1)
    assert char in values["answer_de"]
    response = client.post(url, data={"csrf_token": csrf_token(page), "action": "check", **values})
    body = response.get_data(as_text=True)
    assert response.status_code == 400 and f"U+{ord(char):04X}" in body and "Bitte entferne" in body
    assert "faq.yaml:" not in body and char not in stored_faq_data(site.content_dir, GAME, FAQ)["de"]["answer"]


@pytest.mark.parametrize("char", list(INVISIBLE))
def test_a_search_query_drops_every_invisible_character(char):
    assert clean_query(f"Dieb{char}Meuchler") == "DiebMeuchler"


ENTRY_TEXT, REPORT_TEXT = TypeAdapter(EntryText), TypeAdapter(Proposal)


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_reports_and_changes_clean_alike(text):
    """A report's text is the editors' cleaning stripped at both ends; a refusal is shared too."""
    try:
        expected = chars.plain_text(text)
    except chars.RefusedText:
        for adapter in (ENTRY_TEXT, REPORT_TEXT):
            with pytest.raises(ValidationError):
                adapter.validate_python(text)
        return
    assert ENTRY_TEXT.validate_python(text) == expected
    assert not set(expected) & set(INVISIBLE + "\u2028\u2029\r")
    try:
        assert REPORT_TEXT.validate_python(text) == (expected.strip(" \t\n\u00a0\u3000\ufeff\u2000\u2001\u2002\u2003\u2004\u2005"
                                                                   "\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u1680") or None)
    except Exception as exc:  # the reports refuse what plain_text refuses, nothing more
        raise AssertionError(f"report cleaning differs for {text!r}: {exc}") from exc


def _strings(path: Path) -> list[str]:
    with path.open("rb") as fh:
        return [token.string for token in tokenize.tokenize(fh.readline) if token.type == tokenize.STRING]


def test_no_module_keeps_its_own_list_of_these_characters():
    """One definition: no module but characters.py spells a bidi control, NEL, a line or
    paragraph separator or the BOM in its code (comments may name them)."""
    spelled = re.compile(r"\\u202[a-eA-E89]|\\u206[6-9]|\\x85|\\u0085|\\ufeff|\\uFEFF|[\u202a-\u202e\u2066-\u2069\ufeff\u2028\u2029\x85]")
    found = [str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
             if path.name != "characters.py" and any(spelled.search(s) for s in _strings(path))]
    assert found == []
