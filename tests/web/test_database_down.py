"""Reading never depends on writing: with the corrections database down or not migrated, every
reader page and API read answers as usual (without the database's extras), and what needs the
database (reports, their status, the history, the editors' area) answers 503 with Retry-After.

"Down" is tried four ways: an empty SQLite file, a PostgreSQL URL on a closed port, an empty
PostgreSQL database, and a PostgreSQL server of the test's own that is stopped while the app
runs. The PostgreSQL ones need TEST_DATABASE_URL (a server, as CI starts one).
"""
from __future__ import annotations

import json
import logging
import os
import re
import shutil
import socket
import subprocess
import uuid
from itertools import product
from pathlib import Path

import pytest
from flask import session as cookie
from flask_wtf.csrf import generate_csrf
from markupsafe import escape
from sqlalchemy import text

from app import ROOT
from apptools import empty_postgres_database, make_app, make_unmigrated_app, real_library
from rules_index.content import LANGS
from rules_index.corrections import db, migrate
from rules_index.corrections.availability import NOT_MIGRATED
from rules_index.corrections.editors import add_editor
from rules_index.corrections.extras import NO_EXTRAS, entry_extras
from rules_index.corrections.models import Change, TranslationFlag
from rules_index.engines import calculators_for
from rules_index.web import calculator_forms
from rules_index.web.page_cache import KEY as PAGE_CACHE
from rules_index.web.state import served

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
PAGE = f"/en/{GAME}/faq/{FAQ}"
POSTGRES = os.environ.get("TEST_DATABASE_URL")
needs_postgres = pytest.mark.skipif(not POSTGRES, reason="TEST_DATABASE_URL names no PostgreSQL server")
SCRIPT = ROOT / "scripts" / "postgres-test-server.sh"
AVAILABILITY_LOG = "rules_index.corrections.availability"

# What needs the database: whole blueprints, and the history page.
NEEDS_DATABASE = {"corrections", "editor", "changes_api"}
NEEDS_DATABASE_ENDPOINTS = {"pages.faq_history", "pages.section_history"}
# Reader routes whose usual answer is not a 200.
USUAL_STATUS = {"pages.root": 302}
QUERY = {"api.search": "?q=Dieb", "pages.search": "?q=Dieb",
         "previews.oembed": "?url=http://localhost/de/ohne-furcht-und-adel/faq/thief-forbidden-targets"}
CALCULATOR_PAYLOADS = {
    "ohne-furcht-und-adel/score": {"players": [{"name": "A", "districts": [{"color": "red", "cost": 3}]}]},
    "kardinal-und-koenig/monastery-score": {"monasteries": {"green": 2, "red": 1}},
    "adel-verpflichtet/exhibition": {"cards": "AAA"},
}
UNAVAILABLE_HEADING = {"de": "Vorübergehend nicht verfügbar", "en": "Temporarily unavailable", "it": "Temporaneamente non disponibile"}
LIBRARY = real_library()


# --- the routes, with real values from the content ---------------------------------------

def _choices(game, every_entry: bool) -> dict[str, list]:
    return {
        "lang": list(LANGS),
        "slug": [game.slug],
        "faq_id": [f.id for f in game.faq] if every_entry else [game.faq[0].id],
        "section_id": [s.id for s in game.sections] if every_entry else [game.sections[0].id],
        "name": [n for n in calculators_for(game.slug) if f"{game.slug}/{n}" in calculator_forms.FORMS],
        "calculator": list(calculators_for(game.slug)),
        "kind": ["faq"],
        "target": [game.faq[0].id],
        "token": ["no-such-token"],
        "report_id": [1], "flag_id": [1], "change_id": [1], "held_id": [1],
        "filename": ["site.css"],
    }


def _in_turn(arguments: dict, game) -> bool:
    """FAQ pages: each entry in one language, the languages in turn, and the first entry in all
    three (every page in every language would triple the walk and test nothing more)."""
    if "lang" not in arguments or "faq_id" not in arguments:
        return True
    position = [f.id for f in game.faq].index(arguments["faq_id"])
    return position == 0 or position % len(LANGS) == LANGS.index(arguments["lang"])


def requests_for(app):
    """(endpoint, method, path, arguments) for every route, filled with every language, game
    and calculator of the content; every FAQ entry for the FAQ pages (the pages that asked the
    database), the first entry and section of each game elsewhere."""
    adapter = app.url_map.bind("localhost")
    for rule in app.url_map.iter_rules():
        seen = set()
        for game in LIBRARY:
            choices = _choices(game, every_entry=rule.endpoint == "pages.faq")
            unknown = set(rule.arguments) - set(choices)
            assert not unknown, f"{rule.rule}: give the test real values for {sorted(unknown)}"
            names = sorted(rule.arguments)
            for values in product(*(choices[n] for n in names)):
                arguments = dict(zip(names, values))
                if not _in_turn(arguments, game):
                    continue
                path = adapter.build(rule.endpoint, arguments) + QUERY.get(rule.endpoint, "")
                for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                    if (method, path) not in seen:
                        seen.add((method, path))
                        yield rule.endpoint, method, path, arguments


def needs_database(endpoint: str) -> bool:
    return endpoint.split(".")[0] in NEEDS_DATABASE or endpoint in NEEDS_DATABASE_ENDPOINTS


def csrf_token(app, client) -> str:
    """A valid CSRF token in the client's session: a reader who opened a form before the outage."""
    with app.test_request_context():
        token = generate_csrf()
        raw = cookie[app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")]
    with client.session_transaction() as session:
        session[app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")] = raw
    return token


def send(client, endpoint: str, method: str, path: str, arguments: dict, token: str):
    if method == "GET":
        return client.get(path)
    if endpoint == "api.calculate":
        payload = CALCULATOR_PAYLOADS.get(f"{arguments['slug']}/{arguments['calculator']}", {})
        return client.post(path, json=payload)
    if path.startswith("/api/"):
        return client.post(path, json={"game": GAME, "faq": FAQ, "lang": "de", "message": "Bitte prüfen"})
    return client.post(path, data={"csrf_token": token, "message": "Bitte prüfen", "name": "anna", "password": "x"})


def assert_unavailable(response, path: str) -> None:
    assert response.status_code == 503, (path, response.status_code)
    assert int(response.headers["Retry-After"]) >= 1
    if path.startswith("/api/"):
        assert response.get_json()["error"].startswith("corrections: ")
        return
    first = path.strip("/").split("/", 1)[0]
    lang = first if first in LANGS else "de"
    assert f"<h1>{UNAVAILABLE_HEADING[lang]}</h1>" in response.get_data(as_text=True), path


def assert_without_extras(html: str) -> None:
    assert 'class="translation-review"' not in html
    assert "/history\"" not in html


# --- the ways of being down -------------------------------------------------------------

@pytest.fixture(scope="module")
def index_dir(tmp_path_factory) -> Path:
    """One search index for every app of this module (the content is the real one, read only)."""
    app = make_app(tmp_path_factory.mktemp("index-builder"), ROOT / "content")
    with app.app_context():
        served().current()  # builds it
        return served().index.link


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens once the socket is closed


class OwnPostgres:
    """A throw-away PostgreSQL server (scripts/postgres-test-server.sh) the test stops and starts."""

    def __init__(self):
        self.dir = Path(f"/tmp/rules-down-pg-{uuid.uuid4().hex[:8]}")
        self.port: str | None = None
        self.url = self.start()

    def _script(self, command: str) -> str:
        env = {**os.environ, "PGTEST_DIR": str(self.dir)}
        if self.port:
            env["PGTEST_PORT"] = self.port  # the app's URL keeps working after a restart
        done = subprocess.run([str(SCRIPT), command], env=env, capture_output=True, text=True, check=True, timeout=120)
        return done.stdout

    def start(self) -> str:
        url = re.search(r"TEST_DATABASE_URL=(\S+)", self._script("start")).group(1)
        self.port = url.rsplit(":", 1)[1].split("/")[0]
        return url

    def stop(self) -> None:
        self._script("stop")

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def own_postgres():
    if not POSTGRES:
        pytest.skip("TEST_DATABASE_URL names no PostgreSQL server")
    server = OwnPostgres()
    yield server
    server.remove()


# A stopped server means starting and stopping one of our own: left to make test-all.
BACKENDS = ["sqlite-unmigrated", "closed-port", "postgres-unmigrated",
            pytest.param("postgres-stopped", marks=pytest.mark.slow)]


@pytest.fixture(params=BACKENDS)
def down_app(request, tmp_path, index_dir):
    """An app whose corrections database cannot be used, in each of the four ways."""
    instance = tmp_path / "instance"
    config = {"INDEX_DIR": str(index_dir)}
    if request.param == "sqlite-unmigrated":
        instance.mkdir()
        (instance / "corrections.sqlite3").touch()
        yield make_unmigrated_app(instance, ROOT / "content", **config)
    elif request.param == "closed-port":
        url = f"postgresql://postgres@127.0.0.1:{closed_port()}/rules"
        yield make_unmigrated_app(instance, ROOT / "content", DATABASE_URL=url, **config)
    elif not POSTGRES:
        pytest.skip("TEST_DATABASE_URL names no PostgreSQL server")
    elif request.param == "postgres-unmigrated":
        with empty_postgres_database(POSTGRES, "rules_down") as url:
            app = make_unmigrated_app(instance, ROOT / "content", DATABASE_URL=url, **config)
            yield app
            app.extensions[db.KEY]["engine"].dispose()
    else:
        server = request.getfixturevalue("own_postgres")
        app = make_app(instance, ROOT / "content", DATABASE_URL=server.url, **config)
        client = app.test_client()
        # Running with the server up: pooled connections, a cached page, a stored report ...
        assert client.get(PAGE).status_code == 200
        assert client.post("/api/v1/corrections", json={"game": GAME, "faq": FAQ, "lang": "de", "message": "x"}).status_code == 201
        server.stop()  # ... then the server goes away under the running app.
        try:
            yield app
        finally:
            server.start()
            app.extensions[db.KEY]["engine"].dispose()


def test_every_reader_route_answers_and_what_needs_the_database_is_503(down_app):
    client = down_app.test_client()
    token = csrf_token(down_app, client)
    walked: dict[str, int] = {}
    for endpoint, method, path, arguments in requests_for(down_app):
        response = send(client, endpoint, method, path, arguments, token)
        walked[endpoint] = walked.get(endpoint, 0) + 1
        if needs_database(endpoint):
            assert_unavailable(response, path)
        else:
            expected = USUAL_STATUS.get(endpoint, 200)
            if endpoint == "api.calculate" and f"{arguments['slug']}/{arguments['calculator']}" not in CALCULATOR_PAYLOADS:
                expected = 400  # no sample input here: the engine's answer to an empty one
            assert response.status_code == expected, (method, path, response.status_code)
        if endpoint == "pages.faq":
            html = response.get_data(as_text=True)
            question = LIBRARY.game(arguments["slug"]).faq_entry(arguments["faq_id"]).text(arguments["lang"]).question
            assert f"<h1>{escape(question)}</h1>" in html
            assert_without_extras(html)
        response.close()
    assert set(walked) == {rule.endpoint for rule in down_app.url_map.iter_rules()}
    assert walked["pages.faq"] == sum(len(game.faq) + 2 for game in LIBRARY)  # the first in all three


def test_a_start_without_migrations_says_so_once(tmp_path, index_dir, caplog):
    caplog.set_level(logging.INFO, logger=AVAILABILITY_LOG)
    app = make_unmigrated_app(tmp_path / "instance", ROOT / "content", INDEX_DIR=str(index_dir), CORRECTIONS_RETRY_SECONDS=0)
    client = app.test_client()
    for _ in range(3):
        assert client.get("/de/").status_code == 200
        assert client.get(PAGE).status_code == 200
        assert client.post("/api/v1/corrections", json={"game": GAME, "faq": FAQ, "lang": "de", "message": "x"}).status_code == 503
    lines = [r.getMessage() for r in caplog.records if r.name == AVAILABILITY_LOG]
    assert lines == [NOT_MIGRATED]
    assert NOT_MIGRATED == "database not migrated: run make db"


def test_a_migrated_start_logs_nothing(tmp_path, index_dir, caplog):
    app = make_app(tmp_path / "instance", ROOT / "content", INDEX_DIR=str(index_dir))
    client = app.test_client()
    assert client.get(PAGE).status_code == 200
    assert not [r for r in caplog.records if r.name == AVAILABILITY_LOG]


def _record_change(app, lang_flagged: str) -> None:
    """One accepted change of the entry, with the given language flagged "under review"."""
    with app.app_context():
        session = db.session()
        editor = add_editor(session, "anna", "a-long-editor-password")
        change = Change(game=GAME, target_kind="faq", target_id=FAQ, editor_id=editor.id,
                        before=json.dumps({"en": {"answer": "old"}}), after=json.dumps({"en": {"answer": "new"}}), patch="")
        session.add(change)
        session.flush()
        session.add(TranslationFlag(game=GAME, target_id=FAQ, lang=lang_flagged, change_id=change.id))
        session.commit()


def test_pages_show_the_extras_again_once_the_database_is_migrated(tmp_path, index_dir):
    app = make_unmigrated_app(tmp_path / "instance", ROOT / "content", INDEX_DIR=str(index_dir), CORRECTIONS_RETRY_SECONDS=0)
    client = app.test_client()
    assert_without_extras(client.get(PAGE).get_data(as_text=True))
    assert len(app.extensions[PAGE_CACHE]) == 0  # a page without its extras is not kept
    assert_unavailable(client.get(f"/en/{GAME}/faq/{FAQ}/correction"), "/en/")

    with app.app_context():
        migrate.upgrade(db.engine())
    _record_change(app, "en")
    html = client.get(PAGE).get_data(as_text=True)
    assert 'class="translation-review"' in html
    assert f'href="/en/{GAME}/faq/{FAQ}/history">1 change</a>' in html
    assert 'class="translation-review"' not in client.get(f"/de/{GAME}/faq/{FAQ}").get_data(as_text=True)
    assert client.get(f"/en/{GAME}/faq/{FAQ}/history").status_code == 200
    assert client.post("/api/v1/corrections", json={"game": GAME, "faq": FAQ, "lang": "de", "message": "x"}).status_code == 201


DROPPED_BACKENDS = ["sqlite"] + (["postgresql"] if POSTGRES else [])


@pytest.fixture(params=DROPPED_BACKENDS)
def migrated_app(request, tmp_path, index_dir):
    if request.param == "sqlite":
        yield make_app(tmp_path / "instance", ROOT / "content", INDEX_DIR=str(index_dir))
        return
    with empty_postgres_database(POSTGRES, "rules_down") as url:
        app = make_app(tmp_path / "instance", ROOT / "content", INDEX_DIR=str(index_dir), DATABASE_URL=url)
        yield app
        app.extensions[db.KEY]["engine"].dispose()


def _drop_flags_table(app) -> None:
    with app.app_context(), db.engine().begin() as connection:
        connection.execute(text(f"DROP TABLE {TranslationFlag.__tablename__}"))


def test_a_failing_query_leaves_the_session_usable(migrated_app):
    _drop_flags_table(migrated_app)
    with migrated_app.test_request_context(PAGE):
        assert entry_extras(GAME, "faq", FAQ, "en") == NO_EXTRAS
        # PostgreSQL refuses every further statement of a failed transaction until a rollback.
        assert db.session().execute(text("SELECT 1")).scalar() == 1


def test_a_failing_query_costs_the_page_only_its_extras(migrated_app, caplog):
    _record_change(migrated_app, "en")
    client = migrated_app.test_client()
    assert 'class="translation-review"' in client.get(PAGE).get_data(as_text=True)
    _drop_flags_table(migrated_app)
    for _ in range(3):
        response = client.get(f"/it/{GAME}/faq/{FAQ}")
        assert response.status_code == 200
        assert_without_extras(response.get_data(as_text=True))
    warnings = [r for r in caplog.records if r.name == AVAILABILITY_LOG and r.levelno == logging.WARNING]
    assert len(warnings) == 1 and TranslationFlag.__tablename__ in warnings[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info]  # no traceback


@pytest.mark.slow  # starts and stops its own PostgreSQL server
@needs_postgres
def test_a_stopped_server_and_its_return(own_postgres, tmp_path, index_dir):
    app = make_app(tmp_path / "instance", ROOT / "content", INDEX_DIR=str(index_dir),
                   DATABASE_URL=own_postgres.url, CORRECTIONS_RETRY_SECONDS=0)
    with app.app_context():
        db.session().execute(text(f"DELETE FROM {TranslationFlag.__tablename__}"))
        db.session().execute(text(f"DELETE FROM {Change.__tablename__}"))
        db.session().execute(text("DELETE FROM editors"))
        db.session().commit()
    _record_change(app, "en")
    client = app.test_client()
    report = {"game": GAME, "faq": FAQ, "lang": "de", "message": "Bitte prüfen"}
    assert 'class="translation-review"' in client.get(PAGE).get_data(as_text=True)

    own_postgres.stop()
    try:
        for _ in range(2):
            response = client.get(PAGE)
            assert response.status_code == 200
            assert_without_extras(response.get_data(as_text=True))
            assert_unavailable(client.post("/api/v1/corrections", json=report), "/api/")
            assert_unavailable(client.get(f"/de/{GAME}/faq/{FAQ}/history"), "/de/")
            assert_unavailable(client.get("/editor/login"), "/editor/")
    finally:
        own_postgres.start()

    html = client.get(PAGE).get_data(as_text=True)
    assert 'class="translation-review"' in html and "1 change</a>" in html
    assert client.post("/api/v1/corrections", json=report).status_code == 201
    app.extensions[db.KEY]["engine"].dispose()
