"""The board as data: lands with their monastery fields, roads between fields, the 15 alliances.

The source (Regelheft S. 3 · Der Plan) says only that every land has monastery fields linked by
roads and a crest for the councillors, and that the numbers 1–15 between the lands mark the
alliances (some of them over sea, which are alliances, not roads). It does NOT give the printed
map's fields, roads or alliance pairs. So the engine takes a :class:`Board` as data and never
assumes a particular map; :data:`SAMPLE_BOARD` is a made-up example for tests, probes and random
games — it is NOT the printed map of the Goldsieber board.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from .cards import (
    ARAGON, BAYERN, BURGUND, ENGLAND, FRANKEN, FRANKREICH, ITALIEN, LANDS, LOTHRINGEN,
    NUM_ALLIANCES, SCHWABEN,
)


@dataclass(frozen=True)
class Board:
    """A map: ``lands`` maps each land to its monastery fields (ids, in order); ``roads`` are
    undirected edges between two fields (may cross a border); ``alliances`` are pairs of lands,
    scored in the given order (alliance number = index + 1).

    Validation: every one of the nine lands of the cards exists, field ids are unique, roads join
    known, distinct fields, alliances join two different known lands, and there are 15 alliances
    (Regelheft S. 3 · Der Plan) unless ``num_alliances`` says otherwise.
    """

    lands: Mapping[str, tuple[str, ...]]
    roads: tuple[tuple[str, str], ...]
    alliances: tuple[tuple[str, str], ...]
    name: str = "custom"
    num_alliances: int = NUM_ALLIANCES
    _land_of: Mapping[str, str] = field(init=False, repr=False, compare=False)
    _neighbours: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        lands = MappingProxyType({k: tuple(v) for k, v in self.lands.items()})
        object.__setattr__(self, "lands", lands)
        missing = [land for land in LANDS if land not in lands]
        if missing:
            raise ValueError(f"board lacks the lands {missing}")
        land_of: dict[str, str] = {}
        for land, fields in lands.items():
            if not fields:
                raise ValueError(f"land {land} has no monastery field")
            for f in fields:
                if f in land_of:
                    raise ValueError(f"field {f!r} appears twice")
                land_of[f] = land
        neighbours: dict[str, set[str]] = {f: set() for f in land_of}
        roads = tuple(tuple(r) for r in self.roads)
        for a, b in roads:
            if a not in land_of or b not in land_of or a == b:
                raise ValueError(f"bad road {a!r}-{b!r}")
            neighbours[a].add(b)
            neighbours[b].add(a)
        alliances = tuple(tuple(a) for a in self.alliances)
        for a, b in alliances:
            if a not in lands or b not in lands or a == b:
                raise ValueError(f"bad alliance {a!r}-{b!r}")
        if len(alliances) != self.num_alliances:
            raise ValueError(f"{len(alliances)} alliances, expected {self.num_alliances}")
        object.__setattr__(self, "roads", roads)
        object.__setattr__(self, "alliances", alliances)
        object.__setattr__(self, "_land_of", MappingProxyType(land_of))
        object.__setattr__(
            self, "_neighbours", MappingProxyType({f: frozenset(n) for f, n in neighbours.items()})
        )

    def __deepcopy__(self, memo: dict) -> "Board":
        return self  # immutable: states share their board

    def __copy__(self) -> "Board":
        return self

    @property
    def land_names(self) -> tuple[str, ...]:
        return tuple(self.lands)

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(self._land_of)

    def land_of(self, field_id: str) -> str:
        try:
            return self._land_of[field_id]
        except KeyError:
            raise ValueError(f"unknown monastery field {field_id!r}") from None

    def has_field(self, field_id: str) -> bool:
        return field_id in self._land_of

    def neighbours(self, field_id: str) -> frozenset[str]:
        return self._neighbours[field_id]


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
