"""Final scoring of Keine Ehre unter Dieben (Rezension · Das Spielende und die Wertung). Pure functions.

In each colour the player with the most cards gets the higher reward tile, the player with the second
most the lower one; feather symbols count as an extra colour scored the same way; printed extra
victory points are added. Source silent on ties: ``tie_rule`` (see ``majority_awards``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from .cards import FEATHERS, LootCard

TIE_RULES = ("split", "all", "none")


def majority_awards(counts: Mapping[int, int], high: int, low: int,
                    tie_rule: str = "split") -> dict[int, int]:
    """Points from one colour's reward tiles. Rezension · Das Spielende und die Wertung.

    Most cards: ``high``; second most: ``low``; players with no card get nothing. Source silent on
    ties (competition ranking: a group of g tied players occupies g places):
    * ``split`` (default): the tied players share the values of the places they occupy, rounded down;
    * ``all``: every tied player gets the value of the best place the group occupies;
    * ``none``: tied players get nothing, and the places they occupy are used up.
    """
    if tie_rule not in TIE_RULES:
        raise ValueError(f"unknown tie_rule {tie_rule!r}")
    values = (high, low)
    groups: dict[int, list[int]] = {}
    for player, n in counts.items():
        if n > 0:
            groups.setdefault(n, []).append(player)
    awards: dict[int, int] = {}
    place = 0
    for n in sorted(groups, reverse=True):
        if place >= len(values):
            break
        group = sorted(groups[n])
        occupied = values[place:place + len(group)]
        if tie_rule == "split":
            each = sum(occupied) // len(group)
        elif tie_rule == "all":
            each = values[place]
        else:
            each = occupied[0] if len(group) == 1 else 0
        for p in group:
            if each:
                awards[p] = each
        place += len(group)
    return awards


@dataclass(frozen=True)
class ScoreSheet:
    """Final scores: ``awards[colour][player]`` (feathers under ``FEATHERS``), ``points[player]``
    (printed extra victory points) and ``totals[player]``."""

    awards: Mapping[str, Mapping[int, int]]
    points: tuple[int, ...]
    totals: tuple[int, ...]

    def winners(self) -> tuple[int, ...]:
        best = max(self.totals)
        return tuple(p for p, t in enumerate(self.totals) if t == best)


def score_holdings(holdings: Sequence[Sequence[LootCard]], reward_tiles: Mapping[str, tuple[int, int]],
                   feather_tiles: tuple[int, int], tie_rule: str = "split") -> ScoreSheet:
    """Score every player's laid-out loot. Rezension · Das Spielende und die Wertung."""
    n = len(holdings)
    awards: dict[str, dict[int, int]] = {}
    for colour, (high, low) in reward_tiles.items():
        counts = {p: sum(c.colour == colour for c in holdings[p]) for p in range(n)}
        awards[colour] = majority_awards(counts, high, low, tie_rule)
    # Feather symbols (a card may carry more than one) count as an extra colour.
    feathers = {p: sum(c.feathers for c in holdings[p]) for p in range(n)}
    awards[FEATHERS] = majority_awards(feathers, *feather_tiles, tie_rule)
    points = tuple(sum(c.points for c in holdings[p]) for p in range(n))
    totals = tuple(points[p] + sum(a.get(p, 0) for a in awards.values()) for p in range(n))
    return ScoreSheet(awards, points, totals)
