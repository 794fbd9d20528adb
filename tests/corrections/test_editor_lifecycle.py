"""An editor's account can be disabled and given a new password, and no credential outlives its
editor: a disabled editor's token and cookie are refused, and after editors are deleted and new
ones added, no old token or cookie works as anyone."""
from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import delete, func, select

from apptools import BACKENDS, make_editor_site, read_first, scratch_database
from rules_index.corrections.db import session
from rules_index.corrections.editors import EditorError, add_editor
from rules_index.corrections.models import Editor, EditorSession, EditorToken
from rules_index.corrections.tokens import issue_token

from formtools_shared import EDITOR, PASSWORD, login

GAME, FAQ = "ohne-furcht-und-adel", "warlord-destroy-cost"
ANSWER = "Der Söldner zahlt den vollen Preis des Bauwerks. Ein Bauwerk mit Wert 1 kostet ihn 1 Gold."


def api_status(app, token: str) -> int:
    """The status of a dry run made with ``token``: 401 when the token is refused, 422 when it
    passed and the gate refused the text (this proposal restates a common mistake)."""
    body = {"game": GAME, "kind": "faq", "id": FAQ, "text": {"de": {"answer": ANSWER}}, "dry_run": True}
    client = app.test_client()
    return client.post("/api/v1/changes", json=read_first(client, body), headers={"Authorization": f"Bearer {token}"}).status_code


def logged_in(client) -> bool:
    return client.get("/editor/").status_code == 200


def cli(app, *args, input=None):
    return app.test_cli_runner().invoke(args=list(args), input=input)


def test_a_disabled_editor_is_refused_everywhere(site):
    client = site.test_client()
    login(client)
    token = site.config["TEST_TOKEN"]
    assert logged_in(client) and api_status(site, token) == 422

    result = cli(site, "editors", "disable", EDITOR)
    assert result.exit_code == 0, result.output
    assert "1 session(s) and 1 token(s) ended" in result.output

    assert not logged_in(client)
    assert api_status(site, token) == 401
    refused = login(site.test_client())  # the right password no longer logs in, and says why
    assert refused.status_code == 403 and "Redaktionskonto ist gesperrt" in refused.get_data(as_text=True)
    wrong = login(site.test_client(), password="not-the-password")  # a guess learns nothing more
    assert wrong.status_code == 401 and "gesperrt" not in wrong.get_data(as_text=True)
    with site.app_context():
        assert cli(site, "editors", "token", EDITOR).exit_code != 0  # no new token for a disabled editor

    assert cli(site, "editors", "enable", EDITOR).exit_code == 0
    fresh = site.test_client()
    assert login(fresh).status_code == 302 and logged_in(fresh)
    assert not logged_in(client) and api_status(site, token) == 401  # what was ended stays ended


def test_the_lookups_refuse_a_disabled_editor_whose_credentials_were_not_ended(site):
    """Disabling by hand (only the column set): the token and cookie are refused all the same."""
    client = site.test_client()
    login(client)
    with site.app_context():
        editor = session().scalar(select(Editor).where(Editor.name == EDITOR))
        editor.disabled_at = func.now()
        session().commit()
    assert not logged_in(client)
    assert api_status(site, site.config["TEST_TOKEN"]) == 401


def test_a_new_password_replaces_the_old_one_and_ends_sessions(site):
    client = site.test_client()
    login(client)
    new = "another-long-password"
    result = cli(site, "editors", "password", EDITOR, "--password-stdin", input=new + "\n")
    assert result.exit_code == 0, result.output
    assert not logged_in(client)
    assert login(site.test_client()).status_code == 401
    assert login(site.test_client(), password=new).status_code == 302
    assert api_status(site, site.config["TEST_TOKEN"]) == 422  # a token is not made from the password


def test_the_new_password_is_asked_twice_and_checked(site):
    mismatch = cli(site, "editors", "password", EDITOR, input="first-long-password\nsecond-long-password\n"
                   "first-long-password\nfirst-long-password\n")
    assert mismatch.exit_code == 0 and "do not match" in mismatch.output  # click asks again
    assert login(site.test_client(), password="first-long-password").status_code == 302
    typed_short = cli(site, "editors", "password", EDITOR, input="short\nsecond-long-password\nsecond-long-password\n")
    # The minimum is in the prompt, and a short password is refused before it is typed a second time.
    assert typed_short.exit_code == 0 and "at least 10 characters" in typed_short.output.splitlines()[0]
    assert typed_short.output.count("Password (at least") == 2 and typed_short.output.count("Repeat") == 1
    assert login(site.test_client(), password="second-long-password").status_code == 302
    short = cli(site, "editors", "password", EDITOR, "--password-stdin", input="short\n")
    assert short.exit_code != 0 and "at least" in short.output
    assert cli(site, "editors", "password", "nobody", "--password-stdin", input="a-long-password\n").exit_code != 0


def _delete_editors_by_hand(app) -> None:
    """What an operator with the sqlite3 shell does: foreign keys are off there."""
    path = app.instance_path + "/corrections.sqlite3"
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("DELETE FROM editors")
    connection.close()


def _delete_editors_in_the_app(app) -> None:
    with app.app_context():
        session().execute(delete(Editor))
        session().commit()


def _old_credentials_fail_after_delete_and_re_add(app, delete_editors) -> None:
    client = app.test_client()
    login(client)
    old_token = app.config["TEST_TOKEN"]
    with app.app_context():
        old_ids = set(session().scalars(select(Editor.id)))
    delete_editors(app)
    with app.app_context():
        add_editor(session(), "bert", "bert-long-password")
        add_editor(session(), "carla", "carla-long-password")
        new_ids = set(session().scalars(select(Editor.id)))
        issue_token(session(), "bert")
    assert not old_ids & new_ids
    assert not logged_in(client)
    assert api_status(app, old_token) == 401


@pytest.mark.parametrize("backend", BACKENDS)
def test_deleting_an_editor_deletes_its_credentials_and_its_id_is_not_reused(tmp_path, backend):
    with scratch_database(backend, tmp_path, "lifecycle") as url:
        app = make_editor_site(tmp_path, DATABASE_URL=url)
        _old_credentials_fail_after_delete_and_re_add(app, _delete_editors_in_the_app)
        with app.app_context():
            # Only the token issued to bert after the delete is left.
            assert session().scalar(select(func.count()).select_from(EditorSession)) == 0
            assert session().scalar(select(func.count()).select_from(EditorToken)) == 1
            session().close()
        from rules_index.corrections import db

        with app.app_context():
            db.engine().dispose()


def test_an_editor_deleted_by_hand_leaves_no_credential_for_the_next(site):
    _old_credentials_fail_after_delete_and_re_add(site, _delete_editors_by_hand)


def test_login_names_differ_by_more_than_case(site):
    with site.app_context():
        with pytest.raises(EditorError, match="exists already"):
            add_editor(session(), EDITOR.upper(), "another-long-password")
    assert cli(site, "editors", "add", EDITOR.capitalize(), "--password-stdin", input="another-long-password\n").exit_code != 0
    client = site.test_client()  # the one editor, however the name is typed
    assert login(client, name=f" {EDITOR.upper()} ").status_code == 302 and logged_in(client)
    assert cli(site, "editors", "logout-all", EDITOR.capitalize()).exit_code == 0
    assert not logged_in(client)
    with site.app_context():
        assert session().scalar(select(func.count()).select_from(Editor)) == len(
            {name.casefold() for name in session().scalars(select(Editor.name))})


def test_a_display_name_can_be_taken_away(site):
    assert cli(site, "editors", "display-name", EDITOR, "Anna R.").exit_code == 0
    cleared = cli(site, "editors", "display-name", EDITOR, "--clear")
    assert cleared.exit_code == 0 and "Editorial team" in cleared.output
    with site.app_context():
        assert session().scalar(select(Editor).where(Editor.name == EDITOR)).display_name is None
    assert cli(site, "editors", "display-name", EDITOR).exit_code != 0  # neither a name nor --clear
    assert cli(site, "editors", "display-name", EDITOR, "X Y", "--clear").exit_code != 0
