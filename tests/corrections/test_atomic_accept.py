"""An accept killed at any point is settled at the next start: commit, files, history, report and
index agree, and nothing is recorded twice.

Each crash test runs one accept of a report in a separate process that is killed (SIGKILL) at a
named fault point of apply_change (RULES_FAULT_POINT), then "restarts": a new app on the same
content repository, database and index answers its first request, which runs the start-up
recovery. Runs on SQLite always and on PostgreSQL when TEST_DATABASE_URL names a server.

The other tests: only pending reports can be decided, a write that fails after the commit is
finished by the next accept, a hand-edited file is not overwritten, and reverts are stored.
"""
from __future__ import annotations

import datetime as dt
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import func, select

from app import ROOT
from apptools import BACKENDS, make_app, scratch_database
from rules_index.content import load_library
from rules_index.content.repo import ContentRepo
from rules_index.corrections import changes, journal
from rules_index.corrections.db import session
from rules_index.corrections.editors import add_editor
from rules_index.corrections.models import Change, Editor, Report, TranslationFlag
from rules_index.search.build import build, built_fingerprint, content_fingerprint

from formtools_shared import EDITOR, PASSWORD
from servertools import control_socket

pytestmark = pytest.mark.slow  # make test-all: kills accepts at each step and restarts gunicorn

from apptools import answer_with_aside  # noqa: E402

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
WORD = "Quetzalwort"
NEW_DE = answer_with_aside(GAME, FAQ, "de", f"{WORD}.")
UPDATES = {"de": {"answer": NEW_DE}}
TODAY = dt.date(2031, 2, 3)  # the accept's ``stand``: differs from the content's, so game.yaml is written too

# The accept in a process of its own, as a worker runs it: apply_change, then publish. New words
# wait for a second editor; these tests write as that editor's confirmation does (hold=False).
DRIVER = """
import datetime as dt, sys
from pathlib import Path
from sqlalchemy import select
from app import create_app
from rules_index.corrections import changes, journal
from rules_index.corrections.db import session
from rules_index.corrections.models import Editor, Report
from rules_index.web.publishing import publish

instance, content, url, report_id, game, faq, answer, today, remote = sys.argv[1:]
app = create_app({"TESTING": True, "INSTANCE_PATH": instance, "CONTENT_DIR": content, "CONTENT_REMOTE": remote or None,
                  "INDEX_DIR": instance + "/index", "SECRET_KEY": "crash-test", "DATABASE_URL": url, "FOLLOW_LINK_S": 0})
with app.app_context():
    db = session()
    changes.apply_change(
        db, Path(content), Path(instance) / "content.lock", db.scalar(select(Editor)), game, "faq", faq,
        {"de": {"answer": answer}}, report=db.get(Report, int(report_id)), today=dt.date.fromisoformat(today),
        hold=False,
    )
    publish()
print("accepted")
"""


@dataclass
class World:
    app: object
    content: Path
    instance: Path
    url: str
    report_id: int
    original: dict  # file name -> text before the accept


@pytest.fixture(scope="module")
def built_index(tmp_path_factory):
    """The content and an index built from it, copied by each test (a build takes seconds)."""
    folder = tmp_path_factory.mktemp("template")
    shutil.copytree(ROOT / "content", folder / "content")
    ContentRepo(folder / "content").ensure()  # a repository of its own, copied with the content
    build(load_library(folder / "content"), folder / "instance" / "index", folder / "content")
    return folder


@pytest.fixture(params=BACKENDS)
def world(request, tmp_path, built_index):
    content, instance = tmp_path / "content", tmp_path / "instance"
    shutil.copytree(built_index / "content", content)
    shutil.copytree(built_index / "instance", instance, symlinks=True)
    with scratch_database(request.param, tmp_path, "rules_intent") as url:
        app = make_app(instance, content, DATABASE_URL=url)
        with app.app_context():
            db = session()
            add_editor(db, EDITOR, PASSWORD)
            report = Report(token="crash-test-token", game=GAME, target_kind="faq", target_id=FAQ, lang="de",
                            message="Formulierung unklar", proposed_answer=NEW_DE)
            db.add(report)
            db.commit()
            report_id = report.id
        original = {name: (content / GAME / name).read_text(encoding="utf-8") for name in ("faq.yaml", "game.yaml")}
        yield World(app, content, instance, url, report_id, original)
        _dispose(app)


def _dispose(app) -> None:
    from rules_index.corrections import db

    app.extensions[db.KEY]["engine"].dispose()  # PostgreSQL: the scratch database can be dropped


def crash_accept(world: World, fault: str | None, remote: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ}
    env.pop(changes.FAULT_ENV, None)
    if fault:
        env[changes.FAULT_ENV] = fault
    return subprocess.run(
        [sys.executable, "-c", DRIVER, str(world.instance), str(world.content), world.url, str(world.report_id),
         GAME, FAQ, NEW_DE, TODAY.isoformat(), remote],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )


def restart(world: World, remote: str | None = None):
    """A new process's app on the same content, database and index, after its first request."""
    app = make_app(world.instance, world.content, DATABASE_URL=world.url, CONTENT_REMOTE=remote)
    assert app.test_client().get("/api/v1/games").status_code == 200
    return app


def files(world: World) -> dict:
    return {name: (world.content / GAME / name).read_text(encoding="utf-8") for name in ("faq.yaml", "game.yaml")}


def tmp_files(world: World) -> list[str]:
    return sorted(p.name for p in (world.content / GAME).glob(".*.tmp"))


def stored(app, report_id: int) -> dict:
    with app.app_context():
        db = session()
        db.expire_all()
        return {
            "report": db.get(Report, report_id).status,
            "changes": [(c.report_id, c.key, c.commit) for c in db.scalars(select(Change))],
            "flags": sorted(f.lang for f in db.scalars(select(TranslationFlag))),
            "history": len(changes.history(db, GAME, "faq", FAQ)),
        }


def commits(world: World) -> list:
    """The accept commits on the branch, newest first: (commit, key)."""
    return [(c.id, c.trailers["Change-Key"]) for c in ContentRepo(world.content).recent()]


def search_hits(app, word: str) -> list[str]:
    return [hit["id"] for hit in app.test_client().get(f"/api/v1/search?q={word}&lang=de").get_json()["hits"]]


def index_in_line(world: World) -> bool:
    return built_fingerprint(world.instance / "index") == content_fingerprint(world.content)


def accept_again(app, report_id: int):
    with app.app_context():
        db = session()
        return changes.apply_change(
            db, Path(app.config["CONTENT_DIR"]), Path(app.instance_path) / "content.lock",
            db.scalar(select(Editor)), GAME, "faq", FAQ, UPDATES, report=db.get(Report, report_id), today=TODAY, hold=False,
        )


# What the killed process left, seen before the restart: proof that it died where its point says.
LEFT_BEHIND = {
    "commit-made": {"faq.yaml": "before", "game.yaml": "before", "commit": False, "change": False},
    "committed": {"faq.yaml": "before", "game.yaml": "before", "commit": True, "change": False},
    "files-written": {"faq.yaml": "after", "game.yaml": "after", "commit": True, "change": False},
    "db-committed": {"faq.yaml": "after", "game.yaml": "after", "commit": True, "change": True},
    "before-publish": {"faq.yaml": "after", "game.yaml": "after", "commit": True, "change": True},
}


def _text_state(world: World, name: str, text: str) -> str:
    if text == world.original[name]:
        return "before"
    return "after" if (WORD in text if name == "faq.yaml" else f"stand: {TODAY.isoformat()}" in text) else "other"


def test_fault_points_are_the_ones_tested():
    assert set(LEFT_BEHIND) == set(changes.FAULT_POINTS)


@pytest.mark.parametrize("fault", changes.FAULT_POINTS)
def test_accept_killed_at_a_fault_point_is_settled_at_restart(world, fault):
    result = crash_accept(world, fault)
    assert result.returncode == -signal.SIGKILL, result.stderr[-2000:]
    assert "accepted" not in result.stdout
    left = files(world)
    state = stored(world.app, world.report_id)
    expected = LEFT_BEHIND[fault]
    assert {name: _text_state(world, name, text) for name, text in left.items()} == {n: expected[n] for n in left}
    assert bool(commits(world)) == expected["commit"]
    assert bool(state["changes"]) == expected["change"]
    assert index_in_line(world) == (not expected["commit"] or fault == "committed")  # files not changed yet
    # A write cut off inside writer.materialize leaves its temp file behind (as in the SIGKILL seen in production).
    (world.content / GAME / ".game.yaml.k1ll3d0x.tmp").write_text("stand: half", encoding="utf-8")

    app = restart(world)

    assert tmp_files(world) == []
    assert index_in_line(world)
    state = stored(app, world.report_id)
    if fault == "commit-made":
        # No branch moved: the accept did not happen, and the report can be accepted again.
        assert files(world) == world.original and commits(world) == []
        assert state == {"report": "pending", "changes": [], "flags": [], "history": 0}
        assert search_hits(app, WORD) == []
        accept_again(app, world.report_id)
        assert stored(app, world.report_id)["report"] == "accepted"
    else:
        # Rolled forward: the files, the change, its history and flags, the report and the index agree.
        now = files(world)
        assert WORD in now["faq.yaml"] and f"stand: {TODAY.isoformat()}" in now["game.yaml"]
        assert now["game.yaml"].replace(f"stand: {TODAY.isoformat()}", "") == world.original["game.yaml"].replace(_stand(world.original["game.yaml"]), "")
        [(commit, key)] = commits(world)
        assert state == {"report": "accepted", "changes": [(world.report_id, key, commit)], "flags": ["en", "it"], "history": 1}
        assert FAQ in search_hits(app, WORD)
        assert WORD in app.test_client().get(f"/de/{GAME}/faq/{FAQ}/history").get_data(as_text=True)
        patch = ContentRepo(world.content).git("show", "--format=", commit)
        assert f"+++ b/{GAME}/faq.yaml" in patch and f"+++ b/{GAME}/game.yaml" in patch and WORD in patch
    # Deciding the report again meets the status guard, not "the change does not alter the entry".
    with pytest.raises(changes.ReportDecided) as refused:
        accept_again(app, world.report_id)
    assert refused.value.status == "accepted"
    _dispose(app)


@pytest.mark.parametrize("fault", changes.REMOTE_FAULT_POINTS)
def test_accept_pushed_to_a_remote_killed_at_a_fault_point_is_settled_at_restart(world, tmp_path, fault):
    """With a content remote the push is the moment the change exists: killed before it (commit
    made, not pushed), nothing is left; killed after it, the restart follows the remote and records
    the change once."""
    remote = tmp_path / "remote.git"
    ContentRepo(world.content).git("clone", "--quiet", "--bare", str(world.content), str(remote))

    def pushed() -> list[str]:
        log = subprocess.run(["git", "log", "--format=%(trailers:key=Change-Key,valueonly,unfold)", "HEAD"],
                             cwd=remote, capture_output=True, text=True, check=True).stdout
        return [line for line in log.splitlines() if line.strip()]

    result = crash_accept(world, fault, str(remote))
    assert result.returncode == -signal.SIGKILL, result.stderr[-2000:]
    assert bool(pushed()) == (fault != "commit-made")
    app = restart(world, str(remote))
    state = stored(app, world.report_id)
    if fault == "commit-made":
        assert pushed() == [] and files(world) == world.original
        assert state["report"] == "pending" and state["changes"] == []
        accept_again(app, world.report_id)  # the report can be decided, and the push goes through
        assert len(pushed()) == 1
    else:
        assert state["report"] == "accepted" and [c[1] for c in state["changes"]] == pushed()
        assert WORD in files(world)["faq.yaml"] and index_in_line(world)
    with pytest.raises(changes.ReportDecided):
        accept_again(app, world.report_id)
    assert len(pushed()) == 1 and len(stored(app, world.report_id)["changes"]) == 1
    _dispose(app)


def _stand(game_yaml: str) -> str:
    return next(line for line in game_yaml.splitlines() if line.startswith("stand:"))


def test_an_accept_without_a_fault_finishes_everything_at_once(world):
    result = crash_accept(world, None)
    assert result.returncode == 0, result.stderr[-2000:]
    state = stored(world.app, world.report_id)
    [(commit, key)] = commits(world)
    assert state["report"] == "accepted" and state["changes"] == [(world.report_id, key, commit)]
    assert index_in_line(world) and tmp_files(world) == []
    # The commit: the editor is its author, the service its committer; the trailers name the change.
    repo = ContentRepo(world.content)
    who = repo.git("show", "-s", "--format=%an <%ae>|%cn <%ce>|%s", commit).strip()
    with world.app.app_context():
        editor_id = session().scalar(select(Editor.id).where(Editor.name == EDITOR))
    assert who == f"Editorial team <editor-{editor_id}@noreply.invalid>|Rules service <service@noreply.invalid>|FAQ {GAME}/{FAQ}"
    assert EDITOR not in repo.git("show", "-s", "--format=%an %ae %B", commit)  # the login name stays private
    trailers = ContentRepo(world.content).recent()[0].trailers
    assert trailers["Report"] == str(world.report_id) and trailers["Editor"] == str(editor_id)
    assert trailers["Change-Target"] == f"faq {GAME}/{FAQ}" and trailers["Translation-Review"] == "en it"
    assert repo.git("status", "--porcelain").strip() == ""  # the work tree and index are the commit


def test_fault_points_are_inert_without_the_variable(world, monkeypatch):
    monkeypatch.delenv(changes.FAULT_ENV, raising=False)
    for point in changes.REMOTE_FAULT_POINTS:
        changes._fault(point)  # would kill this test process if it were not inert
    monkeypatch.setenv(changes.FAULT_ENV, "no-such-point")
    outcome = accept_again(world.app, world.report_id)
    assert outcome.change.commit == commits(world)[0][0]


def test_only_pending_reports_are_decided(world):
    app = world.app
    accept_again(app, world.report_id)
    with app.app_context():
        db = session()
        report = db.get(Report, world.report_id)
        with pytest.raises(changes.ReportDecided) as refused:
            changes.reject(db, report, "zu spät")
        assert refused.value.status == "accepted"
        assert db.get(Report, world.report_id).status == "accepted"
        rejected = Report(token="second-report", game=GAME, target_kind="faq", target_id=FAQ, lang="de", message="x")
        db.add(rejected)
        db.commit()
        changes.reject(db, rejected, "Steht so im Regelheft.")
        rejected_id = rejected.id
    for decide in (lambda db, r: changes.reject(db, r, "noch einmal"),
                   lambda db, r: changes.apply_change(db, Path(app.config["CONTENT_DIR"]), Path(app.instance_path) / "content.lock",
                                                      db.scalar(select(Editor)), GAME, "faq", FAQ, {"de": {"answer": NEW_DE + " Noch."}}, report=r, hold=False)):
        with app.app_context():
            db = session()
            with pytest.raises(changes.ReportDecided) as refused:
                decide(db, db.get(Report, rejected_id))
            assert refused.value.status == "rejected"
            assert db.get(Report, rejected_id).reason == "Steht so im Regelheft."
    assert "Noch." not in files(world)["faq.yaml"]


def test_the_guard_reads_the_database_not_the_callers_object(world):
    """Two editors: the second one's report object still says "pending" when the first accepted."""
    app = world.app
    with app.app_context():
        db = session()
        stale = db.get(Report, world.report_id)
        db.expunge(stale)  # as loaded by another request before the first editor's accept
    accept_again(app, world.report_id)
    assert stale.status == "pending"
    with app.app_context():
        db = session()
        with pytest.raises(changes.ReportDecided):
            changes.reject(db, db.merge(stale, load=False), "zu spät")
        assert db.scalar(select(Report.status).where(Report.id == world.report_id)) == "accepted"


def test_a_write_that_fails_after_the_commit_is_recorded_and_written_before_publishing(world, monkeypatch):
    from rules_index.corrections import journal

    def failing(plans, root):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(changes, "materialize", failing)
    outcome = accept_again(world.app, world.report_id)  # the commit is the change: no error
    assert files(world) == world.original and tmp_files(world) == []
    state = stored(world.app, world.report_id)
    assert state["report"] == "accepted" and [c[1] for c in state["changes"]] == [commits(world)[0][1]]
    assert outcome.change is not None and journal.FILES_BEHIND.is_set()
    monkeypatch.undo()
    # What the next publication (or the next start) does first: the files follow the commit.
    assert journal.write_behind(ContentRepo(world.content), world.content) == [f"{GAME}/faq.yaml", f"{GAME}/game.yaml"]
    assert WORD in files(world)["faq.yaml"]
    assert journal.write_behind(ContentRepo(world.content), world.content) == []
    journal.FILES_BEHIND.clear()


def test_a_file_edited_by_hand_is_not_overwritten(world, caplog):
    result = crash_accept(world, "committed")
    assert result.returncode == -signal.SIGKILL
    game_yaml = world.content / GAME / "game.yaml"
    by_hand = world.original["game.yaml"] + "# edited by hand\n"
    game_yaml.write_text(by_hand, encoding="utf-8")
    with caplog.at_level(logging.ERROR):
        app = restart(world)
    assert any("left as found" in r.getMessage() and f"{GAME}/game.yaml" in r.getMessage() for r in caplog.records)
    assert game_yaml.read_text(encoding="utf-8") == by_hand
    assert WORD in files(world)["faq.yaml"]
    # The commit is the change: it is recorded, and the hand's edit stays for a person to commit.
    state = stored(app, world.report_id)
    assert state["report"] == "accepted" and len(state["changes"]) == 1
    assert "game.yaml" in ContentRepo(world.content).git("status", "--porcelain")
    _dispose(app)


def test_a_revert_is_stored_on_the_commit_and_the_change(world):
    first = accept_again(world.app, world.report_id).change
    with world.app.app_context():
        db = session()
        original_answer = journal.change_data(changes.content_repo(world.content), first)[0]["de"]["answer"]
        outcome = changes.apply_change(
            db, world.content, world.instance / "content.lock", db.scalar(select(Editor)), GAME, "faq", FAQ,
            {"de": {"answer": original_answer}}, today=TODAY, reverts=db.get(Change, first.id), hold=False,
        )
        assert outcome.change.reverts_id == first.id
        assert ContentRepo(world.content).recent()[0].trailers["Reverts"] == str(first.id)
        assert db.scalar(select(func.count()).select_from(Change)) == 2
    assert WORD not in files(world)["faq.yaml"]


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str, timeout: float = 30):
    import urllib.request

    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, json.loads(response.read())


def test_gunicorn_worker_killed_mid_accept_is_replaced_by_one_that_settles_it(world):
    """The production case: gunicorn's worker dies (SIGKILL) after the commit and the files,
    before the database row; the master starts a new worker, whose first request records the
    change from the commit and publishes the index."""
    import time
    import urllib.error
    import urllib.request

    from rules_index.corrections.editors import add_editor
    from rules_index.corrections.tokens import issue_token

    with world.app.app_context():
        token = issue_token(session(), EDITOR)
        add_editor(session(), "bert", "another-long-editor-password")
        second = issue_token(session(), "bert")
    env = {
        **os.environ, changes.FAULT_ENV: "files-written",
        "RULES_INSTANCE_PATH": str(world.instance), "RULES_CONTENT_DIR": str(world.content),
        "RULES_DATABASE_URL": world.url, "RULES_SECRET_KEY": "crash-test",
    }
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", "1", "-b", f"127.0.0.1:{port}", "--graceful-timeout", "2", *control_socket(), "app:create_app()"],
        cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                assert _get(base + "/api/v1/games", timeout=2)[0] == 200
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "server did not start"
                time.sleep(0.2)
        # New words are held (nothing written); the second editor's confirmation writes them.
        held = urllib.request.Request(
            base + "/api/v1/changes", method="POST",
            data=json.dumps({"game": GAME, "kind": "faq", "id": FAQ, "text": {"de": {"answer": NEW_DE}},
                             "base_version": _get(f"{base}/api/v1/games/{GAME}/faq/{FAQ}", timeout=10)[1]["version"]}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(held, timeout=120) as response:
            assert response.status == 202
            held_id = json.loads(response.read())["held"]
        request = urllib.request.Request(
            base + f"/api/v1/changes/{held_id}/confirm", method="POST",
            headers={"Authorization": f"Bearer {second}"},
        )
        with pytest.raises((OSError, urllib.error.HTTPError)):  # the worker died before answering
            urllib.request.urlopen(request, timeout=120)
        assert WORD in files(world)["faq.yaml"]  # replaced before the worker died
        deadline = time.monotonic() + 120
        while True:  # the master's new worker answers once it has settled the accept
            try:
                assert _get(base + "/api/v1/games", timeout=60)[0] == 200
                break
            except OSError:
                assert time.monotonic() < deadline, "no new worker"
                time.sleep(0.2)
        hits = _get(base + f"/api/v1/search?q={WORD}&lang=de")[1]["hits"]
        assert FAQ in [hit["id"] for hit in hits]
        assert WORD in _get(base + f"/api/v1/games/{GAME}/faq/{FAQ}?lang=de")[1]["answer_html"]
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)
    assert f"stand: {dt.date.today().isoformat()}" in files(world)["game.yaml"] and tmp_files(world) == []
    state = stored(world.app, world.report_id)
    assert [c[1:] for c in state["changes"]] == [tuple(reversed(commits(world)[0]))]
    assert index_in_line(world)
    with world.app.app_context():
        from rules_index.corrections.models import HeldChange
        # The held change itself is left "held" when its confirming worker dies after the write;
        # the entry moved on, so a second confirmation finds it stale and writes nothing twice.
        assert session().get(HeldChange, held_id).status in ("held", "confirmed")


def test_start_without_a_migrated_database_still_serves_and_sweeps(tmp_path, built_index):
    """The start-up recovery needs the database for unrecorded commits only: a database not migrated
    (or down) is logged by availability, and the rest is done."""
    from apptools import make_unmigrated_app

    content = tmp_path / "content"
    shutil.copytree(built_index / "content", content)
    leftover = content / GAME / ".faq.yaml.abcd1234.tmp"
    leftover.write_text("half", encoding="utf-8")
    app = make_unmigrated_app(tmp_path / "instance", content)
    assert app.test_client().get(f"/de/{GAME}/faq/{FAQ}").status_code == 200
    assert not leftover.exists()
    _dispose(app)
