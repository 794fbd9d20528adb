"""What readers type is shown escaped everywhere editors and readers see it; session cookies are locked down."""
from __future__ import annotations

import re

from sqlalchemy import select

from rules_index.corrections.db import session
from rules_index.corrections.models import Report

from formtools_shared import confirm_held, csrf_token, form_values, login, second_editor

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
SCRIPT = '<script>alert("x")</script><img src=x onerror=alert(1)>'
FIELDS = ["question_de", "answer_de", "question_en", "answer_en", "question_it", "answer_it", "citation", "ruling", "check"]


def submit(client) -> str:
    payload = {"game": GAME, "faq": FAQ, "lang": "en", "message": SCRIPT, "proposed_answer": SCRIPT, "page": "2"}
    return client.post("/api/v1/corrections", json=payload).get_json()["token"]


def assert_escaped(html: str) -> None:
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;" in html


def test_editor_queue_and_review_escape_reader_text(site):
    client = site.test_client()
    token = submit(client)
    login(client)
    assert_escaped(client.get("/editor/?status=pending").get_data(as_text=True))
    with site.app_context():
        rid = session().scalar(select(Report).where(Report.token == token)).id
    assert_escaped(client.get(f"/editor/reports/{rid}").get_data(as_text=True))


def test_tracking_page_escapes_the_editors_reason(site):
    client = site.test_client()
    token = submit(client)
    login(client)
    with site.app_context():
        rid = session().scalar(select(Report).where(Report.token == token)).id
    page = client.get(f"/editor/reports/{rid}").get_data(as_text=True)
    value = re.findall(r'name="csrf_token" type="hidden" value="([^"]+)"', page)[-1]
    client.post(f"/editor/reports/{rid}", data={"csrf_token": value, "action": "reject", "reject-csrf_token": value, "reject-reason": SCRIPT})
    assert_escaped(client.get(f"/en/corrections/{token}").get_data(as_text=True))


def test_history_page_never_runs_markup_from_an_answer(site):
    client = site.test_client()
    login(client)
    url = f"/editor/entries/{GAME}/faq/{FAQ}"
    page = client.get(url).get_data(as_text=True)
    values = form_values(page, FIELDS)
    values["answer_en"] = values["answer_en"] + "\n\n[" + SCRIPT + "]{.editorial}"
    response = client.post(url, data={"csrf_token": csrf_token(page), **values})
    assert response.status_code == 302
    assert confirm_held(second_editor(site))  # new words wait for a second editor
    # Answers are Markdown, rendered through nh3 on the history page as on the answer's own page;
    # HTML in them is shown as text, never as markup.
    history = client.get(f"/en/{GAME}/faq/{FAQ}/history").get_data(as_text=True)
    assert '<section class="change-text" lang="en">' in history
    assert "<script>alert" not in history and "<img src=x" not in history
    assert "&lt;img src=x onerror=alert(1)&gt;" in history
    permalink = client.get(f"/en/{GAME}/faq/{FAQ}").get_data(as_text=True)
    assert "<script>alert" not in permalink and "<img src=x" not in permalink
    assert "&lt;img src=x onerror=alert(1)&gt;" in permalink


def test_session_cookie_flags(site):
    response = login(site.test_client())
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_session_cookie_secure_in_production(tmp_path, monkeypatch):
    from apptools import make_app
    from app import ROOT

    monkeypatch.setenv("RULES_HTTPS", "1")
    app = make_app(tmp_path / "instance", ROOT / "content")
    with app.test_client() as client:
        from rules_index.corrections.editors import add_editor

        with app.app_context():
            add_editor(session(), "anna", "a-long-editor-password")
        response = login(client)
    assert "Secure" in response.headers["Set-Cookie"]
