"""Pure scoring functions: the scoring field beside the leading pawn, detective steps, winners."""
from __future__ import annotations

from typing import Sequence


def scoring_field(fields: Sequence[tuple[int, int, int]], leading_position: int) -> tuple[int, int]:
    """The two numbers (higher, lower) of the scoring field beside the leading pawn.

    Phase 4 · Figuren vorrücken: "Wie weit, zeigt das Wertungsfeld neben dem Lauffeld der führenden
    Figur. Es trägt 2 Zahlen ... Zu Beginn zählt das Wertungsfeld im Clubraum." The source gives no
    values: ``fields`` is a parameter, a tuple of ``(from_position, higher, lower)`` sorted by
    ``from_position``; the first entry (from 0) is the clubroom field.
    """
    chosen = fields[0]
    for field in fields:
        if field[0] <= leading_position:
            chosen = field
    return chosen[1], chosen[2]


def exhibition_moves(ranking: Sequence[int], field: tuple[int, int]) -> dict[int, int]:
    """Steps for the exhibitors (Phase 4 · Figuren vorrücken): only the two best move, the best by the
    higher number, the second by the lower number; all other exhibitors do not move."""
    higher, lower = field
    moves: dict[int, int] = {}
    if ranking:
        moves[ranking[0]] = higher
    if len(ranking) > 1:
        moves[ranking[1]] = lower
    return moves


def pawn_rank(positions: Sequence[int], player: int) -> int:
    """Place of a player's pawn: 1 for the leading pawn, 2 for the second and so on.

    The source does not say how pawns on the same space rank: the engine lets them share the better
    place (1 + the number of pawns strictly ahead).
    """
    return 1 + sum(1 for pos in positions if pos > positions[player])


def detective_moves(positions: Sequence[int], detectives: Sequence[int]) -> dict[int, int]:
    """Steps for the owners of detectives when at least one thief was caught (Phase 4 · Detektive):
    "Die führende Figur rückt 1 Feld vor, die zweite 2 Felder, die dritte 3 Felder und so weiter."
    All places are read from the same positions, before any detective moves."""
    return {p: pawn_rank(positions, p) for p in detectives}


def winners(positions: Sequence[int]) -> list[int]:
    """Players whose pawn is furthest ahead. The source is silent on the winner; this is the engine's
    documented assumption (ties share the win)."""
    best = max(positions)
    return [p for p, pos in enumerate(positions) if pos == best]
