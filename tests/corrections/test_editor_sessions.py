"""Editors' sessions end on the server: a copied cookie dies with logout or with its lifetime;
the public history names editors by the display name they chose, never by their login name."""
from __future__ import annotations

import datetime as dt
import json

from http.cookies import SimpleCookie

from rules_index.corrections.db import session
from rules_index.corrections.editors import EditorError, add_editor, set_display_name
from rules_index.corrections.models import Change, Editor, EditorSession
from rules_index.corrections.sessions import editor_for_session, open_session, revoke_session

from formtools_shared import EDITOR, csrf_token, login


def session_cookie(response) -> str:
    for header in response.headers.getlist("Set-Cookie"):
        cookie = SimpleCookie(header)
        if "session" in cookie:
            return cookie["session"].value
    raise AssertionError("no session cookie set")


def test_a_saved_cookie_stops_working_after_logout(site):
    client = site.test_client()
    saved = session_cookie(login(client))
    assert client.get("/editor/").status_code == 200
    page = client.get("/editor/").get_data(as_text=True)
    client.post("/editor/logout", data={"csrf_token": csrf_token(page)})

    replay = site.test_client()
    replay.set_cookie("session", saved)
    response = replay.get("/editor/")
    assert response.status_code == 302 and "/editor/login" in response.headers["Location"]


def test_logout_ends_only_that_session(site):
    first, second = site.test_client(), site.test_client()
    login(first)
    login(second)
    page = first.get("/editor/").get_data(as_text=True)
    first.post("/editor/logout", data={"csrf_token": csrf_token(page)})
    assert first.get("/editor/").status_code == 302
    assert second.get("/editor/").status_code == 200


def test_the_database_holds_only_a_hash_of_the_session_id(site):
    with site.app_context():
        editor = session().query(Editor).filter_by(name=EDITOR).one()
        session_id = open_session(session(), editor)
        stored = [row.token_hash for row in session().query(EditorSession)]
        assert session_id not in stored and len(stored) == 1
        assert editor_for_session(session(), session_id).id == editor.id
        assert revoke_session(session(), session_id) is True
        assert editor_for_session(session(), session_id) is None
        assert revoke_session(session(), session_id) is False


def test_a_session_ends_after_its_lifetime(site):
    with site.app_context():
        editor = session().query(Editor).filter_by(name=EDITOR).one()
        session_id = open_session(session(), editor)
        row = session().query(EditorSession).one()
        row.created_at -= dt.timedelta(hours=13)
        session().commit()
        assert editor_for_session(session(), session_id) is None
        assert editor_for_session(session(), session_id, dt.timedelta(hours=14)).id == editor.id


def test_odd_session_values_are_no_session(site):
    with site.app_context():
        for value in (None, "", 17, ["x"], "x" * 5000, "not-a-session"):
            assert editor_for_session(session(), value) is None
            assert revoke_session(session(), value) is False


def add_change(app, editor_name: str) -> None:
    with app.app_context():
        editor = session().query(Editor).filter_by(name=editor_name).one()
        entry = {"de": {"question": "Frage?", "answer": "Alt."}, "en": {"question": "Q?", "answer": "Old."},
                 "it": {"question": "D?", "answer": "Vecchio."}}
        after = json.loads(json.dumps(entry))
        after["de"]["answer"] = "Neu."
        session().add(Change(game="ohne-furcht-und-adel", target_kind="faq", target_id="tie-break", editor_id=editor.id,
                             before=json.dumps(entry), after=json.dumps(after), patch=""))
        session().commit()


def test_public_history_shows_the_display_name_never_the_login(site):
    with site.app_context():
        add_editor(session(), "bert.login", "a-long-editor-password", display_name="Bert M.")
    add_change(site, "bert.login")
    add_change(site, EDITOR)  # no display name: the history says "the editorial team"
    html = site.test_client().get("/en/ohne-furcht-und-adel/faq/tie-break/history").get_data(as_text=True)
    assert "Bert M." in html and "Editorial team" in html
    assert "bert.login" not in html and f"· {EDITOR}" not in html


def test_display_names_are_checked(site):
    with site.app_context():
        for bad in ("", "   ", "x" * 81, "nul\x00here", "bidi\u202eeman", "anna", "ANNA"):
            try:
                set_display_name(session(), EDITOR, bad)
            except EditorError:
                continue
            raise AssertionError(f"display name {bad!r} accepted")
        assert set_display_name(session(), EDITOR, "  Anna   R. ").display_name == "Anna R."


def test_cli_sets_display_names_and_ends_sessions(site):
    runner = site.test_cli_runner()
    result = runner.invoke(args=["editors", "add", "carla", "--password-stdin", "--display-name", "Carla V."],
                           input="a-long-editor-password\n")
    assert result.exit_code == 0, result.output
    client = site.test_client()
    login(client, name="carla")
    assert client.get("/editor/").status_code == 200
    result = runner.invoke(args=["editors", "logout-all", "carla"])
    assert result.exit_code == 0 and "1 session(s)" in result.output
    assert client.get("/editor/").status_code == 302
    result = runner.invoke(args=["editors", "display-name", "carla", "Carla Verdi"])
    assert result.exit_code == 0
    with site.app_context():
        assert session().query(Editor).filter_by(name="carla").one().display_name == "Carla Verdi"
    assert runner.invoke(args=["editors", "display-name", "nobody", "X"]).exit_code != 0


def test_passwords_are_hashed_at_the_production_cost_unless_told_otherwise():
    """The suite hashes cheaply (tests/conftest.py); a served app without the setting must not."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "RULES_PASSWORD_HASH_PROFILE"}
    code = ("from rules_index.corrections.editors import _hasher as h; "
            "print(h.memory_cost, h.time_cost, h.parallelism)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["65536", "3", "4"]


def test_cli_lists_the_editors_with_what_the_public_sees_and_who_is_disabled(site):
    """An operator could add, disable and rename editors but not see who exists."""
    runner = site.test_cli_runner()
    assert runner.invoke(args=["editors", "add", "dora", "--password-stdin", "--display-name", "Dora M."],
                         input="a-long-editor-password\n").exit_code == 0
    assert runner.invoke(args=["editors", "add", "emil", "--password-stdin"], input="a-long-editor-password\n").exit_code == 0
    assert runner.invoke(args=["editors", "disable", "emil"]).exit_code == 0
    result = runner.invoke(args=["editors", "list"])
    assert result.exit_code == 0, result.output
    lines = {line.split("\t")[0]: line.split("\t") for line in result.output.splitlines()}
    assert lines["dora"][1] == "Dora M." and lines["dora"][3] == "active"
    assert lines["emil"][1] == "(Editorial team)" and lines["emil"][3].startswith("disabled ")
