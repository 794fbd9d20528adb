"""Pure rule functions of Keine Ehre unter Dieben: the heist, sharing the loot, laying out loot.

No state, no randomness: the state object (``game.py``) calls these, and tests and probes may call
them directly. Citations name the review's sections (the source has no page numbers).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ..base import Rule
from .cards import BELL_LIMIT, NUM_FIELDS, TAKE_COUNTS, LootCard

SRC = "Rezension"

R_SETUP = Rule("Spielaufbau", f"{SRC} · Spielaufbau")
R_LEADER = Rule("Anführer", f"{SRC} · Der Spielablauf")
R_RAID = Rule("Raubzug", f"{SRC} · Der Raubzug")
R_VOLUNTARY = Rule("Freiwilliges Ende", f"{SRC} · Das Verteilen der Beute")
R_MASTER = Rule("Meisterstreich", f"{SRC} · Das Verteilen der Beute")
R_CAUGHT = Rule("Auf frischer Tat ertappt", f"{SRC} · Das Verteilen der Beute")
R_SHARE = Rule("Verteilen der Beute", f"{SRC} · Das Verteilen der Beute")
R_LAYOUT = Rule("Beutekarten auslegen", f"{SRC} · Beutekarten auslegen")
R_GAME_END = Rule("Spielende", f"{SRC} · Das Spielende und die Wertung")

# Outcomes of a heist.
OPEN = "open"
VOLUNTARY_STOP = "voluntary_stop"
MASTER_STROKE = "master_stroke"
CAUGHT = "caught"

# The leader's share by how the heist ended (Rezension · Das Verteilen der Beute): the number printed
# under the last card, as many as he wants, or nothing; and whether he may take one more card after
# the others. Data, so that the calculators' rule table states the same rule.
PRINTED, ANY, NONE = "printed", "any", "none"
LEADER_SHARE = {VOLUNTARY_STOP: PRINTED, MASTER_STROKE: ANY, CAUGHT: NONE}
EXTRA_CARD = {VOLUNTARY_STOP: True, MASTER_STROKE: True, CAUGHT: False}


# --------------------------------------------------------------------------- the heist


def move_commissar(position: int, steps: int) -> int:
    """Move the commissar ``steps`` fields towards the band (towards field 1). Rezension · Der Raubzug.

    Source silent on moving past field 1; the commissar stops on field 1 (he never leaves the board).
    """
    return max(1, position - steps)


def heist_status(commissar: int, last_field: int, num_fields: int = NUM_FIELDS,
                 full_board_outcome: str = VOLUNTARY_STOP) -> str:
    """Situation after a card was laid on ``last_field`` and the commissar moved. Rezension · Der Raubzug.

    * commissar on a field holding a card (``commissar <= last_field``): the leader is caught;
    * commissar directly next to the last card (also when a card without movement is laid next to
      him): master stroke, the heist ends at once;
    * free fields remain between commissar and last card: the leader may go on (``"open"``).
    Source silent: the 7th field filled while the commissar is still further away (only possible with a
    commissar start beyond position 8) ends the heist as ``full_board_outcome``.
    """
    if commissar <= last_field:
        return CAUGHT
    if commissar == last_field + 1:
        return MASTER_STROKE
    if last_field >= num_fields:
        return full_board_outcome
    return OPEN


# --------------------------------------------------------------------------- sharing the loot


def leader_quota(outcome: str, last_field: int, cards_on_board: int,
                 take_counts: Sequence[int] = TAKE_COUNTS) -> tuple[int, int]:
    """(min, max) cards the leader takes first. Rezension · Das Verteilen der Beute.

    Voluntary stop: exactly the number printed under the last card laid (1 on fields 1-3, 2 on 4-5,
    4 on 6). Caught: nothing. Master stroke: as many as he wants (0 up to all).
    """
    share = LEADER_SHARE.get(outcome)
    if share == PRINTED:
        n = min(take_counts[last_field - 1], cards_on_board)
        return (n, n)
    if share == ANY:
        return (0, cards_on_board)
    if share == NONE:
        return (0, 0)
    raise ValueError(f"unknown outcome {outcome!r}")


def others_order(leader: int, num_players: int) -> tuple[int, ...]:
    """The other thieves, clockwise starting at the leader's left (seat leader+1). Rezension · Das
    Verteilen der Beute."""
    return tuple((leader + i) % num_players for i in range(1, num_players))


def leader_may_take_extra(outcome: str, cards_left: int) -> bool:
    """After every other thief had a card, a leader who was not caught may take one more card if any
    remain. Rezension · Das Verteilen der Beute."""
    return EXTRA_CARD[outcome] and cards_left > 0


@dataclass(frozen=True)
class LootShare:
    """One round's loot, shared (Rezension · Das Verteilen der Beute): the leader takes
    ``leader_cards`` first; then each seat of ``others`` (clockwise from the leader's left) takes its
    number, one card while cards last; of the ``left`` cards after that the leader may take one more
    if ``extra``; the rest is discarded."""

    leader_cards: int
    others: tuple[tuple[int, int], ...]  # (seat, cards)
    left: int
    extra: bool


def share_loot(outcome: str, cards: int, leader: int, num_players: int, leader_takes: int | None = None,
               take_counts: Sequence[int] = TAKE_COUNTS) -> LootShare:
    """How ``cards`` loot cards on the board are shared after a heist that ended in ``outcome``.
    Rezension · Das Verteilen der Beute.

    The cards lie on fields 1..``cards`` (after a capture: those left of the commissar), so after a
    voluntary stop the last card lies on field ``cards``. ``leader_takes`` is the leader's choice
    after a master stroke (0 up to all); after the other endings his share is fixed and
    ``leader_takes`` may only repeat it. Raises ValueError for a share the rules do not allow.
    """
    low, high = leader_quota(outcome, max(cards, 1), cards, take_counts)  # no card: no share
    taken = low if leader_takes is None else leader_takes
    if not low <= taken <= high:
        raise ValueError(f"the leader takes {low} to {high} cards after {outcome}, not {taken}")
    left = cards - taken
    others = []
    for seat in others_order(leader, num_players):
        got = min(1, left)  # one card each; the last in the order may go without
        left -= got
        others.append((seat, got))
    return LootShare(taken, tuple(others), left, leader_may_take_extra(outcome, left))


def next_leader(leader: int, num_players: int, rotation: str = "clockwise") -> int:
    """The leader changes from round to round (Rezension · Der Spielablauf). Source silent on the
    direction: ``clockwise`` (default, the left neighbour) or ``counterclockwise``."""
    step = 1 if rotation == "clockwise" else -1
    return (leader + step) % num_players


# --------------------------------------------------------------------------- laying out loot


def bells_in_row(holding: Iterable[LootCard], colour: str) -> int:
    return sum(1 for c in holding if c.colour == colour and c.bell)


def razzia_due(holding: Iterable[LootCard], card: LootCard, bell_limit: int = BELL_LIMIT) -> bool:
    """A police raid happens when the third card with a bell lands in one colour row (``card`` has just
    been added to ``holding``). Rezension · Beutekarten auslegen."""
    return card.bell and bells_in_row(holding, card.colour) >= bell_limit


@dataclass(frozen=True)
class LayOut:
    """Result of laying out one card: the player's new holding, the reserve, lost cards and events."""

    holding: tuple[LootCard, ...]
    reserve: tuple[LootCard, ...]
    lost: tuple[LootCard, ...]
    events: tuple[tuple, ...]


def lay_out(holding: Sequence[LootCard], card: LootCard, reserve: Sequence[LootCard],
            bell_limit: int = BELL_LIMIT, compartment_after_razzia: bool = True) -> LayOut:
    """Lay ``card`` out in its colour row. Rezension · Beutekarten auslegen.

    Third bell in the row: police raid, all cards of that colour are lost (discarded). Secret
    compartment: draw the top card of the reserve and lay it out by the same rules (which may chain).
    Source silent: an empty reserve gives nothing; whether a compartment card lost in the very raid it
    triggered still gives its draw (``compartment_after_razzia``, default yes: the symbol was laid out).
    """
    holding_l = list(holding)
    reserve_l = list(reserve)
    lost: list[LootCard] = []
    events: list[tuple] = []
    pending = [card]
    while pending:
        c = pending.pop(0)
        holding_l.append(c)
        events.append(("lay", c))
        raided = razzia_due(holding_l, c, bell_limit)
        if raided:
            row = [x for x in holding_l if x.colour == c.colour]
            holding_l = [x for x in holding_l if x.colour != c.colour]
            lost.extend(row)
            events.append(("razzia", c.colour, tuple(row)))
        if c.compartment and reserve_l and (compartment_after_razzia or not raided):
            drawn = reserve_l.pop(0)
            events.append(("compartment", drawn))
            pending.append(drawn)
    return LayOut(tuple(holding_l), tuple(reserve_l), tuple(lost), tuple(events))
