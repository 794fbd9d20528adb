"""Publishing a change and following it: a generation keeps the checks and the library of the
content it indexes, a process following it takes them instead of parsing and checking again,
and publishing reads only the changed game."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rules_index.verification as verification
from apptools import change_answer, make_app
from rules_index.content import loader
from rules_index.content.snapshot import read_content
from rules_index.search import IndexLink, SearchIndex, build
from rules_index.web import publishing
from rules_index.web.publishing import publish
from rules_index.web.state import Served, served

ROOT = Path(__file__).resolve().parents[2]
GAME, FAQ = "ohne-furcht-und-adel", "tie-break"


@pytest.fixture()
def counted(monkeypatch):
    """Counts full check runs and single entries' runs."""
    calls = {"verify": 0, "entries": []}
    verify, verify_entry = verification.verify, verification.verify_entry

    def counting_verify(library):
        calls["verify"] += 1
        return verify(library)

    def counting_entry(game, kind, entry):
        calls["entries"].append((game.slug, kind, entry.id))
        return verify_entry(game, kind, entry)

    monkeypatch.setattr(verification, "verify", counting_verify)
    monkeypatch.setattr(verification, "verify_entry", counting_entry)
    return calls


@pytest.fixture()
def parsed(monkeypatch):
    """The game folders parsed (by publishing or by anyone else)."""
    names = []
    real = loader.load_checked_game

    def counting(folder, root, ids, *args, **kwargs):
        names.append(folder.name)
        return real(folder, root, ids, *args, **kwargs)

    monkeypatch.setattr(loader, "load_checked_game", counting)
    monkeypatch.setattr(publishing, "load_checked_game", counting)
    return names


def worker(content: Path, link: Path) -> Served:
    shared = IndexLink(link)
    return Served(content, shared, SearchIndex(shared), None)


def test_workers_take_the_checks_of_the_generation(tiny_content, tmp_path, counted):
    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    assert counted["verify"] == 1  # once, by the build
    report = worker(tiny_content, link).current().checks
    assert counted["verify"] == 1 and report.missing  # the tiny game has entries without checks


def test_update_runs_only_the_changed_entrys_checks(tiny_content, tmp_path, counted):
    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    change_answer(tiny_content, "tiny-game", "coin-count", "glimmer")
    counted["entries"].clear()
    build(read_content(tiny_content)[0], link, tiny_content, changed=[("tiny-game", "faq", "coin-count")])
    assert counted["verify"] == 1 and counted["entries"] == [("tiny-game", "faq", "coin-count")]
    worker(tiny_content, link).current().checks
    assert counted["verify"] == 1


def test_publish_with_the_changed_entry(tmp_path, counted, parsed, monkeypatch):
    looked_up, stored_game = [], publishing.stored_game
    monkeypatch.setattr(publishing, "stored_game", lambda link, slug, *rest: looked_up.append(slug) or stored_game(link, slug, *rest))
    reports_read, load_report = [], verification.load_report
    monkeypatch.setattr(verification, "load_report", lambda path: reports_read.append(Path(path).parent.name) or load_report(path))
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    app = make_app(tmp_path / "instance", content)
    link = Path(app.config["INDEX_DIR"])
    with app.app_context():
        before = served().current().library  # a serving process, warm: the index built once
        following = worker(content, link)
        old = following.current()
        counted["verify"] = 0
        parsed.clear()
        looked_up.clear()
        reports_read.clear()
        change_answer(content, GAME, FAQ, "flumph")
        publish(changed=[(GAME, "faq", FAQ)])
        assert parsed == [GAME]  # only the changed game is read again
        assert [h.entry for h in SearchIndex(link).search("flumph", "en").hits] == [FAQ]
        after = served().current().library
        assert "flumph" in after.game(GAME).faq_entry(FAQ).en.answer
        assert all((after.game(slug) is game) == (slug != GAME) for slug, game in before.games.items())
        # The publisher took its unchanged games from its own snapshot: none read back from the generation.
        assert looked_up == [GAME]
        # … and the checks it served: those of the generation before are not read back (the new
        # generation's are, by the switch to it).
        assert Path(old.path).name not in reports_read and reports_read
    # Another process following: the library and the checks of the generation, nothing parsed or run.
    parsed.clear()
    new = following.current()
    assert "flumph" in new.library.game(GAME).faq_entry(FAQ).en.answer and parsed == [] and counted["verify"] == 0
    for slug, game in old.library.games.items():  # the unchanged games are the ones it held
        assert (new.library.game(slug) is game) == (slug != GAME)
    fresh = read_content(content)[0].game(GAME)
    followed = new.library.game(GAME)
    assert followed.faq == fresh.faq and followed.sections == fresh.sections and followed.folder == content / GAME


def test_a_generation_is_named_by_the_commit_it_holds(tmp_path):
    """The version of a generation is the branch's commit when the content folder holds it
    exactly; content edited and not committed is named by its fingerprint instead."""
    import subprocess

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    git = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid"]
    subprocess.run(["git", "init", "-q", str(content)], check=True)
    subprocess.run([*git, "-C", str(content), "add", "-A"], check=True)
    subprocess.run([*git, "-C", str(content), "commit", "-qm", "content"], check=True)
    head = subprocess.run(["git", "-C", str(content), "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    app = make_app(tmp_path / "instance", content, INDEX_DIR=str(tmp_path / "instance" / "index"))  # built here
    with app.app_context():
        assert served().current().version == head
        change_answer(content, GAME, FAQ, "flumph")
        publish(changed=[(GAME, "faq", FAQ)])
        version = served().current().version
    assert version.startswith("content-") and version != head
