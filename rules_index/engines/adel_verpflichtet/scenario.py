"""Driving a round of a scenario (:meth:`.game.AdelState.from_scenario`) through real actions.

Used by the probes and the tests. ``drive_round`` plays the round exclusively through ``apply``, so
every rule check of the engine runs; each action is read from a step by ``AdelState.parse_action``.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from .exhibitions import letters_of, maximal_runs
from .game import ACTION, AUCTION_TAKE, EXHIBIT, LOCATION, STEAL, SURPRISE, AdelState


def _default_show(state: AdelState, p: int) -> str:
    runs = [cards for _, cards in maximal_runs(state.collections[p]) if len(cards) >= 3]
    return letters_of(max(runs, key=len)) if runs else ""


def next_step(state: AdelState, plays: Mapping[int, str], shows: Mapping[int, str] | None = None,
              take_stack: int = 0) -> str:
    """The step the scenario prescribes for the current player. ``plays`` gives each seat's
    "<place> <card> [value]" ("card" alone when the place is announced); the buyer takes from
    ``take_stack`` (the other if it is empty); an exhibitor lays out its show (default: its largest
    exhibition); a castle thief takes the oldest card of the first exhibition it has not robbed."""
    p = state.seat_to_act()
    if state.phase in (LOCATION, ACTION):
        place, _, card = plays[p].partition(" ")
        if place not in ("auction", "castle") or state.game.variant == SURPRISE:
            return plays[p]
        return place if state.phase == LOCATION else card
    if state.phase == AUCTION_TAKE:
        return f"take {take_stack if state.stacks[take_stack] else 1 - take_stack}"
    if state.phase == EXHIBIT:
        wanted = Counter((shows or {}).get(p) or _default_show(state, p))
        missing = wanted - Counter(c.letter for c in state.selection[p])
        return f"exhibit {min(missing)}" if missing else "finish"
    if state.phase == STEAL:
        victim = min(v for v, cards in state.exhibitions.items() if v not in state.robbed and cards)
        return f"steal {victim} {min(state.exhibitions[victim]).letter}"
    raise ValueError(f"nothing to do in phase {state.phase}")


def drive_round(state: AdelState, plays: Mapping[int, str], shows: Mapping[int, str] | None = None,
                take_stack: int = 0, stop_phase: str | None = None) -> AdelState:
    """Play the current round to its end (or until ``stop_phase`` is reached) through ``apply``.
    A refused action raises RuleViolation with the state left as it was before that action."""
    start = state.round
    while not state.is_terminal() and state.round == start and state.phase != stop_phase:
        state.apply(state.parse_action(next_step(state, plays, shows, take_stack)))
    return state


def round_log(state: AdelState, round_no: int) -> list[tuple[str, dict[str, Any]]]:
    """The structured events of one round."""
    return [(kind, data) for r, kind, data in state.log if r == round_no]
