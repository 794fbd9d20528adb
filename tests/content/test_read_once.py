"""A process reads and checks the same bytes of a game once, whichever folder holds them, and
each caller gets a game of its own folder."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rules_index.content import loader
from rules_index.content.filehashes import content_fingerprint
from rules_index.content.loader import load_checked_game, load_game, load_library
from rules_index.content.problems import ContentError

ROOT = Path(__file__).resolve().parents[2]
GAME = "keine-ehre-unter-dieben"


@pytest.fixture()
def reads(monkeypatch):
    """The games parsed from their files, in order."""
    seen: list[Path] = []
    read = loader._read_game

    def counting(folder, root, lines):
        seen.append(folder)
        return read(folder, root, lines)

    monkeypatch.setattr(loader, "_read_game", counting)
    monkeypatch.setattr(loader, "_read", type(loader._read)(maxsize=32))
    return seen


def copy_of_content(folder: Path) -> Path:
    shutil.copytree(ROOT / "content", folder / "content")
    return folder / "content"


def test_the_same_bytes_in_another_folder_are_not_parsed_again(tmp_path, reads):
    first, second = copy_of_content(tmp_path / "a"), copy_of_content(tmp_path / "b")
    game_a, files_a, problems_a = load_game(first / GAME, first, lines=False)
    game_b, files_b, problems_b = load_game(second / GAME, second, lines=False)
    assert reads == [first / GAME]
    assert not problems_a and not problems_b
    assert game_a.folder == first / GAME and game_b.folder == second / GAME
    assert files_b["faq.yaml"].path == second / GAME / "faq.yaml"
    assert [e.id for e in game_b.faq] == [e.id for e in game_a.faq]
    entries = len(game_a.faq)
    game_b.faq.clear()  # a caller's list is its own
    assert len(game_a.faq) == entries
    assert len(load_game(first / GAME, first, lines=False)[0].faq) == entries


def test_changed_bytes_are_parsed_again(tmp_path, reads):
    content = copy_of_content(tmp_path)
    before = load_game(content / GAME, content, lines=False)[0]
    faq = content / GAME / "faq.yaml"
    faq.write_text(faq.read_text(encoding="utf-8").replace(before.faq[0].en.answer.strip()[:20], "Flumph flumph flumph", 1), encoding="utf-8")
    after = load_game(content / GAME, content, lines=False)[0]
    assert len(reads) == 2
    assert "Flumph flumph flumph" in after.faq[0].en.answer


def test_new_bytes_of_a_folder_replace_what_was_kept_of_the_older_ones(tmp_path, reads):
    """A serving process follows every accepted change: it keeps one version of each game, not
    one per change."""
    content = copy_of_content(tmp_path)
    other = "kardinal-und-koenig"
    load_game(content / other, content, lines=False)
    faq = content / GAME / "faq.yaml"
    original = faq.read_text(encoding="utf-8")
    versions = [original] + [original.replace("\n", f"\n# version {n}\n", 1) for n in range(1, 4)]
    for text in versions:
        faq.write_text(text, encoding="utf-8")
        load_game(content / GAME, content, lines=False)
        load_checked_game(content / GAME, content, None)
    kept = [key for key in loader._read if key[1] == GAME]
    assert len(kept) == 2 and {key[2] for key in kept} == {content_fingerprint(content / GAME)}
    assert [key for key in loader._read if key[1] == other]  # another game's entry stays
    faq.write_text(versions[0], encoding="utf-8")
    load_game(content / GAME, content, lines=False)
    assert len(reads) == 2 * len(versions) + 1 + 1  # the first version is read again


def test_read_with_lines_always_parses(tmp_path, reads):
    content = copy_of_content(tmp_path)
    load_game(content / GAME, content, lines=True)
    load_game(content / GAME, content, lines=True)
    assert len(reads) == 2


def test_checks_are_remembered_per_catalog_entry(tmp_path, reads):
    content = copy_of_content(tmp_path)
    game, problems = load_checked_game(content / GAME, content, None)
    assert game is not None and not problems
    load_checked_game(content / GAME, content, None)
    assert len(reads) == 1
    _, missing = load_checked_game(content / GAME, content, ["no-such-entry"])
    assert len(reads) == 2 and any("no-such-entry" in p.message for p in missing)


def test_a_file_changed_while_it_is_read_is_not_remembered(tmp_path, monkeypatch):
    content = copy_of_content(tmp_path)
    monkeypatch.setattr(loader, "_read", type(loader._read)(maxsize=32))
    read = loader._read_game
    faq = content / GAME / "faq.yaml"

    def read_then_write(folder, root, lines):
        found = read(folder, root, lines)
        faq.write_text(faq.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        return found

    monkeypatch.setattr(loader, "_read_game", read_then_write)
    load_game(content / GAME, content, lines=False)
    assert len(loader._read) == 0


def test_a_library_is_made_of_games_read_before(tmp_path, reads):
    first, second = copy_of_content(tmp_path / "a"), copy_of_content(tmp_path / "b")
    one, two = load_library(first), load_library(second)
    assert sorted(reads) == sorted(first / slug for slug in one.games)
    assert two.game(GAME).folder == second / GAME
    assert [e.id for e in two.game(GAME).faq] == [e.id for e in one.game(GAME).faq]


def test_a_problem_is_still_named_with_its_line(tmp_path, reads):
    content = copy_of_content(tmp_path)
    faq = content / GAME / "faq.yaml"
    lines = faq.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("- id: ")) + 1
    lines.insert(at, "  bogus: 1\n")
    faq.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(ContentError) as raised:
        load_library(content)
    assert (at + 1, "0.bogus: unknown field") in [(p.line, p.message) for p in raised.value.problems]
