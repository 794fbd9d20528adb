"""The rule checks bite: every check passes on the real content, and fails once its expectation is flipped."""
from __future__ import annotations

import random
import shutil

import pytest
from hypothesis import given, strategies as st

from app import ROOT
from apptools import real_library
from rules_index.content import load_library
from rules_index.content.schema import Check
from rules_index.verification import compare, run_check, verify

LIBRARY = real_library()
# The list of checks is read at collection; every test runs the engines again when it runs
# (so a mutated engine is what the test sees).
CHECKS = [(r.game, r.kind, r.entry, i, r.check) for i, r in enumerate(verify(LIBRARY).results)]


def flip(value):
    """A different value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        return value + "-not"
    if value is None:
        return "something"
    if isinstance(value, list):
        return [*value, "extra"] if value else ["extra"]
    if isinstance(value, dict):
        return {**value, "extra-key": 1}
    raise TypeError(type(value))


def test_every_entry_has_a_passing_check():
    report = verify(LIBRARY)
    failing = [(r.game, r.kind, r.entry, r.error, r.mismatches) for r in report.results if not r.ok]
    assert failing == []
    assert report.missing == []


# Flipping every check's expectation would only test compare() once per check; compare() is
# tested once below, and a sample of real checks shows that flips reach it through the probes.
# The sample is drawn per game, each game's from a seed of its own: every game is drawn, and a
# game added or changed leaves the others' samples as they were. The seed is the suite's
# (pytest-randomly's, printed by make; SEED=… repeats it), a fixed one without it.
FLIPS_PER_GAME = 6


def flip_sample(checks: list[tuple], seed) -> list[tuple]:
    sample = []
    for slug in sorted({c[0] for c in checks}):
        games = [c for c in checks if c[0] == slug]
        sample += random.Random(f"{seed}:{slug}").sample(games, min(FLIPS_PER_GAME, len(games)))
    return sample


def pytest_generate_tests(metafunc):
    if "flipped" in metafunc.fixturenames:
        sample = flip_sample(CHECKS, getattr(metafunc.config.option, "randomly_seed", 16))
        metafunc.parametrize("flipped", sample, ids=[f"{c[0]}:{c[1]}:{c[2]}:{c[3]}" for c in sample])


@pytest.mark.flips
def test_flipped_expectation_fails(flipped):
    game, kind, entry, index, check = flipped
    for key, value in check.expect.items():
        flipped = check.model_copy(update={"expect": {key: flip(value)}})
        result = run_check(LIBRARY.game(game), kind, entry, flipped)
        assert not result.ok, f"{key}: {value!r} -> {flip(value)!r} still passes"


@pytest.mark.parametrize("seed", [16, 2026])
def test_flip_sample_covers_every_game_and_keeps_each_games_own(seed):
    sample = flip_sample(CHECKS, seed)
    assert {c[0] for c in sample} == {game.slug for game in LIBRARY}
    assert all(sum(c[0] == g for c in sample) == min(FLIPS_PER_GAME, sum(c[0] == g for c in CHECKS)) for g, *_ in sample)
    for game in LIBRARY:  # without any one game, the others draw the same checks
        others = [c for c in CHECKS if c[0] != game.slug]
        assert flip_sample(others, seed) == [c for c in sample if c[0] != game.slug]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-5, 5, allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)


def as_tuples(value):
    """The same value as an engine may return it: tuples for lists, at every depth."""
    if isinstance(value, list):
        return tuple(as_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: as_tuples(v) for k, v in value.items()}
    return value


@given(JSON)
def test_compare_accepts_the_same_value_and_rejects_a_flipped_one(value):
    assert compare({"k": value}, {"k": as_tuples(value)}) == []
    assert compare({"k": value}, {"k": flip(value)}) != []
    assert compare({"k": flip(value)}, {"k": value}) != []
    assert compare({"k": value}, {}) != []


@pytest.mark.parametrize("expected,actual", [
    (True, 1), (False, 0), (1, True), ([True], [1]), ({"a": False}, {"a": 0}), ([1, 2], [1, 2, 3]),
    ({"a": 1}, {"a": 1, "b": 2}), ("1", 1), (None, False),
])
def test_compare_is_strict_about_kinds(expected, actual):
    assert compare({"k": expected}, {"k": actual}) != []


def test_unknown_probe_fails():
    game = LIBRARY.game("ohne-furcht-und-adel")
    result = run_check(game, "faq", "x", Check(probe="no_such_probe", expect={"a": 1}))
    assert not result.ok and "unknown probe" in result.error


def test_compare_treats_tuples_as_lists():
    assert compare({"a": [1, 2]}, {"a": (1, 2)}) == []
    assert compare({"a": 1}, {})[0].actual == "<missing>"


def test_rules_check_command_fails_on_a_broken_answer(runner, tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    ok = runner.invoke(args=["rules", "check", "--root", str(content)])
    assert ok.exit_code == 0, ok.output
    faq = content / "ohne-furcht-und-adel" / "faq.yaml"
    text = faq.read_text(encoding="utf-8")
    # Claim the opposite of the first boolean expectation in the file.
    for old, new in (("expect: {legal: [false]", "expect: {legal: [true]"), ("legal: [false]", "legal: [true]")):
        if old in text:
            faq.write_text(text.replace(old, new, 1), encoding="utf-8")
            break
    else:
        pytest.fail("no boolean expectation found to flip")
    broken = runner.invoke(args=["rules", "check", "--root", str(content)])
    assert broken.exit_code == 1
    assert "FAILED" in broken.output and "expected [True], got [False]" in broken.output


def test_rules_check_command_fails_on_a_missing_check(runner, tiny_content):
    result = runner.invoke(args=["rules", "check", "--root", str(tiny_content)])
    assert result.exit_code == 1
    assert "NO CHECK" in result.output


# One fixed offset and fresh ones each run: a check that holds for one other seed by chance (a
# card turned up from a reshuffled pile) must not pass for ever.
SEED_OFFSETS = (7919, *random.Random().sample(range(1, 10**6), 4))


@pytest.mark.parametrize("offset", SEED_OFFSETS, ids=["fixed", "fresh-1", "fresh-2", "fresh-3", "fresh-4"])
def test_expectations_hold_for_any_seed(offset):
    """A check asserts what the rules decide, never what a seeded random generator happened to
    produce (such as how often a card turned up in 60 deals): every check passes with other seeds."""
    failing = []
    for game, kind, entry, index, check in CHECKS:
        given = {**check.given, "seed": int(check.given.get("seed", 0)) + offset}
        result = run_check(LIBRARY.game(game), kind, entry, check.model_copy(update={"given": given}))
        if not result.ok:
            failing.append((game, kind, entry, index, result.error, result.mismatches))
    assert failing == [], f"seed offset {offset}"


def test_editorial_entries_need_no_check(tiny_content):
    faq = tiny_content / "tiny-game" / "faq.yaml"
    text = faq.read_text(encoding="utf-8")
    text = text.replace("  section: material\n", "  section: material\n  basis: editorial\n", 1)
    text = text.replace("  section: scoring\n", "  section: scoring\n  basis: assumption\n", 1)
    faq.write_text(text, encoding="utf-8")
    library = load_library(tiny_content)
    missing = verify(library).missing
    assert ("tiny-game", "faq", "coin-count") not in missing  # editorial: nothing to check
    assert ("tiny-game", "faq", "coin-value") in missing  # an assumption still needs a check of its reading


def test_no_editorial_entry_of_the_content_is_checked_and_every_other_is():
    for game in LIBRARY:
        for faq in game.faq:
            assert bool(faq.checks) == (faq.basis != "editorial"), (game.slug, faq.id)
