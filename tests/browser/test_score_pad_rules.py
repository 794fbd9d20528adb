"""The score pad computes in the browser from the engine's rule table (the random games that
check its scoring against the engine's are in test_calculator_rules.py): the browser reads 500
random cost fields as the server does, and at 360 px, with the network off, the totals still
follow the input."""
from __future__ import annotations

import os
import random

import pytest

from rules_index.engines.ohne_furcht_und_adel.calculators import rule_table
from rules_index.web import calculator_forms

pytestmark = pytest.mark.slow

PAD = "/en/ohne-furcht-und-adel/calculators/score"
RUNS = 500


def server_costs(text: str) -> list[int] | None:
    values = []
    for token in calculator_forms._costs(text):
        value = calculator_forms._whole(token)
        if value is None or not calculator_forms.MIN_COST <= value <= calculator_forms.MAX_COST:
            return None
        values.append(value)
    return values


def test_browser_reads_cost_fields_as_the_server_does(page, live_server):
    seed = int(os.environ.get("CALCULATOR_SEED") or random.SystemRandom().randrange(2**32))
    print(f"calculator seed {seed} (CALCULATOR_SEED={seed} repeats it)")
    rng = random.Random(seed)
    alphabet = "0123456789  ,;x7-"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8))) for _ in range(RUNS)]
    texts += ["351", "3 5 1", "12", "6,6;6", " ", "٣", "³"]
    page.goto(live_server + PAD)
    browser = page.evaluate("([rules, texts]) => texts.map((t) => window.Calculators['ohne-furcht-und-adel/score'].costs(t, rules))",
                            [rule_table(), texts])
    assert [(t, b) for t, b in zip(texts, browser) if b != server_costs(t)] == [], f"CALCULATOR_SEED={seed}"


def test_totals_follow_the_input_offline_at_360_px(phone, live_server):
    phone.goto(live_server + PAD)
    phone.context.set_offline(True)
    try:
        phone.fill("#name0", "Anna")
        for colour, costs in [("yellow", "35"), ("blue", "2"), ("green", "1"), ("red", "111"), ("purple", "6")]:
            phone.fill(f"#{colour}0", costs)
        phone.locator('label[for="first0"]').click()
        # 3+5+2+1+1+1+1+6 = 20, all five colours +3, first with 8 districts +4.
        phone.wait_for_function("() => document.querySelector('output[data-out=\"0\"]').textContent.includes('27')")
        assert phone.locator('output[data-out="0"]').inner_text() == "27 points"
        phone.fill("#red0", "9")
        phone.wait_for_function("() => document.querySelector('output[data-out=\"0\"]').textContent === '–'")
    finally:
        phone.context.set_offline(False)
