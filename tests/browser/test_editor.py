"""The editors' area in a real browser: a change the engine cannot judge waits until the other
editor confirms it, out of readers' sight; two editors in two sessions on one entry (the second
gets the merge page and saves the merge), reverting with the button, switching the interface
language.

Runs on its own server and content copy: the tests change content.
"""
from __future__ import annotations

import shutil
import threading

import pytest
from werkzeug.serving import make_server

from app import ROOT
from apptools import answer_with_aside
from rules_index.content.versions import stored_faq_data
from rules_index.content.writer import read_section

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
EDITORS = {"anna": "a-long-editor-password", "bert": "another-long-editor-password"}
NEW_DE = answer_with_aside(GAME, FAQ, "de", "Quetzalwort.")
ZANZIBAR_EN = "\n\n[Zanzibarword.]{.editorial}"


@pytest.fixture(scope="module")
def editing_server(tmp_path_factory):
    from apptools import make_app
    from rules_index.corrections.db import session
    from rules_index.corrections.editors import add_editor
    from rules_index.web.state import served

    base = tmp_path_factory.mktemp("editing")
    content = base / "content"
    shutil.copytree(ROOT / "content", content)
    app = make_app(base / "instance", content)
    app.config["TESTING"] = False
    with app.app_context():
        served().current()
        for name, password in EDITORS.items():
            add_editor(session(), name, password)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    server.url, server.content = f"http://127.0.0.1:{server.server_port}", content
    yield server
    server.shutdown()


@pytest.fixture()
def session_of(browser):
    """A new browser session (its own cookies) of an editor, logged in, in German."""
    contexts = []

    def open_session(server, name: str):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{server.url}/editor/login")
        page.fill('input[name="name"]', name)
        page.fill('input[name="password"]', EDITORS[name])
        page.click('form.login button[type="submit"]')
        page.wait_for_url(f"{server.url}/editor/")
        return page

    yield open_session
    for context in contexts:
        context.close()


def submit(page, value: str):
    # A save rebuilds the search index before it answers: allow it the time.
    with page.expect_navigation(timeout=90_000) as navigation:
        page.click(f'button[name="action"][value="{value}"]', timeout=90_000)
    return navigation.value


def confirm_in_queue(page, server) -> None:
    page.goto(f"{server.url}/editor/")
    with page.expect_navigation(timeout=90_000):
        page.locator("li.held-change").first.get_by_role("button", name="Bestätigen").click(timeout=90_000)
    assert page.locator(".flash").inner_text().startswith("Änderung übernommen")


def test_a_held_change_waits_for_the_other_editor(editing_server, session_of, browser):
    url = f"{editing_server.url}/editor/entries/{GAME}/faq/{FAQ}"
    reader_context = browser.new_context(locale="de-DE")
    reader = reader_context.new_page()
    anna, bert = session_of(editing_server, "anna"), session_of(editing_server, "bert")
    anna.goto(url)
    words = "Wer die Krone hat, entscheidet."
    anna.fill('textarea[name="answer_de"]', answer_with_aside(GAME, FAQ, "de", words))
    assert submit(anna, "check").status == 200
    assert anna.locator(".gate-held").is_visible()  # "Saving it holds it for a second editor"
    assert submit(anna, "save").status == 200
    assert anna.locator(".flash").inner_text().startswith("Für eine zweite Redaktion zurückgehalten")
    reader.goto(f"{editing_server.url}/de/{GAME}/faq/{FAQ}")
    assert words not in reader.locator(".answer").inner_text()
    # Its author cannot confirm it: the queue offers only to withdraw it.
    anna.goto(f"{editing_server.url}/editor/")
    own = anna.locator("li.held-change").first
    assert own.get_by_role("button", name="Bestätigen").count() == 0 and own.get_by_role("button", name="Zurückziehen").is_visible()
    confirm_in_queue(bert, editing_server)
    reader.goto(f"{editing_server.url}/de/{GAME}/faq/{FAQ}")
    assert words in reader.locator(".answer").inner_text()
    reader_context.close()


def test_second_editor_gets_the_merge_and_saves_it(editing_server, session_of):
    url = f"{editing_server.url}/editor/entries/{GAME}/faq/{FAQ}"
    anna, bert = session_of(editing_server, "anna"), session_of(editing_server, "bert")
    anna.goto(url)
    bert.goto(url)
    anna.fill('textarea[name="answer_de"]', NEW_DE)
    assert submit(anna, "save").status == 200  # after the redirect
    assert anna.locator(".flash").inner_text().startswith("Für eine zweite Redaktion zurückgehalten")
    # Bert confirms it in another tab; the form he opened before is now stale.
    queue = bert.context.new_page()
    confirm_in_queue(queue, editing_server)
    queue.close()
    english = bert.locator('textarea[name="answer_en"]').input_value().rstrip() + ZANZIBAR_EN
    bert.fill('textarea[name="answer_en"]', english)
    stale = submit(bert, "save")
    assert stale.status == 409
    assert bert.locator("#merge-title").is_visible()
    assert "Zanzibarword" in bert.locator("#merge-answer_en ins").first.inner_text()
    # The form holds the other editor's German and this editor's English.
    assert "Quetzalwort" in bert.locator('textarea[name="answer_de"]').input_value()
    assert submit(bert, "save").status == 200
    assert bert.locator(".flash").inner_text().startswith("Für eine zweite Redaktion zurückgehalten")
    confirm_in_queue(anna, editing_server)
    entry = stored_faq_data(editing_server.content, GAME, FAQ)
    assert "Quetzalwort" in entry["de"]["answer"] and entry["en"]["answer"].rstrip().endswith(ZANZIBAR_EN.strip())


def test_revert_with_the_button(editing_server, session_of):
    url = f"{editing_server.url}/editor/entries/{GAME}/section/goal"
    original = read_section(editing_server.content, GAME, "goal")
    anna, bert = session_of(editing_server, "anna"), session_of(editing_server, "bert")
    anna.goto(url)
    body = anna.locator('textarea[name="body_en"]')
    body.fill(body.input_value() + "\n\nZanzibarword.")
    assert submit(anna, "save").status == 200
    assert anna.locator(".flash").inner_text().startswith("Für eine zweite Redaktion zurückgehalten")
    confirm_in_queue(bert, editing_server)  # a section's new statement waits for a second editor
    assert "Zanzibarword." in read_section(editing_server.content, GAME, "goal")["en"]["body"]
    anna.goto(url)
    with anna.expect_navigation(timeout=90_000):
        anna.get_by_role("button", name="Zurücknehmen").click(timeout=90_000)
    assert anna.locator(".flash").inner_text().startswith("Änderung zurückgenommen")
    assert read_section(editing_server.content, GAME, "goal") == original
    # The history now lists the revert, and it is the one that could be reverted in turn.
    assert anna.get_by_text("Nimmt die Änderung vom").count() == 1
    assert anna.get_by_role("button", name="Zurücknehmen").count() == 1


def test_switching_the_interface_to_italian(editing_server, session_of):
    anna = session_of(editing_server, "anna")
    assert anna.locator("html").get_attribute("lang") == "de"
    assert anna.get_by_role("heading", level=1).inner_text() == "Meldungen"
    with anna.expect_navigation():
        anna.get_by_role("button", name="Italiano").click()
    assert anna.locator("html").get_attribute("lang") == "it"
    assert anna.get_by_role("heading", level=1).inner_text() == "Segnalazioni"
    anna.goto(f"{editing_server.url}/editor/entries")
    assert anna.get_by_role("heading", level=1).inner_text() == "Voci"
    assert anna.get_by_role("link", name="Modifiche").is_visible()


def test_the_lists_of_changes_are_cards_on_a_phone(editing_server, session_of):
    # The history on an entry's page and the list of all changes: each change a card, the revert
    # button in reach, nothing to scroll sideways at 360 px.
    anna = session_of(editing_server, "anna")
    url = f"{editing_server.url}/editor/entries/{GAME}/section/characters"
    anna.goto(url)
    body = anna.locator('textarea[name="body_de"]')
    text = body.input_value()
    old, new = ("Wählt eine von 2", "Wählt eine von zwei") if "Wählt eine von 2" in text else ("Wählt eine von zwei", "Wählt eine von 2")
    body.fill(text.replace(old, new))
    assert submit(anna, "save").status == 200  # a number written another way goes live at once
    anna.set_viewport_size({"width": 360, "height": 740})
    for page in (url, f"{editing_server.url}/editor/changes"):
        anna.goto(page)
        rows = anna.locator("table.changes tbody tr")
        assert rows.count() >= 1, page
        cells = rows.first.locator("td")
        assert cells.nth(1).bounding_box()["y"] > cells.nth(0).bounding_box()["y"], page  # a card, not a row
        assert anna.evaluate("document.documentElement.scrollWidth") <= 360, page
        assert rows.first.get_by_role("button", name="Zurücknehmen").bounding_box()["x"] + 20 <= 360, page
