"""Probes of the Kardinal & König engine: build real states from a scenario, run real actions.

Scenarios are those of :meth:`.game.KardinalState.from_scenario` (on the SAMPLE board, fields
"<Land>-<n>"). Players in answers are letters; refusals are reported by rule name. Plays, draws and
swaps step by step are the generic probe ``steps`` (:meth:`.game.KardinalState.parse_action`).
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from ..base import ProbeRegistry, broken_rule
from .sample_board import SAMPLE_BOARD
from .cards import COUNCILLOR, MONASTERY, colour_of
from .game import DECK, OPEN, Draw, KardinalState, Pass, Placement, Play, Swap, play_from, player_name, seat
from . import scoring

PROBES = ProbeRegistry(KardinalState)


# --------------------------------------------------------------------------- helpers
_p, _name, _play_from = seat, player_name, play_from


def _state(given: Mapping[str, Any], hand: list | None = None, **data: Any) -> KardinalState:
    return KardinalState.from_scenario({**given, **({"hand": hand} if hand is not None else {}), **data})


# --------------------------------------------------------------------------- probes
@PROBES("land_options")
def probe_land_options(given: Mapping[str, Any]) -> dict:
    """What legal_actions() offers the acting player in one land.

    given: common keys; ``land`` (required); ``hand`` (default three cards showing the land).
    returns: max_stones (most stones of one legal play there), can_place_monastery,
      can_place_councillor, max_councillors (most councillors in one legal play), plays (number of
      legal plays there), council_limit, councillors_in_land, has_monastery.
    """
    land = str(given["land"])
    hand = None if "hand" in given else [colour_of(land)] * 3
    state = _state(given, hand)
    plays = [a for a in state.legal_actions() if isinstance(a, Play) and a.placements[0].land == land]
    kinds = [[pl.kind for pl in a.placements] for a in plays]
    return {
        "max_stones": max((len(k) for k in kinds), default=0),
        "can_place_monastery": any(MONASTERY in k for k in kinds),
        "can_place_councillor": any(COUNCILLOR in k for k in kinds),
        "max_councillors": max((k.count(COUNCILLOR) for k in kinds), default=0),
        "plays": len(plays),
        "council_limit": state.council_limit(land),
        "councillors_in_land": state.councillors_in(land),
        "has_monastery": state.has_monastery(land),
    }


@PROBES("turn_options")
def probe_turn_options(given: Mapping[str, Any]) -> dict:
    """The choices at the start of a turn, and what a pass or a swap does.

    given: common keys; ``swap`` — optional {discard: colour, take: "deck" or a colour of an open
      card}; without it the first legal swap is used.
    returns: can_pass (Pass among legal actions), pass_rule (rule that refuses a Pass, or None),
      plays, swaps (numbers of legal plays/swaps), must_swap (no play possible but a swap is),
      swap_legal, swap_rule, turn_ended (after the swap the next player is to act),
      next_player, hand_size_after, open_after, phase_after.
    """
    state = _state(given)
    actions = state.legal_actions()
    plays = [a for a in actions if isinstance(a, Play)]
    swaps = [a for a in actions if isinstance(a, Swap)]
    out: dict[str, Any] = {
        "can_pass": any(isinstance(a, Pass) for a in actions),
        "plays": len(plays),
        "swaps": len(swaps),
        "must_swap": not plays and bool(swaps),
    }
    trial = state.copy()
    out["pass_rule"] = broken_rule(trial, Pass())
    player = state.current
    if "swap" in given:
        spec = given["swap"]
        take = str(spec.get("take", "deck"))
        swap = Swap(colour_of(spec["discard"]), DECK, None) if take == "deck" else Swap(
            colour_of(spec["discard"]), OPEN, colour_of(take))
    elif swaps:
        swap = swaps[0]
    else:
        swap = None
    if swap is not None:
        rule = broken_rule(state, swap)
        out["swap_legal"], out["swap_rule"] = rule is None, rule
    else:
        out["swap_legal"], out["swap_rule"] = False, None
    out["turn_ended"] = state.is_terminal() or state.current != player
    out["next_player"] = None if state.is_terminal() else _name(state.current)
    out["hand_size_after"] = len(state.hands[player])
    out["open_after"] = len(state.open)
    out["phase_after"] = state.phase
    return out


@PROBES("refill")
def probe_refill(given: Mapping[str, Any]) -> dict:
    """A Play, then the hand refilled by the given draws; shows the refill order.

    given: common keys with ``open`` and ``deck`` usually given; ``stones`` as in probe ``play``;
      ``draws`` — list of "deck" or an open card's colour, in order.
    returns: legal_draws (list of booleans), draw_rule (first refusing rule or None),
      open_during_refill (number of open cards before each draw), hand_after, open_after (number),
      open_refilled_from_deck (open cards after the turn that came from the deck), turn_ended.
    """
    state = _state(given)
    player = state.current
    rule = broken_rule(state, _play_from(list(given["stones"])))
    if rule:
        return {"play_legal": False, "rule": rule}
    legal, rule, open_during = [], None, []
    deck_before = list(state.deck)
    for d in given.get("draws", []):
        open_during.append(len(state.open))
        action = Draw(DECK) if d == "deck" else Draw(OPEN, colour_of(d))
        refused = broken_rule(state, action)
        legal.append(refused is None)
        rule = rule or refused
    return {
        "play_legal": True,
        "legal_draws": legal,
        "draw_rule": rule,
        "open_during_refill": open_during,
        "hand_after": len(state.hands[player]),
        "open_after": len(state.open),
        "deck_taken": len(deck_before) - len(state.deck),
        "turn_ended": state.current != player or state.is_terminal(),
    }


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
        players = max(3, max(_p(k) for k in counts) + 1)
        mons = {}
        for p, n in counts.items():
            for _ in range(n):
                mons[fields.pop(0)] = _p(p)
        state = KardinalState.from_scenario({"players": players, "monasteries": mons})
        totals = state.interim_scoring()
        out["via_state"] = {_name(p): v for p, v in totals.items() if v}
    return out


@PROBES("interim_scoring")
def probe_interim_scoring(given: Mapping[str, Any]) -> dict:
    """The acting player takes the last deck card for the first time (by a swap, or by a play
    and refill when ``stones`` are given) and so triggers the interim scoring.

    given: common keys; ``deck`` defaults to one card; ``open`` defaults to two cards;
      ``stones`` — optional play first; the refill then draws from the deck, taking its last card.
    returns: triggered (scoring happened), points {player: points gained} (only non-zero),
      monastery_points {player: points a monastery-only scoring gives} (non-zero), exhaustions,
      open_kept (the open cards lying at the scoring are still open), deck_after, discard_after,
      next_player, final_round.
    """
    g = dict(given)
    g.setdefault("deck", ["Frankreich"])
    g.setdefault("open", ["Bayern/Burgund", "Lothringen/Italien"])
    state = _state(g)
    before = list(state.scores)
    open_before = list(state.open)
    expected, _ = scoring.monastery_scoring(state.board, state.monasteries, range(state.num_players))
    if "stones" in g:
        state.apply(_play_from(list(g["stones"])))
        while state.phase == "draw" and not state.is_terminal():
            state.apply(Draw(DECK) if state.deck else state.legal_actions()[0])
    else:
        discard = state.hands[state.current][0]
        state.apply(Swap(discard, DECK))
    gained = {_name(p): state.scores[p] - before[p] for p in range(state.num_players) if state.scores[p] != before[p]}
    return {
        "triggered": state.interim is not None,
        "points": gained,
        "monastery_points": {_name(p): v for p, v in expected.items() if v},
        "exhaustions": state.exhaustions,
        "open_kept": all(c in state.open for c in open_before) if "stones" not in g else None,
        "deck_after": len(state.deck),
        "discard_after": len(state.discard),
        "next_player": None if state.is_terminal() else _name(state.current),
        "final_round": state.final_round,
    }


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
    """The final scoring of a real state (monasteries, alliances, chains) and the interim scoring
    of the same board for comparison.

    given: common keys (``monasteries``, ``councillors``, ``players``); ``alliance`` — optional
      "Land1-Land2" to report that alliance's points.
    returns: monasteries, alliances, chains, total — {player: points}, only non-zero entries;
      interim — {player: points} the interim scoring would give (non-zero); alliance — {player:
      points} of the named alliance (non-zero); alliance_councillors — {land: councillors of all
      colours} in the named alliance's two lands; winners — [players].
    """
    state = _state(given)
    interim, _ = scoring.monastery_scoring(state.board, state.monasteries, range(state.num_players))
    final = state.final_scoring()

    def nz(d: Mapping[int, int]) -> dict:
        return {_name(p): v for p, v in sorted(d.items()) if v}

    out = {
        "monasteries": nz(final["monasteries"]),
        "alliances": nz(final["alliances"]),
        "chains": nz(final["chains"]),
        "total": nz(dict(enumerate(state.scores))),
        "interim": nz(interim),
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
      chain_fields (the chains' fields), networks (sizes of A's connected monastery groups).
    """
    own = list(given.get("own") or [])
    mons = {f: 0 for f in own}
    mons.update({f: _p(o) for f, o in (given.get("others") or {}).items()})
    players = max(3, max(mons.values(), default=0) + 1)
    state = KardinalState.from_scenario({"players": players, "monasteries": mons})
    final = state.final_scoring()
    found = final["chain_list"][0]
    return {
        "points": final["chains"][0],
        "chains": sorted(len(c) for c in found),
        "chain_fields": [list(c) for c in found],
        "networks": sorted(len(n) for n in scoring.networks(own, state.board)),
    }


@PROBES("game_end")
def probe_game_end(given: Mapping[str, Any]) -> dict:
    """How the game ends.

    given: ``players``, ``start_player``; ``mode``: "deck" (default) — the deck has run out once
      already and holds one card; ``trigger`` (default: start player) takes it with a swap; then
      every player takes the first legal swap (or pass) until the end. "blocked" — only
      ``trigger`` still has a stone (one monastery); he places it in ``land`` (default
      Frankreich, already holding a monastery of another player).
    returns: terminal, end_reason ("round_finished" / "blocked"), moved_after_trigger (players who
      still had a turn after the trigger, in order), last_player, final_round, interim_again
      (an interim scoring happened after the trigger: it must not), scored (final scoring done),
      exhaustions (how often the deck has run out).
    """
    mode = str(given.get("mode", "deck"))
    n, start = int(given.get("players", 4)), _p(given.get("start_player", 0))
    trigger = _p(given.get("trigger", _name(start)))
    base = {"players": n, "start_player": start, "player": trigger}
    if mode == "blocked":
        land = str(given.get("land", "Frankreich"))
        fields = SAMPLE_BOARD.lands[land]
        other = (trigger + 1) % n
        supplies = {p: {MONASTERY: 0, COUNCILLOR: 0} for p in range(n)}
        supplies[trigger] = {MONASTERY: 1, COUNCILLOR: 0}
        state = KardinalState.from_scenario({**base, "monasteries": {fields[0]: other}, "hand": [land] * 3,
                                             "supplies": supplies})
        state.apply(Play((Placement(land, MONASTERY, fields[1], (colour_of(land),)),)))
        moved: list[str] = []
        while not state.is_terminal():
            if state.phase == "draw":
                state.apply(state.legal_actions()[0])
                continue
            moved.append(_name(state.current))
            state.apply(state.legal_actions()[0])
    else:
        state = KardinalState.from_scenario({**base, "deck": ["Frankreich"], "exhaustions": 1})
        state.apply(Swap(state.hands[trigger][0], DECK))
        moved = []
        while not state.is_terminal() and len(moved) < 3 * n:
            moved.append(_name(state.current))
            acts = state.legal_actions()
            swaps = [a for a in acts if isinstance(a, Swap)]
            state.apply(swaps[0] if swaps else acts[-1])
    interims = sum(1 for line in state.history if line.startswith("Interim scoring"))
    return {
        "terminal": state.is_terminal(),
        "end_reason": state.end_code,
        "moved_after_trigger": moved,
        "last_player": moved[-1] if moved else _name(trigger),
        "final_round": state.final_round,
        "interim_again": interims > 0,
        "scored": state.final is not None,
        "exhaustions": state.exhaustions,
    }


@PROBES("winner")
def probe_winner(given: Mapping[str, Any]) -> dict:
    """Who wins, given final scores and stones left in supply.

    given: ``scores`` {player: points}; ``stones_left`` {player: monasteries + councillors left}
      (split onto monasteries first, at most 20, rest councillors); ``players`` (default: number
      of players named).
    returns: winners [players]; stones_left {player: n} as read back from the state.
    """
    scores = {_p(k): int(v) for k, v in given["scores"].items()}
    n = int(given.get("players", max(3, max(scores) + 1)))
    supplies = {}
    for k, left in (given.get("stones_left") or {}).items():
        left = int(left)
        supplies[_p(k)] = {MONASTERY: min(left, 20), COUNCILLOR: max(0, left - 20)}
    state = KardinalState.from_scenario({"players": n, "scores": scores, "supplies": supplies})
    return {
        "winners": state.winners(),
        "stones_left": {_name(p): state.stones_left(p) for p in range(n)},
    }


@PROBES("setup")
def probe_setup(given: Mapping[str, Any]) -> dict:
    """The material after setup for a player count.

    given: ``players``; ``seed``.
    returns: cards_in_play, removed, removed_per_colour {colour: n}, hand_sizes, open_cards,
      deck, supply {"Kloster": n, "Rat": m} per player, total_cards.
    """
    state = KardinalState.new_game(int(given.get("seed", 0)), num_players=int(given.get("players", 4)))
    per = {}
    for c in state.removed:
        per[c.label] = per.get(c.label, 0) + 1
    return {
        "cards_in_play": state.card_count() - len(state.removed),
        "removed": len(state.removed),
        "removed_per_colour": per,
        "hand_sizes": [len(h) for h in state.hands],
        "open_cards": len(state.open),
        "deck": len(state.deck),
        "supply": {MONASTERY: state.supply_monasteries[0], COUNCILLOR: state.supply_councillors[0]},
        "total_cards": state.card_count(),
    }


@PROBES("after_interim")
def probe_after_interim(given: Mapping[str, Any]) -> dict:
    """What happens to the cards when the acting player's refill takes the last deck card for the
    first time: a real Play, then real Draws; the interim scoring fires inside the Draw.

    given: common keys; ``deck`` defaults to one card, ``open`` to two cards (all other cards
      then lie on the discard pile); ``stones`` as in probe ``play``; ``draws`` — list of "deck"
      or an open card's colour, in order (default: "deck" until the hand is full).
    returns: triggered (an interim scoring happened), interim_at_draw (1-based number of the draw
      that triggered it), discard_before (cards on the discard pile just before that draw),
      new_pile (draw pile right after it: the reshuffled discard pile), discard_after_reshuffle,
      open_kept (the face-up cards lying there at the scoring are still face up after it),
      hand_after (the trigger's hand at the end of the turn), open_after (face-up cards at the
      end of the turn), deck_after, next_player, exhaustions.
    """
    g = dict(given)
    g.setdefault("deck", ["Frankreich"])
    g.setdefault("open", ["Bayern/Burgund", "Lothringen/Italien"])
    state = _state(g)
    player = state.current
    state.apply(_play_from(list(g["stones"])))
    draws = list(g.get("draws") or [])
    out: dict[str, Any] = {"triggered": False, "interim_at_draw": None, "discard_before": None,
                           "new_pile": None, "discard_after_reshuffle": None, "open_kept": None}
    i = 0
    while state.phase == "draw" and not state.is_terminal():
        d = draws[i] if i < len(draws) else "deck"
        i += 1
        open_before = list(state.open)
        discard_before = len(state.discard)
        had_interim = state.interim is not None
        state.apply(Draw(DECK) if d == "deck" else Draw(OPEN, colour_of(d)))
        if state.interim is not None and not had_interim:
            out["triggered"] = True
            out["interim_at_draw"] = i
            out["discard_before"] = discard_before
            # the turn may already have ended (hand full), topping up the face-up cards from the
            # new pile: count those back to see the pile as it was right after the reshuffle
            topped = len(state.open) - len(open_before) if state.current != player else 0
            out["new_pile"] = len(state.deck) + topped
            out["discard_after_reshuffle"] = len(state.discard)
            remaining = Counter(state.open)
            out["open_kept"] = all(remaining[c] >= k for c, k in Counter(open_before).items())
    out.update({
        "hand_after": len(state.hands[player]),
        "open_after": len(state.open),
        "deck_after": len(state.deck),
        "next_player": None if state.is_terminal() else _name(state.current),
        "exhaustions": state.exhaustions,
    })
    return out
