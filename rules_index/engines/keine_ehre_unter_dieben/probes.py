"""Probes of Keine Ehre unter Dieben. A heist and its share step by step (who may take which card,
police raids, secret compartments, the game end) are the generic probe ``steps``
(:meth:`.game.KeineEhreState.from_scenario`, ``parse_action`` and ``observe``); the named probe here
reports a derived fact, the final scoring. Players are "P0", "P1", ...
"""
from __future__ import annotations

from typing import Any, Mapping

from ..base import ProbeRegistry
from .cards import FEATHERS, CardMaker
from .game import KeineEhreState
from .scoring import score_holdings

PROBES = ProbeRegistry(KeineEhreState)


def _p(player: int) -> str:
    return f"P{player}"


@PROBES("scoring")
def scoring(given: Mapping[str, Any]) -> dict:
    """Final scoring of laid-out loot through ``score_holdings``.

    given: ``holdings`` {player index (int or "0"): list of card specs}, ``num_players`` (default: the
    highest index + 1), ``reward_tiles`` {colour: [high, low]} (default 5/2 for every colour present),
    ``feather_tiles`` [high, low] (default 5/2), ``tie_rule`` (default "split").
    returns: ``awards`` {colour: {player: points}} (feathers under "feathers"), ``feather_awards``
    {player: points from the feather tiles}, ``points`` {player:
    printed extra points}, ``totals`` {player: total}, ``winners`` [players].
    """
    make = CardMaker()
    raw = {int(k): v for k, v in dict(given.get("holdings", {})).items()}
    n = int(given.get("num_players", max(raw, default=1) + 1))
    holdings = [make.many(raw.get(p, [])) for p in range(n)]
    tiles = {c: tuple(v) for c, v in dict(given.get("reward_tiles", {})).items()}
    for c in {card.colour for h in holdings for card in h}:
        tiles.setdefault(c, (5, 2))
    sheet = score_holdings(holdings, tiles, tuple(given.get("feather_tiles", (5, 2))),
                           given.get("tie_rule", "split"))
    return {
        "awards": {c: {_p(p): v for p, v in sorted(a.items())} for c, a in sorted(sheet.awards.items())},
        "feather_awards": {_p(p): v for p, v in sorted(sheet.awards[FEATHERS].items())},
        "points": {_p(p): v for p, v in enumerate(sheet.points)},
        "totals": {_p(p): v for p, v in enumerate(sheet.totals)},
        "winners": [_p(p) for p in sheet.winners()],
    }
