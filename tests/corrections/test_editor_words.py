"""The editors' pages in words that read right: a language named in the interface's own
language ("sul testo in tedesco"), a display name ending in a full stop without a second one,
and the queue's values labelled for the cards a phone shows."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from rules_index.corrections.db import session
from rules_index.corrections.editors import set_display_name
from rules_index.corrections.models import Report

from apptools import answer_with_aside
from formtools_shared import EDITOR, confirm_held, csrf_token, form_values, login, second_editor

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
FIELDS = ["question_de", "answer_de", "question_en", "answer_en", "question_it", "answer_it", "citation", "ruling", "check",
          "base_version", "base_entry"]
NEW_DE = answer_with_aside("ohne-furcht-und-adel", "tie-break", "de", "So steht es im Regelheft.")


def report(site, lang="de") -> int:
    token = site.test_client().post("/api/v1/corrections", json={
        "game": GAME, "faq": FAQ, "lang": lang, "message": "Formulierung unklar", "proposed_answer": NEW_DE}).get_json()["token"]
    with site.app_context():
        return session().scalar(select(Report).where(Report.token == token)).id


def editor(site, accept_language: str):
    client = site.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept_language
    assert login(client).status_code == 302
    return client


@pytest.mark.parametrize("accept,expected", [("it-IT", "sul testo in tedesco"), ("en", "about the German text"),
                                             ("de-DE", "zum Text auf Deutsch")])
def test_the_reports_language_is_named_in_the_interfaces_language(site, accept, expected):
    client = editor(site, accept)
    page = client.get(f"/editor/reports/{report(site)}").get_data(as_text=True)
    assert expected in page
    if not accept.startswith("de"):
        assert "Deutsch" not in re.search(r'<p class="meta">(.*?)</p>', page, re.S).group(1)


def test_a_display_name_ending_in_a_full_stop_gets_no_second_one(site):
    with site.app_context():
        set_display_name(session(), EDITOR, "Maria K.")
    client = editor(site, "it-IT")
    rid = report(site)
    page = client.get(f"/editor/reports/{rid}").get_data(as_text=True)
    values = form_values(page, FIELDS)
    assert client.post(f"/editor/reports/{rid}", data={"csrf_token": csrf_token(page), "action": "accept", **values}).status_code == 302
    assert confirm_held(second_editor(site))
    decided = client.get(f"/editor/reports/{rid}").get_data(as_text=True)
    assert "Modificata da Maria K. il " in decided and "K.." not in decided


def test_queue_values_carry_their_labels(site):
    client = editor(site, "it-IT")
    report(site)
    queue = client.get("/editor/").get_data(as_text=True)
    labels = re.findall(r'<td data-label="([^"]+)"', queue)
    assert labels[:6] == ["Ricevuta", "Gioco", "Voce", "Lingua", "Segnalazione", "Stato"]


@pytest.mark.parametrize("accept,date", [("de-DE", r"\d\d\.\d\d\.\d{4}, \d\d:\d\d"),
                                         ("it-IT", r"\d{1,2} [a-z]{3} \d{4}, \d\d:\d\d"),
                                         ("en", r"[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d")])
def test_dates_read_as_the_editors_language_writes_them(site, accept, date):
    client = editor(site, accept)
    report(site)
    queue = client.get("/editor/").get_data(as_text=True)
    received = re.findall(r'<td data-label="[^"]+">([^<]*\d{4}[^<]*)</td>', queue)
    assert received and all(re.match(date, text) for text in received), received
    assert not re.search(r"\d{4}-\d\d-\d\d", queue)


def test_a_change_reverted_through_the_interface_is_labelled_as_reverted(site):
    client = editor(site, "en")
    url = f"/editor/entries/{GAME}/faq/{FAQ}"
    page = client.get(url).get_data(as_text=True)
    values = form_values(page, FIELDS)
    values["answer_de"] = NEW_DE
    assert client.post(url, data={"csrf_token": csrf_token(page), "action": "save", **values}).status_code == 302
    assert confirm_held(second_editor(site))
    page = client.get(url).get_data(as_text=True)
    change_id = int(re.search(r'action="/editor/changes/(\d+)/revert"', page).group(1))
    assert client.post(f"/editor/changes/{change_id}/revert", data={"csrf_token": csrf_token(page), "next": url}).status_code == 302
    for listing in (url, "/editor/changes"):
        page = client.get(listing).get_data(as_text=True)
        row = re.search(rf'<tr id="change-{change_id}">(.*?)</tr>', page, re.S).group(1)
        assert "Reverted on " in row and "edit by hand" not in row, listing
