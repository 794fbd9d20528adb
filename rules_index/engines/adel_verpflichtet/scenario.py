"""Building concrete engine states from plain data, and driving a round through real actions.

Used by the probes and the tests. ``setup_state`` only places material (every card stays accounted
for); ``drive_round`` plays the round exclusively through ``legal``-checked ``apply`` calls, so every
rule check of the engine runs.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from .cards import CHEQUE, THIEF, CollectionCard, Location
from .exhibitions import letters_of, maximal_runs
from .game import (
    ACTION, AUCTION_TAKE, EXHIBIT, LOCATION, STEAL, SURPRISE,
    AdelGame, AdelState, ChooseBoth, ChooseLocation, ExhibitCard, FinishExhibition, Pass, PlayCard,
    Steal, TakeCard, check_invariants,
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


def setup_state(game: AdelGame, seed: int = 0, *, collections: Mapping[int, str] | None = None,
                stacks: list[str] | None = None, leftovers: int | str = "stacks",
                positions: list[int] | None = None, prison: list[int] | None = None,
                cash_box: list[int] | None = None, give_cheques: Mapping[int, list[int]] | None = None,
                ) -> AdelState:
    """A fresh game state with material placed as given.

    collections: player -> letters (each letter takes the oldest free card of that series);
    stacks: two letter strings, top card FIRST; leftovers: where the remaining collection cards go
    ("stacks": shuffled under the given stacks, or a player index: into that collection);
    positions: pawn positions; prison: thief numbers, cell 1 first; cash_box: cheque values already
    in the cash box (from earlier rounds); give_cheques: player -> cheque values moved into that hand.
    """
    state = game.new_initial_state(seed)
    pool = sorted(game.all_cards())

    def take(letter: str) -> CollectionCard:
        card = next((c for c in pool if c.letter == letter.upper()), None)
        if card is None:
            raise ValueError(f"no collection card {letter} left (cards_per_letter={game.cards_per_letter})")
        pool.remove(card)
        return card

    cols: list[list[CollectionCard]] = [[] for _ in range(game.num_players)]
    for p, letters in players_map(collections).items():
        cols[p] = [take(c) for c in letters if c.isalpha()]
    if stacks is not None:
        new_stacks = [list(reversed([take(c) for c in s if c.isalpha()])) for s in stacks]
        while len(new_stacks) < 2:
            new_stacks.append([])
        if leftovers == "stacks":
            state.rng.shuffle(pool)
            for i, card in enumerate(pool):
                new_stacks[i % 2].insert(0, card)
        else:
            cols[int(leftovers)].extend(pool)
    else:
        state.rng.shuffle(pool)
        half = (len(pool) + 1) // 2
        new_stacks = [pool[:half], pool[half:]]
    state.stacks = new_stacks
    state.collections = cols
    state.auction_closed = not any(new_stacks)
    if positions is not None:
        state.positions = [int(x) for x in positions]
    for number in prison or []:
        thief = next(t for hand in state.thieves for t in hand if t.number == int(number))
        state.thieves[thief.owner].remove(thief)
        state.prison.append(thief)
    for value in cash_box or []:
        _move_cheque(state, int(value), None)
    for p, values in players_map(give_cheques).items():
        for value in values:
            _move_cheque(state, int(value), p)
    problems = check_invariants(state)
    if problems:
        raise ValueError("; ".join(problems))
    return state


def _move_cheque(state: AdelState, value: int, to: int | None) -> None:
    for hand in state.hands:
        for cheque in hand:
            if cheque.value == value:
                hand.remove(cheque)
                (state.cash_box if to is None else state.hands[to]).append(cheque)
                if to is not None:
                    state.hands[to].sort()
                return
    raise ValueError(f"no cheque of value {value} in any hand")


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
    p = state.current_player()
    shows = shows or {}
    if state.phase in (LOCATION, ACTION):
        loc, kind, value = parse_play(plays[p])
        if kind == "pass":
            return Pass(p)
        value = _default_value(state, p, kind, value)
        if state.phase == LOCATION and state.game.variant == SURPRISE:
            return ChooseBoth(p, loc, kind, value)
        if state.phase == LOCATION:
            return ChooseLocation(p, loc)
        return PlayCard(p, kind, value)
    if state.phase == AUCTION_TAKE:
        stack = take_stack if state.stacks[take_stack] else 1 - take_stack
        return TakeCard(p, stack)
    if state.phase == EXHIBIT:
        wanted = Counter((shows.get(p) or _default_show(state, p)).upper())
        have = Counter(c.letter for c in state.selection[p])
        missing = wanted - have
        if not missing:
            return FinishExhibition(p)
        letter = sorted(missing)[0]
        free = [c for c in sorted(state.collections[p]) if c.letter == letter and c not in state.selection[p]]
        if not free:
            raise ValueError(f"P{p} has no free card {letter} to exhibit")
        return ExhibitCard(p, free[0])
    if state.phase == STEAL:
        victim = min(v for v, cards in state.exhibitions.items() if v not in state.robbed and cards)
        cards = sorted(state.exhibitions[victim])
        return Steal(p, victim, cards[0] if steal == "oldest" else cards[-1])
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


__all__ = ["setup_state", "drive_round", "next_action", "parse_play", "players_map",
           "letter_capacity", "round_log"]
