"""Rule calculator of Keine Ehre unter Dieben: who takes how many loot cards after a heist
(Rezension · Das Verteilen der Beute; the source is a review without page numbers).

The request and result models are the one definition of the calculator's input and output (API
validation, OpenAPI document, the limits of the calculator page); ``rule_table`` gives the browser
the same rules as data.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import InputError
from ..calculator_models import Calculator, CalculatorModel, PlayerName, whole_number
from . import rules as R
from .cards import MAX_PLAYERS, MIN_PLAYERS, NUM_FIELDS, PRINTED_TAKE_COUNTS, TAKE_COUNTS

ENDINGS = (R.VOLUNTARY_STOP, R.MASTER_STROKE, R.CAUGHT)
Ending = Literal[ENDINGS]
Cards = whole_number(0, NUM_FIELDS)

# The loot cards the board can hold after each ending (they lie on fields 1..n): a voluntary stop
# and a master stroke follow a revealed card, a capture discards the card under the commissar. After
# a voluntary stop only the fields whose printed number the source gives (1-6) are answered: the
# engine's number for field 7 is invented.
CARDS_AFTER = {
    R.VOLUNTARY_STOP: (1, len(PRINTED_TAKE_COUNTS)),
    R.MASTER_STROKE: (1, NUM_FIELDS),
    R.CAUGHT: (0, NUM_FIELDS - 1),
}


class ShareRequest(CalculatorModel):
    """The thieves by name in their seats, clockwise; who led the heist, how it ended and how many
    loot cards lie on the board (after a capture: those left of the commissar). ``leader_takes``:
    after a master stroke, how many the leader chooses to take (null: not chosen yet). 2 to 8
    thieves is a bound of this calculator, not a rule: the review gives no number of players."""

    players: list[PlayerName] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS,
                                      json_schema_extra={"uniqueItems": True})
    leader: PlayerName
    ending: Ending
    cards: Cards
    leader_takes: Cards | None = None


class Share(CalculatorModel):
    name: str
    cards: int


class ShareResult(CalculatorModel):
    """The leader takes ``leader_min`` to ``leader_max`` cards first; then the others in ``order``
    (clockwise from the leader's left) one card each while cards last. Once the leader's share is
    known (always, except after a master stroke without ``leader_takes``): ``shares``, each thief's
    cards in that order, the leader first; ``left``, the cards still on the board; ``extra_card``,
    whether the leader may take one of them. The rest is discarded."""

    leader: str
    leader_min: int
    leader_max: int
    order: list[str]
    shares: list[Share] | None
    left: int | None
    extra_card: bool | None


def loot_sharing(request: ShareRequest) -> ShareResult:
    # Rules a schema cannot state: names once, the leader is a player, the cards fit the ending.
    players = list(request.players)
    if len(set(players)) != len(players):
        dup = next(i for i, p in enumerate(players) if players.index(p) != i)
        raise InputError(f"players[{dup}]", f"'{players[dup]}' appears twice")
    if request.leader not in players:
        raise InputError("leader", "must be the name of one of the players")
    low, high = CARDS_AFTER[request.ending]
    if not low <= request.cards <= high:
        raise InputError("cards", f"after {request.ending.replace('_', ' ')} the board holds {low} to {high} cards")
    takes = request.leader_takes
    if takes is not None and request.ending != R.MASTER_STROKE:
        raise InputError("leader_takes", "the leader chooses how many cards to take only after a master stroke")
    if takes is not None and takes > request.cards:
        raise InputError("leader_takes", f"must be at most the {request.cards} cards on the board")
    seat = players.index(request.leader)
    least, most = R.leader_quota(request.ending, max(request.cards, 1), request.cards, TAKE_COUNTS)
    order = [players[s] for s in R.others_order(seat, len(players))]
    if R.LEADER_SHARE[request.ending] == R.ANY and takes is None:  # the share waits for the leader's choice
        return ShareResult(leader=request.leader, leader_min=least, leader_max=most, order=order,
                           shares=None, left=None, extra_card=None)
    share = R.share_loot(request.ending, request.cards, seat, len(players), takes, TAKE_COUNTS)
    return ShareResult(
        leader=request.leader, leader_min=least, leader_max=most, order=order,
        shares=[Share(name=request.leader, cards=share.leader_cards)]
        + [Share(name=players[s], cards=n) for s, n in share.others],
        left=share.left, extra_card=share.extra,
    )


CALCULATORS = {
    "loot-sharing": Calculator("Who takes how many loot cards after a heist", ShareRequest, ShareResult,
                               loot_sharing),
}


def rule_table() -> dict:
    """The sharing rules as data, for the calculator computing in the browser
    (``static/calculators/keine-ehre-unter-dieben.js``): the numbers live here, in ``cards`` and
    ``rules``, nowhere else."""
    return {
        "endings": list(ENDINGS),
        "printed_take": list(PRINTED_TAKE_COUNTS),
        "cards_after": {ending: list(bounds) for ending, bounds in CARDS_AFTER.items()},
        "leader_share": dict(R.LEADER_SHARE),
        "extra_card": dict(R.EXTRA_CARD),
        "min_players": MIN_PLAYERS,
        "max_players": MAX_PLAYERS,
    }
