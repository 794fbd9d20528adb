"""Probes of the Ohne Furcht und Adel engine: build real states from a ``given`` scenario, run real
actions through ``apply``/``legal_actions``/scoring, and report what happened.

Conventions for ``given``:
- characters: English, German or Italian name or number ("thief", "Dieb", 2);
- districts: ``[colour, cost]`` with the colour in English or German (``["green", 3]``);
- players are named "A", "B", ... in seat order. Characters in results are lower-case English names.
A refused action is reported as ``legal: false`` with ``rule`` = the rule's name as the German
rulebook names it (e.g. "Dieb", "Söldner", "Prediger", "Fähigkeit einmal je Zug"). One turn scripted
step by step is the generic probe ``steps`` (:meth:`.game.GameState.parse_action`).
"""
from __future__ import annotations

import random
from typing import Any

from ..base import ProbeRegistry, broken_rule
from .cards import FACE_UP_BY_PLAYERS, Character, District, as_district, build_deck, parse_character, parse_color
from .game import (
    Assassinate,
    Build,
    ChooseCharacter,
    Destroy,
    EndTurn,
    GameState,
    Rob,
    TakeGold,
    advance_passively,
    lay_out_face_up,
    player_names,
)

PROBES = ProbeRegistry(GameState)


# --------------------------------------------------------------------------- helpers


def _ds(values: Any) -> list[District]:
    return [as_district(v) for v in (values or [])]


def _scenario(players, holders, **data) -> GameState:
    return GameState.from_scenario({"players": players, "holders": holders, **data})


def _name(c: Character) -> str:
    return c.name.lower()


def _cheap_cards(n: int, exclude: list[District] = ()) -> list[District]:
    """n of the cheapest cards of the deck (filler cities), skipping cards reserved elsewhere."""
    pool = sorted(build_deck())
    for d in exclude:
        pool.remove(d)
    return pool[:n]


# --------------------------------------------------------------------------- thief


@PROBES("thief_target")
def thief_target(given: dict) -> dict:
    """The thief names a character; when that character is called its holder hands over all gold.

    given: ``target`` (character, required); ``murdered`` (character the assassin kills first,
    optional); ``target_held`` (bool, default true: false = nobody chose the target, e.g. it was set
    aside face down); ``victim_gold`` (gold of the target's holder, default 3); ``players`` (default 4).
    Seats: A assassin, B thief, C the target (unless it is the assassin or thief), next free seat the
    murdered character.
    returns: ``legal`` (bool), ``rule`` (rule name if refused), ``stolen`` (gold the thief received
    when the target was called), ``victim_gold_at_turn`` (gold of the target's holder when his turn
    began, None if he had none), ``thief_gold_end`` (the thief's gold after the round).
    """
    n = int(given.get("players", 4))
    names = player_names(n)
    target = parse_character(given["target"])
    murdered = parse_character(given["murdered"]) if given.get("murdered") is not None else None
    holders = {Character.ASSASSIN: names[0], Character.THIEF: names[1]}
    if target not in holders and given.get("target_held", True):
        holders[target] = names[2 % n]
    if murdered is not None and murdered not in holders:
        free = [p for p in names if p not in holders.values()]
        holders[murdered] = free[0] if free else names[-1]
    victim = holders.get(target)
    gold = {}
    if victim is not None:
        gold[victim] = int(given.get("victim_gold", 3))
    state = _scenario(names, holders, gold=gold, seed=int(given.get("seed", 0)))
    # the assassin's turn
    if murdered is not None:
        state.apply(Assassinate(murdered))
    state.apply(TakeGold())
    state.apply(EndTurn())
    if state.active != Character.THIEF:
        raise RuntimeError("thief_target: the thief should be on turn now")
    rule = broken_rule(state, Rob(target))
    thief = holders[Character.THIEF]
    victim_gold_at_turn = None
    if victim is not None and target != Character.THIEF:
        advance_passively(state, lambda s: s.active == target or s.round > 1)
        if state.active == target:
            victim_gold_at_turn = state.gold[victim]
    advance_passively(state, lambda s: s.round > 1)
    stolen = sum(e[3] for e in state.events if e[0] == "rob")
    return {
        "legal": rule is None,
        "rule": rule,
        "stolen": stolen,
        "victim_gold_at_turn": victim_gold_at_turn,
        "thief_gold_end": state.gold[thief],
    }


# --------------------------------------------------------------------------- king and crown


@PROBES("crown")
def crown(given: dict) -> dict:
    """Who holds the crown during and after a round in which the king is called, murdered or unchosen.

    given: ``king``: "called" (default) | "assassinated" | "not_chosen"; ``players`` (default 4);
    ``crown`` (holder before the round, default "A"); ``king_player`` (default "C").
    The assassin sits at the first seat that is neither the king's nor the crown's (or the crown's
    if none), the merchant (called after the king) at the last such seat.
    returns: ``king_played`` (the king took a turn), ``crown_during_round`` (holder when the merchant,
    after the king, is called), ``crown_next_round`` (holder at the start of the next round),
    ``next_round_first_chooser`` (who chooses first in the next draft).
    """
    n = int(given.get("players", 4))
    names = player_names(n)
    mode = given.get("king", "called")
    if mode not in ("called", "assassinated", "not_chosen"):
        raise ValueError("king is called, assassinated or not_chosen")
    crown_before = given.get("crown", names[0])
    king_player = given.get("king_player", names[2 % n])
    others = [p for p in names if p not in (king_player, crown_before)] or [crown_before]
    holders = {Character.ASSASSIN: others[0], Character.MERCHANT: others[-1]}
    if mode != "not_chosen":
        holders[Character.KING] = king_player
    state = _scenario(names, holders, crown=crown_before, seed=int(given.get("seed", 0)))
    if mode == "assassinated":
        state.apply(Assassinate(Character.KING))
    advance_passively(state, lambda s: s.active == Character.MERCHANT)
    during = state.crown
    advance_passively(state, lambda s: s.round > 1)
    return {
        "king_played": any(e[0] == "turn" and e[1] == Character.KING for e in state.events),
        "crown_during_round": during,
        "crown_next_round": state.crown,
        "next_round_first_chooser": state.current_player(),
    }


# --------------------------------------------------------------------------- warlord


@PROBES("warlord_destroy")
def warlord_destroy(given: dict) -> dict:
    """The warlord (seat A) tries to destroy a district in player B's city.

    given: ``target`` (district to destroy, required); ``target_city`` (B's whole city, default just
    the target; the target is added if missing); ``target_character`` (B's character, default
    "merchant"); ``murdered`` (character the assassin, seat C, kills first; optional);
    ``warlord_gold`` (default 5); ``players`` (default 4).
    returns: ``legal``, ``rule``, ``paid`` (gold the warlord paid), ``bank_gain`` (gold the bank
    received), ``warlord_gold`` (after the attempt), ``city_size`` (B's city after), ``in_discard``
    (the district lies on the discard pile).
    """
    n = int(given.get("players", 4))
    names = player_names(n)
    target = as_district(given["target"])
    city = _ds(given.get("target_city")) or [target]
    if target not in city:
        city.append(target)
    attacker, defender = names[0], names[1]
    holders = {Character.WARLORD: attacker, parse_character(given.get("target_character", "merchant")): defender}
    murdered = parse_character(given["murdered"]) if given.get("murdered") is not None else None
    if murdered is not None:
        holders[Character.ASSASSIN] = names[2 % n]
    gold = {attacker: int(given.get("warlord_gold", 5))}
    state = _scenario(names, holders, gold=gold, cities={defender: city}, seed=int(given.get("seed", 0)))
    if murdered is not None:
        state.apply(Assassinate(murdered))
    advance_passively(state, lambda s: s.active == Character.WARLORD)
    bank0, gold0, discard0 = state.bank, state.gold[attacker], state.discard.count(target)
    rule = broken_rule(state, Destroy(defender, target))
    return {
        "legal": rule is None,
        "rule": rule,
        "paid": gold0 - state.gold[attacker],
        "bank_gain": state.bank - bank0,
        "warlord_gold": state.gold[attacker],
        "city_size": len(state.cities[defender]),
        "in_discard": state.discard.count(target) > discard0,
    }


# --------------------------------------------------------------------------- end of game


@PROBES("game_end")
def game_end(given: dict) -> dict:
    """Seat A, holding ``builder_character``, builds his 8th district; does the game end at once?

    given: ``builder_character`` (default "king"); ``later_characters`` (characters held by the other
    seats in turn, default ["bishop", "warlord"]); ``players`` (default 4); ``city_size`` (A's city
    before building, default 7).
    returns: ``city_size`` (A's city after building), ``first_complete``, ``terminal_after_eighth``
    (game over right after the 8th district), ``turns_after_eighth`` (characters that still took a
    turn, lower-case English), ``terminal_after_round``, ``rounds`` (rounds played).
    """
    n = int(given.get("players", 4))
    names = player_names(n)
    builder = parse_character(given.get("builder_character", "king"))
    holders = {builder: names[0]}
    later = [parse_character(c) for c in given.get("later_characters", ["bishop", "warlord"])]
    for i, c in enumerate(later):
        holders.setdefault(c, names[1 + i % (n - 1)])
    card = District(parse_color("green"), 2)
    city = _cheap_cards(int(given.get("city_size", 7)), exclude=[card])
    state = _scenario(names, holders, gold={names[0]: 5}, hands={names[0]: [card]},
                               cities={names[0]: city}, start_at=int(builder), seed=int(given.get("seed", 0)))
    state.apply(TakeGold())
    state.apply(Build(card))
    terminal_now = state.is_terminal()
    mark = len(state.events)
    advance_passively(state, lambda s: s.round > 1)
    return {
        "city_size": len(state.cities[names[0]]),
        "first_complete": state.first_complete,
        "terminal_after_eighth": terminal_now,
        "turns_after_eighth": [_name(e[1]) for e in state.events[mark:] if e[0] == "turn"],
        "terminal_after_round": state.is_terminal(),
        "rounds": state.round,
    }


# --------------------------------------------------------------------------- scoring


@PROBES("final_score")
def final_score(given: dict) -> dict:
    """Final scoring of a real finished game: the cities and gold are set up, the last round ends,
    and the engine scores.

    given: ``players``: list of ``{name, districts: [[colour, cost], ...], gold}``;
    ``first_complete``: name of the first player with 8 districts (or null).
    returns: ``scores`` ({name: {district_points, all_colours_bonus, complete_bonus, total}}),
    ``totals`` ({name: total}), ``gold`` ({name: gold held}), ``winner`` (None if still tied),
    ``winners``, ``tie_break_used``, ``terminal`` (the game ended), ``cities`` ({name: {districts,
    colours}}: how many districts and distinct colours each scored city holds).
    """
    entries = given["players"]
    names = [str(e["name"]) for e in entries]
    state = _scenario(
        names, {}, gold={e["name"]: int(e.get("gold", 0)) for e in entries},
        cities={e["name"]: _ds(e.get("districts")) for e in entries},
        first_complete=given.get("first_complete"), start_at=9,
    )
    result = state.final_scores()
    return {
        "scores": result["scores"],
        "totals": state.returns(),
        "gold": dict(state.gold),
        "winner": result["winner"],
        "winners": result["winners"],
        "tie_break_used": result["tie_break_used"],
        "terminal": state.is_terminal(),
        "cities": {
            name: {"districts": len(state.cities[name]), "colours": len({d.color for d in state.cities[name]})}
            for name in names
        },
    }


# --------------------------------------------------------------------------- draft


@PROBES("draft")
def draft(given: dict) -> dict:
    """Deals and drafts the characters of many seeded first rounds (random choices via legal_actions).

    given: ``players`` (2..7, default 4); ``games`` (number of seeded deals, default 60); ``seed``.
    returns: ``face_up`` (cards laid face up; an int when the same in every deal, else a sorted list),
    ``king_face_up`` (the king ever lay face up), ``set_aside`` (cards set aside face down before choosing),
    ``characters_each`` (characters per player), ``unused`` (characters nobody holds),
    ``last_options`` (cards the last chooser picks from), ``set_aside_to_last`` (the last chooser
    received the set-aside card), ``order`` (the draft of the first deal as "seat:choose" /
    "seat:discard", the crown at seat A), ``turns_each`` (turns each player takes in that round when
    the round is played on without assassinations).
    """
    n = int(given.get("players", 4))
    games = int(given.get("games", 60))
    base = int(given.get("seed", 0))
    face_up, each, unused, last_opts, set_aside = set(), set(), set(), set(), set()
    king_up, to_last, turns_each = False, set(), set()
    order: list[str] = []
    for g in range(games):
        state = GameState.new_game(base + g, players=n)
        chooser = random.Random(base + g)
        face_up.add(len(state.face_up))
        king_up |= Character.KING in state.face_up
        set_aside.add(1 if state.set_aside is not None or any(e[0] == "set_aside_to_last" for e in state.events) else 0)
        mark = len(state.events)
        while state.phase == "draft":
            if state.draft_pos == len(state.draft_steps) - 1:
                last_opts.add(len(state.legal_actions()))
            action = chooser.choice(state.legal_actions())
            if g == 0:
                kind = "choose" if isinstance(action, ChooseCharacter) else "discard"
                order.append(f"{state.current_player()}:{kind}")
            state.apply(action)
        to_last.add(any(e[0] == "set_aside_to_last" for e in state.events))
        each.update(len(state.characters_of(p)) for p in state.players)
        unused.add(len(Character) - len(state.holders))
        advance_passively(state, lambda s: s.round > 1)
        turns = [e[2] for e in state.events[mark:] if e[0] == "turn"]
        turns_each.update(turns.count(p) for p in state.players)

    def one(values: set):
        return next(iter(values)) if len(values) == 1 else sorted(values)

    return {
        "face_up": one(face_up),
        "king_face_up": king_up,
        "set_aside": one(set_aside),
        "characters_each": one(each),
        "unused": one(unused),
        "last_options": one(last_opts),
        "set_aside_to_last": one(to_last),
        "order": order,
        "turns_each": one(turns_each),
    }


@PROBES("face_up")
def face_up(given: dict) -> dict:
    """Lays out the face-up characters of a round from a stack in a known order, with the function the
    game's round start uses (``lay_out_face_up``, S. 1 · Ablauf einer Runde).

    given: ``players`` (2..7, default 4); ``king_at`` (where the king lies in the shuffled stack:
    1 = the top card, the first one turned up; default 1; the other seven characters lie in their
    numbered order around it); ``seed`` (the reshuffle after a king was put back, default 0).
    returns: ``face_up_count``; ``face_up`` (the characters laid face up, in order); ``king_face_up``;
    ``king_put_back`` (the king was turned up, went back into the stack and another card was turned
    up instead); ``king_in_stack`` (the king is among the cards left for the draft); ``cards_kept``
    (face-up cards and stack together: nothing lost); ``king_face_up_at_any_position`` (the king lay
    face up for some ``king_at`` from 1 to 8, each tried with the same seed).
    """
    n = int(given.get("players", 4))
    seed = int(given.get("seed", 0))
    count = FACE_UP_BY_PLAYERS[n]

    def lay_out(king_at: int) -> tuple[list[Character], int, list[Character]]:
        if not 1 <= king_at <= len(Character):
            raise ValueError(f"king_at must be 1..{len(Character)}")
        others = [c for c in Character if c != Character.KING]
        top_first = others[:king_at - 1] + [Character.KING] + others[king_at - 1:]
        stack = list(reversed(top_first))  # the top card is the last element
        shown, put_back = lay_out_face_up(stack, count, random.Random(seed).shuffle)
        return shown, put_back, stack

    shown, put_back, stack = lay_out(int(given.get("king_at", 1)))
    return {
        "face_up_count": len(shown),
        "face_up": [_name(c) for c in shown],
        "king_face_up": Character.KING in shown,
        "king_put_back": put_back > 0,
        "king_in_stack": Character.KING in stack,
        "cards_kept": len(shown) + len(stack),
        "king_face_up_at_any_position": any(Character.KING in lay_out(k)[0] for k in range(1, len(Character) + 1)),
    }


# --------------------------------------------------------------------------- assassin


@PROBES("assassinate")
def assassinate(given: dict) -> dict:
    """The assassin (seat A) names a character; does its holder (seat B) still take a turn?

    given: ``target`` (character, required); ``target_held`` (default true); ``players`` (default 4).
    returns: ``legal``, ``rule``, ``victim_played`` (the target took a turn this round),
    ``turns`` (characters that took a turn this round, lower-case English).
    """
    n = int(given.get("players", 4))
    names = player_names(n)
    target = parse_character(given["target"])
    holders = {Character.ASSASSIN: names[0]}
    if given.get("target_held", True) and target != Character.ASSASSIN:
        holders[target] = names[1]
    holders.setdefault(Character.WARLORD, names[2 % n])
    state = _scenario(names, holders, seed=int(given.get("seed", 0)))
    rule = broken_rule(state, Assassinate(target))
    advance_passively(state, lambda s: s.round > 1)
    turns = [e[1] for e in state.events if e[0] == "turn"]
    return {
        "legal": rule is None,
        "rule": rule,
        "victim_played": target in turns,
        "turns": [_name(c) for c in turns],
    }


# --------------------------------------------------------------------------- setup


@PROBES("setup")
def setup(given: dict) -> dict:
    """A new game is set up by the engine (shuffle, deal, crown) and the first draft begins.

    given: ``players`` (2..7, default 4); ``oldest`` (seat name of the oldest player, default "A");
    ``seed`` (default 0).
    returns: ``gold_each`` / ``cards_each`` (gold and district cards per player; an int when equal for
    all, else {player: n}), ``bank`` (gold left in the bank), ``draw_pile`` (cards left to draw),
    ``crown`` (crown holder in round 1), ``first_chooser`` (who picks the first character),
    ``round``, ``phase``.
    """
    n = int(given.get("players", 4))
    names = player_names(n)
    oldest = given.get("oldest", names[0])
    state = GameState.new_game(int(given.get("seed", 0)), players=n, crown=oldest)

    def one(values: dict):
        distinct = set(values.values())
        return next(iter(distinct)) if len(distinct) == 1 else values

    return {
        "gold_each": one(dict(state.gold)),
        "cards_each": one({p: len(h) for p, h in state.hands.items()}),
        "bank": state.bank,
        "draw_pile": len(state.deck),
        "crown": state.crown,
        "first_chooser": state.current_player(),
        "round": state.round,
        "phase": state.phase,
    }


# --------------------------------------------------------------------------- calling a round


@PROBES("round_calls")
def round_calls(given: dict) -> dict:
    """The characters are called 1..8 and the round is played on plainly (2 gold, end of turn).

    given: ``characters`` ({character: player}; characters not listed were chosen by nobody; default
    {assassin: A, king: B, warlord: C}); ``players`` (default 4); ``seed``.
    returns: ``turns`` (characters that took a turn, in calling order, lower-case English),
    ``turn_players`` (the player of each of those turns), ``nobody`` (characters called that nobody
    holds), ``round_over`` (the round ended and the next draft began).
    """
    n = int(given.get("players", 4))
    names = player_names(n)
    chosen = given.get("characters") or {"assassin": names[0], "king": names[1], "warlord": names[2 % n]}
    holders = {parse_character(c): p for c, p in chosen.items()}
    state = _scenario(names, holders, seed=int(given.get("seed", 0)))
    advance_passively(state, lambda s: s.round > 1)
    turns = [e for e in state.events if e[0] == "turn"]
    return {
        "turns": [_name(e[1]) for e in turns],
        "turn_players": [e[2] for e in turns],
        "nobody": [_name(e[1]) for e in state.events if e[0] == "nobody"],
        "round_over": state.round == 2 and state.phase == "draft",
    }


# --------------------------------------------------------------------------- thief: when the gold moves


@PROBES("thief_timing")
def thief_timing(given: dict) -> dict:
    """The thief (seat A) names a character held by seat B; B also holds a character called between
    the two and takes 2 gold with it. When does B's gold go to the thief, and how much?

    given: ``target`` (default "king"); ``earlier`` (B's other character, called after the thief and
    before the target, default "magician"; null for none); ``victim_gold`` (B's gold at the start,
    default 1); ``players`` (2 or 3, default 2: each player holds 2 characters).
    returns: ``legal``, ``rule`` (of naming the target), ``victim_gold_after_naming`` (B's gold once
    the thief has named the target), ``victim_gold_before_call`` (B's gold just before the target is
    called), ``stolen`` (gold handed to the thief when the target was called),
    ``victim_gold_at_turn`` (B's gold when the target's turn begins), ``thief_gain_at_call``.
    """
    n = int(given.get("players", 2))
    if n not in (2, 3):
        raise ValueError("thief_timing: 2 or 3 players (each holds 2 characters)")
    names = player_names(n)
    thief, victim = names[0], names[1]
    target = parse_character(given.get("target", "king"))
    earlier_name = given.get("earlier", "magician")
    earlier = parse_character(earlier_name) if earlier_name is not None else None
    if earlier is not None and not Character.THIEF < earlier < target:
        raise ValueError("thief_timing: earlier must be called between the thief and the target")
    holders = {Character.THIEF: thief, target: victim}
    if earlier is not None:
        holders[earlier] = victim
    state = _scenario(names, holders, gold={victim: int(given.get("victim_gold", 1))},
                               seed=int(given.get("seed", 0)))
    if state.active != Character.THIEF:
        raise RuntimeError("thief_timing: the thief should be on turn now")
    rule = broken_rule(state, Rob(target))
    after_naming = state.gold[victim]
    state.apply(TakeGold())
    if earlier is not None:
        state.apply(EndTurn())
        advance_passively(state, lambda s: s.active == earlier and s.step == "main")
    # the end of this turn (the thief's or B's earlier one) calls the target next
    before_call = state.gold[victim]
    thief_before = state.gold[thief]
    state.apply(EndTurn())
    advance_passively(state, lambda s: s.active == target or s.round > 1)
    at_turn = state.gold[victim] if state.active == target else None
    return {
        "legal": rule is None,
        "rule": rule,
        "victim_gold_after_naming": after_naming,
        "victim_gold_before_call": before_call,
        "stolen": sum(e[3] for e in state.events if e[0] == "rob"),
        "victim_gold_at_turn": at_turn,
        "thief_gain_at_call": state.gold[thief] - thief_before,
    }
