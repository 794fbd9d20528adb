"""Rule calculators of Ohne Furcht und Adel: the final score pad (Regelheft S. 2 · Spielende & Sieger).

The request and result models are the one definition of the calculator's input and output (API
validation, OpenAPI document, the limits of the score pad page).
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import InputError
from ..calculator_models import Calculator, CalculatorModel, PlayerName, whole_number
from .cards import COMPLETE_CITY, MAX_COST, MIN_COST, Color
from .scoring import ALL_COLOURS_BONUS, FIRST_COMPLETE_BONUS, LATER_COMPLETE_BONUS, score

COLOURS = tuple(c.value for c in Color)
MAX_PLAYERS = 7
MAX_DISTRICTS = 30
Colour = Literal[COLOURS]
Cost = whole_number(MIN_COST, MAX_COST)


class District(CalculatorModel):
    """A district of a city. Its cost is printed on its card; the rules list no costs, and 1 to 6 is
    a bound of this calculator, not a rule."""

    color: Colour
    cost: Cost


class Player(CalculatorModel):
    name: PlayerName
    districts: list[District] = Field(default=[], max_length=MAX_DISTRICTS)


class ScoreRequest(CalculatorModel):
    """Every player's city; ``first_complete`` names the first player with 8 districts, or null."""

    players: list[Player] = Field(min_length=1, max_length=MAX_PLAYERS)
    first_complete: str | None = None


class PlayerScore(CalculatorModel):
    name: str
    district_points: int
    all_colours_bonus: int
    complete_bonus: int
    total: int


class ScoreResult(CalculatorModel):
    """Players ranked by total; ``winner`` is null when the tie-break leaves a shared victory."""

    players: list[PlayerScore]
    winner: str | None
    winners: list[str]
    tie_break_used: bool


def final_score(request: ScoreRequest) -> ScoreResult:
    # Rules a schema cannot state: names are unique, the first to complete has a complete city.
    seen: set[str] = set()
    for i, player in enumerate(request.players):
        if player.name in seen:
            raise InputError(f"players[{i}].name", f"'{player.name}' appears twice")
        seen.add(player.name)
    cities = {p.name: [(d.color, d.cost) for d in p.districts] for p in request.players}
    first = request.first_complete
    if first is not None:
        if first not in cities:
            raise InputError("first_complete", "must be the name of one of the players, or null")
        if len(cities[first]) < COMPLETE_CITY:
            raise InputError("first_complete", f"'{first}' has fewer than {COMPLETE_CITY} districts")
    result = score(list(cities.items()), first_complete=first)
    return ScoreResult(
        players=[PlayerScore(name=name, **result["scores"][name]) for name in result["ranking"]],
        winner=result["winner"],
        winners=result["winners"],
        tie_break_used=result["tie_break_used"],
    )


CALCULATORS = {
    "score": Calculator("Final scoring of Ohne Furcht und Adel", ScoreRequest, ScoreResult, final_score),
}


def rule_table() -> dict:
    """The scoring rules as data, for the score pad computing in the browser
    (``static/calculators/ohne-furcht-und-adel.js``): the numbers live here and in ``scoring``,
    nowhere else."""
    return {
        "colours": list(COLOURS),
        "min_cost": MIN_COST,
        "max_cost": MAX_COST,
        "max_districts": MAX_DISTRICTS,
        "all_colours_bonus": ALL_COLOURS_BONUS,
        "first_complete_bonus": FIRST_COMPLETE_BONUS,
        "later_complete_bonus": LATER_COMPLETE_BONUS,
        "complete_city": COMPLETE_CITY,
    }
