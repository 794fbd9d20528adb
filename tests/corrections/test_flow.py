"""The editors' flow: report -> queue -> accept (held: new words) -> a second editor confirms ->
content file -> index -> "accepted", and the refusals."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from apptools import SECOND_EDITOR, SECOND_PASSWORD, answer_with_aside, real_library
from rules_index.corrections.db import session
from rules_index.corrections.editors import add_editor
from rules_index.corrections.models import Change, Report, TranslationFlag
from rules_index.web.state import search_results

from formtools_shared import confirm_held, csrf_token, form_values, login, second_editor

FIELDS = ["question_de", "answer_de", "question_en", "answer_en", "question_it", "answer_it", "citation", "ruling", "check"]
GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
NEW_DE = answer_with_aside(GAME, FAQ, "de", "Quetzalwort: so steht es im Regelheft.")


def submit(client, **extra) -> str:
    payload = {"game": GAME, "faq": FAQ, "lang": "de", "message": "Formulierung unklar", "proposed_answer": NEW_DE, **extra}
    return client.post("/api/v1/corrections", json=payload).get_json()["token"]


def report_id(app, token) -> int:
    with app.app_context():
        return session().scalar(select(Report).where(Report.token == token)).id


def accept(client, rid, **overrides):
    page = client.get(f"/editor/reports/{rid}").get_data(as_text=True)
    data = {"csrf_token": csrf_token(page), "action": "accept", **form_values(page, FIELDS), **overrides}
    return client.post(f"/editor/reports/{rid}", data=data)


def test_whole_flow(site):
    client = site.test_client()
    faq_file = site.content_dir / GAME / "faq.yaml"
    before = faq_file.read_text(encoding="utf-8")
    with site.app_context():
        assert not search_results("Quetzalwort", "de").hits
    token = submit(client)
    assert login(client).status_code == 302
    queue = client.get(f"/editor/?game={GAME}&lang=de").get_data(as_text=True)
    rid = report_id(site, token)
    assert f"/editor/reports/{rid}" in queue
    review = client.get(f"/editor/reports/{rid}").get_data(as_text=True)
    assert "<ins>" in review and "Quetzalwort" in review  # the proposal, side by side and as a diff
    response = accept(client, rid)
    assert response.status_code == 302, re.findall(r"<code>(.*?)</code>", response.get_data(as_text=True))
    # New words: held for a second editor, and nothing is written until one confirms.
    assert faq_file.read_text(encoding="utf-8") == before
    assert "Quetzalwort" not in client.get(f"/de/{GAME}/faq/{FAQ}").get_data(as_text=True)
    queue = client.get("/editor/").get_data(as_text=True)
    assert "Änderungen, die auf eine zweite Redaktion warten" in queue and "/editor/held/" in queue
    assert 'action="/editor/held/' in queue and "/confirm" not in queue.split("Änderungen, die auf eine zweite Redaktion warten")[1].split("Übersetzungen in Prüfung")[0]
    with site.app_context():
        add_editor(session(), SECOND_EDITOR, SECOND_PASSWORD)
    second = site.test_client()
    assert login(second, name=SECOND_EDITOR, password=SECOND_PASSWORD).status_code == 302
    assert len(confirm_held(second)) == 1
    after = faq_file.read_text(encoding="utf-8")
    assert "Quetzalwort" in after
    # Only the changed entry moved; comments and the other entries stay byte for byte.
    assert before.splitlines()[0] == after.splitlines()[0]
    assert len([line for line in before.splitlines() if line.startswith("#")]) == len([line for line in after.splitlines() if line.startswith("#")])
    assert "stand: " in (site.content_dir / GAME / "game.yaml").read_text(encoding="utf-8")
    with site.app_context():
        hits = search_results("Quetzalwort", "de").hits
        assert hits and hits[0].entry == FAQ
    assert client.get(f"/api/v1/corrections/{token}").get_json()["status"] == "accepted"
    assert "Angenommen" in client.get(f"/de/corrections/{token}").get_data(as_text=True)
    assert "Quetzalwort" in client.get(f"/de/{GAME}/faq/{FAQ}").get_data(as_text=True)
    # The other languages are flagged until an editor confirms them.
    with site.app_context():
        flags = session().scalars(select(TranslationFlag).where(TranslationFlag.target_id == FAQ)).all()
        assert sorted(f.lang for f in flags) == ["en", "it"]
    assert "Translation under review" in client.get(f"/en/{GAME}/faq/{FAQ}").get_data(as_text=True)
    assert "Übersetzungen in Prüfung" in client.get("/editor/").get_data(as_text=True)
    edit = client.get(f"/editor/entries/{GAME}/faq/{FAQ}").get_data(as_text=True)
    flag_id = re.search(r"/editor/flags/(\d+)/confirm", edit).group(1)
    client.post(f"/editor/flags/{flag_id}/confirm", data={"csrf_token": csrf_token(edit), "next": f"/editor/entries/{GAME}/faq/{FAQ}"})
    assert "Translation under review" not in client.get(f"/en/{GAME}/faq/{FAQ}").get_data(as_text=True)
    # History, and the change as a commit of the content repository.
    history = client.get(f"/de/{GAME}/faq/{FAQ}/history").get_data(as_text=True)
    assert "Quetzalwort" in history and "Redaktion" in history and "anna" not in history
    # The row is an index of the change: its texts and its patch are read from the commit.
    with site.app_context():
        row = session().scalars(select(Change).where(Change.target_id == FAQ)).one()
        assert row.commit and (row.before, row.after, row.patch) == (None, None, None)
    from rules_index.content.repo import ContentRepo

    repo = ContentRepo(site.content_dir)
    patch = repo.git("log", "-p", "-n1", "--format=%an%n%B")
    assert "+++ b/ohne-furcht-und-adel/faq.yaml" in patch and "Quetzalwort" in patch
    assert patch.splitlines()[0] == "Editorial team" and "Editor: anna" not in patch  # the public name, never the login
    # The editor's .patch is that commit as git format-patch writes it: git am applies it to
    # another clone at the commit before.
    mail = client.get(f"/editor/changes/{row.id}.patch").get_data(as_text=True)
    assert "From: Editorial team" in mail and "Subject: " in mail and "Quetzalwort" in mail and "anna" not in mail
    clone = site.content_dir.parent / "clone"
    repo.git("clone", "-q", str(site.content_dir), str(clone))
    other = ContentRepo(clone)
    other.git("reset", "-q", "--hard", "HEAD^")
    other.git("-c", "user.name=Test", "-c", "user.email=test@noreply.invalid", "am", "-q", input=mail)
    assert other.head() != repo.head() and other.git("diff", repo.head(), "HEAD") == ""


def test_accept_that_breaks_a_check_is_refused(site):
    client = site.test_client()
    token = submit(client)
    login(client)
    rid = report_id(site, token)
    page = client.get(f"/editor/reports/{rid}").get_data(as_text=True)
    values = form_values(page, FIELDS)
    # Claim the tie-break goes the other way: the engine disagrees.
    broken_check = values["check"].replace("winner: B", "winner: A", 1)
    assert broken_check != values["check"]
    before = {p.name: p.read_bytes() for p in (site.content_dir / GAME).iterdir()}
    response = accept(client, rid, check=broken_check)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "FAILED" in html and "expected" in html
    assert {p.name: p.read_bytes() for p in (site.content_dir / GAME).iterdir()} == before
    assert client.get(f"/api/v1/corrections/{token}").get_json()["status"] == "pending"


def test_accept_that_breaks_validation_is_refused(site):
    client = site.test_client()
    token = submit(client, proposed_answer="Bei Gleichstand gewinnt, wer 7 Bauwerke hat.")
    login(client)
    before = (site.content_dir / GAME / "faq.yaml").read_bytes()
    response = accept(client, report_id(site, token))
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    # In the editor's language (German), with how to fix it.
    assert "nennt 7, und keine Prüfung zählt das nach (eine Zahl in einer Ja/Nein-Aussage wird nicht geprüft). Binde die Zahl an den Fakt, den sie zählt, oder streiche sie." in html
    assert "sagt eine Regel aus, die kein Fakt bindet" in html
    assert (site.content_dir / GAME / "faq.yaml").read_bytes() == before


LIVE = real_library()
WARLORD_PROPOSAL = "Der Söldner zahlt den vollen Preis des Bauwerks. Ein Bauwerk mit Wert 1 kostet ihn 1 Gold."


def test_review_page_shows_the_gate_before_accept(site):
    """The proposal of the issue: the review page names the mistake before Accept can be pressed."""
    client = site.test_client()
    token = submit(client, faq="warlord-destroy-cost", proposed_answer=WARLORD_PROPOSAL)
    login(client)
    rid = report_id(site, token)
    page = client.get(f"/editor/reports/{rid}").get_data(as_text=True)
    assert "warlord-pays-full-price, check 1 (steps)" in page
    assert re.search(r'<button[^>]*value="accept"[^>]*disabled', page)
    before = (site.content_dir / GAME / "faq.yaml").read_bytes()
    values = form_values(page, FIELDS)
    checked = client.post(f"/editor/reports/{rid}", data={"csrf_token": csrf_token(page), "action": "check", **values})
    assert checked.status_code == 200 and "warlord-pays-full-price" in checked.get_data(as_text=True)
    forced = accept(client, rid)
    assert forced.status_code == 400 and "warlord-pays-full-price" in forced.get_data(as_text=True)
    assert (site.content_dir / GAME / "faq.yaml").read_bytes() == before
    assert client.get(f"/api/v1/corrections/{token}").get_json()["status"] == "pending"
    # Edited into a correct answer, the check passes and Accept is open again.
    live = LIVE.game(GAME).faq_entry("warlord-destroy-cost")
    values["answer_de"] = live.de.answer.rstrip() + f" (S. {live.citation.pages[0]})"
    fixed = client.post(f"/editor/reports/{rid}", data={"csrf_token": csrf_token(page), "action": "check", **values})
    html = fixed.get_data(as_text=True)
    assert fixed.status_code == 200 and "Geprüft" in html
    assert not re.search(r'<button[^>]*value="accept"[^>]*disabled', html)


def test_reject_with_reason(site):
    client = site.test_client()
    token = submit(client)
    login(client)
    rid = report_id(site, token)
    page = client.get(f"/editor/reports/{rid}").get_data(as_text=True)
    token_value = re.findall(r'name="csrf_token" type="hidden" value="([^"]+)"', page)[-1]
    response = client.post(f"/editor/reports/{rid}", data={"csrf_token": token_value, "action": "reject", "reject-csrf_token": token_value, "reject-reason": "Steht so auf S. 2."})
    assert response.status_code == 302
    status = client.get(f"/api/v1/corrections/{token}").get_json()
    assert status == {**status, "status": "rejected", "reason": "Steht so auf S. 2."}
    assert "Steht so auf S. 2." in client.get(f"/en/corrections/{token}").get_data(as_text=True)


def test_direct_edit_of_a_section(site):
    client = site.test_client()
    login(client)
    url = f"/editor/entries/{GAME}/section/goal"
    page = client.get(url).get_data(as_text=True)
    values = form_values(page, ["body_de", "body_en", "body_it"])
    values["body_en"] += "\n\nZanzibarword."
    response = client.post(url, data={"csrf_token": csrf_token(page), **values})
    assert response.status_code == 302
    # A section binds nothing to the engine: a new statement is out of sight until a second
    # editor has read it.
    assert "Zanzibarword." not in (site.content_dir / GAME / "rules.en.md").read_text(encoding="utf-8")
    assert "Zanzibarword." not in client.get(f"/en/{GAME}/").get_data(as_text=True)
    assert confirm_held(second_editor(site))
    assert "Zanzibarword." in (site.content_dir / GAME / "rules.en.md").read_text(encoding="utf-8")
    assert "Zanzibarword." in client.get(f"/en/{GAME}/").get_data(as_text=True)


@pytest.mark.parametrize("url", ["/editor/", "/editor/reports/1", f"/editor/entries/{GAME}/faq/{FAQ}"])
def test_editor_pages_refuse_anonymous(site, url):
    response = site.test_client().get(url)
    assert response.status_code == 302 and response.headers["Location"].startswith("/editor/login")


def test_login_does_not_reveal_names(site):
    client = site.test_client()
    wrong_password = login(client, password="wrong-password-123")
    unknown_name = login(client, name="nobody", password="wrong-password-123")
    assert wrong_password.status_code == unknown_name.status_code == 401
    strip = lambda html: re.sub(r'value="[^"]*"', "", html)  # noqa: E731
    assert strip(wrong_password.get_data(as_text=True)).replace("anna", "nobody") == strip(unknown_name.get_data(as_text=True))


@pytest.mark.parametrize("target,expected", [
    ("/editor/reports/1", "/editor/reports/1"),
    ("https://evil.example/", "/editor/"),
    ("//evil.example/", "/editor/"),
    ("/\\evil.example", "/editor/"),
    ("javascript:alert(1)", "/editor/"),
])
def test_no_open_redirect_after_login(site, target, expected):
    response = login(site.test_client(), next_url=target)
    assert response.status_code == 302 and response.headers["Location"] == expected


def test_logout(site):
    client = site.test_client()
    login(client)
    page = client.get("/editor/").get_data(as_text=True)
    client.post("/editor/logout", data={"csrf_token": csrf_token(page)})
    assert client.get("/editor/").status_code == 302


def test_login_rate_limited(tmp_path):
    from apptools import make_app
    from app import ROOT

    app = make_app(tmp_path / "instance", ROOT / "content", LOGIN_RATE_LIMIT="3 per minute")
    client = app.test_client()
    codes = [login(client, password="wrong-password-123").status_code for _ in range(5)]
    assert codes[:3] == [401, 401, 401] and codes[3:] == [429, 429]


def test_other_processes_follow_a_published_change(site, tmp_path):
    """A second app on the same content, index and database (as a second worker) serves the change."""
    from apptools import make_app

    other = make_app(tmp_path / "instance", site.content_dir)
    reader = other.test_client()
    assert "Quetzalwort" not in reader.get(f"/de/{GAME}/faq/{FAQ}").get_data(as_text=True)
    client = site.test_client()
    token = submit(client)
    login(client)
    assert accept(client, report_id(site, token)).status_code == 302
    assert "Quetzalwort" not in reader.get(f"/de/{GAME}/faq/{FAQ}").get_data(as_text=True)  # held
    with site.app_context():
        add_editor(session(), SECOND_EDITOR, SECOND_PASSWORD)
    second = site.test_client()
    assert login(second, name=SECOND_EDITOR, password=SECOND_PASSWORD).status_code == 302
    assert confirm_held(second)
    assert "Quetzalwort" in reader.get(f"/de/{GAME}/faq/{FAQ}").get_data(as_text=True)
    assert any(h["id"] == FAQ for h in reader.get("/api/v1/search?q=Quetzalwort").get_json()["hits"])


def test_editor_entry_list(site):
    client = site.test_client()
    login(client)
    page = client.get("/editor/entries").get_data(as_text=True)
    assert f"/editor/entries/{GAME}/faq/{FAQ}" in page and f"/editor/entries/{GAME}/section/goal" in page
