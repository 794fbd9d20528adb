"""Rule engines, one package per game: ``rules_index.engines.<slug with underscores>``.

Adding a game's engine means adding its package here; it is found by the game's slug.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from .base import InputError, ProbeRegistry, Rule, RuleViolation, State

__all__ = [
    "InputError", "ProbeRegistry", "Rule", "RuleViolation", "State", "calculators_for", "engine_module",
    "probes_for", "rule_table_for", "state_class",
]


def _module_name(slug: str) -> str:
    return f"{__name__}.{slug.replace('-', '_')}"


def engine_module(slug: str) -> ModuleType | None:
    """The engine package of a game, or None when the game has no engine yet."""
    try:
        return importlib.import_module(_module_name(slug))
    except ModuleNotFoundError as exc:
        if exc.name == _module_name(slug):
            return None
        raise


def state_class(slug: str) -> type[State] | None:
    """The state class of a game's engine (``<package>.STATE``), or None."""
    module = engine_module(slug)
    return None if module is None else module.STATE


def probes_for(slug: str) -> ProbeRegistry | None:
    """The probe registry of a game's engine (``<package>.probes.PROBES``), or None."""
    if engine_module(slug) is None:
        return None
    probes = importlib.import_module(_module_name(slug) + ".probes")
    return probes.PROBES


def _calculators_module(slug: str) -> ModuleType | None:
    if engine_module(slug) is None:
        return None
    try:
        return importlib.import_module(_module_name(slug) + ".calculators")
    except ModuleNotFoundError as exc:
        if exc.name == _module_name(slug) + ".calculators":
            return None
        raise


def calculators_for(slug: str) -> dict:
    """A game's rule calculators (``<package>.calculators.CALCULATORS``), by name; may be empty."""
    module = _calculators_module(slug)
    return {} if module is None else dict(module.CALCULATORS)


def rule_table_for(slug: str) -> dict | None:
    """The rules a game's calculators compute with, as JSON-ready data
    (``<package>.calculators.rule_table()``), for the browser; None without calculators."""
    module = _calculators_module(slug)
    return None if module is None else module.rule_table()
