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

from .cards import LANDS, NUM_ALLIANCES


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
        object.__setattr__(self, "_neighbours", MappingProxyType({f: frozenset(n) for f, n in neighbours.items()}))

    def __deepcopy__(self, memo: dict) -> "Board":
        return self  # immutable: states share their board

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(self._land_of)

    def land_of(self, field_id: str) -> str:
        try:
            return self._land_of[field_id]
        except KeyError:
            raise ValueError(f"unknown monastery field {field_id!r}") from None

    def neighbours(self, field_id: str) -> frozenset[str]:
        return self._neighbours[field_id]
