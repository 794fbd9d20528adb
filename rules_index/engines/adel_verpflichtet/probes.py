"""Probes of derived facts: the calculator's exhibition check, a round's castle scoring (ranking,
moves, loot, detectives) and whether a set-up is allowed. Every other check is the generic probe
``steps`` (:meth:`.game.AdelState.parse_action`).

Players are seat numbers 0..n-1 (JSON keys may be strings: {"0": ...}). A play is a string
"<place> <card> [value]": "auction cheque 13", "auction thief", "castle thief 6", "castle detective",
"castle exhibition". Collection letters take the oldest free card of their series (lower number =
older). Returned dicts use string player keys.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..base import ProbeRegistry
from .exhibitions import exhibition_validity
from .game import AdelGame, AdelState
from .scenario import drive_round, round_log

PROBES = ProbeRegistry(AdelState)


def _keyed(mapping: Mapping[int, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in sorted(mapping.items())}


def _round_setup(given: Mapping[str, Any]) -> tuple[AdelState, dict[int, str], dict[int, str]]:
    """The scenario of a round played by ``plays`` (every player's play): the state, the plays and
    the shows (player -> letters to exhibit; an exhibitor without a collection owns its show)."""
    plays = {int(p): str(v) for p, v in given["plays"].items()}
    shows = {int(p): str(v) for p, v in (given.get("shows") or {}).items()}
    collections = {int(p): str(v) for p, v in (given.get("collections") or {}).items()}
    for p, spec in plays.items():
        if "exhibition" in spec and p not in collections:
            collections[p] = shows.get(p, "")
    data = {k: v for k, v in given.items() if k not in ("plays", "shows")}
    state = AdelState.from_scenario({"players": max(plays) + 1, **data, "collections": collections})
    missing = [p for p in range(state.num_players) if p not in plays]
    if missing:
        raise ValueError(f"plays must name every player; missing {missing}")
    return state, plays, shows


@PROBES("exhibition_validity")
def probe_exhibition_validity(given: Mapping[str, Any]) -> dict[str, Any]:
    """The calculator's check of a string of collection letters.

    given: cards (str, e.g. "AABBC").
    returns: valid (bool), reason (None or "empty" / "unknown-letter" / "too-few-cards" / "gap"),
    size (how many cards were checked).
    """
    cards = str(given["cards"])
    valid, reason = exhibition_validity(cards)
    return {"valid": valid, "reason": reason, "size": sum(1 for c in cards if c.isalpha())}


@PROBES("castle")
def probe_castle(given: Mapping[str, Any]) -> dict[str, Any]:
    """One full round with the given plays; reports the castle (Phase 4).

    given: plays (player -> play, every player), players (count, default from plays), positions,
    collections (player -> letters), shows (player -> letters to exhibit), prison (thief numbers
    already inside). Each castle thief takes the oldest card of every exhibition.
    returns: ranking (exhibitors, best first), field ([higher, lower] used), moves (player -> steps
    from exhibitions), detective_moves (player -> steps), positions (after), exhibition_sizes
    (player -> cards at scoring), steal_order (thief numbers in the order they stole), loot
    (player -> letters stolen), caught (thief numbers), prison (cell 1 first), collections (player ->
    letters after the round), order (event kinds of the castle in order), movers (how many
    exhibitors moved), exhibitions (how many lay out at scoring), loot_counts (player -> cards stolen).
    """
    state, plays, shows = _round_setup(given)
    round_no = state.round
    drive_round(state, plays, shows)
    events = round_log(state, round_no)
    score = next((d for k, d in events if k == "score"), {"ranking": [], "field": None, "moves": {}})
    shown = next((d for k, d in events if k == "exhibit"), {"exhibitions": {}})["exhibitions"]
    det = next((d for k, d in events if k == "detectives"), {"moves": {}, "caught": []})
    loot: dict[int, str] = {}
    for kind, data in events:
        if kind == "steal":
            loot[data["player"]] = "".join(sorted(loot.get(data["player"], "") + data["letter"]))
    castle_kinds = ("exhibit", "score", "steal", "thief-empty", "detectives", "detective-idle", "prison", "freed")
    return {
        "ranking": score["ranking"],
        "field": score["field"],
        "moves": _keyed(score["moves"]),
        "detective_moves": _keyed(det["moves"]),
        "positions": list(state.positions),
        "exhibition_sizes": _keyed({p: len(v) for p, v in shown.items()}),
        "steal_order": list(dict.fromkeys(d["thief"] for k, d in events if k == "steal")),
        "loot": _keyed(loot),
        "caught": det["caught"],
        "prison": [t.number for t in state.prison],
        "collections": state.observe()["collections"],
        "order": [k for k, _ in events if k in castle_kinds],
        "movers": len(score["moves"]),
        "exhibitions": len(shown),
        "loot_counts": _keyed({p: len(letters) for p, letters in loot.items()}),
    }


@PROBES("variant")
def probe_variant(given: Mapping[str, Any]) -> dict[str, Any]:
    """Whether a game may be set up with a variant and player count.

    given: variant ("standard"/"surprise"/"confrontation"), players (default 2).
    returns: allowed (False if the engine refuses the set-up), error (why).
    """
    try:
        AdelGame(num_players=int(given.get("players", 2)), variant=str(given["variant"]))
    except ValueError as exc:
        return {"allowed": False, "error": str(exc)}
    return {"allowed": True, "error": None}
