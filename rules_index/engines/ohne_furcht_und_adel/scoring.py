"""Final scoring of Ohne Furcht und Adel as pure functions (Regelheft S. 2 · Spielende & Sieger).

Each player scores
- the points of all districts of his city (a district's points equal its cost, S. 1 · Die Bauwerke),
- 3 points for districts in all 5 colours,
- 4 points if he was the first to have 8 districts, 2 points if he reached 8 later.
Gold scores nothing. On a tie the player with more points from districts alone wins.

The source gives no rule beyond that tie-break: players still level after it share the victory
(``winners`` lists them all and ``winner`` is None). Usable by a calculator API without a game:
``score([("Anna", [("green", 3), ("yellow", 5)]), ...], first_complete="Anna")``.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from .cards import COMPLETE_CITY, Color, District, as_district

ALL_COLOURS_BONUS = 3
FIRST_COMPLETE_BONUS = 4
LATER_COMPLETE_BONUS = 2


def district_points(city: Iterable[Any]) -> int:
    """Points of all districts of a city: the sum of their costs (S. 2 · Spielende & Sieger)."""
    return sum(as_district(d).cost for d in city)


def all_colours_bonus(city: Iterable[Any]) -> int:
    """3 points for districts in all 5 colours (S. 2 · Spielende & Sieger)."""
    colours = {as_district(d).color for d in city}
    return ALL_COLOURS_BONUS if colours >= set(Color) else 0


def complete_bonus(name: str, city_size: int, first_complete: str | None, complete_size: int = COMPLETE_CITY) -> int:
    """4 points for the first player with 8 districts, 2 for every player who reaches 8 later (S. 2).

    A city of 8 is safe from the warlord (S. 2 · Söldner), so the first player to complete still has
    8 or more at the end; naming a player with fewer as ``first_complete`` is an error.
    """
    if first_complete is not None and name == first_complete:
        if city_size < complete_size:
            raise ValueError(f"{name!r} has only {city_size} districts and cannot have been first to {complete_size}")
        return FIRST_COMPLETE_BONUS
    return LATER_COMPLETE_BONUS if city_size >= complete_size else 0


def _entries(players: Iterable[Any]) -> list[tuple[str, list[District]]]:
    out = []
    for entry in players:
        if isinstance(entry, Mapping):
            name, city = entry["name"], entry.get("districts", [])
        else:
            name, city = entry
        out.append((str(name), [as_district(d) for d in city]))
    names = [n for n, _ in out]
    if len(set(names)) != len(names):
        raise ValueError("player names must be unique")
    return out


def score(
    players: Sequence[Any],
    first_complete: str | None = None,
    complete_size: int = COMPLETE_CITY,
) -> dict:
    """Scores and winner from the players' cities. Gold is not an input: it scores nothing (S. 2).

    ``players``: ``(name, districts)`` pairs (or ``{"name", "districts"}`` mappings); a district is
    ``(colour, cost)``, ``{"color", "cost"}`` or a :class:`District`. ``first_complete``: name of the
    first player who had 8 districts, or None.

    Returns ``{"scores": {name: {district_points, all_colours_bonus, complete_bonus, total}},
    "ranking": [names best first], "winner": name or None, "winners": [names],
    "tie_break_used": bool}``. Ranking: total, then points from districts alone (S. 2); players still
    level share the victory (source silent).
    """
    entries = _entries(players)
    if first_complete is not None and first_complete not in {n for n, _ in entries}:
        raise ValueError(f"first_complete {first_complete!r} is not a player")
    scores: dict[str, dict[str, int]] = {}
    for name, city in entries:
        dp = district_points(city)
        acb = all_colours_bonus(city)
        cb = complete_bonus(name, len(city), first_complete, complete_size)
        scores[name] = {
            "district_points": dp,
            "all_colours_bonus": acb,
            "complete_bonus": cb,
            "total": dp + acb + cb,
        }
    order = [n for n, _ in entries]
    key = lambda n: (scores[n]["total"], scores[n]["district_points"])  # noqa: E731
    ranking = sorted(order, key=key, reverse=True)  # stable: level players keep their order
    best = key(ranking[0]) if ranking else None
    winners = [n for n in ranking if key(n) == best]
    top_total = [n for n in ranking if scores[n]["total"] == (best[0] if best else None)]
    return {
        "scores": scores,
        "ranking": ranking,
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "tie_break_used": len(top_total) > 1,
    }
