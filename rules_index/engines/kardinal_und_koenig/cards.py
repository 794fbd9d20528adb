"""Material of Kardinal & König: lands, card colours, supplies, fixed numbers (immutable tables).

Every number here is stated by the source (Regelheft S. 2 · Material, S. 2 · Aufbau,
S. 3–5 · Ablauf eines Zuges, S. 7 · Wertung der Klosterketten).
"""
from __future__ import annotations

from enum import Enum
from types import MappingProxyType

# The nine lands (Regelheft S. 3 · Der Plan).
LANDS: tuple[str, ...] = (
    "Franken", "Aragon", "Bayern", "Burgund", "Lothringen", "Italien", "England", "Schwaben", "Frankreich",
)


class Colour(Enum):
    """A card colour: the land(s) shown on the card and how many such cards the game has.

    Regelheft S. 2 · Material: 55 cards — 13 Franken/Aragon, 12 Bayern/Burgund,
    11 Lothringen/Italien, 10 England/Schwaben, 9 Frankreich. Two lands share a colour and stand
    together on a card; only Frankreich stands alone (S. 3 · Der Plan).
    """

    FRANKEN_ARAGON = ("Franken/Aragon", 13)
    BAYERN_BURGUND = ("Bayern/Burgund", 12)
    LOTHRINGEN_ITALIEN = ("Lothringen/Italien", 11)
    ENGLAND_SCHWABEN = ("England/Schwaben", 10)
    FRANKREICH = ("Frankreich", 9)

    def __init__(self, label: str, count: int):
        self.label = label
        self.lands = tuple(label.split("/"))  # the label names the lands the card shows
        self.count = count

    def shows(self, land: str) -> bool:
        """True if the card names ``land`` (S. 4: a card allows one stone in a land it shows)."""
        return land in self.lands

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:  # short and stable: actions are sorted by repr
        return f"Colour.{self.name}"


COLOURS: tuple[Colour, ...] = tuple(Colour)
TOTAL_CARDS = sum(c.count for c in COLOURS)  # 55

# Cards of EACH colour taken out of the game by player count (Regelheft S. 2 · Aufbau).
REMOVED_PER_COLOUR = MappingProxyType({3: 2, 4: 1, 5: 0})
MIN_PLAYERS, MAX_PLAYERS = 3, 5

HAND_SIZE = 3          # S. 2 · Aufbau, S. 4: hand refilled to 3
OPEN_CARDS = 2         # S. 2 · Aufbau: the top 2 cards lie face up
MAX_CARDS_PER_TURN = 3  # S. 4: up to 3 cards ...
MAX_STONES_PER_TURN = 2  # ... up to 2 stones, all in one land
MONASTERIES_PER_PLAYER = 20  # S. 2 · Material: 100 monasteries, 20 in each of 5 colours
COUNCILLORS_PER_PLAYER = 8   # S. 2 · Material: 40 councillors, 8 in each of 5 colours
MIN_CHAIN = 4          # S. 7 · Wertung der Klosterketten: at least 4 monasteries
NUM_ALLIANCES = 15     # S. 3 · Der Plan: numbers 1 to 15 between the lands

MONASTERY = "Kloster"
COUNCILLOR = "Rat"

PLAYER_NAMES = ("A", "B", "C", "D", "E")


def colour_of(name: str | Colour) -> Colour:
    """A colour from its label ("Bayern/Burgund"), enum name ("BAYERN_BURGUND") or one of its lands."""
    if isinstance(name, Colour):
        return name
    key = str(name).strip()
    for colour in COLOURS:  # a land name: the card that shows it
        if key in (colour.label, colour.name, *colour.lands) or key.lower() == colour.label.lower():
            return colour
    raise ValueError(f"unknown card colour {name!r}")


def card_pool(num_players: int) -> dict[Colour, int]:
    """The cards in play per colour for a player count (Regelheft S. 2 · Aufbau)."""
    return {c: c.count - REMOVED_PER_COLOUR[num_players] for c in COLOURS}
