"""The shared engine vocabulary (rules_index/engines/base.py and the engine lookup in __init__.py).

The require_* helpers validate calculator input; their InputError names the field and the problem,
and both reach the user: the API answers ``"<field>: <message>"`` with status 400, the calculator
page shows the message next to the form.
"""
from __future__ import annotations

import pytest

from rules_index.engines import calculators_for, engine_module, probes_for
from rules_index.engines.base import (
    InputError,
    ProbeRegistry,
    Rule,
    RuleViolation,
    require_int,
    require_list,
    require_mapping,
    require_text,
)


def input_error(fn, *args, **kw) -> InputError:
    with pytest.raises(InputError) as info:
        fn(*args, **kw)
    return info.value


# ------------------------------------------------------------------ rules and violations
def test_rule_violation_names_rule_and_citation():
    rule = Rule("Dieb", "Regelheft S. 2 · Dieb")
    exc = RuleViolation(rule, "Nur der Dieb bestiehlt.")
    assert exc.rule is rule and exc.message == "Nur der Dieb bestiehlt."
    assert str(exc) == "Nur der Dieb bestiehlt. [Dieb (Regelheft S. 2 · Dieb)]"


def test_probe_registry():
    probes = ProbeRegistry()

    @probes("echo")
    def echo(given):
        return {"given": given}

    assert probes.names() == ["echo"] and probes.get("echo") is echo and probes.get("nope") is None
    assert probes.run("echo", None) == {"given": {}}
    with pytest.raises(KeyError):
        probes.run("nope", {})
    with pytest.raises(ValueError):
        probes("echo")(echo)


# ------------------------------------------------------------------ input validation
def test_require_mapping():
    assert require_mapping({"a": 1}, "body") == {"a": 1}
    err = input_error(require_mapping, [1], "body")
    assert (err.field, err.message) == ("body", "must be an object")
    assert str(err) == "body: must be an object"


def test_require_list():
    assert require_list([1, 2], "players", min_items=1, max_items=2) == [1, 2]
    assert input_error(require_list, "x", "players").message == "must be a list"
    assert input_error(require_list, [], "players", min_items=1).message == "needs at least 1 item(s)"
    assert input_error(require_list, [1, 2, 3], "players", max_items=2).message == "may hold at most 2 items"


@pytest.mark.parametrize("value,expected", [(1, 1), (6, 6), (3.0, 3)])
def test_require_int_accepts_the_whole_range(value, expected):
    assert require_int(value, "cost", 1, 6) == expected


@pytest.mark.parametrize("value", [0, 7, 2.5, True, "3", None])
def test_require_int_refuses(value):
    err = input_error(require_int, value, "players[0].districts[2].cost", 1, 6)
    assert err.field == "players[0].districts[2].cost"
    assert err.message == "must be a whole number from 1 to 6"


def test_require_text():
    assert require_text("  Anna ", "players[0].name") == "Anna"
    assert require_text("x" * 40, "players[0].name", 40) == "x" * 40
    for bad in ("", "   ", None, 3):
        err = input_error(require_text, bad, "players[0].name", 40)
        assert (err.field, err.message) == ("players[0].name", "must be a non-empty text")
    err = input_error(require_text, "x" * 41, "players[0].name", 40)
    assert (err.field, err.message) == ("players[0].name", "may be at most 40 characters long")


# ------------------------------------------------------------------ through the calculators
def test_monastery_calculator_bounds_are_inclusive():
    compute = calculators_for("kardinal-und-koenig")["monastery-score"]
    assert compute({"monasteries": {"A": 0, "B": 20}}) == {"points": {"A": 0, "B": 20}}
    err = input_error(compute, {"monasteries": {"A": -1}})
    assert (err.field, err.message) == ("monasteries.A", "must be a whole number from 0 to 20")
    err = input_error(compute, ["A", 3])
    assert str(err) == "body: must be an object"


def test_score_calculator_reports_the_field():
    compute = calculators_for("ohne-furcht-und-adel")["score"]
    out = compute({"players": [{"name": "Anna", "districts": [{"color": "green", "cost": 1}]}]})
    assert out["winner"] == "Anna" and out["players"][0]["total"] == 1
    err = input_error(compute, {"players": [{"name": " ", "districts": []}]})
    assert str(err) == "players[0].name: must be a non-empty text"
    err = input_error(compute, {"players": [{"name": "Anna", "districts": [{"color": "green", "cost": 0}]}]})
    assert str(err) == "players[0].districts[0].cost: must be a whole number from 1 to 6"
    err = input_error(compute, {"players": [{"name": "Anna", "districts": ["green"]}]})
    assert str(err) == "players[0].districts[0]: must be an object"


# ------------------------------------------------------------------ engine lookup by slug
def test_engines_are_found_by_slug():
    assert engine_module("kardinal-und-koenig").__name__ == "rules_index.engines.kardinal_und_koenig"
    assert "play" in probes_for("kardinal-und-koenig").names()
    assert set(calculators_for("ohne-furcht-und-adel")) == {"score"}
    assert engine_module("no-such-game") is None
    assert probes_for("no-such-game") is None and calculators_for("no-such-game") == {}
