"""The publisher: the process beside the served workers that builds each accepted change's
index generation (gunicorn's dirty app), and the worker's side: asking it, following what it
built, and publishing itself whenever it gets no answer."""
from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
from gunicorn.dirty import DirtyConnectionError, close_dirty_client

from apptools import change_answer, make_editor_site
from rules_index.search import SearchIndex
from rules_index.web import publisher as publisher_module
from rules_index.web import publishing
from app import Publisher
from rules_index.web.publisher import changed_entries, published_elsewhere
from rules_index.web.state import content_state

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
WORD = "quorblax"


@pytest.fixture(autouse=True)
def no_dirty_client():
    """gunicorn keeps a client per thread: none is carried from one test to the next."""
    close_dirty_client()
    yield
    close_dirty_client()


@pytest.fixture()
def site(tmp_path, monkeypatch):
    """An editors' site on a copy of the content with its index built, and the environment a
    publisher of the same server would be started with."""
    monkeypatch.delenv("GUNICORN_DIRTY_SOCKET", raising=False)
    app = make_editor_site(tmp_path)
    with app.app_context():
        publishing.publish()
    for key, value in {"INSTANCE_PATH": app.instance_path, "CONTENT_DIR": str(app.content_dir),
                       "INDEX_DIR": app.config["INDEX_DIR"], "SECRET_KEY": "publisher-test",
                       "DATABASE_URL": app.config.get("DATABASE_URL") or ""}.items():
        if value:
            monkeypatch.setenv(f"RULES_{key}", value)
    return app


def accept(app, word: str = WORD):
    with app.app_context():
        answer = content_state().library.game(GAME).faq_entry(FAQ).en.answer.rstrip()
    body = {"game": GAME, "kind": "faq", "id": FAQ, "text": {"en": {"answer": f"{answer} {word}"}}}
    return app.test_client().post("/api/v1/changes", json=body, headers={"Authorization": f"Bearer {app.config['TEST_TOKEN']}"})


def hits(app, word: str = WORD) -> list[str]:
    with app.app_context():
        return [h.entry for h in SearchIndex(Path(app.config["INDEX_DIR"])).search(word, "en").hits]


class InProcessClient:
    """gunicorn's dirty client, with the dirty app in this process instead of behind a socket."""

    def __init__(self, app: Publisher):
        self.app, self.calls = app, []

    def execute(self, app_path, action, *args):
        assert app_path == publisher_module.APP_PATH
        self.calls.append((action, *args))
        return self.app(action, *args)


def test_changed_entries_are_checked():
    assert changed_entries([["g", "faq", "e"], ("g", "section", "s")]) == [("g", "faq", "e"), ("g", "section", "s")]
    for bad in ([], None, "g/faq/e", [["g", "faq"]], [["g", "faq", ""]], [["g", "game", "e"]], [["g", "faq", 3]]):
        with pytest.raises(ValueError):
            changed_entries(bad)


def test_the_publisher_builds_the_generation_of_a_change(site):
    publisher = Publisher()
    publisher.init()
    before = os.path.realpath(site.config["INDEX_DIR"])
    change_answer(site.content_dir, GAME, FAQ, WORD)
    answer = publisher("publish", [[GAME, "faq", FAQ]])
    after = os.path.realpath(site.config["INDEX_DIR"])
    assert after != before and answer == {"generation": os.path.basename(after)}
    assert hits(site) == [FAQ]
    with pytest.raises(ValueError):
        publisher("publish", [[GAME, "rules", FAQ]])


def test_an_accepting_worker_follows_what_the_publisher_built(site, monkeypatch):
    """The worker does not build: it asks, then answers from the generation the publisher made."""
    client = InProcessClient(Publisher())
    client.app.init()
    monkeypatch.setattr(publisher_module, "get_dirty_client", lambda timeout: client)

    def no_build(*args, **kwargs):
        raise AssertionError("the worker built the index itself")

    monkeypatch.setattr(publishing, "build", no_build)
    assert accept(site).status_code == 201
    assert client.calls == [("publish", [[GAME, "faq", FAQ]])]
    with site.app_context():
        state = content_state()
        assert WORD in state.library.game(GAME).faq_entry(FAQ).en.answer
        assert state.generation == os.path.realpath(site.config["INDEX_DIR"])  # marked published
        from rules_index.web.search_state import search_index
        assert [h.entry for h in search_index().search(WORD, "en").hits] == [FAQ]
        assert set(search_index().generation()._spellings) == {"de", "en", "it"}  # followed warm


# gunicorn's client drops the socket of a failed connection without closing it (ResourceWarning).
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_worker_publishes_itself_when_the_publisher_does_not_answer(site, monkeypatch, tmp_path, caplog):
    monkeypatch.setenv("GUNICORN_DIRTY_SOCKET", str(tmp_path / "nobody-listens.sock"))
    with caplog.at_level(logging.WARNING, logger=publisher_module.__name__):
        assert accept(site).status_code == 201
    assert "did not publish" in caplog.text and "publishing in this process" in caplog.text
    assert hits(site) == [FAQ]


def test_a_worker_publishes_itself_when_the_publisher_fails(site, monkeypatch, caplog):
    class Failing:
        def execute(self, *args):
            raise DirtyConnectionError("the publisher went away")

    monkeypatch.setattr(publisher_module, "get_dirty_client", lambda timeout: Failing())
    with caplog.at_level(logging.WARNING, logger=publisher_module.__name__):
        assert accept(site).status_code == 201
    assert "went away" in caplog.text
    assert hits(site) == [FAQ]


def test_without_a_publisher_nothing_is_asked(monkeypatch, caplog):
    monkeypatch.delenv("GUNICORN_DIRTY_SOCKET", raising=False)
    with caplog.at_level(logging.DEBUG, logger=publisher_module.__name__):
        assert published_elsewhere([(GAME, "faq", FAQ)]) is False
    assert caplog.text == ""
