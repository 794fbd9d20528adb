"""Material of Ohne Furcht und Adel: district colours, district cards, characters (immutable tables).

Source: the German rules summary ``ohne-furcht-und-adel.de.txt`` (Regelheft S. 1 · Material, Die Bauwerke,
Die acht Charaktere). The source gives the number of district cards per colour (65 in all: 20 green,
12 yellow, 11 red, 11 blue, 11 purple) but NOT the cost printed on each card. The cost table below
(``DEFAULT_DISTRICT_TABLE``) is therefore a parameter: it follows the composition of the base deck
as third-party card listings give it (costs 1..6), unverified against the printed cards, and any other
table can be passed to the game (``GameConfig.district_table``). Purple districts are plain purple
districts here: their special texts are printed only on the cards ("Die Texte der violetten
Sonderbauwerke stehen nur auf den Karten"), so the engine knows nothing of them and a purple district
scores exactly its cost.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Mapping


class Color(str, Enum):
    """The five district colours (Regelheft S. 1 · Die Bauwerke)."""

    GREEN = "green"
    YELLOW = "yellow"
    RED = "red"
    BLUE = "blue"
    PURPLE = "purple"

    def __repr__(self) -> str:  # compact, stable reprs for sorting and traces
        return f"Color.{self.name}"

    def __str__(self) -> str:
        return self.value


#: The colours' English, German and Italian names (umlauts also written out), read in scenarios.
_COLOR_NAMES = {name: c for c, names in {
    Color.GREEN: ("green", "grün", "gruen", "verde"),
    Color.YELLOW: ("yellow", "gelb", "giallo"),
    Color.RED: ("red", "rot", "rosso"),
    Color.BLUE: ("blue", "blau", "blu"),
    Color.PURPLE: ("purple", "violett", "lila", "viola"),
}.items() for name in names}


def parse_color(value: "Color | str") -> Color:
    """A colour from a Color or its English/German/Italian name ("green", "grün", "verde")."""
    if isinstance(value, Color):
        return value
    try:
        return _COLOR_NAMES[str(value).strip().lower()]
    except KeyError:
        raise ValueError(f"unknown district colour {value!r}") from None


#: Cards per colour as the source states them (Regelheft S. 1 · Material): 65 district cards.
SOURCE_COLOR_COUNTS: dict[Color, int] = {
    Color.GREEN: 20,
    Color.YELLOW: 12,
    Color.RED: 11,
    Color.BLUE: 11,
    Color.PURPLE: 11,
}
GOLD_PIECES = 30  # S. 1 · Material
START_GOLD = 2  # S. 1 · Aufbau
START_CARDS = 4  # S. 1 · Aufbau
COMPLETE_CITY = 8  # S. 2 · Spielende & Sieger


@dataclass(frozen=True, order=True)
class District:
    """A district card: colour and cost. Cost and points are the same (S. 1 · Die Bauwerke)."""

    color: Color
    cost: int

    def __str__(self) -> str:
        return f"{self.color}-{self.cost}"


def as_district(value: "District | dict | list | tuple") -> District:
    """A district from a District, ``[colour, cost]`` or ``{color, cost}`` (scenarios as data)."""
    if isinstance(value, District):
        return value
    if isinstance(value, Mapping):
        return District(parse_color(value["color"]), int(value["cost"]))
    color, cost = value
    return District(parse_color(color), int(cost))


#: (colour, cost, number of cards). NOT from the source (it gives colour counts only): a documented
#: default after third-party listings of the base deck. The per-colour totals match the source.
DEFAULT_DISTRICT_TABLE: tuple[tuple[Color, int, int], ...] = (
    (Color.GREEN, 1, 5),
    (Color.GREEN, 2, 7),
    (Color.GREEN, 3, 3),  # the source's worked example names a green "Kontor" of value 3 (S. 2)
    (Color.GREEN, 4, 3),
    (Color.GREEN, 5, 2),
    (Color.YELLOW, 3, 5),
    (Color.YELLOW, 4, 4),
    (Color.YELLOW, 5, 3),
    (Color.BLUE, 1, 3),
    (Color.BLUE, 2, 3),
    (Color.BLUE, 3, 3),
    (Color.BLUE, 5, 2),
    (Color.RED, 1, 3),
    (Color.RED, 2, 3),
    (Color.RED, 3, 3),
    (Color.RED, 5, 2),
    (Color.PURPLE, 2, 1),
    (Color.PURPLE, 3, 2),
    (Color.PURPLE, 5, 4),
    (Color.PURPLE, 6, 4),
)


# The district costs the engine and the score pad take: a bound of the engine, not a rule (the
# source lists no costs; they are printed on the cards, and it names only value 1 and the Kontor's 3).
MIN_COST, MAX_COST = 1, 6


def build_deck(table: tuple[tuple[Color, int, int], ...] = DEFAULT_DISTRICT_TABLE) -> list[District]:
    """All district cards of a table, unshuffled, in table order; a cost outside
    ``MIN_COST``..``MAX_COST`` is refused."""
    deck: list[District] = []
    for color, cost, count in table:
        if not MIN_COST <= cost <= MAX_COST or count < 0:
            raise ValueError(f"bad table row {(color, cost, count)}")
        deck.extend([District(parse_color(color), cost)] * count)
    return deck


def color_counts(table: tuple[tuple[Color, int, int], ...] = DEFAULT_DISTRICT_TABLE) -> dict[Color, int]:
    counts: Counter[Color] = Counter()
    for color, _cost, count in table:
        counts[parse_color(color)] += count
    return {c: counts[c] for c in Color}


class Character(IntEnum):
    """The eight characters, numbered in calling order (S. 1 · Charaktere aufrufen; S. 1–2)."""

    ASSASSIN = 1
    THIEF = 2
    MAGICIAN = 3
    KING = 4
    BISHOP = 5
    MERCHANT = 6
    ARCHITECT = 7
    WARLORD = 8

    def __repr__(self) -> str:
        return f"Character.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()


#: The characters' German and Italian names (umlauts also written out) besides the English, read in scenarios.
_CHARACTER_NAMES = {name: c for c, names in {
    Character.ASSASSIN: ("meuchler", "assassino"),
    Character.THIEF: ("dieb", "ladro"),
    Character.MAGICIAN: ("magier", "mago"),
    Character.KING: ("könig", "koenig", "re"),
    Character.BISHOP: ("prediger", "vescovo"),
    Character.MERCHANT: ("händler", "haendler", "mercante"),
    Character.ARCHITECT: ("baumeister", "architetto"),
    Character.WARLORD: ("söldner", "soeldner", "condottiero"),
}.items() for name in (c.name.lower(), *names)}


def parse_character(value: "Character | str | int") -> Character:
    """A character from a Character, its number 1..8 or its English/German/Italian name."""
    if isinstance(value, Character):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Character(value)
    text = str(value).strip().lower()
    if text.isdigit():
        return Character(int(text))
    try:
        return _CHARACTER_NAMES[text]
    except KeyError:
        raise ValueError(f"unknown character {value!r}") from None


#: The colour that brings each character income, 1 gold per district (S. 1 · Die Bauwerke; S. 1–2).
INCOME_COLOR: dict[Character, Color] = {
    Character.KING: Color.YELLOW,
    Character.BISHOP: Color.BLUE,
    Character.MERCHANT: Color.GREEN,
    Character.WARLORD: Color.RED,
}

#: Characters laid face up before the draft, by player count (S. 1 · Ablauf einer Runde).
#: 2 and 3 players use the draft of S. 2 with no face-up cards.
FACE_UP_BY_PLAYERS: dict[int, int] = {2: 0, 3: 0, 4: 2, 5: 1, 6: 0, 7: 0}

MERCHANT_BONUS = 1  # Händler: 1 Gold extra
ARCHITECT_EXTRA_CARDS = 2  # Baumeister: 2 Bauwerkkarten extra
ARCHITECT_BUILD_LIMIT = 3  # Baumeister: bis zu 3 Bauwerke
BUILD_LIMIT = 1  # Ein Zug: 1 Bauwerk
TAKE_GOLD = 2  # Ein Zug: 2 Goldstücke
DRAW_CARDS = 2  # Ein Zug: 2 Bauwerkkarten ziehen, 1 behalten
