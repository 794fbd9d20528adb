"""Building test apps: each on its own instance folder (database, index, secret) and content,
and the throw-away databases the storage tests run on."""
from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import tempfile
import threading
import uuid
from contextlib import contextmanager
from pathlib import Path

from app import ROOT, create_app
from rules_index.content import load_library
from rules_index.content.repo import content_version
from rules_index.content.snapshot import content_fingerprint
from rules_index.corrections import db, migrate
from rules_index.search import build
from rules_index.search.build import MARKER, current_generation


@functools.lru_cache(maxsize=None)
def real_library():
    """The real content, loaded once per test process for the modules that only read it."""
    return load_library(ROOT / "content")


def answer_with_aside(game: str, faq: str, lang: str, words: str, library=None) -> str:
    """The entry's answer with ``words`` added as an editorial aside: new words a test can find,
    in a text that stays valid (every statement of a checked answer bound or an aside)."""
    answer = (library or real_library()).game(game).faq_entry(faq).text(lang).answer
    return f"{answer.rstrip()}\n\n[{words}]{{.editorial}}"


SECOND_EDITOR, SECOND_PASSWORD = "bert", "another-long-editor-password"


def second_token(app) -> str:
    """An API token of a second editor (made on first use), who may confirm held changes."""
    from rules_index.corrections.db import session
    from rules_index.corrections.editors import add_editor
    from rules_index.corrections.models import Editor
    from rules_index.corrections.tokens import issue_token

    if "SECOND_TOKEN" not in app.config:
        with app.app_context():
            if session().query(Editor).filter_by(name=SECOND_EDITOR).first() is None:
                add_editor(session(), SECOND_EDITOR, SECOND_PASSWORD)
            app.config["SECOND_TOKEN"] = issue_token(session(), SECOND_EDITOR)
    return app.config["SECOND_TOKEN"]


def read_first(client, body: dict) -> dict:
    """``body`` of a change with the ``base_version`` an editor reads before writing (the entry's
    version as served now), unless it names one or names no entry the API shows."""
    if not isinstance(body, dict) or "base_version" in body:
        return body
    kind, game, target = body.get("kind"), body.get("game"), body.get("id")
    if kind not in ("faq", "section") or not isinstance(game, str) or not isinstance(target, str):
        return body
    shown = client.get(f"/api/v1/games/{game}/{'faq' if kind == 'faq' else 'sections'}/{target}")
    return {**body, "base_version": shown.get_json()["version"]} if shown.status_code == 200 else body


def submit_and_confirm(app, body: dict):
    """POST a change with the first editor's token; a held one is confirmed by a second editor.
    Returns the answer that wrote it (or the refusal)."""
    client = app.test_client()
    first = client.post("/api/v1/changes", json=read_first(client, body), headers={"Authorization": f"Bearer {app.config['TEST_TOKEN']}"})
    if first.status_code != 202 or first.get_json().get("outcome") != "held":
        return first
    held = first.get_json()["held"]
    return client.post(f"/api/v1/changes/{held}/confirm", headers={"Authorization": f"Bearer {second_token(app)}"})


def process_folder(prefix: str) -> Path:
    """A new temporary folder, removed when the test process ends."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, folder, True)
    return folder


_template_lock = threading.Lock()
_template: dict[str, object] = {}


def real_content_index() -> tuple[Path, str]:
    """A folder holding an index of the real content, built once per test process, and the
    content's fingerprint. Apps on a copy of the real content start from a copy of it instead of
    building their own (a build is seconds; the corrections tests make dozens of apps)."""
    with _template_lock:
        if not _template:
            folder = process_folder("rules-index-template-")
            build(load_library(ROOT / "content"), folder / "index", ROOT / "content")
            _template.update(folder=folder, fingerprint=content_fingerprint(ROOT / "content"))
        return _template["folder"], _template["fingerprint"]


def seed_index(instance: Path, content: Path) -> bool:
    """Copy the template index into ``instance`` if ``content`` holds the real content's bytes
    and the instance has no index yet. The copy is what a build would make: its marker names the
    same fingerprint, so the app takes it as fresh."""
    if (instance / "index").exists() or (instance / "index").is_symlink():
        return False
    folder, fingerprint = real_content_index()
    if content_fingerprint(content) != fingerprint:
        return False
    shutil.copytree(folder, instance, symlinks=True, dirs_exist_ok=True)
    # A build names the version of the folder it read (its repository's commit, or the
    # fingerprint when its edits are not committed), not the checkout's the template was built in.
    target, info = current_generation(instance / "index")
    (target / MARKER).write_text(json.dumps({**info, "version": content_version(content, fingerprint)}))
    return True


@functools.lru_cache(maxsize=None)
def compiled_templates() -> str:
    """One folder of compiled templates for every app of a test process."""
    return str(process_folder("rules-templates-"))


def make_unmigrated_app(instance: Path, content: Path, **config):
    """Like ``make_app``, but the database is left as it is (a start before ``make db``).
    An app on the real content (or a copy) and its own index starts from the template index."""
    if "INDEX_DIR" not in config:
        instance.mkdir(parents=True, exist_ok=True)
        seed_index(instance, content)
    return create_app({
        "TESTING": True,
        "INSTANCE_PATH": str(instance),
        "CONTENT_DIR": str(content),
        "INDEX_DIR": str(instance / "index"),
        "SECRET_KEY": "test-secret",
        "SUBMISSION_RATE_LIMIT": "100000 per minute",
        "LOGIN_RATE_LIMIT": "100000 per minute",
        "LOGIN_ADDRESS_RATE_LIMIT": "100000 per minute",
        "LOGIN_ACCOUNT_RATE_LIMIT": "100000 per minute",
        "LOGIN_GLOBAL_RATE_LIMIT": "100000 per minute",
        # A test reads a published change on its next request; served apps answer from the
        # previous content while the next loads (tests/search/test_switching.py tests that).
        "SWITCH_WAIT_MS": None,
        # For the same reason no thread follows the index link between requests (web/following.py;
        # tests/web/test_idle_worker.py tests it under gunicorn).
        "FOLLOW_LINK_S": 0,
        "TEMPLATE_CACHE_DIR": compiled_templates(),
        **config,
    })


@functools.lru_cache(maxsize=None)
def migrated_sqlite() -> Path:
    """A SQLite database migrated to head, made once per test process (migrating is a tenth of a
    second, and most tests make an app)."""
    folder = process_folder("rules-db-template-")
    application = make_unmigrated_app(folder / "instance", ROOT / "content", INDEX_DIR=str(folder / "index"))
    with application.app_context():
        migrate.upgrade(db.engine())
        db.engine().dispose()
    return folder / "instance" / "corrections.sqlite3"


def make_app(instance: Path, content: Path, **config):
    """An app on its own instance folder (database, index, secret) and content folder. Its
    SQLite database starts as a copy of one migrated to head."""
    database = instance / "corrections.sqlite3"
    if not (config.get("DATABASE_URL") or os.environ.get("DATABASE_URL") or database.exists()):
        instance.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(migrated_sqlite(), database)
        return make_unmigrated_app(instance, content, **config)
    application = make_unmigrated_app(instance, content, **config)
    with application.app_context():
        migrate.upgrade(db.engine())
    return application


def change_answer(content: Path, slug: str, faq_id: str, words: str) -> None:
    """``words`` added to the entry's English answer as an editorial aside, written as an accept
    writes it (nothing published)."""
    import datetime as dt

    from rules_index.content.snapshot import read_content
    from rules_index.content.writer import materialize, plan_faq_change

    entry = read_content(content)[0].game(slug).faq_entry(faq_id)
    updates = {"en": {"answer": f"{entry.en.answer.rstrip()}\n\n[{words}.]{{.editorial}}"}}
    materialize(plan_faq_change(content, slug, faq_id, updates, dt.date(2026, 12, 1)), content)


def make_editor_site(folder: Path, **config):
    """An app on its own copy of the real content (``app.content_dir``), which may be changed,
    with the editor of ``formtools_shared`` and an API token for it (``TEST_TOKEN``)."""
    from formtools_shared import EDITOR, PASSWORD
    from rules_index.corrections.db import session
    from rules_index.corrections.editors import add_editor
    from rules_index.corrections.tokens import issue_token

    content = folder / "content"
    shutil.copytree(ROOT / "content", content)
    app = make_app(folder / "instance", content, **config)
    with app.app_context():
        add_editor(session(), EDITOR, PASSWORD)
        app.config["TEST_TOKEN"] = issue_token(session(), EDITOR)
    app.content_dir = content
    return app


# The storage tests run on SQLite, and on PostgreSQL too when CI (or a developer) started one.
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


@contextmanager
def empty_postgres_database(admin_url: str, prefix: str):
    """A new, empty database on the server of ``admin_url``, dropped afterwards; yields its URL."""
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def scratch_database(backend: str, folder: Path, prefix: str):
    """A database URL of ``backend`` (one of BACKENDS): a SQLite file in ``folder``, or an empty
    PostgreSQL database on the server of TEST_DATABASE_URL."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'corrections.sqlite3'}"
        return
    with empty_postgres_database(os.environ["TEST_DATABASE_URL"], prefix) as url:
        yield url


