"""Every calculator computes in the browser from the rule table its engine exports: on 500 random
requests per calculator, the browser's answer (static/calculators/<game>.js, evaluated in the
page that carries the table) and the engine calculator's answer are the same, refusals included.

Every calculator of every game has its test here (``for_calculator``), checked against the
engines' own list, so that a new calculator cannot go untested.

The seed is drawn fresh on every run and printed; CALCULATOR_SEED=… repeats a run.
"""
from __future__ import annotations

import os
import random

import pytest

from app import ROOT
from rules_index.engines import InputError, calculators_for, rule_table_for

pytestmark = pytest.mark.slow

RUNS = 500
# Names as players type them; "2" and "10" are names JavaScript would sort to the front of an object.
NAMES = ["Anna", "Ben", "Chiara", "Dmitri", "Zoë", "李", "2", "10", "Eve", "Fritz"]

BROWSER = """([key, requests]) => {
  const rules = JSON.parse(document.querySelector('form.calc').dataset.rules);
  return requests.map((request) => {
    try { return window.Calculators[key].compute(rules, request); } catch (error) { return "refused"; }
  });
}"""


GAMES = sorted(folder.name for folder in (ROOT / "content").iterdir() if folder.is_dir())
TESTED: list[str] = []  # "<game>/<calculator>", one per test below


def for_calculator(key: str):
    """Marks a test as the one for calculator ``key`` ("<game>/<calculator>"), passed to it as ``key``."""
    TESTED.append(key)
    return pytest.mark.parametrize("key", [key])


def test_every_calculator_of_every_game_is_tested():
    assert sorted(TESTED) == sorted(f"{slug}/{name}" for slug in GAMES for name in calculators_for(slug))


@pytest.fixture(scope="module")
def seed():
    value = int(os.environ.get("CALCULATOR_SEED") or random.SystemRandom().randrange(2**32))
    print(f"calculator seed {value} (CALCULATOR_SEED={value} repeats it)")
    return value


def engine(key: str, payload: dict):
    slug, name = key.split("/")
    try:
        return calculators_for(slug)[name](payload)
    except InputError:
        return "refused"


def agree(page, live_server, seed, key, payloads, for_browser=lambda payload: payload) -> list:
    """The engine's answers, after checking that the browser gives the same on every payload."""
    slug, name = key.split("/")
    page.goto(f"{live_server}/en/{slug}/calculators/{name}")
    assert page.evaluate("JSON.parse(document.querySelector('form.calc').dataset.rules)") == rule_table_for(slug)
    browser = page.evaluate(BROWSER, [key, [for_browser(p) for p in payloads]])
    expected = [engine(key, p) for p in payloads]
    disagree = [(p, b, e) for p, b, e in zip(payloads, browser, expected) if b != e]
    assert disagree[:3] == [], f"{len(disagree)} of {len(payloads)} disagree (CALCULATOR_SEED={seed})"
    return expected


def names(rng: random.Random, low: int, high: int) -> list[str]:
    """Distinct names, now and then one twice (a request the engine refuses)."""
    chosen = rng.sample(NAMES, rng.randint(low, high))
    if len(chosen) > 1 and rng.random() < 0.04:
        chosen[-1] = chosen[0]
    return chosen


# --- Ohne Furcht und Adel: the score pad ---------------------------------------------------------


def score_request(rng: random.Random, rules: dict) -> dict:
    players = []
    for name in names(rng, 1, 7):
        size = rng.choice([0, 1, 3, 5, 7, 8, 8, 9, 10, 12])
        players.append({"name": name, "districts": [
            {"color": rng.choice(rules["colours"]), "cost": rng.randint(rules["min_cost"], rules["max_cost"])}
            for _ in range(size)]})
    complete = [p["name"] for p in players if len(p["districts"]) >= rules["complete_city"]]
    first = rng.choice(complete + [None]) if complete else None
    if rng.random() < 0.03:  # someone without a complete city, or no player at all
        first = rng.choice([p["name"] for p in players] + ["Nobody"])
    return {"players": players, "first_complete": first}


@for_calculator("ohne-furcht-und-adel/score")
def test_score_pad_agrees_with_the_engine(page, live_server, seed, key):
    rng = random.Random(f"{seed} score")
    rules = rule_table_for("ohne-furcht-und-adel")
    expected = agree(page, live_server, seed, key, [score_request(rng, rules) for _ in range(RUNS)])
    answers = [e for e in expected if e != "refused"]
    assert len(answers) < RUNS and sum(1 for e in answers if e["tie_break_used"]) > 5  # refusals and tie-breaks exercised


# --- Kardinal & König: one land, all lands --------------------------------------------------------


def count(rng: random.Random) -> int:
    return rng.choice([0, 1, 1, 2, 2, 3, 4, 5, rng.randint(0, 20)])


@for_calculator("kardinal-und-koenig/monastery-score")
def test_monastery_score_agrees_with_the_engine(page, live_server, seed, key):
    rng = random.Random(f"{seed} monastery")
    payloads = [{"monasteries": {name: count(rng) for name in rng.sample(NAMES, rng.randint(1, 5))}} for _ in range(RUNS)]
    expected = agree(page, live_server, seed, key, payloads,
                     lambda p: {"monasteries": list(p["monasteries"].items())})
    ties = [p for p in payloads if len([n for n in p["monasteries"].values() if n]) > len(set(p["monasteries"].values()) - {0})]
    assert len(expected) == RUNS and ties  # equal counts sharing a place were exercised


def lands_request(rng: random.Random, rules: dict) -> dict:
    players = names(rng, 1, 5)
    lands = {}
    for land in rng.sample(rules["lands"], rng.randint(0, len(rules["lands"]))):
        holders = rng.sample(sorted(set(players)), rng.randint(0, len(set(players))))
        if len(holders) < rules["max_players"] and rng.random() < 0.05:
            holders.append(rng.choice([n for n in NAMES if n not in players]))  # named in a land only
        lands[land] = {name: count(rng) for name in holders}
    return {"players": players, "lands": lands}


@for_calculator("kardinal-und-koenig/lands-score")
def test_lands_score_agrees_with_the_engine(page, live_server, seed, key):
    rng = random.Random(f"{seed} lands")
    rules = rule_table_for("kardinal-und-koenig")
    expected = agree(page, live_server, seed, key, [lands_request(rng, rules) for _ in range(RUNS)],
                     lambda p: {"players": p["players"], "lands": [[land, list(c.items())] for land, c in p["lands"].items()]})
    answers = [e for e in expected if e != "refused"]
    assert len(answers) < RUNS and any(p["rank"] == 1 for e in answers for p in e["players"][1:])  # shared ranks


# --- Adel Verpflichtet: one exhibition, the exhibitions of a round --------------------------------


def cards(rng: random.Random, rules: dict) -> str:
    """Collection card letters: often a run without a gap (maybe too short), else any letters; in
    either case case and spaces as players type them."""
    letters = rules["letters"]
    if rng.random() < 0.6:
        start = rng.randrange(len(letters))
        run = letters[start:start + rng.randint(1, 4)]
        typed = [rng.choice(run) for _ in range(rng.randint(1, 6))] + list(run)
    else:
        typed = [rng.choice(letters) for _ in range(rng.randint(1, 8))]
    rng.shuffle(typed)
    return "".join(c.lower() if rng.random() < 0.2 else c for c in typed) + (" " if rng.random() < 0.1 else "")


@for_calculator("adel-verpflichtet/exhibition")
def test_exhibition_agrees_with_the_engine(page, live_server, seed, key):
    rng = random.Random(f"{seed} exhibition")
    rules = rule_table_for("adel-verpflichtet")
    expected = agree(page, live_server, seed, key, [{"cards": cards(rng, rules)} for _ in range(RUNS)])
    assert {e["reason"] for e in expected} == {None, *rules["reasons"].values()}


@for_calculator("adel-verpflichtet/exhibitions-ranking")
def test_exhibitions_ranking_agrees_with_the_engine(page, live_server, seed, key):
    rng = random.Random(f"{seed} ranking")
    rules = rule_table_for("adel-verpflichtet")
    payloads = [{"players": {name: {"cards": cards(rng, rules), "oldest_age": rng.choice([None, 0, 5, 5, 50, 100, rules["max_age"]])}
                             for name in rng.sample(NAMES, rng.randint(1, 8))}} for _ in range(RUNS)]
    expected = agree(page, live_server, seed, key, payloads,
                     lambda p: {"players": list(p["players"].items())})
    assert {r["decided_by"] for e in expected for r in e["ranking"]} == set(rules["decided"].values())


# --- Keine Ehre unter Dieben: sharing the loot ----------------------------------------------------


def share_request(rng: random.Random, rules: dict) -> dict:
    players = names(rng, rules["min_players"], rules["max_players"])
    ending = rng.choice(rules["endings"])
    low, high = rules["cards_after"][ending]
    loot = rng.randint(low, high) if rng.random() < 0.9 else rng.randint(0, 7)
    takes = None
    if rng.random() < 0.5:
        takes = rng.randint(0, loot) if ending == "master_stroke" and rng.random() < 0.9 else rng.randint(0, 7)
    leader = rng.choice(players) if rng.random() < 0.97 else "Nobody"
    return {"players": players, "leader": leader, "ending": ending, "cards": loot, "leader_takes": takes}


@for_calculator("keine-ehre-unter-dieben/loot-sharing")
def test_loot_sharing_agrees_with_the_engine(page, live_server, seed, key):
    rng = random.Random(f"{seed} loot")
    rules = rule_table_for("keine-ehre-unter-dieben")
    expected = agree(page, live_server, seed, key, [share_request(rng, rules) for _ in range(RUNS)])
    answers = [e for e in expected if e != "refused"]
    assert len(answers) < RUNS
    assert any(e["shares"] is None for e in answers) and any(e["extra_card"] for e in answers if e["shares"])
    assert any(s["cards"] == 0 for e in answers if e["shares"] for s in e["shares"][1:])  # someone went without
