"""Probes of the Ohne Furcht und Adel engine for derived facts: final scoring, the draft over many
seeded deals, the face-up cards of a known stack.

A scenario played action by action is the generic probe ``steps``: ``given`` is read by
:meth:`.game.GameState.from_scenario`, each step by :meth:`.game.GameState.parse_action`, and
:meth:`.game.GameState.observe` reports the outcome. Characters: English, German or Italian name or
number ("thief", "Dieb", 2); districts: ``[colour, cost]`` (``["green", 3]``); players "A", "B", ...
in seat order. A refused step is ``legal: false`` with the rule's name as the German rulebook names
it (e.g. "Dieb", "Söldner", "Prediger", "Fähigkeit einmal je Zug"). Characters in results are
lower-case English names.
"""
from __future__ import annotations

import random

from ..base import ProbeRegistry
from .cards import FACE_UP_BY_PLAYERS, Character
from .game import ChooseCharacter, GameState, advance_passively, lay_out_face_up

PROBES = ProbeRegistry(GameState)


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
    state = GameState.from_scenario(dict(
        players=names, gold={e["name"]: int(e.get("gold", 0)) for e in entries},
        cities={e["name"]: e.get("districts") or [] for e in entries},
        first_complete=given.get("first_complete"), start_at=9,
    ))
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
        "face_up": [str(c) for c in shown],
        "king_face_up": Character.KING in shown,
        "king_put_back": put_back > 0,
        "king_in_stack": Character.KING in stack,
        "cards_kept": len(shown) + len(stack),
        "king_face_up_at_any_position": any(Character.KING in lay_out(k)[0] for k in range(1, len(Character) + 1)),
    }
