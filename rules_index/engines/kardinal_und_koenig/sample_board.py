"""The engine's SAMPLE board of Kardinal & König: data, NOT the printed Goldsieber map.

The source describes the board only in general terms (nine lands, monastery fields joined by
roads, 15 alliances); this stand-in lets the engine play complete games and is kept apart from
the rules code so it can be replaced by the printed map's data without touching the rules.
"""
from __future__ import annotations

from .board import Board

# Per land: its number of monastery fields and its roads inside, as pairs of field numbers.
_LANDS = {
    "Franken": (7, "1-2 2-3 3-4 3-5 5-6 6-7"),  # 1-2-3-4 with a branch 3-5-6-7
    "Aragon": (6, "1-2 2-3 3-4 3-5 5-6"),  # 1-2-3-4 with a branch 3-5-6
    "Bayern": (6, "1-2 2-3 3-4 4-5 5-6"),  # a line
    "Burgund": (6, "1-2 2-3 3-4 2-5 5-6"),  # 1-2-3-4 with a branch 2-5-6
    "Lothringen": (5, "1-2 2-3 3-4 4-5"),  # a line
    "Italien": (6, "1-2 2-3 3-4 4-5 5-6"),  # a line
    "England": (5, "1-2 2-3 3-4 2-5"),  # an island: no road to the mainland
    "Schwaben": (5, "1-2 2-3 2-4 4-5"),  # 1-2-3 with a branch 2-4-5
    "Frankreich": (8, "1-2 2-3 3-4 4-5 3-6 6-7 7-8 8-5"),  # a line 1-2-3-4-5 and a loop 3-6-7-8-5
}
_ACROSS_BORDERS = """
    Frankreich-1 Aragon-1, Frankreich-2 Lothringen-1, Frankreich-5 Burgund-1, Lothringen-5 Franken-1,
    Lothringen-3 Burgund-4, Franken-7 Bayern-1, Franken-4 Schwaben-1, Schwaben-3 Bayern-3,
    Schwaben-5 Burgund-6, Burgund-3 Italien-1, Bayern-6 Italien-6"""
# Alliances 1-15 in their order.
_ALLIANCES = """
    England-Frankreich England-Lothringen England-Franken Franken-Lothringen Franken-Schwaben
    Franken-Bayern Bayern-Schwaben Aragon-Italien Schwaben-Burgund Italien-Burgund Italien-Bayern
    Burgund-Lothringen Burgund-Frankreich Frankreich-Lothringen Frankreich-Aragon"""


def _sample_board() -> Board:
    lands = {land: tuple(f"{land}-{i}" for i in range(1, n + 1)) for land, (n, _) in _LANDS.items()}
    roads = [(f"{land}-{a}", f"{land}-{b}") for land, (_, inner) in _LANDS.items()
             for a, b in (pair.split("-") for pair in inner.split())]
    roads += [tuple(road.split()) for road in _ACROSS_BORDERS.split(",")]
    alliances = tuple(tuple(pair.split("-")) for pair in _ALLIANCES.split())
    return Board(lands=lands, roads=tuple(roads), alliances=alliances, name="sample")


SAMPLE_BOARD: Board = _sample_board()
"""A SAMPLE board — NOT the printed Goldsieber map (the source does not describe it).

Nine lands with 5–8 monastery fields each (54 in all), field ids ``"<Land>-<n>"``. Roads are
mostly lines inside a land, some with one branch (Aragon, Franken, Schwaben, Burgund), one loop
(Frankreich 3-4-5-8-7-6), England an island; eleven roads cross a border, e.g.
Frankreich-1–Aragon-1, Lothringen-5–Franken-1, Franken-4–Schwaben-1, Burgund-3–Italien-1.
The 15 alliances are plausible neighbour pairs numbered 1–15; 10 (Italien–Burgund) and
11 (Italien–Bayern) follow each other as in the rulebook's worked example.
"""
