"""Publishing an accepted change and following it: the checks come with the generation, a
reload parses only the changed game, ``publish(changed=...)`` makes the change visible."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rules_index.verification as verification
from apptools import change_answer, make_app
from rules_index.search import SearchIndex, build
from rules_index.content.snapshot import read_content
from rules_index.web.publishing import publish
from rules_index.web.state import ContentState, GameCache, content_state

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


def test_workers_load_the_checks_of_the_generation(tiny_content, tmp_path, counted):
    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    assert counted["verify"] == 1  # once, by the build
    report = ContentState(tiny_content, link).verification
    assert counted["verify"] == 1 and report.missing  # the tiny game has entries without checks
    # Content the generation was not built from: the worker runs the checks itself.
    change_answer(tiny_content, "tiny-game", "coin-count", "glimmer")
    assert ContentState(tiny_content, link).verification.missing
    assert counted["verify"] == 2


def test_update_runs_only_the_changed_entrys_checks(tiny_content, tmp_path, counted):
    link = tmp_path / "index"
    build(read_content(tiny_content)[0], link, tiny_content)
    change_answer(tiny_content, "tiny-game", "coin-count", "glimmer")
    counted["entries"].clear()
    build(read_content(tiny_content)[0], link, tiny_content, changed=[("tiny-game", "faq", "coin-count")])
    assert counted["verify"] == 1 and counted["entries"] == [("tiny-game", "faq", "coin-count")]
    ContentState(tiny_content, link).verification
    assert counted["verify"] == 1


def test_reload_parses_only_the_changed_game(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    cache = GameCache()
    first = cache.load(content)
    change_answer(content, GAME, FAQ, "flumph")
    second = cache.load(content)
    for slug, game in first.games.items():
        assert (second.games[slug] is game) == (slug != GAME)
    assert "flumph" in second.game(GAME).faq_entry(FAQ).en.answer


def test_publish_with_the_changed_entry(tmp_path, counted):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    app = make_app(tmp_path / "instance", content)
    with app.app_context():
        state = content_state()
        state.library  # a serving process, warm
        publish()  # the index built once
        counted["verify"] = 0
        change_answer(content, GAME, FAQ, "flumph")
        publish(changed=[(GAME, "faq", FAQ)])
        link = Path(app.config["INDEX_DIR"])
        assert [h.entry for h in SearchIndex(link).search("flumph", "en").hits] == [FAQ]
        assert "flumph" in state.library.game(GAME).faq_entry(FAQ).en.answer
        state.verification
    # Another process switching to the generation: the content and the checks, none run.
    other = ContentState(content, link)
    assert "flumph" in other.library.game(GAME).faq_entry(FAQ).en.answer
    other.verification
    assert counted["verify"] == 0


def test_a_following_process_takes_the_changed_game_from_the_generation(tmp_path, monkeypatch):
    """The generation made for an accepted change keeps the changed game as its build loaded it:
    a process following the switch takes it instead of parsing and checking the game again, but
    only for the same bytes, and not at its first load."""
    from rules_index.web import state as state_module

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    app = make_app(tmp_path / "instance", content)
    link = Path(app.config["INDEX_DIR"])
    with app.app_context():
        content_state().library
        publish()
    worker = ContentState(content, link, switch_wait=None)
    worker.library
    parsed = []
    real = state_module.load_checked_game

    def counting(folder, root, ids):
        parsed.append(folder.name)
        return real(folder, root, ids)

    monkeypatch.setattr(state_module, "load_checked_game", counting)
    with app.app_context():
        change_answer(content, GAME, FAQ, "flumph")
        publish(changed=[(GAME, "faq", FAQ)])
    parsed.clear()
    followed = worker.library.game(GAME)
    assert parsed == [] and "flumph" in followed.faq_entry(FAQ).en.answer
    fresh = read_content(content)[0].game(GAME)
    assert followed.faq == fresh.faq and followed.sections == fresh.sections and followed.folder == content / GAME
    change_answer(content, GAME, FAQ, "glimmer")  # written, not published: the kept game is of other bytes
    assert "glimmer" in worker.reload().game(GAME).faq_entry(FAQ).en.answer and parsed == [GAME]
    parsed.clear()
    ContentState(content, link).library  # a first load reads every game
    assert sorted(parsed) == sorted(game.slug for game in read_content(content)[0])
