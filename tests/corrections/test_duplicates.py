"""A reload, a double post and a repeated API call each store one report or change: the report
form answers with a redirect and carries a single-use token; the API takes an Idempotency-Key."""
from __future__ import annotations

import threading

from sqlalchemy import func, select

from rules_index.corrections.db import session
from rules_index.corrections.models import Change, Report
from rules_index.web.state import library

from apptools import read_first

from formtools_shared import csrf_token, form_values

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
FORM = f"/en/{GAME}/faq/{FAQ}/correction"
REPORT = {"game": GAME, "faq": FAQ, "lang": "en", "message": "The page is wrong."}


def count(app, model) -> int:
    with app.app_context():
        return session().scalar(select(func.count()).select_from(model))


def filled_form(client) -> dict:
    page = client.get(FORM).get_data(as_text=True)
    values = form_values(page, ["form_token", "proposed_answer"])
    assert values["form_token"]
    return {"csrf_token": csrf_token(page), "message": "The page is wrong.", "page": "3", **values}


def test_a_sent_form_redirects_and_a_reload_stores_nothing(site):
    client = site.test_client()
    sent = client.post(FORM, data=filled_form(client))
    assert sent.status_code == 303 and "/thanks" in sent.headers["Location"]
    for _ in range(2):  # the reader reloads the thanks page
        page = client.get(sent.headers["Location"])
        assert page.status_code == 200 and "private" in page.headers["Cache-Control"]
    assert count(site, Report) == 1


def test_a_form_posted_twice_stores_one_report(site):
    client = site.test_client()
    data = filled_form(client)
    first, second = client.post(FORM, data=data), client.post(FORM, data=data)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert count(site, Report) == 1
    other = client.post(FORM, data={**filled_form(client), "message": "Page 3 is wrong."})  # other words: a new report
    assert other.status_code == 303 and other.headers["Location"] != first.headers["Location"]
    assert count(site, Report) == 2


def test_a_form_sent_again_after_going_back_stores_nothing_new(site):
    """Back to the form (the browser fetches it again: a new form token, the reader's words put
    back) and send again: the same words on the same text are the report already stored."""
    client = site.test_client()
    first = client.post(FORM, data=filled_form(client))
    again = client.post(FORM, data=filled_form(client))
    assert first.status_code == again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"]
    assert count(site, Report) == 1
    other_page = client.post(FORM, data={**filled_form(client), "page": "4"})
    assert other_page.headers["Location"] != first.headers["Location"]
    assert count(site, Report) == 2


def test_a_form_posted_twice_at_once_stores_one_report(site):
    client = site.test_client()
    data = filled_form(client)
    cookie = client.get_cookie("session").value
    answers = []
    start = threading.Barrier(4)

    def post():
        browser = site.test_client()
        browser.set_cookie("session", cookie)
        start.wait()
        answers.append(browser.post(FORM, data=data))

    threads = [threading.Thread(target=post) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert [a.status_code for a in answers] == [303] * 4
    assert len({a.headers["Location"] for a in answers}) == 1
    assert count(site, Report) == 1


def test_a_repeated_api_report_with_a_key_stores_one(site):
    client = site.test_client()
    key = {"Idempotency-Key": "report-7f3a"}
    first = client.post("/api/v1/corrections", json=REPORT, headers=key)
    again = client.post("/api/v1/corrections", json=REPORT, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"
    assert count(site, Report) == 1
    other = client.post("/api/v1/corrections", json={**REPORT, "message": "Something else."}, headers=key)
    assert other.status_code == 422 and other.get_json()["error"].startswith("Idempotency-Key:")
    assert client.post("/api/v1/corrections", json=REPORT).status_code == 201  # without a key: as before
    assert count(site, Report) == 2


def test_a_refused_report_frees_its_key(site):
    client = site.test_client()
    key = {"Idempotency-Key": "report-fix"}
    assert client.post("/api/v1/corrections", json={**REPORT, "lang": "xx"}, headers=key).status_code == 400
    fixed = client.post("/api/v1/corrections", json={**REPORT, "lang": "xx"}, headers=key)
    assert fixed.status_code == 400 and count(site, Report) == 0  # the same bad request, still refused


def test_a_repeated_api_change_with_a_key_stores_one(site):
    with site.app_context():
        answer = library().game(GAME).faq_entry(FAQ).en.answer.rstrip() + " (p. 2)"  # goes live at once
    body = {"game": GAME, "kind": "faq", "id": FAQ, "text": {"en": {"answer": answer}}, "dry_run": False}
    headers = {"Authorization": f"Bearer {site.config['TEST_TOKEN']}", "Idempotency-Key": "change-1"}
    client = site.test_client()
    body = read_first(client, body)
    first = client.post("/api/v1/changes", json=body, headers=headers)
    again = client.post("/api/v1/changes", json=body, headers=headers)
    assert first.status_code == 201, first.get_json()
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert count(site, Change) == 1
    without = client.post("/api/v1/changes", json=body, headers={"Authorization": headers["Authorization"]})
    assert without.status_code == 409  # the retry a client without a key makes: the entry changed since its version


def test_a_bad_key_is_refused(site):
    response = site.test_client().post("/api/v1/corrections", json=REPORT, headers={"Idempotency-Key": "x" * 300})
    assert response.status_code == 400 and response.get_json()["error"].startswith("Idempotency-Key:")
    assert count(site, Report) == 0


def test_a_form_sent_back_with_more_said_is_stored_too(site):
    """The reader goes back after sending (the page, token and all, comes from the browser's
    cache), adds what they forgot and sends again: the thanks page must not claim a text it never
    stored. The same form and text again is still the one report."""
    client = site.test_client()
    data = filled_form(client)
    first = client.post(FORM, data=data)
    more = client.post(FORM, data={**data, "message": "The page is wrong. I forgot: it is page 5."})
    assert first.status_code == more.status_code == 303
    assert more.headers["Location"] != first.headers["Location"]
    again = client.post(FORM, data={**data, "message": "The page is wrong. I forgot: it is page 5."})
    assert again.headers["Location"] == more.headers["Location"]
    elsewhere = client.post(f"/en/{GAME}/faq/warlord-destroy-cost/correction", data=data)  # the same form, another entry
    assert elsewhere.status_code == 303 and elsewhere.headers["Location"] not in (first.headers["Location"], more.headers["Location"])
    with site.app_context():
        stored = sorted((r.target_id, r.message) for r in session().scalars(select(Report)))
    assert stored == [(FAQ, "The page is wrong."), (FAQ, "The page is wrong. I forgot: it is page 5."),
                      ("warlord-destroy-cost", "The page is wrong.")]


def test_a_surrogate_in_a_keyed_api_report_is_refused_not_a_crash(site):
    client = site.test_client()
    body = '{"game": "%s", "faq": "%s", "lang": "en", "message": "a\\ud800b"}' % (GAME, FAQ)
    response = client.post("/api/v1/corrections", data=body, content_type="application/json",
                           headers={"Idempotency-Key": "k-surrogate"})
    assert response.status_code == 400 and "message" in response.get_json()["error"]
    assert count(site, Report) == 0
