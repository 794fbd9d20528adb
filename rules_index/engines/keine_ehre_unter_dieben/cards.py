"""Material of Keine Ehre unter Dieben: board constants, loot cards, reward tiles.

Immutable tables only. What the source (a German review with a rules walkthrough, no page numbers)
states is marked "source"; every other value is an invented default that the game object takes as a
parameter, because the source is silent about it.
"""
from __future__ import annotations

from dataclasses import dataclass

#: Source (Rezension · Der Raubzug): the board has "insgesamt sieben Kartenfeldern".
NUM_FIELDS = 7

#: Source (Rezension · Spielaufbau): "Zuvor werden 15 Karten als Reservestapel zur Seite gelegt."
RESERVE_SIZE = 15

#: Source (Rezension · Beutekarten auslegen): the third bell card in one colour row triggers a raid.
BELL_LIMIT = 3

#: Source (Rezension · Der Raubzug): movement symbols move the commissar "um ein bis drei Felder".
MAX_MOVE = 3

#: Source silent about the distance: the commissar tile starts in a notch on the right of the board
#: (Rezension · Spielaufbau). We number the card fields 1..7 from the band's side (left) and put the
#: notch at position 8, directly next to field 7.
COMMISSAR_START = NUM_FIELDS + 1

#: Source (Rezension · Das Verteilen der Beute): cards a leader who stops voluntarily must take,
#: printed under the fields: 1 on fields 1-3, 2 on fields 4-5, 4 (of the 6 cards) on field 6.
PRINTED_TAKE_COUNTS = (1, 1, 1, 2, 2, 4)

#: The value for field 7 is NOT in the source: with the commissar starting next to field 7 a card on
#: field 7 always ends the heist as a master stroke or a capture, so it only matters for a commissar
#: start further right (a parameter); the default 4 is invented.
TAKE_COUNTS = PRINTED_TAKE_COUNTS + (4,)

#: Source silent on the player count: the bounds of a game's parameter (and of a calculator's request).
MIN_PLAYERS, MAX_PLAYERS = 2, 8

#: Name of the extra "colour" formed by feather symbols (Rezension · Das Spielende und die Wertung).
FEATHERS = "feathers"

#: Source silent: the colours of the loot cards. Invented default.
COLOURS = ("red", "blue", "green", "yellow", "purple")

#: Source silent: the values of the reward tiles (higher, lower) per colour. Invented defaults.
DEFAULT_REWARD_TILES: tuple[tuple[str, int, int], ...] = (
    ("red", 6, 3),
    ("blue", 5, 2),
    ("green", 5, 2),
    ("yellow", 4, 2),
    ("purple", 4, 1),
)

#: Source silent: the feather tiles (higher, lower). Invented default.
DEFAULT_FEATHER_TILES = (5, 2)


@dataclass(frozen=True, order=True)
class LootCard:
    """One loot card. ``move``: commissar movement 0-3; ``bell``: police-raid warning; ``compartment``:
    secret compartment (draw from the reserve); ``feathers``: feather symbols; ``points``: printed
    extra victory points. (Symbols named in Rezension · Der Raubzug / Beutekarten auslegen / Wertung.)"""

    id: int
    colour: str
    move: int = 0
    bell: bool = False
    compartment: bool = False
    feathers: int = 0
    points: int = 0

    def __str__(self) -> str:
        marks = {f"m{self.move}": self.move, "bell": self.bell, "comp": self.compartment,
                 f"f{self.feathers}": self.feathers, f"+{self.points}": self.points}
        return " ".join([f"#{self.id}", self.colour, *(mark for mark, shown in marks.items() if shown)])


class CardMaker:
    """Cards from a scenario's specs, numbered in order: an int is a plain card with that commissar
    movement, a dict names ``colour``, ``move``, ``bell``, ``compartment``, ``feathers``, ``points``;
    a LootCard stays as it is. Ids count from ``start`` (clear of the LootCards a scenario passes)."""

    def __init__(self, start: int = 1000) -> None:
        self.next_id = start

    def make(self, spec: "int | dict | LootCard", default_colour: str) -> LootCard:
        if isinstance(spec, LootCard):
            return spec
        fields = {"move": spec} if isinstance(spec, int) else spec
        self.next_id += 1
        return LootCard(self.next_id, **{"colour": default_colour, **fields})

    def many(self, specs, default_colour: str = "red") -> list[LootCard]:
        """Cards from specs, or ``specs`` plain cards when it is a number."""
        return [self.make(s, default_colour) for s in ([0] * specs if isinstance(specs, int) else specs or ())]


#: Source silent: the composition of one colour. Invented default, the same for every colour:
#: (move, bell, compartment, feathers, points), 14 cards: 4 bells, 2 secret compartments,
#: 3 feathers, 6 cards with commissar movement (3x1, 2x2, 1x3), 5 cards with printed points.
DEFAULT_COLOUR_PATTERN: tuple[tuple[int, bool, bool, int, int], ...] = (
    (0, True, False, 0, 0),
    (0, True, False, 0, 0),
    (0, True, False, 1, 0),
    (0, True, False, 0, 1),
    (0, False, True, 0, 0),
    (0, False, True, 0, 0),
    (0, False, False, 1, 0),
    (0, False, False, 0, 2),
    (1, False, False, 0, 0),
    (1, False, False, 1, 0),
    (1, False, False, 0, 0),
    (2, False, False, 0, 1),
    (2, False, False, 0, 0),
    (3, False, False, 0, 2),
)


def default_deck(colours: tuple[str, ...] = COLOURS) -> tuple[LootCard, ...]:
    """The invented default deck (source silent): ``DEFAULT_COLOUR_PATTERN`` in every colour, ids 0..n-1."""
    cards = []
    for colour in colours:
        for move, bell, compartment, feathers, points in DEFAULT_COLOUR_PATTERN:
            cards.append(LootCard(len(cards), colour, move, bell, compartment, feathers, points))
    return tuple(cards)
