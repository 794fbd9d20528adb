"""Readers' reports through the form and the API: stored once acknowledged, refused with a reason."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from rules_index.corrections.db import session
from rules_index.corrections.models import Report

from formtools_shared import csrf_token

GOOD = {"game": "ohne-furcht-und-adel", "faq": "tie-break", "lang": "en", "message": "The page is wrong.", "page": "2", "email": "me@example.org"}


def count(app) -> int:
    with app.app_context():
        return session().scalar(select(func.count(Report.id)))


def test_api_submission_is_stored_and_tracked(site):
    client = site.test_client()
    response = client.post("/api/v1/corrections", json=GOOD)
    assert response.status_code == 201
    body = response.get_json()
    assert body["status"] == "pending" and body["token"] and isinstance(body["id"], int)
    status = client.get(f"/api/v1/corrections/{body['token']}").get_json()
    assert status["status"] == "pending" and status["faq"] == "tie-break"
    assert "email" not in status and "message" not in status
    assert count(site) == 1


@pytest.mark.parametrize("change,status,field", [
    ({"game": "nope"}, 404, "game"),
    ({"game": None}, 400, "game"),
    ({"faq": "nope"}, 404, "faq"),
    ({"faq": None}, 400, "faq"),
    ({"section": "goal"}, 400, "faq"),
    ({"lang": "fr"}, 400, "lang"),
    ({"message": "   "}, 400, "message"),
    ({"message": "\u200b\u200b\u200b"}, 400, "message"),  # zero-width: nothing said
    ({"message": "\u200b\ufeff\u2060 \u200d"}, 400, "message"),
    ({"message": None}, 400, "message"),
    ({"message": "x" * 5001}, 413, "message"),
    ({"proposed_answer": "x" * 10001}, 413, "proposed_answer"),
    ({"page": "two"}, 400, "page"),
    ({"email": "not-an-address"}, 400, "email"),
    ({"message": 12}, 400, "message"),
])
def test_bad_submissions_are_refused_and_not_stored(site, change, status, field):
    payload = {**GOOD, **change}
    payload = {k: v for k, v in payload.items() if not (v is None and k in ("game", "faq", "message"))} if None in change.values() else payload
    response = site.test_client().post("/api/v1/corrections", json=payload)
    assert response.status_code == status
    assert response.get_json()["error"].startswith(field + ":")
    assert count(site) == 0


def test_section_report(site):
    payload = {**GOOD, "faq": None, "section": "characters"}
    del payload["faq"]
    client = site.test_client()
    response = client.post("/api/v1/corrections", json=payload)
    assert response.status_code == 201
    # The reader's tracking page names the section reported, in the page's language.
    page = client.get(f"/en/corrections/{response.get_json()['token']}").get_data(as_text=True)
    assert 'Rules section: <a href="/en/ohne-furcht-und-adel/#rule-characters">The eight characters</a>' in page


def test_oversized_body_refused_before_reading(site):
    response = site.test_client().post("/api/v1/corrections", data="{" + " " * (1024 * 1024) + "}", content_type="application/json")
    assert response.status_code == 413 and "error" in response.get_json()
    assert count(site) == 0


def test_unknown_token(site):
    response = site.test_client().get("/api/v1/corrections/not-a-token")
    assert response.status_code == 404 and response.get_json()["error"].startswith("token:")
    assert site.test_client().get("/de/corrections/not-a-token").status_code == 404


@pytest.mark.parametrize("lang,said", [("de", "Meldungslink unbekannt"), ("en", "Report link not known"), ("it", "Link della segnalazione sconosciuto")])
def test_a_report_link_cut_short_says_so_in_the_readers_language(site, lang, said):
    """A mistyped or cut-off status link gave the site's "page not found", the token in its search box."""
    client = site.test_client()
    token = client.post("/api/v1/corrections", json=GOOD).get_json()["token"]
    assert client.get(f"/{lang}/corrections/{token}").status_code == 200
    response = client.get(f"/{lang}/corrections/{token[:-3]}")
    page = response.get_data(as_text=True)
    assert response.status_code == 404 and said in page and f'value="{token[:-3]}' not in page
    assert 'name="robots" content="noindex"' in page


@pytest.mark.parametrize("lang,thanks,pending", [("de", "Danke für deine Meldung", "Offen"), ("en", "Thank you for your report", "Pending"), ("it", "Grazie per la tua segnalazione", "In attesa")])
def test_form_submission_gives_tracking_link(site, lang, thanks, pending):
    client = site.test_client()
    url = f"/{lang}/ohne-furcht-und-adel/faq/tie-break/correction"
    page = client.get(url).get_data(as_text=True)
    response = client.post(url, data={"csrf_token": csrf_token(page), "message": "Falsche Seite", "page": "2"})
    assert response.status_code == 303
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert thanks in html
    import re
    link = re.search(rf'href="(/{lang}/corrections/[\w-]+)"', html).group(1)
    status = client.get(link).get_data(as_text=True)
    assert pending in status
    # When it was received, with the time zone: the reader may live in another.
    assert re.search(r'class="meta">[^<]*\d:\d{2}:\d{2}[^<]* UTC</p>', status), status
    assert count(site) == 1


def test_form_without_csrf_token_is_400(site):
    response = site.test_client().post("/en/ohne-furcht-und-adel/faq/tie-break/correction", data={"message": "x"})
    assert response.status_code == 400
    assert count(site) == 0


def test_form_errors_in_readers_language(site):
    client = site.test_client()
    url = "/it/ohne-furcht-und-adel/faq/tie-break/correction"
    token = csrf_token(client.get(url).get_data(as_text=True))
    response = client.post(url, data={"csrf_token": token, "message": "", "email": "nope"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "Descrivi che cosa è sbagliato." in html and "Questo non è un indirizzo e-mail." in html
    assert count(site) == 0


def test_honeypot_refuses(site):
    client = site.test_client()
    url = "/en/ohne-furcht-und-adel/faq/tie-break/correction"
    token = csrf_token(client.get(url).get_data(as_text=True))
    response = client.post(url, data={"csrf_token": token, "message": "spam", "website": "http://spam.example"})
    assert response.status_code == 400
    assert count(site) == 0


def test_reader_text_is_escaped_on_the_tracking_page(site):
    client = site.test_client()
    token = client.post("/api/v1/corrections", json=GOOD).get_json()["token"]
    with site.app_context():
        report = session().scalar(select(Report).where(Report.token == token))
        report.status, report.reason = "rejected", "<script>alert(1)</script>"
        session().commit()
    html = client.get(f"/en/corrections/{token}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html


def test_an_image_in_a_report_shows_as_a_link_to_it(site):
    """"![my table](http://…)" vanished from the reader's own status page."""
    client = site.test_client()
    sent = {**GOOD, "message": "See ![my table](https://example.org/table.png) please"}
    token = client.post("/api/v1/corrections", json=sent).get_json()["token"]
    html = client.get(f"/en/corrections/{token}").get_data(as_text=True)
    assert re.search(r'<a [^>]*href="https://example.org/table.png"[^>]*>my table</a>', html)
    assert "<img" not in html


def test_submission_rate_limit(tmp_path):
    from app import ROOT
    from apptools import make_app

    app = make_app(tmp_path / "instance", ROOT / "content", SUBMISSION_RATE_LIMIT="3 per minute")
    client = app.test_client()
    codes = [client.post("/api/v1/corrections", json=GOOD).status_code for _ in range(5)]
    assert codes == [201, 201, 201, 429, 429]
    assert client.post("/api/v1/corrections", json=GOOD).get_json()["error"]
    assert count(app) == 3


CONTROLS = {"NUL": "\x00", "ESC": "\x1b", "VT": "\x0b", "FF": "\x0c", "DEL": "\x7f", "NEL": "\x85", "CSI": "\x9b"}


def test_control_characters_are_refused_naming_the_field(site):
    client = site.test_client()
    for field, text in [("message", "The page {} is wrong."), ("proposed_answer", "Better {} wording."), ("page", "2{}"), ("email", "me{}@example.org")]:
        for name, char in CONTROLS.items():
            response = client.post("/api/v1/corrections", json={**GOOD, field: text.format(char)})
            assert response.status_code == 400, (field, name)
            assert response.get_json()["error"] == f"{field}: may not hold the control character U+{ord(char):04X}"
    assert count(site) == 0


def test_line_breaks_are_normalised_and_bidi_controls_removed(site):
    client = site.test_client()
    message = "Line one\r\nline two\rline three\u2028line four\u2029\u202eevil\u202c \u2066isolated\u2069\t"
    token = client.post("/api/v1/corrections", json={**GOOD, "message": message, "proposed_answer": "\u2028A\r\nB\u2029"}).get_json()["token"]
    with site.app_context():
        report = session().scalar(select(Report).where(Report.token == token))
        assert report.message == "Line one\nline two\nline three\nline four\nevil isolated"
        assert report.proposed_answer == "A\nB"


def test_a_message_of_nothing_visible_is_refused(site):
    for message in ["\u202e\u202c", "\u2028 \u2029", "\r\n\t"]:
        response = site.test_client().post("/api/v1/corrections", json={**GOOD, "message": message})
        assert response.status_code == 400 and response.get_json()["error"].startswith("message:")
    assert count(site) == 0


@pytest.mark.parametrize("lang,said", [("de", "Steuerzeichen U+0085"), ("it", "carattere di controllo invisibile U+0085"), ("en", "control character U+0085")])
def test_form_refuses_control_characters_in_readers_language(site, lang, said):
    client = site.test_client()
    url = f"/{lang}/ohne-furcht-und-adel/faq/tie-break/correction"
    token = csrf_token(client.get(url).get_data(as_text=True))
    for field in ("message", "proposed_answer", "page", "email"):
        data = {"csrf_token": token, "message": "Falsche Seite", field: "x\x85"}
        response = client.post(url, data=data)
        assert response.status_code == 400, field
        html = response.get_data(as_text=True)
        assert said in html and f'<html lang="{lang}">' in html
    assert count(site) == 0


@pytest.mark.parametrize("typed,stored", [("6-5", "5-6"), ("S. 02", "2"), ("p. 9 – 7", "7-9")])
def test_pages_are_stored_as_the_site_writes_them(site, typed, stored):
    response = site.test_client().post("/api/v1/corrections", json={**GOOD, "page": typed})
    assert response.status_code == 201
    with site.app_context():
        from rules_index.corrections.models import Report
        assert session().scalars(select(Report)).one().page == stored


@pytest.mark.parametrize("typed", ["0", "S. 0", "0-3", "p. 000"])
def test_a_page_zero_is_no_page(site, typed):
    response = site.test_client().post("/api/v1/corrections", json={**GOOD, "page": typed})
    assert response.status_code == 400 and response.get_json()["error"].startswith("page:")
    assert count(site) == 0
