"""Probes of the Kardinal & König engine for derived facts: the scorings and the winner.

Scenarios are those of :meth:`.game.KardinalState.from_scenario` (on the SAMPLE board, fields
"<Land>-<n>"). Players in answers are letters. Plays, draws, swaps, the end of the game and what a
land offers are the generic probe ``steps`` (:meth:`.game.KardinalState.parse_action`,
:meth:`.game.KardinalState.observe`).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..base import ProbeRegistry
from .sample_board import SAMPLE_BOARD
from .cards import COUNCILLOR, MONASTERY
from .game import KardinalState, player_name, seat
from . import scoring

PROBES = ProbeRegistry(KardinalState)


# --------------------------------------------------------------------------- probes
@PROBES("monastery_points")
def probe_monastery_points(given: Mapping[str, Any]) -> dict:
    """One land's monastery scoring, by the pure scoring function and by a real interim scoring.

    given: ``counts`` {player: monasteries in the land}; ``land`` (default "Frankreich", 8 fields)
      for the real-state run.
    returns: points {player: points} (pure function), via_state {player: points} (a real state
      with these monasteries in ``land`` scored by the interim scoring; only players with points),
      places {player: place number} (1 = most monasteries; ties share).
    """
    counts = {str(k): int(v) for k, v in given["counts"].items()}
    points = scoring.monastery_points(counts)
    levels = sorted({v for v in counts.values() if v > 0}, reverse=True)
    places = {p: levels.index(v) + 1 for p, v in counts.items() if v > 0}
    out: dict[str, Any] = {"points": points, "places": places}
    land = str(given.get("land", "Frankreich"))
    fields = list(SAMPLE_BOARD.lands[land])
    if sum(counts.values()) <= len(fields) and len(counts) <= 5:
        players = max(3, max(seat(k) for k in counts) + 1)
        mons = dict(zip(fields, [seat(p) for p, n in counts.items() for _ in range(n)]))
        state = KardinalState.from_scenario({"players": players, "monasteries": mons})
        totals = state.interim_scoring()
        out["via_state"] = {player_name(p): v for p, v in totals.items() if v}
    return out


@PROBES("alliance_points")
def probe_alliance_points(given: Mapping[str, Any]) -> dict:
    """One alliance by the pure scoring function.

    given: ``first``, ``second`` — {player: councillors} in the two allied lands.
    returns: points {player: points} (only players with points), worth (councillors in both
      lands), leaders (players who score).
    """
    first = {str(k): int(v) for k, v in (given.get("first") or {}).items()}
    second = {str(k): int(v) for k, v in (given.get("second") or {}).items()}
    pts = scoring.alliance_points(first, second)
    return {
        "points": {p: v for p, v in sorted(pts.items()) if v},
        "worth": sum(first.values()) + sum(second.values()),
        "leaders": sorted(p for p, v in pts.items() if v),
    }


@PROBES("final_scoring")
def probe_final_scoring(given: Mapping[str, Any]) -> dict:
    """The final scoring of a real state (monasteries, alliances, chains).

    given: common keys (``monasteries``, ``councillors``, ``players``); ``alliance`` — optional
      "Land1-Land2" to report that alliance's points.
    returns: monasteries, alliances, chains, total — {player: points}, only non-zero entries;
      alliance — {player: points} of the named alliance (non-zero); alliance_number;
      alliance_councillors — {land: councillors of all colours} in the named alliance's two lands;
      winners — [players].
    """
    state = KardinalState.from_scenario(given)
    final = state.final_scoring()

    def nz(d: Mapping[int, int]) -> dict:
        return {player_name(p): v for p, v in sorted(d.items()) if v}

    out = {
        "monasteries": nz(final["monasteries"]),
        "alliances": nz(final["alliances"]),
        "chains": nz(final["chains"]),
        "total": nz(dict(enumerate(state.scores))),
        "winners": state.winners(),
    }
    if "alliance" in given:
        a, b = [x.strip() for x in str(given["alliance"]).replace("–", "-").split("-")]
        idx = next(i for i, pair in enumerate(state.board.alliances) if set(pair) == {a, b})
        out["alliance"] = nz(final["per_alliance"][idx])
        out["alliance_number"] = idx + 1
        out["alliance_councillors"] = {land: state.councillors_in(land) for land in (a, b)}
    return out


@PROBES("chains")
def probe_chains(given: Mapping[str, Any]) -> dict:
    """Monastery chains of player A on the SAMPLE board, via a real state's final scoring.

    given: ``own`` — [fields] with A's monasteries; ``others`` — optional {field: player}.
    returns: points (A's chain points), chains (lengths of A's scoring chains, sorted),
      networks (sizes of A's connected monastery groups).
    """
    own = list(given.get("own") or [])
    mons = {f: 0 for f in own}
    mons.update({f: seat(o) for f, o in (given.get("others") or {}).items()})
    players = max(3, max(mons.values(), default=0) + 1)
    state = KardinalState.from_scenario({"players": players, "monasteries": mons})
    final = state.final_scoring()
    found = final["chain_list"][0]
    return {
        "points": final["chains"][0],
        "chains": sorted(len(c) for c in found),
        "networks": sorted(len(n) for n in scoring.networks(own, state.board)),
    }


@PROBES("winner")
def probe_winner(given: Mapping[str, Any]) -> dict:
    """Who wins, given final scores and stones left in supply.

    given: ``scores`` {player: points}; ``stones_left`` {player: monasteries + councillors left}
      (split onto monasteries first, at most 20, rest councillors); ``players`` (default: number
      of players named).
    returns: winners [players]; stones_left {player: n} as read back from the state.
    """
    scores = {seat(k): int(v) for k, v in given["scores"].items()}
    n = int(given.get("players", max(3, max(scores) + 1)))
    supplies = {seat(k): {MONASTERY: min(int(left), 20), COUNCILLOR: max(0, int(left) - 20)}
                for k, left in (given.get("stones_left") or {}).items()}
    state = KardinalState.from_scenario({"players": n, "scores": scores, "supplies": supplies})
    return {
        "winners": state.winners(),
        "stones_left": {player_name(p): state.stones_left(p) for p in range(n)},
    }
