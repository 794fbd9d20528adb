"""Following the content remote (``web/following.py``): a host publishes the branch's head,
whoever moved the branch there."""
from __future__ import annotations

import pytest

from apptools import answer_with_aside, make_app
from bench.two_hosts import remote_and_clones
from rules_index.corrections.changes import content_repo
from rules_index.corrections.db import session
from rules_index.corrections.editors import add_editor
from rules_index.corrections.tokens import issue_token
from rules_index.web.following import follow_remote
from rules_index.web.state import served

GAME = "ohne-furcht-und-adel"


@pytest.fixture()
def two_hosts(tmp_path):
    """Two apps on clones of one remote, sharing a database; nothing follows on its own."""
    remote, clones = remote_and_clones(tmp_path, 2)
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    apps = [make_app(tmp_path / f"instance{n}", clone / "content", DATABASE_URL=url,
                     CONTENT_REMOTE=str(remote), CONTENT_FOLLOW_S=0) for n, clone in enumerate(clones)]
    with apps[0].app_context():
        tokens = {name: (add_editor(session(), name, f"{name}-long-editor-password"), issue_token(session(), name))[1]
                  for name in ("anna", "bert")}
    return apps, tokens


def post(app, path: str, token: str, body: dict | None = None):
    return app.test_client().post(path, json=body, headers={"Authorization": f"Bearer {token}"})


def answer(app, faq: str) -> dict:
    return app.test_client().get(f"/api/v1/games/{GAME}/faq/{faq}?lang=de").get_json()


def change(faq: str, words: str, base: str) -> dict:
    return {"game": GAME, "kind": "faq", "id": faq, "base_version": base,
            "text": {"de": {"answer": answer_with_aside(GAME, faq, "de", words)}}}


def test_a_host_publishes_the_remote_head_that_a_held_change_followed(two_hosts):
    """A change submitted on host B follows the remote before its gate runs and is then held
    (nothing published): the next tick still brings B's index to the commit its branch is at."""
    (a, b), tokens = two_hosts
    old = answer(b, "tie-break")["version"]
    held = post(a, "/api/v1/changes", tokens["anna"], change("tie-break", "Folgewort.", answer(a, "tie-break")["version"]))
    assert held.status_code == 202, held.get_json()
    confirmed = post(a, f"/api/v1/changes/{held.get_json()['held']}/confirm", tokens["bert"])
    assert confirmed.status_code == 201, confirmed.get_json()
    # On B, a change of another entry, held: its accept moved B's branch and files to A's commit.
    other = post(b, "/api/v1/changes", tokens["bert"],
                 change("thief-forbidden-targets", "Haltewort.", answer(b, "thief-forbidden-targets")["version"]))
    assert other.status_code == 202 and other.get_json()["outcome"] == "held", other.get_json()
    with b.app_context():
        head = content_repo(served().content_dir).head()
    assert answer(b, "tie-break")["version"] == old and "Folgewort" not in answer(b, "tie-break")["answer_html"]
    with b.app_context():
        assert follow_remote(b)
    after = answer(b, "tie-break")
    assert "Folgewort" in after["answer_html"]
    with b.app_context():
        assert served().current().version == head
        assert not follow_remote(b)  # published: the next tick has nothing to do



def accept(app, tokens: dict, body: dict):
    """Submit on ``app`` as anna; a held change is confirmed by bert."""
    first = post(app, "/api/v1/changes", tokens["anna"], body)
    if first.status_code == 202 and first.get_json().get("outcome") == "held":
        return post(app, f"/api/v1/changes/{first.get_json()['held']}/confirm", tokens["bert"])
    return first



def test_commits_that_bring_back_the_published_content_are_followed_and_published_once(two_hosts):
    """Host B has published an accept of host A; A then accepts two more changes of the answer,
    the second taking it back to the text B published, on the same day (so "Stand" is the same
    too). B follows both at once and holds the bytes it published already: it tries once and is
    idle after (the generation stays), instead of publishing again at every tick."""
    (a, b), tokens = two_hosts

    def accept_words(words: str):
        done = accept(a, tokens, change("tie-break", words, answer(a, "tie-break")["version"]))
        assert done.status_code == 201, done.get_json()

    accept_words("Erstwort.")
    with b.app_context():
        assert follow_remote(b)
        published = served().current()
    accept_words("Zweitwort.")
    accept_words("Erstwort.")
    with b.app_context():
        assert follow_remote(b)  # followed both commits: the content is the one published
        assert [follow_remote(b) for _ in range(3)] == [False, False, False]
        assert served().current().path == published.path
    assert "Erstwort" in answer(b, "tie-break")["answer_html"]


def test_a_follow_that_keeps_failing_is_logged_once_and_its_end_once(caplog):
    """An unreachable content remote logged five lines every second."""
    import threading
    import time as real_time

    from flask import Flask

    from rules_index.content.repo import GitError
    from rules_index.web.following import Every

    outcomes = iter([GitError("remote unreachable")] * 5 + [None] * 2 + [GitError("remote unreachable")] + [None])
    done = threading.Event()

    def tick():
        failure = next(outcomes, "stop")
        if failure == "stop":
            done.set()
            threading.Event().wait()  # the thread waits here, idle, for the rest of the run
        if failure is not None:
            raise failure

    caplog.set_level("INFO", logger="rules_index.web.following")
    Every(Flask(__name__), 0.001, tick, "content-follow").start_once()
    assert done.wait(5)
    real_time.sleep(0.05)
    said = [r.getMessage() for r in caplog.records if r.name == "rules_index.web.following"]
    assert sum("content-follow failed" in m for m in said) == 2, said  # the first failure, and the next after it ended
    assert sum("works again" in m for m in said) == 2, said


def _push_by_hand(tmp_path, remote, path: str, old: str, new: str) -> None:
    """A commit made in git and pushed past the gate (no hook): ``old`` replaced in ``path``."""
    import subprocess

    work = tmp_path / "by-hand"
    subprocess.run(["git", "clone", "--quiet", str(remote), str(work)], check=True)
    file = work / path
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    identity = ["-c", "user.name=Hand", "-c", "user.email=hand@noreply.invalid"]
    subprocess.run(["git", *identity, "commit", "--quiet", "-am", "by hand"], cwd=work, check=True)
    subprocess.run(["git", "push", "--quiet"], cwd=work, check=True)


def test_a_commit_that_fails_its_checks_is_not_published_and_health_says_why(two_hosts, tmp_path):
    """A commit pushed past the gate that breaks a checked statement: the host keeps serving what
    it served, says "stale" with the problem on /api/v1/health (a monitor learns it; readers are
    served, so 200), logs it once rather than "works again" a second later, and is "ok" again
    once a commit mends it."""
    (a, _b), _tokens = two_hosts
    remote = a.config["CONTENT_REMOTE"]
    client = a.test_client()
    served_before = client.get("/api/v1/health").get_json()["content"]
    _push_by_hand(tmp_path, remote, f"content/{GAME}/faq.yaml", "zahlt er [3 Gold]{fact=pays-three}", "zahlt er [2 Gold]{fact=pays-three}")
    with a.app_context():
        with pytest.raises(Exception, match="cannot be published .*faq.yaml"):
            follow_remote(a)
        with pytest.raises(Exception, match="cannot be published") as again:  # the same words at every tick
            follow_remote(a)
    health = client.get("/api/v1/health")
    assert health.status_code == 200
    body = health.get_json()
    assert body["status"] == "stale" and body["content"] == served_before
    assert body["unpublished"]["problems"] >= 1 and "faq.yaml" in body["unpublished"]["first"][0]
    assert "3 Gold" in client.get(f"/api/v1/games/{GAME}/faq/warlord-destroy-cost?lang=de").get_json()["answer_html"]
    assert str(again.value).startswith("the content at ")
    _push_by_hand(tmp_path / "mend", remote, f"content/{GAME}/faq.yaml", "zahlt er [2 Gold]{fact=pays-three}", "zahlt er [3 Gold]{fact=pays-three}")
    with a.app_context():
        assert follow_remote(a)
    assert client.get("/api/v1/health").get_json()["status"] == "ok"


def test_the_log_tells_what_was_held_accepted_and_followed(two_hosts, caplog):
    """An operator rebuilds the timeline from the log: each held change, each accept with its
    commit, and each host publishing a commit it followed."""
    (a, b), tokens = two_hosts
    caplog.set_level("INFO", logger="rules_index")
    done = accept(a, tokens, change("tie-break", "Protokollwort.", answer(a, "tie-break")["version"]))
    assert done.status_code == 201, done.get_json()
    with a.app_context():
        commit = content_repo(served().content_dir).head()
    with b.app_context():
        assert follow_remote(b)
    said = [r.getMessage() for r in caplog.records]
    assert any(m.startswith("held faq ohne-furcht-und-adel/tie-break for a second editor") for m in said), said
    assert any(m.startswith("accepted change ") and f"as commit {commit[:12]}" in m for m in said), said
    assert any(m.startswith(f"published {commit[:12]}, followed from the remote") for m in said), said
