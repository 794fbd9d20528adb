"""Error pages say what happened, in the reader's language: a text too long (413), too many
requests (429); the API names the same in its ``field: what`` form."""
from __future__ import annotations

import pytest

from app import ROOT
from apptools import make_app
from formtools_shared import csrf_token

FORM = "/{lang}/ohne-furcht-und-adel/faq/tie-break/correction"
REPORT = {"game": "ohne-furcht-und-adel", "faq": "tie-break", "lang": "de", "message": "Bitte prüfen"}


@pytest.mark.parametrize("lang,heading,text", [
    ("de", "Text zu lang", "Der gesendete Text ist zu lang."),
    ("en", "Text too long", "The text you sent is too long."),
    ("it", "Testo troppo lungo", "Il testo che hai inviato è troppo lungo."),
])
def test_a_body_over_the_limit_gets_a_page_saying_the_text_is_too_long(site_client, lang, heading, text):
    response = site_client.post(FORM.format(lang=lang), data={"message": "x" * (1024 * 1024 + 1)})
    assert response.status_code == 413
    html = response.get_data(as_text=True)
    assert f"<h1>{heading}</h1>" in html and text in html


def test_the_api_names_a_body_over_the_limit(site_client):
    response = site_client.post("/api/v1/corrections", data="{" + " " * (1024 * 1024) + "}", content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"] == "body: the text you sent is too long (at most 1048576 bytes)"


@pytest.mark.parametrize("lang,heading,text", [
    ("de", "Zu viele Anfragen", "Bitte versuche es in einer Minute noch einmal."),
    ("en", "Too many requests", "Please try again in a minute."),
    ("it", "Troppe richieste", "Riprova tra un minuto."),
])
def test_too_many_reports_get_a_page_saying_try_again_in_a_minute(tmp_path, lang, heading, text):
    app = make_app(tmp_path / "instance", ROOT / "content", SUBMISSION_RATE_LIMIT="1 per minute")
    client = app.test_client()
    form = {"csrf_token": csrf_token(client.get(FORM.format(lang=lang)).get_data(as_text=True)), "message": "Bitte prüfen"}
    assert client.post(FORM.format(lang=lang), data=form).status_code == 303
    response = client.post(FORM.format(lang=lang), data=form)
    assert response.status_code == 429
    html = response.get_data(as_text=True)
    assert f"<h1>{heading}</h1>" in html and text in html


def test_the_api_says_too_many_requests(tmp_path):
    app = make_app(tmp_path / "instance", ROOT / "content", SUBMISSION_RATE_LIMIT="1 per minute")
    client = app.test_client()
    assert client.post("/api/v1/corrections", json=REPORT).status_code == 201
    response = client.post("/api/v1/corrections", json=REPORT)
    assert response.status_code == 429
    assert response.get_json()["error"] == "rate limit: too many requests, try again in a minute"
