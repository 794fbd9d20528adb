"""Rule calculators of Adel Verpflichtet: is a set of collection cards a valid exhibition?

The request and result models are the one definition of the calculator's input and output (API
validation, OpenAPI document, the limits of the calculator page).
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ..calculator_models import Calculator, CalculatorModel, Characters
from .exhibitions import REASON_GAP, REASON_TOO_FEW, exhibition_validity

MAX_CARDS = 60  # characters, spaces included
CARD = "[A-Fa-f]"  # a collection card, by its letter (cards.LETTERS)
NOT_A_CARD = "[^A-Fa-f ]"
Cards = Annotated[
    str,
    Field(max_length=MAX_CARDS),
    Characters(
        needed=CARD,
        refused=NOT_A_CARD,
        needed_message="is empty: give at least one letter A to F",
        refused_message="may only hold the letters A to F and spaces, not {char}",
    ),
]


class ExhibitionRequest(CalculatorModel):
    """The collection cards as letters, like ``AABBC``; case and spaces do not matter."""

    cards: Cards


class ExhibitionResult(CalculatorModel):
    cards: str
    valid: bool
    reason: Literal[REASON_TOO_FEW, REASON_GAP] | None


def exhibition(request: ExhibitionRequest) -> ExhibitionResult:
    letters = request.cards.replace(" ", "").upper()
    valid, reason = exhibition_validity(letters)
    return ExhibitionResult(cards=letters, valid=valid, reason=reason)


CALCULATORS = {
    "exhibition": Calculator("Is a set of collection cards a valid exhibition?", ExhibitionRequest, ExhibitionResult, exhibition),
}
