"""Rule calculators of Adel Verpflichtet: is a set of collection cards a valid exhibition, and how
do the exhibitions of a round rank (Phase 4 · Ausstellungen)?

The request and result models are the one definition of the calculator's input and output (API
validation, OpenAPI document, the limits of the calculator page).
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field


from ..calculator_models import Calculator, CalculatorModel, Characters, PlayerName, whole_number
from . import exhibitions as X
from .cards import LETTERS, MIN_EXHIBITION
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


# The source names no player count; the prison has "so viele Zellen, wie Personen mitspielen".
# The limit only bounds a request.
MAX_EXHIBITORS = 8
MAX_AGE = 100_000
Age = whole_number(0, MAX_AGE)
Decision = Literal[
    X.DECIDED_ONLY_ONE, X.DECIDED_FIRST, X.DECIDED_MORE_CARDS, X.DECIDED_OLDER_OBJECT,
    X.TIED_AGE_UNKNOWN, X.TIED_SAME_AGE,
]
InvalidReason = Literal[REASON_TOO_FEW, REASON_GAP]


class Exhibit(CalculatorModel):
    """One player's exhibition: the collection card letters (``AABBC``) and, for ties on the number
    of cards, the age of its oldest object as the cards show it (greater = older)."""

    cards: Cards
    oldest_age: Age | None = None


class RankingRequest(CalculatorModel):
    """Every exhibition shown in the castle this round, by player name."""

    players: dict[PlayerName, Exhibit] = Field(min_length=1, max_length=MAX_EXHIBITORS)


class RankedExhibition(CalculatorModel):
    """A valid exhibition; ``decided_by`` says how it stands against the one ranked directly above."""

    name: str
    cards: str
    count: int
    oldest_age: int | None
    place: int
    decided_by: Decision


class InvalidExhibition(CalculatorModel):
    name: str
    cards: str
    reason: InvalidReason


class RankingResult(CalculatorModel):
    """Valid exhibitions, most valuable first (equal places where the rules cannot decide), and the
    invalid ones with their reason."""

    ranking: list[RankedExhibition]
    invalid: list[InvalidExhibition]


def exhibitions_ranking(request: RankingRequest) -> RankingResult:
    shown = request.players
    ranked, invalid = X.compare_exhibitions({name: (p.cards, p.oldest_age) for name, p in shown.items()})
    return RankingResult(
        ranking=[RankedExhibition(name=r.player, cards=r.cards, count=r.count, oldest_age=r.oldest_age,
                                  place=r.place, decided_by=r.decided_by) for r in ranked],
        invalid=[InvalidExhibition(name=name, cards=p.cards.replace(" ", "").upper(), reason=invalid[name])
                 for name, p in shown.items() if name in invalid],
    )


CALCULATORS = {
    "exhibition": Calculator("Is a set of collection cards a valid exhibition?",
                             ExhibitionRequest, ExhibitionResult, exhibition),
    "exhibitions-ranking": Calculator("Ranking of the exhibitions of one round",
                                      RankingRequest, RankingResult, exhibitions_ranking),
}


def rule_table() -> dict:
    """The exhibition rules as data, for the calculators computing in the browser
    (``static/calculators/adel-verpflichtet.js``): the letters and the smallest exhibition live in
    ``cards``, the answers' words in ``exhibitions``."""
    return {
        "letters": LETTERS,
        "min_exhibition": MIN_EXHIBITION,
        "max_cards": MAX_CARDS,
        "max_age": MAX_AGE,
        "reasons": {"too_few": REASON_TOO_FEW, "gap": REASON_GAP},
        "decided": {"only_one": X.DECIDED_ONLY_ONE, "first": X.DECIDED_FIRST, "more_cards": X.DECIDED_MORE_CARDS,
                    "older_object": X.DECIDED_OLDER_OBJECT, "age_unknown": X.TIED_AGE_UNKNOWN,
                    "same_age": X.TIED_SAME_AGE},
    }
