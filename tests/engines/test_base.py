"""The shared engine vocabulary (rules_index/engines/base.py and the engine lookup in __init__.py).

Calculators validate their input with pydantic models (``calculator_models``); a problem becomes an
InputError naming the field and the problem, and both reach the user: the API answers
``"<field>: <message>"`` with status 400, the calculator page shows the message next to the form.
"""
from __future__ import annotations

import pytest

from rules_index.engines import calculators_for, engine_module, probes_for, state_class
from pydantic import TypeAdapter, ValidationError

from rules_index.engines.base import InputError, ProbeRegistry, Rule, RuleViolation
from rules_index.engines.calculator_models import PlayerName, field_path, input_error as as_input_error, whole_number


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
def refusal(adapter: TypeAdapter, value) -> InputError:
    with pytest.raises(ValidationError) as info:
        adapter.validate_python(value)
    return as_input_error(info.value)


@pytest.mark.parametrize("loc,path", [
    ((), "body"), (("players",), "players"), (("players", 0, "districts", 2, "cost"), "players[0].districts[2].cost"),
    (("monasteries", "Anna"), "monasteries.Anna"),
])
def test_field_path(loc, path):
    assert field_path(loc) == path


@pytest.mark.parametrize("value,expected", [(1, 1), (6, 6), (3.0, 3)])
def test_whole_number_accepts_the_whole_range(value, expected):
    assert TypeAdapter(whole_number(1, 6)).validate_python(value) == expected


@pytest.mark.parametrize("value", [0, 7, 2.5, True, "3", None])
def test_whole_number_refuses(value):
    err = refusal(TypeAdapter(whole_number(1, 6)), value)
    assert err.message == "must be a whole number from 1 to 6"


@pytest.mark.parametrize("name", ["Anna", " Anna ", "Zoë", "a" * 40, "李", "A\u00a0B"])
def test_player_names_accepted(name):
    assert TypeAdapter(PlayerName).validate_python(name) == name


@pytest.mark.parametrize("name,message", [
    ("", "needs at least 1 character(s)"),
    ("a" * 41, "may hold at most 40 characters"),
    ("   ", "must hold a visible character, not only spaces"),
    ("\u3000\ufeff", "must hold a visible character, not only spaces"),
    ("\x1f", "may not hold the character U+001F"),
    ("Anna\n", "may not hold the character U+000A"),
    ("A\x85", "may not hold the character U+0085"),
    ("A\u2028B", "may not hold the character U+2028"),
    ("\u202eanna", "may not hold the character U+202E"),
    ("A\tB", "may not hold the character U+0009"),
    ("a\ud800", "is not valid Unicode text"),
    (3, "must be a text"),
])
def test_player_names_refused(name, message):
    assert refusal(TypeAdapter(PlayerName), name).message == message


# ------------------------------------------------------------------ through the calculators
def test_monastery_calculator_bounds_are_inclusive():
    compute = calculators_for("kardinal-und-koenig")["monastery-score"]
    assert compute({"monasteries": {"A": 0, "B": 20}}) == {"points": {"A": 0, "B": 20}}
    err = input_error(compute, {"monasteries": {"A": -1}})
    assert (err.field, err.message) == ("monasteries.A", "must be a whole number from 0 to 20")
    err = input_error(compute, ["A", 3])
    assert str(err) == "body: must be an object"
    err = input_error(compute, {"monasteries": {"A\x1b": 1}})
    assert str(err) == "monasteries: a name may not hold the character U+001B"


def test_score_calculator_reports_the_field():
    compute = calculators_for("ohne-furcht-und-adel")["score"]
    out = compute({"players": [{"name": "Anna", "districts": [{"color": "green", "cost": 1}]}]})
    assert out["winner"] == "Anna" and out["players"][0]["total"] == 1
    err = input_error(compute, {"players": [{"name": " ", "districts": []}]})
    assert str(err) == "players[0].name: must hold a visible character, not only spaces"
    err = input_error(compute, {"players": [{"name": "Anna", "districts": [{"color": "green", "cost": 0}]}]})
    assert str(err) == "players[0].districts[0].cost: must be a whole number from 1 to 6"
    err = input_error(compute, {"players": [{"name": "Anna", "districts": ["green"]}]})
    assert str(err) == "players[0].districts[0]: must be an object"


# ------------------------------------------------------------------ engine lookup by slug
def test_engines_are_found_by_slug():
    assert engine_module("kardinal-und-koenig").__name__ == "rules_index.engines.kardinal_und_koenig"
    assert "steps" in probes_for("kardinal-und-koenig").names()
    assert state_class("kardinal-und-koenig").__name__ == "KardinalState" and state_class("no-such-game") is None
    assert set(calculators_for("ohne-furcht-und-adel")) == {"score"}
    assert engine_module("no-such-game") is None
    assert probes_for("no-such-game") is None and calculators_for("no-such-game") == {}
