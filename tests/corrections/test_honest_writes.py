"""Once a change is stored, the answer says so: a publication that fails gives 202 with
``published: false`` (and is retried until the site shows the change), also when the disk fills
while the index is written, a failure after the commit never becomes a 500, and the editor's form
says the change is stored."""
from __future__ import annotations

import errno
import importlib
import os
import threading
import time

from sqlalchemy import func, select

from apptools import answer_with_aside, submit_and_confirm
from rules_index.content.versions import stored_faq_data
from rules_index.corrections import changes as changes_module
from rules_index.corrections import journal
from rules_index.corrections.db import session
from rules_index.corrections.models import Change
from rules_index.web import committed
from rules_index.web.state import served
from rules_index.web.state import library

from formtools_shared import csrf_token, form_values, login

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
FAQ_FIELDS = ["question_de", "answer_de", "question_en", "answer_en", "question_it", "answer_it", "citation", "ruling", "check",
              "base_version", "base_entry"]
WORD = "Quetzalword"


def change_count(app) -> int:
    with app.app_context():
        return session().scalar(select(func.count()).select_from(Change))


def new_answer(app) -> str:
    return answer_with_aside(GAME, FAQ, "en", f"{WORD}.", library=_library(app))


def _library(app):
    with app.app_context():
        return library()


def post_change(app, answer: str):
    """The change, confirmed by a second editor (new words are held until then)."""
    body = {"game": GAME, "kind": "faq", "id": FAQ, "text": {"en": {"answer": answer}}, "dry_run": False}
    return submit_and_confirm(app, body)


def searchable(app) -> bool:
    body = app.test_client().get("/api/v1/search", query_string={"q": WORD, "lang": "en"}).get_json()
    return any(hit["id"] == FAQ for hit in body["hits"])


def test_a_published_change_is_201_and_published(site):
    response = post_change(site, new_answer(site))
    assert response.status_code == 201 and response.get_json()["published"] is True
    assert searchable(site)


def test_a_failed_publication_is_202_the_change_stored_and_published_later(site, monkeypatch):
    real = committed.publish
    calls = []

    def failing_once(changed=None):
        calls.append(changed)
        if len(calls) == 1:
            raise OSError(28, "No space left on device")
        return real(changed=changed)

    monkeypatch.setattr(committed, "publish", failing_once)
    monkeypatch.setattr(committed, "RETRY_FIRST_S", 0.2)
    response = post_change(site, new_answer(site))
    assert response.status_code == 202, response.get_json()
    body = response.get_json()
    assert body["accepted"] is True and body["published"] is False and isinstance(body["change"], int)
    assert WORD in stored_faq_data(site.content_dir, GAME, FAQ)["en"]["answer"] and change_count(site) == 1
    assert not searchable(site)
    deadline = time.monotonic() + 60
    while not searchable(site) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(calls) == 2 and searchable(site)  # the retry published it


def test_a_full_disk_while_the_index_is_written_is_202_and_published_once_there_is_room(site, monkeypatch):
    """The disk fills while the change's index generation is written (ENOSPC on its last file):
    the change is stored and the answer says so, the half-written generation goes, the site keeps
    the index it had, and the retry publishes the change once the disk has room again."""
    build_module = importlib.import_module("rules_index.search.build")
    real_marker = build_module.write_marker
    full = threading.Event()
    full.set()
    attempts = []

    def write_marker(target, *args, **kwargs):
        attempts.append(full.is_set())
        if full.is_set():
            raise OSError(errno.ENOSPC, "No space left on device", str(target / build_module.MARKER))
        return real_marker(target, *args, **kwargs)

    monkeypatch.setattr(build_module, "write_marker", write_marker)
    monkeypatch.setattr(committed, "RETRY_FIRST_S", 0.2)
    with site.app_context():
        link = served().index.link
    serving = os.path.realpath(link)
    generations = set(os.listdir(os.path.dirname(serving)))

    response = post_change(site, new_answer(site))
    assert response.status_code == 202, response.get_json()
    body = response.get_json()
    assert body["accepted"] is True and body["published"] is False and isinstance(body["change"], int)
    assert WORD in stored_faq_data(site.content_dir, GAME, FAQ)["en"]["answer"]
    with site.app_context():
        recorded = session().get(Change, body["change"])
        assert WORD in journal.change_data(changes_module.content_repo(site.content_dir), recorded)[1]["en"]["answer"]
    assert os.path.realpath(link) == serving and set(os.listdir(os.path.dirname(serving))) == generations
    assert not searchable(site)

    deadline = time.monotonic() + 30
    while len(attempts) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert attempts[:2] == [True, True]  # the first retry found the disk still full
    full.clear()  # room again
    deadline = time.monotonic() + 60
    while not searchable(site) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert searchable(site) and os.path.realpath(link) != serving
    page = site.test_client().get(f"/en/{GAME}/faq/{FAQ}").get_data(as_text=True)
    assert WORD in page


def test_a_failure_after_the_commit_is_no_500(site, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(changes_module, "faq_version", broken)
    answer = new_answer(site)
    response = post_change(site, answer)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["change"] is not None and change_count(site) == 1
    retry = post_change(site, answer)  # what a client that saw a 500 would have done
    assert retry.status_code == 422 and change_count(site) == 1


def test_the_edit_form_says_a_stored_change_is_not_shown_yet(site, monkeypatch):
    def failing(changed=None):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(committed, "publish", failing)
    monkeypatch.setattr(committed, "RETRY_FIRST_S", 3600)  # no retry during the test
    client = site.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert login(client).status_code == 302
    url = f"/editor/entries/{GAME}/faq/{FAQ}"
    page = client.get(url).get_data(as_text=True)
    values = form_values(page, FAQ_FIELDS)
    values["answer_en"] = values["answer_en"].rstrip() + " (p. 2)"  # a page reference: it goes live at once
    response = client.post(url, data={"csrf_token": csrf_token(page), "action": "save", **values})
    assert response.status_code == 302
    shown = client.get(url).get_data(as_text=True)
    assert "The change is stored, but the site does not show it yet" in shown
    assert change_count(site) == 1


def test_a_full_disk_while_the_files_are_written_after_the_commit_is_202_and_shown_once_there_is_room(site, monkeypatch):
    """The disk fills after the change's commit, while its content files are written: the change
    is recorded (the commit is the change) and the answer is 202 with published false, never a
    500; once the disk has room, the retry writes the files and publishes."""
    from rules_index.content import writer
    from rules_index.corrections import journal

    full = threading.Event()
    full.set()

    def materialize(plans, root):
        if full.is_set():
            raise OSError(errno.ENOSPC, "No space left on device")
        return writer.materialize(plans, root)

    monkeypatch.setattr(changes_module, "materialize", materialize)
    monkeypatch.setattr(journal, "materialize", materialize)
    monkeypatch.setattr(committed, "RETRY_FIRST_S", 0.2)
    response = post_change(site, new_answer(site))
    assert response.status_code == 202, response.get_json()
    body = response.get_json()
    assert body["accepted"] is True and body["published"] is False and isinstance(body["change"], int)
    assert WORD not in stored_faq_data(site.content_dir, GAME, FAQ)["en"]["answer"]  # the files wait
    with site.app_context():
        recorded = session().get(Change, body["change"])
        assert WORD in journal.change_data(changes_module.content_repo(site.content_dir), recorded)[1]["en"]["answer"]
    full.clear()  # room again
    deadline = time.monotonic() + 60
    while not searchable(site) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert searchable(site) and WORD in stored_faq_data(site.content_dir, GAME, FAQ)["en"]["answer"]
    assert WORD in site.test_client().get(f"/en/{GAME}/faq/{FAQ}").get_data(as_text=True)
    assert change_count(site) == 1


def test_an_edit_by_hand_not_committed_is_never_swept_into_an_editors_commit(site):
    """A question edited by hand in the work tree and not committed went into the next accept's
    commit, under the editor's name and without the gate's hold. The accept is refused (409, saying
    which file), nothing is written, and the hand edit stays as it was."""
    assert post_change(site, new_answer(site)).status_code == 201  # the content's repository exists now
    repo = changes_module.content_repo(site.content_dir)
    head = repo.head()
    path = site.content_dir / GAME / "faq.yaml"
    by_hand = path.read_text(encoding="utf-8").replace("question: Who can't the Thief steal from?",
                                                        "question: Who can't the Thief steal from? (HAND EDIT)")
    path.write_text(by_hand, encoding="utf-8")
    response = post_change(site, new_answer(site).replace(WORD, "Zanzibarword"))
    assert response.status_code == 409 and f"{GAME}/faq.yaml" in response.get_json()["error"], response.get_json()
    assert repo.head() == head and change_count(site) == 1
    assert path.read_text(encoding="utf-8") == by_hand
