"""The engine's SAMPLE board of Kardinal & König: data, NOT the printed Goldsieber map.

The source describes the board only in general terms (nine lands, monastery fields joined by
roads, 15 alliances); this stand-in lets the engine play complete games and is kept apart from
the rules code so it can be replaced by the printed map's data without touching the rules.
"""
from __future__ import annotations

from .board import Board
from .cards import ARAGON, BAYERN, BURGUND, ENGLAND, FRANKEN, FRANKREICH, ITALIEN, LANDS, LOTHRINGEN, SCHWABEN


def _line(land: str, n: int) -> tuple[str, ...]:
    return tuple(f"{land}-{i}" for i in range(1, n + 1))


def _sample_board() -> Board:
    sizes = {
        ENGLAND: 5, FRANKEN: 7, BAYERN: 6, ITALIEN: 6, ARAGON: 6,
        FRANKREICH: 8, LOTHRINGEN: 5, SCHWABEN: 5, BURGUND: 6,
    }
    lands = {land: _line(land, sizes[land]) for land in LANDS}

    def r(a: str, i: int, b: str, j: int) -> tuple[str, str]:
        return (f"{a}-{i}", f"{b}-{j}")

    roads = [
        # England (an island: no road to the mainland)
        r(ENGLAND, 1, ENGLAND, 2), r(ENGLAND, 2, ENGLAND, 3), r(ENGLAND, 3, ENGLAND, 4),
        r(ENGLAND, 2, ENGLAND, 5),
        # Frankreich: a line 1-2-3-4-5 and a loop 3-6-7-8-5
        r(FRANKREICH, 1, FRANKREICH, 2), r(FRANKREICH, 2, FRANKREICH, 3),
        r(FRANKREICH, 3, FRANKREICH, 4), r(FRANKREICH, 4, FRANKREICH, 5),
        r(FRANKREICH, 3, FRANKREICH, 6), r(FRANKREICH, 6, FRANKREICH, 7),
        r(FRANKREICH, 7, FRANKREICH, 8), r(FRANKREICH, 8, FRANKREICH, 5),
        # Aragon: 1-2-3-4 with a branch 3-5-6
        r(ARAGON, 1, ARAGON, 2), r(ARAGON, 2, ARAGON, 3), r(ARAGON, 3, ARAGON, 4),
        r(ARAGON, 3, ARAGON, 5), r(ARAGON, 5, ARAGON, 6),
        # Lothringen: a line
        r(LOTHRINGEN, 1, LOTHRINGEN, 2), r(LOTHRINGEN, 2, LOTHRINGEN, 3),
        r(LOTHRINGEN, 3, LOTHRINGEN, 4), r(LOTHRINGEN, 4, LOTHRINGEN, 5),
        # Franken: 1-2-3-4 with a branch 3-5-6-7
        r(FRANKEN, 1, FRANKEN, 2), r(FRANKEN, 2, FRANKEN, 3), r(FRANKEN, 3, FRANKEN, 4),
        r(FRANKEN, 3, FRANKEN, 5), r(FRANKEN, 5, FRANKEN, 6), r(FRANKEN, 6, FRANKEN, 7),
        # Schwaben: 1-2-3 with a branch 2-4-5
        r(SCHWABEN, 1, SCHWABEN, 2), r(SCHWABEN, 2, SCHWABEN, 3),
        r(SCHWABEN, 2, SCHWABEN, 4), r(SCHWABEN, 4, SCHWABEN, 5),
        # Bayern: a line
        r(BAYERN, 1, BAYERN, 2), r(BAYERN, 2, BAYERN, 3), r(BAYERN, 3, BAYERN, 4),
        r(BAYERN, 4, BAYERN, 5), r(BAYERN, 5, BAYERN, 6),
        # Burgund: 1-2-3-4 with a branch 2-5-6
        r(BURGUND, 1, BURGUND, 2), r(BURGUND, 2, BURGUND, 3), r(BURGUND, 3, BURGUND, 4),
        r(BURGUND, 2, BURGUND, 5), r(BURGUND, 5, BURGUND, 6),
        # Italien: a line
        r(ITALIEN, 1, ITALIEN, 2), r(ITALIEN, 2, ITALIEN, 3), r(ITALIEN, 3, ITALIEN, 4),
        r(ITALIEN, 4, ITALIEN, 5), r(ITALIEN, 5, ITALIEN, 6),
        # roads across borders
        r(FRANKREICH, 1, ARAGON, 1), r(FRANKREICH, 2, LOTHRINGEN, 1),
        r(FRANKREICH, 5, BURGUND, 1), r(LOTHRINGEN, 5, FRANKEN, 1),
        r(LOTHRINGEN, 3, BURGUND, 4), r(FRANKEN, 7, BAYERN, 1), r(FRANKEN, 4, SCHWABEN, 1),
        r(SCHWABEN, 3, BAYERN, 3), r(SCHWABEN, 5, BURGUND, 6), r(BURGUND, 3, ITALIEN, 1),
        r(BAYERN, 6, ITALIEN, 6),
    ]
    alliances = (
        (ENGLAND, FRANKREICH),    # 1
        (ENGLAND, LOTHRINGEN),    # 2
        (ENGLAND, FRANKEN),       # 3
        (FRANKEN, LOTHRINGEN),    # 4
        (FRANKEN, SCHWABEN),      # 5
        (FRANKEN, BAYERN),        # 6
        (BAYERN, SCHWABEN),       # 7
        (ARAGON, ITALIEN),        # 8
        (SCHWABEN, BURGUND),      # 9
        (ITALIEN, BURGUND),       # 10
        (ITALIEN, BAYERN),        # 11
        (BURGUND, LOTHRINGEN),    # 12
        (BURGUND, FRANKREICH),    # 13
        (FRANKREICH, LOTHRINGEN),  # 14
        (FRANKREICH, ARAGON),     # 15
    )
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
