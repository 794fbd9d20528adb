"""The score pad computes in the browser from the engine's rule table: on 500 random games the
browser's scoring (static/score-rules.js) and the engine's (scoring.score) give the same scores,
ranking and winners, and the browser reads 500 random cost fields as the server does. At 360 px,
with the network off, the totals still follow the input."""
from __future__ import annotations

import random

import pytest

from rules_index.engines.ohne_furcht_und_adel.calculators import rule_table
from rules_index.engines.ohne_furcht_und_adel.scoring import score
from rules_index.web import calculator_forms

pytestmark = pytest.mark.slow

PAD = "/en/ohne-furcht-und-adel/calculators/score"
RUNS = 500


def random_game(rng: random.Random, rules: dict) -> tuple[list[dict], str | None]:
    players = []
    for i in range(rng.randint(1, 7)):
        size = rng.choice([0, 1, 3, 5, 7, 8, 8, 9, 10, 12])
        districts = [{"color": rng.choice(rules["colours"]), "cost": rng.randint(rules["min_cost"], rules["max_cost"])}
                     for _ in range(size)]
        players.append({"name": f"P{i}", "districts": districts})
    complete = [p["name"] for p in players if len(p["districts"]) >= rules["complete_city"]]
    first = rng.choice(complete + [None]) if complete else None
    return players, first


def engine(players, first):
    try:
        return score([(p["name"], [(d["color"], d["cost"]) for d in p["districts"]]) for p in players], first_complete=first)
    except ValueError:
        return "refused"


BROWSER = """([rules, games]) => games.map(([players, first]) => {
  try { return window.ScorePad.score(rules, players, first); } catch (error) { return "refused"; }
})"""


def test_browser_and_engine_agree_on_random_games(page, live_server):
    rules = rule_table()
    rng = random.Random(2026)
    games = [random_game(rng, rules) for _ in range(RUNS)]
    # Some the engine must refuse: a first to complete without a complete city, names twice.
    games[0] = ([{"name": "A", "districts": [{"color": "red", "cost": 1}]}], "A")
    games[1] = ([{"name": "A", "districts": []}, {"name": "A", "districts": []}], None)
    page.goto(live_server + PAD)
    assert page.evaluate("JSON.parse(document.querySelector('form.calc').dataset.rules)") == rules
    browser = page.evaluate(BROWSER, [rules, games])
    expected = [engine(players, first) for players, first in games]
    assert expected[0] == expected[1] == "refused"
    disagree = [(games[i], browser[i], expected[i]) for i in range(RUNS) if browser[i] != expected[i]]
    assert disagree == []
    assert sum(1 for e in expected if e != "refused" and e["tie_break_used"]) > 5  # the tie-break was exercised


def server_costs(text: str) -> list[int] | None:
    values = []
    for token in calculator_forms._costs(text):
        value = calculator_forms._whole(token)
        if value is None or not calculator_forms.MIN_COST <= value <= calculator_forms.MAX_COST:
            return None
        values.append(value)
    return values


def test_browser_reads_cost_fields_as_the_server_does(page, live_server):
    rng = random.Random(7)
    alphabet = "0123456789  ,;x7-"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8))) for _ in range(RUNS)]
    texts += ["351", "3 5 1", "12", "6,6;6", " ", "٣", "³"]
    page.goto(live_server + PAD)
    browser = page.evaluate("([rules, texts]) => texts.map((t) => window.ScorePad.costs(t, rules))", [rule_table(), texts])
    assert [(t, b) for t, b in zip(texts, browser) if b != server_costs(t)] == []


def test_totals_follow_the_input_offline_at_360_px(phone, live_server):
    phone.goto(live_server + PAD)
    phone.context.set_offline(True)
    try:
        phone.fill("#name0", "Anna")
        for colour, costs in [("yellow", "35"), ("blue", "2"), ("green", "1"), ("red", "111"), ("purple", "6")]:
            phone.fill(f"#{colour}0", costs)
        phone.locator('label[for="first0"]').click()
        # 3+5+2+1+1+1+1+6 = 20, all five colours +3, first with 8 districts +4.
        phone.wait_for_function("() => document.querySelector('output[data-total=\"0\"]').textContent.includes('27')")
        assert phone.locator('output[data-total="0"]').inner_text() == "27 points"
        phone.fill("#red0", "9")
        phone.wait_for_function("() => document.querySelector('output[data-total=\"0\"]').textContent === '–'")
    finally:
        phone.context.set_offline(False)
