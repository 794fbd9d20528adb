"""Rule calculators of Kardinal & König: the monastery scoring of one land (Regelheft S. 5–6).

The request and result models are the one definition of the calculator's input and output (API
validation, OpenAPI document, the limits of the calculator page).
"""
from __future__ import annotations

from pydantic import Field

from ..calculator_models import Calculator, CalculatorModel, PlayerName, whole_number
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


CALCULATORS = {
    "monastery-score": Calculator("Monastery scoring of one land", MonasteryRequest, MonasteryResult, monastery_score),
}
