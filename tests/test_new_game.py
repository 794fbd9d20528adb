"""A fifth game is a folder and an engine module: the small game in tests/fixtures/new-game/ (Nim,
laid out as in the checkout) is copied into a copy of the checkout, nothing else is changed, and
the content commands and the tests that hold every game pass there with the game among them.
CONTRIBUTING.md walks through the same game."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app import ROOT

NEW_GAME = Path(__file__).parent / "fixtures" / "new-game"
SLUG = "nim"
# What a checkout holds besides its sources: not copied.
NOT_SOURCES = shutil.ignore_patterns(".git", ".venv", "instance", "node_modules", ".npm-cache", "site", "mutants",
                                     "test-artifacts", "__pycache__", ".pytest_cache", ".hypothesis", "*.pyc")
# The tests over every game (the content, the engines, listing, search, the pages, the checks).
EVERY_GAME = [
    "tests/content/test_validate.py::test_real_content_is_valid",
    "tests/content/test_assumed_values.py",
    "tests/content/test_yaml12.py::test_the_content_reads_the_same_entry_by_entry",
    "tests/engines/test_kernel.py",
    "tests/web/test_api.py::test_games",
    "tests/web/test_pages.py::test_home_lists_games",
    "tests/web/test_verified_badge.py::test_every_answer_page_shows_the_status_of_its_entry",
    "tests/search/test_every_game_found.py",
    "tests/search/test_incremental.py::test_incremental_answers_as_a_full_build_within_the_bound",
    "tests/test_verification.py",
]


GUIDE = ROOT / "CONTRIBUTING.md"


def guide_blocks() -> list[tuple[str, str]]:
    """The guide's code blocks that begin with ``# <path>``: (path, the rest of the block)."""
    return re.findall(r"```(?:python|yaml)\n# ([\w./-]+)\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)


def guide_files() -> dict[str, str]:
    return dict(guide_blocks())


def run(checkout: Path, *args: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("RULES_", "PYTEST_", "FLASK_"))}
    return subprocess.run([sys.executable, *args], cwd=checkout, env=env, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    """A copy of the checkout with the new game's two folders copied in, and nothing else."""
    if (ROOT / "content" / SLUG).exists() or (ROOT / "rules_index" / "engines" / SLUG).exists():
        pytest.skip(f"the checkout holds {SLUG} itself: the tests over every game run over it here")
    target = tmp_path_factory.mktemp("fifth-game") / "checkout"
    shutil.copytree(ROOT, target, ignore=NOT_SOURCES, symlinks=True)
    shutil.copytree(NEW_GAME, target, dirs_exist_ok=True)
    for mo in ROOT.glob("translations/*/LC_MESSAGES/messages.mo"):  # made by make, as in the checkout
        shutil.copy2(mo, target / mo.relative_to(ROOT))
    return target


def test_the_fixture_is_two_folders():
    added = sorted(str(p.relative_to(NEW_GAME)) for p in NEW_GAME.rglob("*") if p.is_file())
    assert {Path(p).parts[:2] for p in added} <= {("content", SLUG), ("rules_index", "engines")}
    assert f"content/{SLUG}/game.yaml" in added and f"rules_index/engines/{SLUG}/probes.py" in added


def test_the_guide_shows_the_games_own_files():
    shown = [(path, code) for path, code in guide_blocks() if path.startswith((f"content/{SLUG}/", f"rules_index/engines/{SLUG}/"))]
    assert {f"rules_index/engines/{SLUG}/game.py", f"content/{SLUG}/faq.yaml"} <= {path for path, _ in shown}
    for path, code in shown:  # each excerpt stands in the file as it is shown
        assert code in (NEW_GAME / path).read_text(encoding="utf-8"), path
    assert guide_files()[f"rules_index/engines/{SLUG}/game.py"] == (NEW_GAME / "rules_index/engines/nim/game.py").read_text(encoding="utf-8")


def test_content_validate_and_rules_check_pass_with_the_game(checkout):
    validate = run(checkout, "-m", "flask", "--app", "app", "content", "validate")
    assert validate.returncode == 0, validate.stdout + validate.stderr
    games = len([p for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file()])
    assert f"ok: {games + 1} games" in validate.stdout
    check = run(checkout, "-m", "flask", "--app", "app", "rules", "check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert re.search(r"\b0 failed, 0 entries without a check", check.stdout), check.stdout


def test_the_tests_over_every_game_pass_with_it(checkout):
    # The guide's engine test, as a contributor would add it.
    engine_test = f"tests/engines/test_{SLUG}.py"
    (checkout / engine_test).write_text(guide_files()[engine_test], encoding="utf-8")
    # Tests drawn per game run for the new game only: the others' run in this suite itself.
    result = run(checkout, "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider", "-n", "0", "-v",
                 "-m", "not slow", "-k", f"{SLUG} or not [ or test_home_lists_games or test_flip_sample",
                 *EVERY_GAME, engine_test)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    passed = result.stdout
    assert re.search(rf"test_{SLUG}\.py::\w+ PASSED", passed)
    for test in ("test_real_content_is_valid", "test_games", "test_home_lists_games[de]"):
        assert re.search(rf"::{re.escape(test)} PASSED", passed), test
    for test in ("test_every_game_has_an_engine", "test_state_machine", "test_play_random_ends_and_replays[0-",
                 "test_every_game_has_the_generic_probe", "test_every_answer_page_shows_the_status_of_its_entry",
                 "test_every_question_finds_its_entry", "test_flipped_expectation_fails"):
        assert re.search(rf"::{re.escape(test)}[^ ]*{SLUG}[^ ]* PASSED", passed), test
