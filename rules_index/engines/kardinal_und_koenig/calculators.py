"""Rule calculators of Kardinal & König: the monastery scoring of one land and of all lands at once
(the interim scoring; Regelheft S. 5–6 · Klosterwertung).

The request and result models are the one definition of the calculator's input and output (API
validation, OpenAPI document, the limits of the calculator page).
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ..base import InputError

from ..calculator_models import Calculator, CalculatorModel, PlayerName, whole_number
from .cards import LANDS
from .scoring import monastery_points

MIN_PLAYERS, MAX_PLAYERS = 1, 5
MIN_MONASTERIES, MAX_MONASTERIES = 0, 20
Monasteries = whole_number(MIN_MONASTERIES, MAX_MONASTERIES)


class MonasteryRequest(CalculatorModel):
    """Each player's number of monasteries in the land, by name."""

    monasteries: dict[PlayerName, Monasteries] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)


class MonasteryResult(CalculatorModel):
    points: dict[str, int]


def monastery_score(request: MonasteryRequest) -> MonasteryResult:
    return MonasteryResult(points=monastery_points(request.monasteries))


Land = Literal[LANDS]


class LandsRequest(CalculatorModel):
    """Each land's monasteries per player, by land and name (a land left out holds none).

    ``players`` lists the players in their order, those without a monastery too; a name found only
    in a land is a player as well (each land holds at most 5 players' monasteries).
    """

    players: list[PlayerName] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS,
                                      json_schema_extra={"uniqueItems": True})
    lands: dict[Land, Annotated[dict[PlayerName, Monasteries], Field(max_length=MAX_PLAYERS)]] = Field(default={})


class Place(CalculatorModel):
    """A place of a land's scoring: who holds it, with how many monasteries, for how many points.

    ``worth_from`` says where the points come from: ``"land"`` (place 1: every monastery in the
    land) or ``"place-above"`` (as many as each player on the place directly above has).
    """

    place: int
    players: list[str]
    monasteries: int
    points: int
    worth_from: Literal["land", "place-above"]


class LandScore(CalculatorModel):
    land: Land
    monasteries_in_land: int
    points: dict[str, int]
    places: list[Place]


class PlayerTotal(CalculatorModel):
    """A player's points over all lands; equal totals share a rank (1, 1, 3)."""

    name: str
    total: int
    rank: int


class LandsResult(CalculatorModel):
    lands: list[LandScore]
    players: list[PlayerTotal]


def _places(counts: dict[str, int], points: dict[str, int]) -> list[Place]:
    levels = sorted({n for n in counts.values() if n > 0}, reverse=True)
    return [
        Place(place=i + 1, players=[p for p, n in counts.items() if n == level], monasteries=level,
              points=next(points[p] for p, n in counts.items() if n == level),
              worth_from="land" if i == 0 else "place-above")
        for i, level in enumerate(levels)
    ]


def lands_score(request: LandsRequest) -> LandsResult:
    # A rule the schema states (uniqueItems) but pydantic does not check: each name once.
    players = list(request.players)
    if len(set(players)) != len(players):
        dup = next(i for i, p in enumerate(players) if players.index(p) != i)
        raise InputError(f"players[{dup}]", f"'{players[dup]}' appears twice")
    for counts in request.lands.values():
        players += [name for name in counts if name not in players]
    totals = {p: 0 for p in players}
    scored: list[LandScore] = []
    for land, given in request.lands.items():  # in the request's order (the page: the rulebook's)
        counts = {p: given.get(p, 0) for p in players}
        points = monastery_points(counts)
        for p, v in points.items():
            totals[p] += v
        scored.append(LandScore(land=land, monasteries_in_land=sum(counts.values()), points=points,
                                places=_places(counts, points)))
    order = sorted(players, key=lambda p: -totals[p])
    ranked = [PlayerTotal(name=p, total=totals[p], rank=1 + sum(1 for q in players if totals[q] > totals[p]))
              for p in order]
    return LandsResult(lands=scored, players=ranked)


CALCULATORS = {
    "monastery-score": Calculator("Monastery scoring of one land", MonasteryRequest, MonasteryResult, monastery_score),
    "lands-score": Calculator("Monastery scoring of all lands (interim scoring)", LandsRequest, LandsResult,
                              lands_score),
}


def rule_table() -> dict:
    """The monastery scoring as data, for the calculators computing in the browser
    (``static/calculators/kardinal-und-koenig.js``): the lands and limits live here and in ``cards``;
    ``worth_from`` names where a place's points come from (place 1, then every place below it)."""
    return {
        "lands": list(LANDS),
        "min_monasteries": MIN_MONASTERIES,
        "max_monasteries": MAX_MONASTERIES,
        "max_players": MAX_PLAYERS,
        "worth_from": ["land", "place-above"],
    }
