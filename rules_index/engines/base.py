"""Shared vocabulary of the rule engines: rule citations, rule violations and probe registries.

Engines are plain Python: they know nothing of Flask, YAML or the content files. Each game's engine
package exposes its rules as state objects with ``legal_actions()`` and ``apply(action)``, and a
``probes`` module whose functions build real engine states from a scenario and report what happened.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class Rule:
    """A rule of a game, named and cited as the rulebook names it (e.g. "Dieb", "S. 2")."""

    name: str
    citation: str

    def __str__(self) -> str:
        return f"{self.name} ({self.citation})"


class RuleViolation(Exception):
    """An action the rules forbid. Names the broken rule and where the rulebook states it."""

    def __init__(self, rule: Rule, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{message} [{rule}]")


Probe = Callable[[Mapping[str, Any]], dict]


class ProbeRegistry:
    """The probes of one game, by name. A probe takes ``given`` and returns observed facts."""

    def __init__(self) -> None:
        self._probes: dict[str, Probe] = {}

    def __call__(self, name: str) -> Callable[[Probe], Probe]:
        def register(fn: Probe) -> Probe:
            if name in self._probes:
                raise ValueError(f"probe {name!r} registered twice")
            self._probes[name] = fn
            return fn

        return register

    def names(self) -> list[str]:
        return sorted(self._probes)

    def get(self, name: str) -> Probe | None:
        return self._probes.get(name)

    def run(self, name: str, given: Mapping[str, Any]) -> dict:
        probe = self._probes.get(name)
        if probe is None:
            raise KeyError(name)
        return probe(dict(given or {}))


class InputError(ValueError):
    """Bad input to a calculator: names the field (``players[0].districts[2].cost``) and the problem."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")
