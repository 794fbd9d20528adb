"""The engine kernel: rules and refusals, the state every game's engine subclasses, random play and
the one generic probe.

Engines are plain Python: they know nothing of Flask, YAML or the content files. A game is a
:class:`State` subclass: its data, ``legal_actions()``, ``check(action)`` (the rules, returning a
:class:`RuleViolation` or None), ``perform(action)``, ``returns()`` (points by player name) and
``from_scenario(data)``. ``apply``, ``attempt``, ``play_random`` and the generic probe come from here.
A guide with a complete toy game: ``rules_index/engines/README.md``.
"""
from __future__ import annotations

import copy
import pickle
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence


@dataclass(frozen=True)
class Rule:
    """A rule of a game, named and cited as the rulebook names it (e.g. "Dieb", "S. 2")."""

    name: str
    citation: str

    def __str__(self) -> str:
        return f"{self.name} ({self.citation})"


class RuleViolation(Exception):
    """An action the rules forbid: the broken rule, where the rulebook states it, and why (English)."""

    def __init__(self, rule: Rule, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{message} [{rule}]")


class State:
    """The whole state of one game, mutable and owned by its caller (``copy()`` for a private copy).

    ``legal_actions()`` lists exactly the actions ``apply`` accepts. ``check`` runs every rule before
    anything changes, so a refused action leaves the state as it was; ``attempt`` asserts that.
    """

    history: list[str]
    #: Attributes that never change in a game (parameters, the board): left out of the fingerprint.
    constant: tuple[str, ...] = ()

    # ------------------------------------------------------------------ what a game writes
    def legal_actions(self) -> list:
        raise NotImplementedError

    def check(self, action: Any) -> RuleViolation | None:
        """The first rule the action breaks now, or None when it is legal."""
        raise NotImplementedError

    def perform(self, action: Any) -> None:
        """Carry out an action ``check`` accepted."""
        raise NotImplementedError

    def current_player(self) -> str | None:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def returns(self) -> dict[str, int]:
        """Points by player name (final once ``is_terminal()``)."""
        raise NotImplementedError

    @classmethod
    def new_game(cls, seed: int = 0, **params: Any) -> "State":
        raise NotImplementedError

    @classmethod
    def from_scenario(cls, data: Mapping[str, Any]) -> "State":
        """A state described as data (the ``given`` of a check, minus its ``steps``)."""
        raise NotImplementedError

    def parse_action(self, step: Any) -> Any:
        """The action a scenario's step (usually a short text) names, read against this state."""
        raise NotImplementedError

    def observe(self) -> dict[str, Any]:
        """What the generic probe reports after the steps."""
        return {"terminal": self.is_terminal(), "returns": self.returns()}

    def follow_up(self) -> Any:
        """An action a scenario takes for granted after a step (e.g. which drawn card to keep)."""
        return None

    # ------------------------------------------------------------------ the shared template
    def apply(self, action: Any) -> None:
        """Check, log, perform; a refused action raises its RuleViolation and changes nothing."""
        violation = self.check(action)
        if violation is not None:
            raise violation
        self.history.append(self.describe(action))
        self.perform(action)

    def describe(self, action: Any) -> str:
        """The history's line for an action about to be performed."""
        return f"{self.current_player()}: {action}"

    def attempt(self, action: Any) -> "RuleViolation | State":
        """The refusal of an illegal action, or this state after a legal one."""
        before = self.fingerprint()
        try:
            self.apply(action)
        except RuleViolation as refusal:
            if self.fingerprint() != before:
                raise AssertionError(f"refusing {action} changed the state") from refusal
            return refusal
        return self

    def fingerprint(self) -> bytes:
        """Everything the state holds, as bytes: equal before and after a refusal."""
        return pickle.dumps({k: v for k, v in self.__dict__.items() if k not in self.constant})

    def copy(self) -> "State":
        return copy.deepcopy(self)

    def trace(self) -> str:
        return "\n".join(self.history)

    @classmethod
    def play_random(cls, seed: int, max_actions: int = 100_000, **params: Any) -> "State":
        """A complete game, every action uniformly random among the legal ones; a seed replays it."""
        state = cls.new_game(seed, **params)
        chooser = random.Random(f"choices {seed}")
        for _ in range(max_actions):
            if state.is_terminal():
                return state
            actions = state.legal_actions()
            if not actions:
                raise RuntimeError(f"no legal action in a running game: {state!r}")
            state.apply(chooser.choice(actions))
        raise RuntimeError(f"game did not end within {max_actions} actions")


def broken_rule(state: State, action: Any) -> str | None:
    """Attempt ``action`` on ``state``: the name of the rule refusing it, or None (it is done)."""
    outcome = state.attempt(action)
    return outcome.rule.name if isinstance(outcome, RuleViolation) else None


Probe = Callable[[Mapping[str, Any]], dict]

GENERIC = "steps"


def run_steps(state_class: type[State], given: Mapping[str, Any]) -> dict:
    """The generic probe: build ``given`` (minus ``steps``) with ``from_scenario``, try each step in
    order, then observe. Reports ``legal`` and ``rules`` (the broken rule's name or None) per step."""
    data = dict(given)
    steps: Sequence[Any] = data.pop("steps", None) or []
    state = state_class.from_scenario(data)
    legal, rules = [], []
    for step in steps:
        rule = broken_rule(state, state.parse_action(step))
        legal.append(rule is None)
        rules.append(rule)
        follow = None if rule else state.follow_up()
        while follow is not None:
            state.apply(follow)
            follow = state.follow_up()
    return {"legal": legal, "rules": rules, **state.observe()}


class ProbeRegistry:
    """The probes of one game, by name. A probe takes ``given`` and returns observed facts.

    With a state class the registry also holds the generic probe (:data:`GENERIC`) for it.
    """

    def __init__(self, state_class: type[State] | None = None) -> None:
        self._probes: dict[str, Probe] = {}
        if state_class is not None:
            self(GENERIC)(lambda given: run_steps(state_class, given))

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
