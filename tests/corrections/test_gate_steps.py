"""The gate's review runs in steps, each begun in a gap between the process's requests
(``readers_first``): an accept in a served worker shares its interpreter with readers."""
from __future__ import annotations

import datetime as dt
import shutil

from app import ROOT
from rules_index.content.writer import plan_faq_change
from rules_index.corrections import gate

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"


def test_the_review_steps_aside_between_its_parts(tmp_path, monkeypatch):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    answer = "The player with more points from districts alone, without the bonuses; a fresh sentence."
    plans = plan_faq_change(content, GAME, FAQ, {"en": {"answer": answer}}, dt.date(2026, 12, 1))
    steps = []
    monkeypatch.setattr(gate, "step_aside", lambda: steps.append("step"))
    parts = {name: getattr(gate, name) for name in ("_load", "claim_problems", "mistake_problems", "engine_problems")}
    for name, real in parts.items():
        monkeypatch.setattr(gate, name, lambda *args, _name=name, _real=real: steps.append(_name) or _real(*args))
    assert gate.review(content, GAME, "faq", FAQ, plans) == []
    assert steps == ["_load", "step", "claim_problems", "step", "mistake_problems", "step", "engine_problems"]
