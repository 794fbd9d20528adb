"""Pure scoring functions of Kardinal & König (no state, no randomness).

* :func:`monastery_points` — one land's monastery scoring (Regelheft S. 5–6 · Klosterwertung),
  used by the interim and the final scoring and by the calculator API.
* :func:`alliance_points` — one alliance of two lands (S. 6–7 · Rätewertung).
* :func:`chains` / :func:`chain_points` — monastery chains (S. 7 · Wertung der Klosterketten).
* :func:`winners` — most points, tie-break by stones left in supply (S. 6–7 · Spielende und
  Schlusswertung).

Interpretation of chains on a road graph (the source says: "at least 4 own monasteries in an
unbroken line along a road, across borders too; branches do not count; 1 point per monastery;
each monastery counts only once"; it gives no map and no graph definition):

  Take the player's own monasteries and the roads whose BOTH ends hold one of them. Each
  connected piece of that graph is one network. Of every network only its longest simple path
  (no field twice) is the chain: monasteries hanging off that path at a junction are the
  "branches" and do not count, not even as a second chain — so every monastery belongs to at most
  one chain ("counts only once"). A chain scores 1 point per monastery if it has at least 4.
  A closed loop of n monasteries is a line of n. An opponent's monastery or an empty field on the
  road breaks the line ("unbroken"). Among several longest paths any one is reported; the points
  are the same.

  This is a reading, not a rule of the source: it does not say how the scored line of a branched
  group is chosen (a branch of 4 or more off the longest path never scores here). The rules
  summaries list the point as open.
"""
from __future__ import annotations

from typing import Hashable, Iterable, Mapping, TypeVar

from .board import Board
from .cards import MIN_CHAIN

P = TypeVar("P", bound=Hashable)


def monastery_points(counts: Mapping[P, int]) -> dict[P, int]:
    """Points of one land's monastery scoring. Regelheft S. 5–6 · Klosterwertung.

    ``counts`` maps each player to their monasteries in the land. The player(s) with the most get
    1 point per monastery in the land (all colours); the next place gets as many points as the
    place directly above has monasteries (one of them), and so on. Players on equal counts share
    the place and the points; the next count takes the directly following place. No monastery,
    no points. Example (S. 4–7): 4/2/1 → 7/4/2.
    """
    for p, n in counts.items():
        if not isinstance(n, int) or n < 0:
            raise ValueError(f"monastery count of {p!r} must be a non-negative int, not {n!r}")
    total = sum(counts.values())
    levels = sorted({n for n in counts.values() if n > 0}, reverse=True)
    points_for_level: dict[int, int] = {}
    for place, level in enumerate(levels):
        points_for_level[level] = total if place == 0 else levels[place - 1]
    return {p: points_for_level.get(n, 0) for p, n in counts.items()}


def monastery_scoring(board: Board, monasteries: Mapping[str, P], players: Iterable[P]) -> dict[P, int]:
    """Points per player of the monastery scoring in all lands (interim and final).
    Regelheft S. 5–6 · Zwischenwertung. Councillors play no part."""
    totals = {p: 0 for p in players}
    for fields in board.lands.values():
        counts = {p: sum(1 for f in fields if monasteries.get(f) == p) for p in totals}
        for p, v in monastery_points(counts).items():
            totals[p] += v
    return totals


def alliance_points(first: Mapping[P, int], second: Mapping[P, int]) -> dict[P, int]:
    """Points of one alliance between two lands. Regelheft S. 6–7 · Rätewertung.

    ``first``/``second``: councillors per player in the two allied lands. Whoever has the most
    councillors in BOTH lands (a tie at the top counts as most for everyone tied) gets 1 point per
    councillor in both lands together, any colour; several such players each get the full points;
    everyone else gets nothing. A player without councillors in a land never leads there, so an
    alliance with a land that holds no councillor scores nothing: a reading (the source does not
    say what holds then; the rules summaries list it as open).
    """
    players = set(first) | set(second)
    top_a = max(first.values(), default=0)
    top_b = max(second.values(), default=0)
    worth = sum(first.values()) + sum(second.values())
    result = {}
    for p in players:
        a, b = first.get(p, 0), second.get(p, 0)
        leads = a > 0 and b > 0 and a == top_a and b == top_b
        result[p] = worth if leads else 0
    return result


def alliance_scoring(
    board: Board, councillors: Mapping[str, Mapping[P, int]], players: Iterable[P]
) -> tuple[dict[P, int], list[dict[P, int]]]:
    """All alliances of a board in their order. Returns (total per player, points per alliance)."""
    players = list(players)
    per_alliance = [alliance_points(*({p: councillors.get(land, {}).get(p, 0) for p in players} for land in pair))
                    for pair in board.alliances]
    return {p: sum(pts[p] for pts in per_alliance) for p in players}, per_alliance


def _longest_path(nodes: set[str], board: Board) -> tuple[str, ...]:
    best: tuple[str, ...] = ()
    for start in sorted(nodes):
        stack = [(start, (start,), frozenset((start,)))]
        while stack:
            node, path, seen = stack.pop()
            if len(path) > len(best):
                best = path
                if len(best) == len(nodes):
                    return best
            for nxt in sorted(board.neighbours(node)):
                if nxt in nodes and nxt not in seen:
                    stack.append((nxt, path + (nxt,), seen | {nxt}))
    return best


def networks(own_fields: Iterable[str], board: Board) -> list[set[str]]:
    """The connected pieces of a player's monasteries along roads (helper of :func:`chains`)."""
    own = set(own_fields)
    result = []
    todo = set(own)
    while todo:
        start = min(todo)
        piece = {start}
        frontier = [start]
        while frontier:
            joined = (board.neighbours(frontier.pop()) & own) - piece
            piece |= joined
            frontier += joined
        todo -= piece
        result.append(piece)
    return result


def chains(own_fields: Iterable[str], board: Board, min_length: int = MIN_CHAIN) -> list[tuple[str, ...]]:
    """A player's scoring chains. Regelheft S. 7 · Wertung der Klosterketten.

    For each network of the player's monasteries its longest simple path, if it has at least
    ``min_length`` (4) monasteries; branches off that path do not count (a reading, see the module
    docstring).
    """
    for f in own_fields:
        board.land_of(f)  # validates the field id
    paths = [_longest_path(piece, board) for piece in networks(own_fields, board) if len(piece) >= min_length]
    return sorted(path for path in paths if len(path) >= min_length)


def chain_points(own_fields: Iterable[str], board: Board, min_length: int = MIN_CHAIN) -> int:
    """1 point per monastery of every chain (S. 7); each monastery counts once."""
    return sum(len(c) for c in chains(own_fields, board, min_length))


def winners(scores: Mapping[P, int], stones_left: Mapping[P, int]) -> list[P]:
    """Winner(s). Regelheft S. 6–7 · Spielende und Schlusswertung.

    Most points wins; on a tie the player with more stones (monasteries and councillors) left in
    the supply wins. If that is tied too the source is silent: all of them share the win.
    """
    best = max(scores.values())
    tied = [p for p, s in scores.items() if s == best]
    most = max(stones_left[p] for p in tied)
    return sorted(p for p in tied if stones_left[p] == most)
