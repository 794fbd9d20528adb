"""Two editors, two real sessions, one gunicorn (two worker processes): both accept on the same
version of an entry over the review page. The second gets 409 and a merge; nothing is lost.

Runs on SQLite always and on PostgreSQL when TEST_DATABASE_URL names a server.
"""
from __future__ import annotations

import http.cookiejar
import json
import re
import shutil
import urllib.error
import urllib.parse
import urllib.request
from html import unescape

import pytest

from app import ROOT
from apptools import BACKENDS, answer_with_aside, scratch_database
from rules_index.content.versions import stored_faq_data
from servertools import flask, server_env, serving

pytestmark = pytest.mark.slow  # make test-all: two editors against gunicorn

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
FIELDS = ["question_de", "answer_de", "question_en", "answer_en", "question_it", "answer_it", "citation", "ruling", "check",
          "base_version", "base_entry"]
NEW_DE = answer_with_aside("ohne-furcht-und-adel", "tie-break", "de", "Quetzalwort.")
EDITORS = {"anna": "a-long-editor-password", "bert": "another-long-editor-password"}


class Browser:
    """One editor's session: its own cookie jar, redirects followed, 4xx answers read, not raised."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def request(self, path: str, data: dict | None = None, json_body: dict | None = None) -> tuple[int, str]:
        body, headers = None, {"Accept-Language": "en"}
        if data is not None:
            body = urllib.parse.urlencode(data).encode()
        if json_body is not None:
            body, headers["Content-Type"] = json.dumps(json_body).encode(), "application/json"
        try:
            with self.opener.open(urllib.request.Request(self.base + path, data=body, headers=headers), timeout=120) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def login(self, name: str) -> None:
        status, page = self.request("/editor/login")
        status, page = self.request("/editor/login", {"csrf_token": csrf(page), "name": name, "password": EDITORS[name], "next": "/editor/"})
        assert status == 200 and "/editor/logout" in page, status


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def form_values(html: str) -> dict:
    values = {}
    for name in FIELDS:
        match = re.search(rf'<textarea[^>]*name="{name}"[^>]*>(.*?)</textarea>', html, re.S)
        if match:
            values[name] = unescape(match.group(1)).removeprefix("\r\n").removeprefix("\n")
        else:
            values[name] = unescape(re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html).group(1))
    return values


@pytest.fixture(params=BACKENDS)
def server(request, tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    with scratch_database(request.param, tmp_path, "rules_editors") as url:
        env = server_env(tmp_path / "instance", url, CONTENT_DIR=str(content), WORKERS="2",
                         SUBMISSION_RATE_LIMIT="1000 per minute", LOGIN_RATE_LIMIT="1000 per minute")
        flask(env, "db", "upgrade")
        for name, password in EDITORS.items():
            flask(env, "editors", "add", name, "--password-stdin", stdin=password + "\n")
        with serving(env, tmp_path) as running:
            running.content = content
            yield running


def report(browser: Browser, lang: str, proposal: str) -> int:
    status, body = browser.request("/api/v1/corrections", json_body={
        "game": GAME, "faq": FAQ, "lang": lang, "message": "Formulierung unklar", "proposed_answer": proposal})
    assert status == 201, body
    return json.loads(body)["token"]


def newest_reports(editor: Browser) -> list[int]:
    """The ids of the open reports, newest first, as the queue links them."""
    _, queue = editor.request(f"/editor/?game={GAME}")
    return [int(rid) for rid in re.findall(r"/editor/reports/(\d+)", queue)]


def confirm_all(editor: "Browser") -> list[tuple[int, int, str]]:
    """Confirm, as ``editor``, every held change of the other editor in the queue: (id, status, page)."""
    _, queue = editor.request("/editor/")
    done = []
    for held in re.findall(r'action="/editor/held/(\d+)/confirm"', queue):
        status, page = editor.request(f"/editor/held/{held}/confirm", {"csrf_token": csrf(queue)})
        done.append((int(held), status, page))
    return done


def test_two_sessions_accepting_on_the_same_version(server):
    base = f"http://127.0.0.1:{server.port}"
    reader, anna, bert = Browser(base), Browser(base), Browser(base)
    anna.login("anna")
    bert.login("bert")
    english = stored_faq_data(server.content, GAME, FAQ)["en"]["answer"].rstrip() + "\n\n[Zanzibarword.]{.editorial}"
    report(reader, "de", NEW_DE)
    report(reader, "en", english)
    rid_en, rid_de = newest_reports(anna)[:2]
    # Both open their report on the same version of the entry, then both accept: new words, so
    # both wait for a second editor; nothing is written yet.
    _, page_a = anna.request(f"/editor/reports/{rid_de}")
    _, page_b = bert.request(f"/editor/reports/{rid_en}")
    assert form_values(page_a)["base_version"] == form_values(page_b)["base_version"]
    status_a, _ = anna.request(f"/editor/reports/{rid_de}", {"csrf_token": csrf(page_a), "action": "accept", **form_values(page_a)})
    status_b, _ = bert.request(f"/editor/reports/{rid_en}", {"csrf_token": csrf(page_b), "action": "accept", **form_values(page_b)})
    assert status_a == status_b == 200  # after the redirect to the queue
    assert "Quetzalwort" not in stored_faq_data(server.content, GAME, FAQ)["de"]["answer"]
    # Bert confirms Anna's; Anna then confirms Bert's, made on the version before: it is stale,
    # nothing is written, and it says so.
    assert [status for _, status, _ in confirm_all(bert)] == [200]
    [(stale_id, status, page)] = confirm_all(anna)
    assert status == 200 and "The entry has changed since this change was held" in page
    entry = stored_faq_data(server.content, GAME, FAQ)
    assert "Quetzalwort" in entry["de"]["answer"] and "Zanzibarword" not in entry["en"]["answer"]
    # Bert's report is still open: on the current version his accept is held again and confirmed.
    _, page_b = bert.request(f"/editor/reports/{rid_en}")
    assert "Quetzalwort" in form_values(page_b)["answer_de"]
    status, _ = bert.request(f"/editor/reports/{rid_en}", {"csrf_token": csrf(page_b), "action": "accept", **form_values(page_b)})
    assert status == 200
    _, queue = anna.request("/editor/")
    assert f'action="/editor/held/{stale_id}/confirm"' in queue  # the stale one waits to be rejected
    anna.request(f"/editor/held/{stale_id}/reject", {"csrf_token": csrf(queue)})
    assert [status for _, status, _ in confirm_all(anna)] == [200]
    entry = stored_faq_data(server.content, GAME, FAQ)
    assert "Quetzalwort" in entry["de"]["answer"] and entry["en"]["answer"].rstrip().endswith("[Zanzibarword.]{.editorial}")
    # The same report accepted twice: the second finds it decided.
    status, again = anna.request(f"/editor/reports/{rid_en}", {"csrf_token": csrf(page_a), "action": "accept", **form_values(page_b)})
    assert status == 409 and "This report was accepted." in again
    _, changes = anna.request("/editor/changes")
    assert len(re.findall(r'<tr id="change-\d+">', changes)) == 2