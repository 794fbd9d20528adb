"""The editors' pages: versions in the edit forms (409 and a merge on a stale save), reverts,
decided reports locked, the interface in de/en/it."""
from __future__ import annotations

import json
import re
from html import unescape

import pytest
from sqlalchemy import func, select

from rules_index.content.versions import stored_faq_data
from rules_index.content.writer import read_section
from rules_index.corrections import changes as changes_module
from rules_index.corrections.db import session
from rules_index.corrections.editors import add_editor
from rules_index.corrections.models import Change, Editor, Report, TranslationFlag

from apptools import answer_with_aside
from formtools_shared import confirm_held, csrf_token, form_values, login

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
FAQ_FIELDS = ["question_de", "answer_de", "question_en", "answer_en", "question_it", "answer_it", "citation", "ruling", "check",
              "base_version", "base_entry"]
SECTION_FIELDS = ["body_de", "body_en", "body_it", "base_version", "base_entry"]
EDIT_URL = f"/editor/entries/{GAME}/faq/{FAQ}"
# New words are held for a second editor: each save below is confirmed by the other one.
NEW_DE = answer_with_aside(GAME, FAQ, "de", "Quetzalwort.")
OTHER_DE = answer_with_aside(GAME, FAQ, "de", "Zanzibarwort.")
ZANZIBAR_EN = "\n\n[Zanzibarword.]{.editorial}"
SECOND, SECOND_PASSWORD = "bert", "another-long-editor-password"


@pytest.fixture()
def two_editors(site):
    """Two logged-in browser sessions of two editors."""
    with site.app_context():
        add_editor(session(), SECOND, SECOND_PASSWORD)
    first, second = site.test_client(), site.test_client()
    assert login(first).status_code == 302
    assert login(second, name=SECOND, password=SECOND_PASSWORD).status_code == 302
    return first, second


def stored(site, kind="faq", target=FAQ) -> dict:
    return stored_faq_data(site.content_dir, GAME, target) if kind == "faq" else read_section(site.content_dir, GAME, target)


def change_count(site) -> int:
    with site.app_context():
        return session().scalar(select(func.count()).select_from(Change))


def open_form(client, url, fields=FAQ_FIELDS) -> tuple[str, dict]:
    page = client.get(url).get_data(as_text=True)
    return csrf_token(page), form_values(page, fields)


def post(client, url, token, values, action="save"):
    return client.post(url, data={"csrf_token": token, "action": action, **values})


def submit_report(client, lang="de", proposal=NEW_DE, faq=FAQ) -> int:
    token = client.post("/api/v1/corrections", json={
        "game": GAME, "faq": faq, "lang": lang, "message": "Formulierung unklar", "proposed_answer": proposal}).get_json()["token"]
    return token


def report_id(site, token) -> int:
    with site.app_context():
        return session().scalar(select(Report).where(Report.token == token)).id


# -- versions and the merge --------------------------------------------------------------------

def test_forms_carry_the_version_and_the_entry_as_loaded(site, two_editors):
    first, _ = two_editors
    _, values = open_form(first, EDIT_URL)
    from rules_index.content.versions import stored_version

    assert values["base_version"] == stored_version(site.content_dir, GAME, "faq", FAQ)
    assert json.loads(values["base_entry"]) == stored(site)


def test_stale_save_on_the_edit_page_offers_a_merge_and_loses_nothing(site, two_editors):
    first, second = two_editors
    token_a, mine = open_form(first, EDIT_URL)
    token_b, theirs = open_form(second, EDIT_URL)
    base_en = mine["answer_en"]
    mine["answer_de"] = NEW_DE
    assert post(first, EDIT_URL, token_a, mine).status_code == 302
    assert confirm_held(second)
    theirs["answer_en"] = base_en + ZANZIBAR_EN
    stale = post(second, EDIT_URL, token_b, theirs)
    assert stale.status_code == 409
    html = stale.get_data(as_text=True)
    assert "Someone else changed this entry" not in html  # the page is in the editor's language (German)
    assert "Jemand anderes hat diesen Eintrag geändert" in html
    # The first editor's save is untouched by the refused second one.
    assert "Quetzalwort" in stored(site)["de"]["answer"] and "Zanzibarword" not in stored(site)["en"]["answer"]
    # Per changed field: base, theirs and yours, with word diffs.
    article = re.search(r'<article class="merge-field" id="merge-answer_de">(.*?)</article>', html, re.S).group(1)
    assert re.search(r"<ins>[^<]*Quetzalwort[^<]*</ins>", article)
    assert 'id="merge-answer_en"' in html and re.search(r"<ins>[^<]*Zanzibarword[^<]*</ins>", html)
    # The form holds the merge (theirs where only they changed, yours where only you did) on the current version.
    merged = form_values(html, FAQ_FIELDS)
    assert merged["answer_de"] == stored(site)["de"]["answer"]
    assert merged["answer_en"].endswith(ZANZIBAR_EN.strip())
    from rules_index.content.versions import stored_version

    assert merged["base_version"] == stored_version(site.content_dir, GAME, "faq", FAQ)
    assert post(second, EDIT_URL, csrf_token(html), merged).status_code == 302
    assert confirm_held(first)
    after = stored(site)
    assert "Quetzalwort" in after["de"]["answer"] and after["en"]["answer"].rstrip().endswith(ZANZIBAR_EN.strip())
    assert change_count(site) == 2


def test_both_changing_one_field_is_marked_for_the_editor_to_decide(site, two_editors):
    first, second = two_editors
    token_a, mine = open_form(first, EDIT_URL)
    token_b, theirs = open_form(second, EDIT_URL)
    mine["answer_de"] = NEW_DE
    assert post(first, EDIT_URL, token_a, mine).status_code == 302
    assert confirm_held(second)
    theirs["answer_de"] = OTHER_DE
    stale = post(second, EDIT_URL, token_b, theirs)
    html = stale.get_data(as_text=True)
    assert stale.status_code == 409
    assert '<article class="merge-field conflict" id="merge-answer_de">' in html
    assert html.count('class="conflict-marker"') == 1  # beside the one field both changed
    merged = form_values(html, FAQ_FIELDS)
    assert merged["answer_de"] == OTHER_DE  # yours, marked, never with markers in the text
    assert "<<<<" not in merged["answer_de"]
    # The three texts: the base, theirs (Quetzalwort) and yours (Zanzibarwort).
    article = re.search(r'id="merge-answer_de">(.*?)</article>', html, re.S).group(1)
    assert "Quetzalwort" in article and "Zanzibarwort" in article and mine["answer_en"] not in article


def test_stale_save_with_an_altered_base_is_still_answered(site, two_editors):
    first, second = two_editors
    token_a, mine = open_form(first, EDIT_URL)
    token_b, theirs = open_form(second, EDIT_URL)
    mine["answer_de"] = NEW_DE
    assert post(first, EDIT_URL, token_a, mine).status_code == 302
    assert confirm_held(second)
    for base_entry in ("not json", json.dumps({"de": "x"}), "[" * 50_000, "x" * 300_000):
        theirs["base_entry"] = base_entry
        stale = post(second, EDIT_URL, token_b, theirs)
        assert stale.status_code == 409
        # A base that is not the entry at base_version is not shown as the base.
        assert "Nicht bekannt (das Formular hat ihn nicht mitgeschickt)." in stale.get_data(as_text=True)


def test_stale_accept_on_the_review_page_offers_a_merge_and_loses_nothing(site, two_editors):
    first, second = two_editors
    reader = site.test_client()
    rid_de = report_id(site, submit_report(reader))
    english = stored(site)["en"]["answer"] + ZANZIBAR_EN
    rid_en = report_id(site, submit_report(reader, lang="en", proposal=english))
    token_a, mine = open_form(first, f"/editor/reports/{rid_de}")
    token_b, theirs = open_form(second, f"/editor/reports/{rid_en}")
    assert post(first, f"/editor/reports/{rid_de}", token_a, mine, "accept").status_code == 302
    assert confirm_held(second)
    stale = post(second, f"/editor/reports/{rid_en}", token_b, theirs, "accept")
    assert stale.status_code == 409
    html = stale.get_data(as_text=True)
    with site.app_context():
        assert session().get(Report, rid_en).status == "pending"
    merged = form_values(html, FAQ_FIELDS)
    assert "Quetzalwort" in merged["answer_de"] and merged["answer_en"].endswith(ZANZIBAR_EN.strip())
    assert post(second, f"/editor/reports/{rid_en}", csrf_token(html), merged, "accept").status_code == 302
    assert confirm_held(first)
    after = stored(site)
    assert "Quetzalwort" in after["de"]["answer"] and after["en"]["answer"].rstrip().endswith(ZANZIBAR_EN.strip())
    with site.app_context():
        assert [session().get(Report, rid).status for rid in (rid_de, rid_en)] == ["accepted", "accepted"]
        assert session().scalar(select(func.count()).select_from(Change)) == 2


def test_stale_check_is_answered_with_the_merge_too(site, two_editors):
    first, second = two_editors
    token_a, mine = open_form(first, EDIT_URL)
    token_b, theirs = open_form(second, EDIT_URL)
    mine["answer_de"] = NEW_DE
    assert post(first, EDIT_URL, token_a, mine).status_code == 302
    assert confirm_held(second)
    assert post(second, EDIT_URL, token_b, theirs, "check").status_code == 409


# -- reverts -----------------------------------------------------------------------------------

def accept_new_german(first, second) -> str:
    """The first editor changes the German answer (new words: held), the second confirms it;
    the first editor's form token."""
    token, values = open_form(first, EDIT_URL)
    values["answer_de"] = NEW_DE
    assert post(first, EDIT_URL, token, values).status_code == 302
    assert confirm_held(second)
    return token


def test_revert_restores_the_text_as_a_new_change(site, two_editors):
    first, second = two_editors
    original = stored(site)
    accept_new_german(first, second)
    with site.app_context():
        change_id = session().scalar(select(Change.id))
    page = first.get("/editor/changes").get_data(as_text=True)
    assert f'action="/editor/changes/{change_id}/revert"' in page
    response = first.post(f"/editor/changes/{change_id}/revert", data={"csrf_token": csrf_token(page), "next": "/editor/changes"})
    assert response.status_code == 302
    assert stored(site) == original
    with site.app_context():
        revert = session().scalars(select(Change).order_by(Change.id.desc())).first()
        assert revert.id != change_id and revert.reverts_id == change_id
    assert "Quetzalwort" not in first.get(f"/de/{GAME}/faq/{FAQ}").get_data(as_text=True)
    history = first.get(f"/en/{GAME}/faq/{FAQ}/history").get_data(as_text=True)
    assert "Reverted change of" in history
    # The editor's page of the entry lists both, and only the latest can be reverted.
    edit = first.get(EDIT_URL).get_data(as_text=True)
    assert f'/editor/changes/{revert.id}/revert"' in edit and f'/editor/changes/{change_id}/revert"' not in edit


def test_the_history_names_the_second_editor_who_confirmed_a_held_change(site, two_editors):
    """History pages credited only the editor who proposed a change, never the one who let it live."""
    first, second = two_editors
    accept_new_german(first, second)
    with site.app_context():
        session().scalar(select(Editor).where(Editor.name == SECOND)).display_name = name = "Bert B."
        session().commit()
    for lang, said in (("de", "bestätigt von"), ("en", "confirmed by"), ("it", "confermato da")):
        heading = re.search(r'<article class="change">\s*<h2>(.*?)</h2>', first.get(f"/{lang}/{GAME}/faq/{FAQ}/history").get_data(as_text=True), re.S)
        assert heading and f"{said} {name}" in unescape(heading.group(1)), heading and heading.group(1)


def test_a_revert_settles_the_translation_review_its_change_opened_and_opens_none(site, two_editors):
    """After a German-only change was reverted, the English and Italian pages still said
    "translation under review", and the queue listed each language twice."""
    first, second = two_editors
    accept_new_german(first, second)
    with site.app_context():
        change_id = session().scalar(select(Change.id))
        opened = session().scalars(select(TranslationFlag.lang).where(TranslationFlag.resolved_at.is_(None))).all()
    assert sorted(opened) == ["en", "it"]
    page = first.get("/editor/changes").get_data(as_text=True)
    assert first.post(f"/editor/changes/{change_id}/revert", data={"csrf_token": csrf_token(page), "next": "/editor/changes"}).status_code == 302
    with site.app_context():
        assert session().scalars(select(TranslationFlag).where(TranslationFlag.resolved_at.is_(None))).all() == []
    for lang in ("en", "it"):
        assert "translation-review" not in first.get(f"/{lang}/{GAME}/faq/{FAQ}").get_data(as_text=True)


def test_revert_of_a_section(site, two_editors):
    first, second = two_editors
    url = f"/editor/entries/{GAME}/section/goal"
    original = stored(site, "section", "goal")
    token, values = open_form(first, url, SECTION_FIELDS)
    values["body_en"] += "\n\nZanzibarword."  # a new statement: live once a second editor confirms it
    assert post(first, url, token, values).status_code == 302
    assert confirm_held(second)
    page = first.get(url).get_data(as_text=True)
    change_id = re.search(r"/editor/changes/(\d+)/revert", page).group(1)
    assert first.post(f"/editor/changes/{change_id}/revert", data={"csrf_token": csrf_token(page), "next": url}).status_code == 302
    assert stored(site, "section", "goal") == original
    # The same form sent again (a double click, the back button): done already, and said so.
    again = first.post(f"/editor/changes/{change_id}/revert", data={"csrf_token": csrf_token(page), "next": url})
    assert again.status_code == 409 and "schon zurückgenommen" in again.get_data(as_text=True)
    assert stored(site, "section", "goal") == original


def test_revert_is_refused_when_the_entry_changed_since(site, two_editors):
    first, second = two_editors
    accept_new_german(first, second)
    token, values = open_form(first, EDIT_URL)
    values["answer_de"] = OTHER_DE
    assert post(first, EDIT_URL, token, values).status_code == 302
    assert confirm_held(second)
    with site.app_context():
        older = session().scalar(select(Change.id).order_by(Change.id))
    before = stored(site)
    response = first.post(f"/editor/changes/{older}/revert", data={"csrf_token": token})
    assert response.status_code == 409
    assert "Nicht zurückgenommen" in response.get_data(as_text=True)
    assert stored(site) == before and change_count(site) == 2


def test_revert_the_gate_refuses_is_refused_with_its_problems(site, two_editors, monkeypatch):
    first, second = two_editors
    token = accept_new_german(first, second)
    before = stored(site)
    monkeypatch.setattr(changes_module, "review", lambda *args: [changes_module.GateProblem("check", "tie-break: FAILED here")])
    with site.app_context():
        change_id = session().scalar(select(Change.id))
    response = first.post(f"/editor/changes/{change_id}/revert", data={"csrf_token": token})
    assert response.status_code == 400 and "tie-break: FAILED here" in response.get_data(as_text=True)
    assert stored(site) == before and change_count(site) == 1


def test_revert_of_an_unknown_change_is_404(site, two_editors):
    first, _ = two_editors
    token, _ = open_form(first, EDIT_URL)
    assert first.post("/editor/changes/999/revert", data={"csrf_token": token}).status_code == 404


# -- decided reports ---------------------------------------------------------------------------

def reject(client, rid, reason="Steht so auf S. 2."):
    page = client.get(f"/editor/reports/{rid}").get_data(as_text=True)
    token = csrf_token(page)
    return client.post(f"/editor/reports/{rid}", data={"csrf_token": token, "action": "reject", "reject-csrf_token": token, "reject-reason": reason})


def test_a_reject_without_a_fitting_reason_is_refused_and_the_report_stays_open(site, two_editors):
    first, _ = two_editors
    rid = report_id(site, submit_report(site.test_client()))
    for reason in ("", "   ", "x" * 2001, "falsch\x00", "\u202e\u202e"):
        response = reject(first, rid, reason)
        assert response.status_code == 400, reason
    assert "Diese Meldung wurde abgelehnt." not in first.get(f"/editor/reports/{rid}").get_data(as_text=True)
    assert reject(first, rid, "Steht so auf S. 2.\u202e").status_code == 302
    assert "Steht so auf S. 2.\u202e" not in first.get(f"/editor/reports/{rid}").get_data(as_text=True)


def test_rejected_report_is_locked(site, two_editors):
    first, second = two_editors
    rid = report_id(site, submit_report(site.test_client()))
    token, values = open_form(second, f"/editor/reports/{rid}")  # opened before the decision
    assert reject(first, rid).status_code == 302
    before = (site.content_dir / GAME / "faq.yaml").read_bytes()
    page = first.get(f"/editor/reports/{rid}").get_data(as_text=True)
    assert 'value="accept"' not in page and 'value="reject"' not in page and 'value="check"' not in page
    assert "Diese Meldung wurde abgelehnt." in page and "Steht so auf S. 2." in page
    for action in ("accept", "check", "reject"):
        response = second.post(f"/editor/reports/{rid}", data={
            "csrf_token": token, "action": action, **values, "reject-csrf_token": token, "reject-reason": "anders"})
        assert response.status_code == 409, action
        assert "Diese Meldung wurde abgelehnt." in response.get_data(as_text=True)
    with site.app_context():
        report = session().get(Report, rid)
        assert (report.status, report.reason) == ("rejected", "Steht so auf S. 2.")
    assert (site.content_dir / GAME / "faq.yaml").read_bytes() == before and change_count(site) == 0


def test_accepted_report_is_locked_and_links_its_change(site, two_editors):
    first, second = two_editors
    rid = report_id(site, submit_report(site.test_client()))
    token, values = open_form(first, f"/editor/reports/{rid}")
    assert post(first, f"/editor/reports/{rid}", token, values, "accept").status_code == 302
    assert confirm_held(second)
    with site.app_context():
        change_id = session().scalar(select(Change.id))
    page = second.get(f"/editor/reports/{rid}").get_data(as_text=True)
    assert 'value="accept"' not in page and 'value="reject"' not in page
    assert f"/editor/changes/{change_id}.patch" in page and EDIT_URL in page
    after_accept = (site.content_dir / GAME / "faq.yaml").read_bytes()
    second_token = csrf_token(page)
    response = second.post(f"/editor/reports/{rid}", data={
        "csrf_token": second_token, "action": "reject", "reject-csrf_token": second_token, "reject-reason": "doch nicht"})
    assert response.status_code == 409
    values["answer_de"] = OTHER_DE
    assert post(second, f"/editor/reports/{rid}", second_token, values, "accept").status_code == 409
    with site.app_context():
        report = session().get(Report, rid)
        assert (report.status, report.reason) == ("accepted", None)
    assert (site.content_dir / GAME / "faq.yaml").read_bytes() == after_accept and change_count(site) == 1


# -- languages and titles ----------------------------------------------------------------------

PAGES = {
    "de": ["Meldungen", "Übersetzungen in Prüfung", "Offen", "Ohne Furcht und Adel"],
    "en": ["Reports", "Translations under review", "Open", "Citadels"],
    "it": ["Segnalazioni", "Traduzioni in revisione", "Aperta", "Cittadelle"],
}


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_editor_pages_follow_the_browser_language(site, lang):
    client = site.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = {"de": "de-DE,de;q=0.9", "en": "en-GB,en;q=0.8", "it": "it-IT,it;q=0.9"}[lang]
    login(client)
    submit_report(site.test_client())
    page = client.get("/editor/").get_data(as_text=True)
    assert f'<html lang="{lang}">' in page
    for text in PAGES[lang]:
        assert text in page, text
    for other in {"de", "en", "it"} - {lang}:
        assert PAGES[other][0] + "</a>" not in page


def test_editor_language_switch_is_kept_in_the_session(site):
    client = site.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de-DE"
    login(client)
    page = client.get("/editor/entries").get_data(as_text=True)
    assert "Einträge" in page
    response = client.post("/editor/language", data={"csrf_token": csrf_token(page), "lang": "it", "next": "/editor/entries"})
    assert response.status_code == 302 and response.headers["Location"] == "/editor/entries"
    page = client.get("/editor/entries").get_data(as_text=True)
    assert '<html lang="it">' in page and "Voci" in page and "Sezioni delle regole" in page
    # An unknown language changes nothing; the choice is not a way off the site either.
    response = client.post("/editor/language", data={"csrf_token": csrf_token(page), "lang": "xx", "next": "//evil.example/"})
    assert response.headers["Location"] == "/editor/"
    assert '<html lang="it">' in client.get("/editor/").get_data(as_text=True)


def test_queue_and_review_show_titles_and_status_words(site):
    client = site.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    login(client)
    rid = report_id(site, submit_report(site.test_client(), faq="warlord-destroy-cost"))
    queue = client.get("/editor/").get_data(as_text=True)
    with site.app_context():
        from rules_index.web.state import library

        question = library().game(GAME).faq_entry("warlord-destroy-cost").text("en").question
    assert unescape(question) in unescape(queue) and "faq:warlord-destroy-cost" not in queue
    assert ">Open<" in queue and ">pending<" not in queue
    review = client.get(f"/editor/reports/{rid}").get_data(as_text=True)
    assert "faq:warlord-destroy-cost" not in review and '<div class="review-layout">' in review


def test_the_language_chosen_on_the_login_page_survives_login_and_logout(site):
    client = site.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de-DE"
    page = client.get("/editor/login").get_data(as_text=True)
    client.post("/editor/language", data={"csrf_token": csrf_token(page), "lang": "it", "next": "/editor/login"})
    wrong = login(client, password="not-the-password")
    assert wrong.status_code == 401
    assert "Nome o password errati." in wrong.get_data(as_text=True)
    assert login(client).status_code == 302
    assert '<html lang="it">' in client.get("/editor/").get_data(as_text=True)
    page = client.get("/editor/").get_data(as_text=True)
    client.post("/editor/logout", data={"csrf_token": csrf_token(page)})
    assert '<html lang="it">' in client.get("/editor/login").get_data(as_text=True)


def test_saving_an_entry_as_it_is_says_there_is_nothing_to_save(site, two_editors):
    # Not "validation · the change does not alter the entry" under a heading of broken rules.
    first, _ = two_editors
    for url, fields in ((EDIT_URL, FAQ_FIELDS), (f"/editor/entries/{GAME}/section/goal", SECTION_FIELDS)):
        token, values = open_form(first, url, fields)
        response = post(first, url, token, values)
        page = response.get_data(as_text=True)
        assert response.status_code == 422 or response.status_code == 400, url
        assert "Es gibt nichts zu" in page and "does not alter" not in page and "Nicht übernommen" not in page, url
    assert change_count(site) == 0


def test_a_form_sent_after_the_session_ended_keeps_what_was_written(site, two_editors):
    # Twelve hours passed, or the editor was logged out elsewhere: nothing is saved, and the
    # login page shows the texts sent, in the editor's language, to copy and send again.
    from rules_index.corrections.models import Editor
    from rules_index.corrections.sessions import revoke_all

    first, _ = two_editors
    token, values = open_form(first, EDIT_URL)
    before = stored(site)
    values["answer_de"] = NEW_DE
    with site.app_context():
        revoke_all(session(), session().query(Editor).filter_by(name="anna").one())
    response = post(first, EDIT_URL, token, values)
    page = response.get_data(as_text=True)
    assert response.status_code == 401 and "Anmeldung" in page
    assert "Quetzalwort." in page and "Antwort (de)" in page
    assert f'value="{EDIT_URL}"' in page  # after the login, back to the entry
    assert stored(site) == before and change_count(site) == 0


@pytest.mark.parametrize("lang,expired", [("de", "Das Formular war abgelaufen"), ("it", "Il modulo era scaduto")])
def test_a_stale_token_gives_the_editor_the_writing_back(site, lang, expired):
    """A new login in another tab (or a logout and a login) leaves this tab's form with a stale
    CSRF token: nothing is saved, and the edit page comes back with the editor's text and a fresh
    token, in the interface's language, instead of an error page that loses it."""
    client = site.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    assert login(client).status_code == 302
    token, values = open_form(client, EDIT_URL)
    assert login(client).status_code == 302  # another tab: a new session, a new CSRF secret
    mine = {**values, "answer_de": NEW_DE}
    response = post(client, EDIT_URL, token, mine)
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and expired in page
    assert form_values(page, ["answer_de"])["answer_de"] == NEW_DE
    assert change_count(site) == 0 and stored(site) == stored_faq_data(site.content_dir, GAME, FAQ)
    again = post(client, EDIT_URL, csrf_token(page), form_values(page, FAQ_FIELDS), action="check")
    assert again.status_code in (200, 400) and expired not in again.get_data(as_text=True)


def test_a_damaged_version_field_says_so(site):
    client = site.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert login(client).status_code == 302
    token, values = open_form(client, EDIT_URL)
    page = post(client, EDIT_URL, token, {**values, "base_version": "not-hex!"}, action="check").get_data(as_text=True)
    assert "The form&#39;s hidden fields were changed" in page or "The form's hidden fields were changed" in page


def test_a_save_the_repository_cannot_take_comes_back_with_the_text_and_why(site, two_editors, monkeypatch):
    """The remote unreachable (or hand edits in the files): the save answered with a site-wide
    error page, and the editor's text was gone. The form comes back, holding it, saying it was
    not saved and why, in the editor's language; nothing was stored."""
    from rules_index.content.repo import GitError

    first, _second = two_editors
    token, values = open_form(first, EDIT_URL)
    values["answer_de"] = NEW_DE
    before = change_count(site)

    def unreachable(*args, **kwargs):  # an accept's first step with a remote: following it
        raise GitError("git fetch: could not read from remote repository")

    monkeypatch.setattr(changes_module, "settle", unreachable)
    response = post(first, EDIT_URL, token, values)
    html = response.get_data(as_text=True)
    assert response.status_code != 500 and "Nicht gespeichert" in html and "could not read from remote repository" in html
    assert "Quetzalwort" in form_values(html, ["answer_de"])["answer_de"]
    assert change_count(site) == before and "Quetzalwort" not in stored(site)["de"]["answer"]
