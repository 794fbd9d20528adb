"""Probes of Keine Ehre unter Dieben: build real engine states from a ``given`` scenario, drive them
through ``apply``/``legal_actions`` or the pure scoring/share functions, and report what happened.

Scenarios are those of :meth:`.game.KeineEhreState.from_scenario` (card specs: an int is the commissar
movement of a plain card). Players are "P0", "P1", ... A heist step by step is the generic probe
``steps`` (:meth:`.game.KeineEhreState.parse_action`).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..base import ProbeRegistry, broken_rule
from . import rules as R
from .cards import FEATHERS, CardMaker
from .game import KeineEhreState, Pass, Phase, Reveal, Stop, Take
from .scoring import score_holdings

PROBES = ProbeRegistry(KeineEhreState)

_GAME_KEYS = ("num_players", "commissar_start", "tie_rule", "leader_rotation", "first_leader",
              "full_board_outcome", "compartment_after_razzia", "reset_commissar")
_SCENARIO_KEYS = _GAME_KEYS + ("moves", "filler", "reserve", "holdings", "leader", "reward_tiles", "feather_tiles")


def _state(given: Mapping[str, Any], **data: Any) -> KeineEhreState:
    """The probe's scenario: the keys of ``given`` that describe a state, overridden by ``data``."""
    return KeineEhreState.from_scenario({**{k: given[k] for k in _SCENARIO_KEYS if k in given}, **data})


def _p(player: int) -> str:
    return f"P{player}"


def _leftmost(state: KeineEhreState) -> int:
    return min(state.board_cards())


def _leader(state: KeineEhreState) -> str:
    return state.players[state.leader]


def _run_heist(state: KeineEhreState, moves: list, stop: bool) -> dict:
    """Reveal the given number of cards (one Reveal per entry), then stop if asked and still open."""
    revealed = 0
    refused = None
    for _ in moves:
        rule = broken_rule(state, Reveal(_leader(state)))
        if rule is not None:
            refused = refused or rule
            break
        revealed += 1
    if stop:
        rule = broken_rule(state, Stop(_leader(state)))
        if rule is not None:
            refused = refused or rule
    return {"revealed": revealed, "refused_rule": refused}


@PROBES("share")
def share(given: Mapping[str, Any]) -> dict:
    """One heist and the share of its loot played out by a fixed plan, all through ``apply``.

    given: a scenario, ``stop`` (the leader stops after revealing one card per entry of ``moves``),
    ``leader_takes`` (cards the leader tries to take first; default: the minimum he must take),
    ``leader_extra`` (bool, default True: the leader takes the extra card if he may).
    The leader then tries to pass (if still his turn and he took ``leader_takes``); a refused pass is
    recorded and he takes cards until his share is done. Every thief takes the card on the lowest field.
    returns: ``outcome`` ("open" if the heist did not end: then nothing is shared), ``leader_first``
    (cards the leader took first), ``order`` (players in the order
    they took cards), ``received`` {player: cards}, ``extra_offered`` (the leader was asked about one more
    card), ``discarded_rest`` (cards discarded at the end of the share), ``refused`` (list of
    "take:<rule>"/"pass:<rule>"), ``next_leader``.
    """
    moves = list(given.get("moves", []))
    state = _state(given)
    leader = _leader(state)
    _run_heist(state, moves, bool(given.get("stop", False)))
    outcome = state.outcome or R.OPEN
    if state.phase is Phase.RAID:  # the heist is still open: nothing is shared
        return {"outcome": outcome, "leader_first": 0, "order": [], "received": {}, "extra_offered": False,
                "discarded_rest": 0, "refused": [], "next_leader": _p(state.leader)}
    discard_before = len(state.discard)
    refused: list[str] = []
    order: list[str] = []
    leader_first = 0
    wants = given.get("leader_takes")
    wants = state.quota[0] if wants is None else int(wants)
    for _ in range(wants):
        if not state.board_cards():
            break
        rule = broken_rule(state, Take(leader, _leftmost(state)))
        if rule:
            refused.append(f"take:{rule}")
            break
        order.append(leader)
        leader_first += 1
    if state.phase is Phase.LEADER_SHARE:
        rule = broken_rule(state, Pass(leader))
        if rule:
            refused.append(f"pass:{rule}")
        while state.phase is Phase.LEADER_SHARE:
            state.apply(Take(leader, _leftmost(state)))
            order.append(leader)
            leader_first += 1
    while state.phase is Phase.OTHERS_SHARE:
        p = state.current_player()
        state.apply(Take(p, _leftmost(state)))
        order.append(p)
    extra_offered = state.phase is Phase.LEADER_EXTRA
    if extra_offered:
        if given.get("leader_extra", True):
            state.apply(Take(leader, _leftmost(state)))
            order.append(leader)
        else:
            state.apply(Pass(leader))
    return {
        "outcome": outcome,
        "leader_first": leader_first,
        "order": order,
        "received": {p: order.count(p) for p in state.players},
        "extra_offered": extra_offered,
        "discarded_rest": len(state.discard) - discard_before,
        "refused": refused,
        "next_leader": _p(state.leader),
    }


@PROBES("lay_out")
def lay_out(given: Mapping[str, Any]) -> dict:
    """A thief takes one card and lays it out (through a real heist + ``Take``).

    given: ``holding`` (card specs already laid out by the player), ``card`` (spec of the card he takes),
    ``reserve`` (card specs, top first).
    returns: ``rows`` {colour: cards}, ``bells`` {colour: bell cards}, ``razzia`` (colours raided, in
    order), ``lost`` (cards of the player discarded), ``drawn`` (cards drawn from the reserve),
    ``reserve_left``, ``feathers`` (the player's feather symbols), ``cards`` (the player's total),
    ``row_bells`` (bell cards in the taken card's colour row once it lies there, before any razzia).
    """
    make = CardMaker(start=0)
    holding = make.many(given.get("holding", []))
    card = make.make(dict(given["card"], move=0) if isinstance(given.get("card"), dict) else 0)
    state = _state(given, moves=[card], filler=5, holdings={0: holding}, leader=0)
    reserve_before = len(state.reserve)
    state.apply(Reveal("P0"))
    state.apply(Stop("P0"))
    row_bells = R.bells_in_row([*holding, card], card.colour)
    state.apply(Take("P0", 1))
    rows = state.rows(0)
    return {
        "rows": {c: len(v) for c, v in sorted(rows.items())},
        "bells": {c: R.bells_in_row(v, c) for c, v in sorted(rows.items())},
        "razzia": [colour for _, colour, _ in state.raids],
        "lost": len(state.discard),
        "drawn": reserve_before - len(state.reserve),
        "reserve_left": len(state.reserve),
        "feathers": sum(c.feathers for c in state.holdings[0]),
        "cards": len(state.holdings[0]),
        "row_bells": row_bells,
    }


@PROBES("game_end")
def game_end(given: Mapping[str, Any]) -> dict:
    """The last heist(s): the deck runs out, the reserve serves, then the last share and scoring.

    given: ``deck`` (card specs or a count, top first), ``reserve`` (card specs or a count),
    ``reveals`` (how many cards the leader tries to reveal this heist), ``stop`` (default True),
    ``num_players`` (default 4). The share is played with each thief taking the lowest field and the
    leader passing whenever he may.
    returns: ``revealed``, ``from_reserve`` (cards revealed from the reserve), ``refused_rule``,
    ``outcome``, ``deck_left``, ``reserve_left``, ``terminal``, ``scored`` (final scores exist),
    ``can_reveal_next`` (a new heist can start), ``round``.
    """
    state = _state(given, moves=given.get("deck", 1), filler=0, reserve=given.get("reserve", 0))
    ran = _run_heist(state, [0] * int(given.get("reveals", 1)), bool(given.get("stop", True)))
    from_reserve = state.from_reserve
    outcome = state.outcome
    while state.phase not in (Phase.RAID, Phase.GAME_OVER):
        state.apply(state.legal_actions()[0])  # Pass sorts before Take
    return {
        "revealed": ran["revealed"],
        "from_reserve": from_reserve,
        "refused_rule": ran["refused_rule"],
        "outcome": outcome or R.OPEN,
        "deck_left": len(state.deck),
        "reserve_left": len(state.reserve),
        "terminal": state.is_terminal(),
        "scored": state.scores is not None,
        "can_reveal_next": any(isinstance(a, Reveal) for a in state.legal_actions()),
        "round": state.round_no,
    }


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


@PROBES("rotation")
def rotation(given: Mapping[str, Any]) -> dict:
    """Leaders of successive rounds (each heist: one card revealed, then a voluntary stop).

    given: ``num_players`` (default 4), ``first_leader`` (default 0), ``rounds`` (default 4),
    ``leader_rotation`` (default "clockwise").
    returns: ``leaders`` [player per round], ``actor_refused`` (rule refusing a reveal by a non-leader).
    """
    rounds = int(given.get("rounds", 4))
    state = _state(given, moves=rounds + 1, filler=0)
    other = state.players[(state.leader + 1) % len(state.players)]
    refused = broken_rule(state, Reveal(other))
    leaders = []
    for _ in range(rounds):
        leaders.append(_leader(state))
        state.apply(Reveal(_leader(state)))
        state.apply(Stop(_leader(state)))
        while state.phase not in (Phase.RAID, Phase.GAME_OVER):
            state.apply(state.legal_actions()[0])
    return {"leaders": leaders, "actor_refused": refused}



@PROBES("setup")
def setup(given: Mapping[str, Any]) -> dict:
    """Setup of a whole game with the default material (``KeineEhreState.new_game``).

    given: ``num_players`` (default 4), ``seed`` (default 0), and the game parameters of the module
    docstring (e.g. ``commissar_start``, ``first_leader``).
    returns: ``total`` (loot cards in the game), ``reserve`` (cards set aside as the reserve pile),
    ``deck`` (cards in the loot deck), ``board`` (fields holding a card), ``commissar``, ``leader``,
    ``phase``, ``can_reveal`` (the leader may turn up the first card).
    """
    params = {k: given[k] for k in _GAME_KEYS if k in given}
    state = KeineEhreState.new_game(int(given.get("seed", 0)), **params)
    return {
        "total": len(state.all_cards()),
        "reserve": len(state.reserve),
        "deck": len(state.deck),
        "board": sorted(state.board_cards()),
        "commissar": state.commissar,
        "leader": _p(state.leader),
        "phase": state.phase.value,
        "can_reveal": Reveal(_leader(state)) in state.legal_actions(),
    }


@PROBES("share_turn")
def share_turn(given: Mapping[str, Any]) -> dict:
    """One heist, then the share played up to a given turn; reports what the player to act may do there
    and, if asked, lets him take a card of his choice (all through ``legal_actions``/``apply``).

    given: a scenario with ``moves`` and ``stop`` as in ``share``, ``holdings`` {player index: card specs already laid out}, ``at`` ("leader_share", "others_share"
    (default) or "leader_extra": the phase to stop in), ``leader_takes`` (cards the leader takes first,
    from the lowest fields; default: none when ``at`` is "leader_share", else the minimum he must take),
    ``take`` (optional field the player to act then takes). Before ``at`` the leader passes whenever he
    may and every thief takes the card on the lowest field.
    returns: ``outcome``, ``phase`` (the phase reached; "ended" if the share was over before ``at``,
    "raid" if the heist did not end),
    ``player`` (the player to act), ``can_pass``, ``pass_refused`` (rule refusing his pass, else None),
    ``takeable_fields`` (fields he may take from), ``board_fields``; with ``take``: ``take_refused``,
    ``raids`` ([player, colour] per police raid in this share), ``rows`` {colour: cards} of that player,
    ``phase_after``.
    """
    moves = list(given.get("moves", []))
    state = _state(given)
    leader = _leader(state)
    _run_heist(state, moves, bool(given.get("stop", False)))
    outcome = state.outcome or R.OPEN
    at = Phase(given.get("at", Phase.OTHERS_SHARE.value))
    round_no = state.round_no
    wants = given.get("leader_takes")
    if wants is None:
        wants = 0 if at is Phase.LEADER_SHARE else state.quota[0]
    for _ in range(int(wants)):
        if state.phase is not Phase.LEADER_SHARE or not state.board_cards():
            break
        state.apply(Take(leader, _leftmost(state)))
    in_share = (Phase.LEADER_SHARE, Phase.OTHERS_SHARE, Phase.LEADER_EXTRA)
    while state.phase is not at and state.phase in in_share and state.round_no == round_no:
        p = state.current_player()
        if Pass(p) in state.legal_actions():
            state.apply(Pass(p))
        else:
            state.apply(Take(p, _leftmost(state)))
    reached = state.phase is at and state.round_no == round_no and outcome != R.OPEN
    player = state.current_player()
    legal = state.legal_actions() if reached else []
    pass_err = state.check(Pass(player)) if reached else None
    out = {
        "outcome": outcome,
        "phase": at.value if reached else ("raid" if outcome == R.OPEN else "ended"),
        "player": player if reached else None,
        "can_pass": any(isinstance(a, Pass) for a in legal),
        "pass_refused": pass_err.rule.name if pass_err else None,
        "takeable_fields": sorted(a.field for a in legal if isinstance(a, Take)),
        "board_fields": sorted(state.board_cards()),
    }
    if reached and given.get("take") is not None:
        raids_before = len(state.raids)
        out["take_refused"] = broken_rule(state, Take(player, int(given["take"])))
        out["raids"] = [[_p(p), colour] for p, colour, _ in state.raids[raids_before:]]
        out["rows"] = {c: len(v) for c, v in sorted(state.rows(state.players.index(player)).items())}
        out["phase_after"] = state.phase.value
    return out
