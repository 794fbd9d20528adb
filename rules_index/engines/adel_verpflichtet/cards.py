"""Immutable tables of Adel Verpflichtet's material: places, collection cards, cheques, thieves.

Only what the source names is fixed here (6 series A-F, two places, the four kinds of action card).
Counts and values the source does not give are parameters of ``AdelGame`` (see ``game.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

#: The six collection series, "6 Serien mit den Buchstaben A bis F" (Was eine Ausstellung ist).
LETTERS: str = "ABCDEF"
#: "mindestens 3 Sammelkarten" (Was eine Ausstellung ist).
MIN_EXHIBITION: int = 3
#: "oberste Karte von einem der beiden Stapel" (Phase 3 · Schecks).
NUM_STACKS: int = 2


class Location(str, Enum):
    """The two location cards every player holds (Phase 1)."""

    AUCTION = "auction"   # Auktionshaus
    CASTLE = "castle"     # Schloss

    def __str__(self) -> str:
        return self.value


#: Kinds of action card (Phase 2). A pass is not a card: see ``game.Pass``.
CHEQUE = "cheque"           # Scheck
THIEF = "thief"             # Dieb
DETECTIVE = "detective"     # Detektiv
EXHIBITION = "exhibition"   # Ausstellungskarte
CARD_KINDS: tuple[str, ...] = (CHEQUE, THIEF, DETECTIVE, EXHIBITION)

#: Action cards allowed per place (Phase 2): auction house cheque or thief (detective forbidden),
#: castle exhibition card, thief or detective.
ALLOWED_KINDS: dict[Location, frozenset[str]] = {
    Location.AUCTION: frozenset({CHEQUE, THIEF}),
    Location.CASTLE: frozenset({EXHIBITION, THIEF, DETECTIVE}),
}


@dataclass(frozen=True, order=True)
class CollectionCard:
    """A collection card (Sammelkarte). ``number`` is its age rank: a lower number is an OLDER object.

    The source uses "das älteste Objekt" as the tie-break but never says how age is printed; the
    engine numbers cards 1..N letter by letter (A oldest, then B ...), see ``AdelGame``.
    """

    number: int
    letter: str

    def __str__(self) -> str:
        return f"{self.letter}{self.number}"


@dataclass(frozen=True, order=True)
class Cheque:
    """A cheque (Scheck) of ``value``, printed for player ``issuer``; whoever holds it may play it."""

    value: int
    issuer: int

    def __str__(self) -> str:
        return f"${self.value}"


@dataclass(frozen=True, order=True)
class Thief:
    """A thief card (Dieb) with its loot-sack number (Zahl auf dem Beutesack), owned by ``owner``."""

    number: int
    owner: int

    def __str__(self) -> str:
        return f"T{self.number}"
