"""Driving a round of a scenario (:meth:`.game.AdelState.from_scenario`) through real actions.

Used by the probes and the tests. ``drive_round`` plays the round exclusively through ``apply``, so
every rule check of the engine runs.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from .cards import CHEQUE, THIEF, Location
from .exhibitions import letters_of, maximal_runs
from .game import (
    ACTION, AUCTION_TAKE, EXHIBIT, LOCATION, STEAL, SURPRISE,
    AdelState, ChooseBoth, ChooseLocation, ExhibitCard, FinishExhibition, Pass, PlayCard, Steal, TakeCard,
)

PLACE_WORDS = {"auction": Location.AUCTION, "auktionshaus": Location.AUCTION,
               "castle": Location.CASTLE, "schloss": Location.CASTLE}


def players_map(data: Mapping[Any, Any] | None) -> dict[int, Any]:
    """JSON-like {"0": x} or {0: x} -> {0: x}."""
    return {int(k): v for k, v in (data or {}).items()}


def letter_capacity(*letter_strings: str) -> int:
    """Cards per letter a scenario needs (at least the default 4)."""
    counts = Counter(c.upper() for s in letter_strings for c in s if c.isalpha())
    return max([4] + [n for n in counts.values()])


def parse_play(spec: str) -> tuple[Location | None, str, int | None]:
    """"auction cheque 13" / "castle thief" / "castle thief 6" / "castle detective" /
    "castle exhibition" / "cheque 5" (place announced: confrontation) / "pass"."""
    words = spec.lower().split()
    loc = None
    if words and words[0] in PLACE_WORDS:
        loc = PLACE_WORDS[words.pop(0)]
    if not words:
        raise ValueError(f"play {spec!r} names no card")
    kind = words[0]
    value = int(words[1]) if len(words) > 1 else None
    return loc, kind, value


def _default_value(state: AdelState, p: int, kind: str, value: int | None) -> int | None:
    if value is not None or kind not in (CHEQUE, THIEF):
        return value
    if kind == CHEQUE:
        return max((c.value for c in state.hands[p]), default=None)
    return min((t.number for t in state.thieves[p]), default=None)


def _default_show(state: AdelState, p: int) -> str:
    runs = [cards for _, cards in maximal_runs(state.collections[p]) if len(cards) >= 3]
    return letters_of(max(runs, key=len)) if runs else ""


def next_action(state: AdelState, plays: Mapping[int, str], shows: Mapping[int, str] | None = None,
                take_stack: int = 0, steal: str = "oldest"):
    """The action the scenario prescribes for the current player (not yet validated)."""
    p, name = state.seat_to_act(), state.current_player()
    shows = shows or {}
    if state.phase in (LOCATION, ACTION):
        loc, kind, value = parse_play(plays[p])
        if kind == "pass":
            return Pass(name)
        value = _default_value(state, p, kind, value)
        if state.phase == LOCATION and state.game.variant == SURPRISE:
            return ChooseBoth(name, loc, kind, value)
        if state.phase == LOCATION:
            return ChooseLocation(name, loc)
        return PlayCard(name, kind, value)
    if state.phase == AUCTION_TAKE:
        stack = take_stack if state.stacks[take_stack] else 1 - take_stack
        return TakeCard(name, stack)
    if state.phase == EXHIBIT:
        wanted = Counter((shows.get(p) or _default_show(state, p)).upper())
        have = Counter(c.letter for c in state.selection[p])
        missing = wanted - have
        if not missing:
            return FinishExhibition(name)
        letter = sorted(missing)[0]
        free = [c for c in sorted(state.collections[p]) if c.letter == letter and c not in state.selection[p]]
        if not free:
            raise ValueError(f"P{p} has no free card {letter} to exhibit")
        return ExhibitCard(name, free[0])
    if state.phase == STEAL:
        victim = min(v for v, cards in state.exhibitions.items() if v not in state.robbed and cards)
        cards = sorted(state.exhibitions[victim])
        return Steal(name, str(victim), cards[0] if steal == "oldest" else cards[-1])
    raise ValueError(f"nothing to do in phase {state.phase}")


def drive_round(state: AdelState, plays: Mapping[int, str], shows: Mapping[int, str] | None = None,
                take_stack: int = 0, steal: str = "oldest", stop_phase: str | None = None) -> AdelState:
    """Play the current round to its end (or until ``stop_phase`` is reached) through ``apply``.
    A refused action raises RuleViolation with the state left as it was before that action."""
    start = state.round
    while not state.is_terminal() and state.round == start:
        if stop_phase is not None and state.phase == stop_phase:
            break
        state.apply(next_action(state, plays, shows, take_stack, steal))
    return state


def round_log(state: AdelState, round_no: int) -> list[tuple[str, dict]]:
    """The structured events of one round."""
    return [(kind, data) for r, kind, data in state.log if r == round_no]


__all__ = ["drive_round", "next_action", "parse_play", "players_map",
           "letter_capacity", "round_log"]
