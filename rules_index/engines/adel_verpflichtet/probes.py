"""Probes: build real Adel Verpflichtet states from a ``given`` scenario, run real actions through
``apply`` / ``legal_actions`` / the scoring functions, and report what happened.

Players are seat numbers 0..n-1 (JSON keys may be strings: {"0": ...}). A play is a string
"<place> <card> [value]": "auction cheque 13", "auction thief", "castle thief 6", "castle detective",
"castle exhibition". Collection letters take the oldest free card of their series (lower number =
older). Returned dicts use string player keys. A place and an action card tried step by step are
the generic probe ``steps`` (:meth:`.game.AdelState.parse_action`).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..base import ProbeRegistry, RuleViolation, broken_rule
from .cards import CHEQUE, THIEF, CollectionCard, Location
from .exhibitions import exhibition_validity, letters_of, possible_exhibitions
from .game import (
    ACTION, LOCATION, STEAL, AdelGame, AdelState, ChooseBoth, ChooseLocation, ExhibitCard,
    FinishExhibition, Pass, PlayCard, Steal,
)
from .scenario import (
    drive_round, letter_capacity, next_action, parse_play, players_map, round_log,
)

PROBES = ProbeRegistry(AdelState)


def _setup(game: AdelGame, seed: int, give_cheques: Mapping | None = None, **data: Any) -> AdelState:
    return AdelState.from_scenario({"game": game, "seed": seed, "give": give_cheques, **data})


def _refused(exc: RuleViolation) -> dict[str, Any]:
    return {"legal": False, "rule": exc.rule.name, "citation": exc.rule.citation,
            "reason": getattr(exc, "reason", None)}


def _keyed(mapping: Mapping[int, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in sorted(mapping.items())}


def _letters(cards) -> str:
    return letters_of(cards)


def _game(given: Mapping[str, Any], players: int, *letter_strings: str) -> AdelGame:
    return AdelGame(num_players=int(given.get("players", players)),
                    variant=str(given.get("variant", "standard")),
                    cards_per_letter=letter_capacity(*letter_strings))


def _plays(given: Mapping[str, Any]) -> dict[int, str]:
    plays = players_map(given.get("plays"))
    n = int(given.get("players", max(plays, default=0) + 1))
    missing = [p for p in range(max(n, 2)) if p not in plays]
    if missing:
        raise ValueError(f"plays must name every player; missing {missing}")
    return plays


# ------------------------------------------------------------------------------ exhibitions ---

@PROBES("exhibition_validity")
def probe_exhibition_validity(given: Mapping[str, Any]) -> dict[str, Any]:
    """The calculator's check of a string of collection letters.

    given: cards (str, e.g. "AABBC").
    returns: valid (bool), reason (None or "empty" / "unknown-letter" / "too-few-cards" / "gap"),
    separate (the separate exhibitions a collection of exactly these cards could form, engine's
    ``possible_exhibitions``; [] when a letter is unknown), size (how many cards were checked).
    """
    cards = str(given["cards"])
    valid, reason = exhibition_validity(cards)
    separate: list[str] = []
    if reason != "unknown-letter":
        fake = [CollectionCard(i + 1, c.upper()) for i, c in enumerate(cards) if c.isalpha()]
        separate = possible_exhibitions(fake)
    return {"valid": valid, "reason": reason, "separate": separate, "size": sum(1 for c in cards if c.isalpha())}


@PROBES("exhibit")
def probe_exhibit(given: Mapping[str, Any]) -> dict[str, Any]:
    """Player 0 goes to the castle with the exhibition card and lays out cards one by one.

    given: collection (letters P0 owns), show (letters to lay out, or a list of letter strings:
    several exhibitions tried one after another in the same round). P1 plays a castle thief, which
    keeps the round open after P0's exhibition.
    returns: exhibition_card_legal (bool), legal (every card of every show accepted), rule and reason
    of the first refusal (None if none), refused_card (letter refused or None), laid_out (letter
    strings accepted as exhibitions), possible (separate exhibitions the collection could form).
    """
    collection = str(given.get("collection", ""))
    shows = given.get("show", "")
    shows = [shows] if isinstance(shows, str) else [str(s) for s in shows]
    game = _game(given, 2, collection)
    state = _setup(game, int(given.get("seed", 0)), collections={0: collection})
    out: dict[str, Any] = {"exhibition_card_legal": True, "legal": True, "rule": None, "reason": None,
                           "refused_card": None, "laid_out": [],
                           "possible": possible_exhibitions(state.collections[0])}
    try:
        state.apply(ChooseLocation("0", Location.CASTLE))
        state.apply(ChooseLocation("1", Location.CASTLE))
        state.apply(PlayCard("0", "exhibition"))
    except RuleViolation as exc:
        out.update(_refused(exc), exhibition_card_legal=False)
        out.pop("citation")
        return out
    state.apply(PlayCard("1", THIEF, min(t.number for t in state.thieves[1])))
    for show in shows:
        letter = None
        try:
            for letter in (c for c in show.upper() if c.isalpha()):
                state.apply(ExhibitCard("0", _pick_card(state, 0, letter)))
            letter = None
            state.apply(FinishExhibition("0"))
            out["laid_out"].append(_letters(state.exhibitions.get(0, [])))
        except RuleViolation as exc:
            out.update(legal=False, rule=exc.rule.name, reason=getattr(exc, "reason", None),
                       refused_card=letter)
            break
    return out


def _pick_card(state: AdelState, p: int, letter: str) -> CollectionCard:
    chosen = set(state.selection.get(p, []))
    for card in sorted(state.collections[p]):
        if card.letter == letter and card not in chosen:
            return card
    for card in sorted(state.exhibitions.get(p, [])):
        if card.letter == letter:
            return card
    return CollectionCard(0, letter)  # a card P0 does not own: the engine refuses it


# ------------------------------------------------------------------------------- auction house ---

@PROBES("auction")
def probe_auction(given: Mapping[str, Any]) -> dict[str, Any]:
    """One full round with the given plays; reports the auction house (Phase 3).

    given: plays (player -> play, every player), players (optional count), cash_box (optional cheque
    values paid in earlier rounds), give (optional player -> cheque values already in that hand,
    e.g. stolen earlier), take_stack (optional 0/1).
    returns: buyer (seat or None), bought (letter or None), paid (cheque value or None), cash_box
    (values after the round), thief_gains (player -> cheque values taken by a thief), blocked (bool:
    several thieves blocked each other), returned (player -> cheque values taken back), hands
    (player -> cheque values), playable_next_round (player -> cheque values the engine offers that
    player in the auction house next round).
    """
    plays = _plays(given)
    game = _game(given, max(plays) + 1)
    state = _setup(game, int(given.get("seed", 0)), cash_box=given.get("cash_box"),
                        give_cheques=players_map(given.get("give")))
    round_no = state.round
    drive_round(state, plays, take_stack=int(given.get("take_stack", 0)))
    events = round_log(state, round_no)
    buy = next((d for k, d in events if k == "buy"), None)
    gains: dict[int, list[int]] = {}
    returned: dict[int, list[int]] = {}
    for kind, data in events:
        if kind == "thief-cheque":
            gains.setdefault(data["player"], []).append(data["cheque"])
        if kind == "return":
            returned.setdefault(data["player"], []).append(data["cheque"])
    return {
        "buyer": buy["player"] if buy else None,
        "bought": buy["letter"] if buy else None,
        "paid": buy["cheque"] if buy else None,
        "cash_box": sorted(c.value for c in state.cash_box),
        "thief_gains": _keyed(gains),
        "blocked": any(k == "thieves-block" for k, _ in events),
        "returned": _keyed(returned),
        "hands": _keyed({p: [c.value for c in h] for p, h in enumerate(state.hands)}),
        "playable_next_round": _keyed(_playable_cheques(state)),
    }


def _playable_cheques(state: AdelState) -> dict[int, list[int]]:
    """Walk the next round's Phase 1/2 on a copy: everyone who can goes to the auction house; record
    the cheque values ``legal_actions`` offers each player there."""
    sim = state.copy()
    result: dict[int, list[int]] = {p: [] for p in range(sim.num_players)}
    if sim.is_terminal():
        return result
    while sim.phase == LOCATION:
        p = sim.seat_to_act()
        options = sim.legal_actions()
        auction = [a for a in options if isinstance(a, ChooseLocation) and a.location == Location.AUCTION]
        sim.apply(auction[0] if auction else options[0])
    while sim.phase == ACTION:
        p = sim.seat_to_act()
        options = sim.legal_actions()
        result[p] = sorted(a.value for a in options if isinstance(a, PlayCard) and a.kind == CHEQUE)
        sim.apply(options[0])
    return result


@PROBES("auction_closes")
def probe_auction_closes(given: Mapping[str, Any]) -> dict[str, Any]:
    """P0 buys with its highest cheque while only ``stack`` is left in the auction house.

    given: stack (letters left in the auction house, top first; default "A"), players (default 2).
    returns: closed_before, closed_after (after that round), legal_locations (places the engine offers
    P0 next round), auction_rule (rule refusing the auction house next round, None if allowed).
    """
    stack = str(given.get("stack", "A"))
    n = int(given.get("players", 2))
    game = AdelGame(num_players=n)
    state = _setup(game, int(given.get("seed", 0)), stacks=[stack, ""], leftovers=n - 1)
    closed_before = state.auction_closed
    plays = {0: "auction cheque"} | {p: "castle detective" for p in range(1, n)}
    drive_round(state, plays)
    out = {"closed_before": closed_before, "closed_after": state.auction_closed,
           "legal_locations": sorted(a.location.value for a in state.legal_actions()
                                     if isinstance(a, ChooseLocation)),
           "auction_rule": None}
    out["auction_rule"] = broken_rule(state.copy(), ChooseLocation("0", Location.AUCTION))
    return out


# ------------------------------------------------------------------------------------ castle ---

@PROBES("castle")
def probe_castle(given: Mapping[str, Any]) -> dict[str, Any]:
    """One full round with the given plays; reports the castle (Phase 4).

    given: plays (player -> play, every player), positions (pawn positions), collections (player ->
    letters; an exhibitor without one owns exactly its show), shows (player -> letters to exhibit),
    steal ("oldest"/"newest": which card each thief takes), prison (thief numbers already inside),
    steal_twice (bool: the first thief tries a 2nd card from the same exhibition).
    returns: ranking (exhibitors, best first), field ([higher, lower] used), moves (player -> steps
    from exhibitions), detective_moves (player -> steps), positions (after), exhibition_sizes
    (player -> cards at scoring), steal_order (thief numbers in the order they stole), loot
    (player -> letters stolen), caught (thief numbers), prison (cell 1 first), collections (player ->
    letters after the round), order (event kinds of the castle in order), second_steal ({legal,
    rule}, only with steal_twice), movers (how many exhibitors moved), exhibitions (how many lay
    out at scoring), loot_counts (player -> cards stolen).
    """
    plays = _plays(given)
    shows = {p: str(v) for p, v in players_map(given.get("shows")).items()}
    collections = {p: str(v) for p, v in players_map(given.get("collections")).items()}
    for p, spec in plays.items():
        if parse_play(spec)[1] == "exhibition" and p not in collections:
            collections[p] = shows.get(p, "")
    game = _game(given, max(plays) + 1, *collections.values())
    state = _setup(game, int(given.get("seed", 0)), collections=collections,
                        positions=given.get("positions"), prison=given.get("prison"))
    round_no = state.round
    steal = str(given.get("steal", "oldest"))
    out: dict[str, Any] = {}
    if given.get("steal_twice"):
        drive_round(state, plays, shows, steal=steal, stop_phase=STEAL)
        if state.phase == STEAL and state.round == round_no:
            first = next_action(state, plays, shows, steal=steal)
            state.apply(first)
            second_card = sorted(state.exhibitions[int(first.victim)])
            out["second_steal"] = {"legal": True, "rule": None}
            if state.phase == STEAL and second_card:
                rule = broken_rule(state.copy(), Steal(first.player, first.victim, second_card[0]))
                out["second_steal"] = {"legal": rule is None, "rule": rule}
    drive_round(state, plays, shows, steal=steal)
    events = round_log(state, round_no)
    score = next((d for k, d in events if k == "score"), None)
    shown = next((d for k, d in events if k == "exhibit"), {"exhibitions": {}})["exhibitions"]
    det = next((d for k, d in events if k == "detectives"), None)
    loot: dict[int, str] = {}
    steal_order: list[int] = []
    for kind, data in events:
        if kind == "steal":
            loot[data["player"]] = "".join(sorted(loot.get(data["player"], "") + data["letter"]))
            if data["thief"] not in steal_order:
                steal_order.append(data["thief"])
    castle_kinds = ("exhibit", "score", "steal", "thief-empty", "detectives", "detective-idle",
                    "prison", "freed")
    out.update({
        "ranking": score["ranking"] if score else [],
        "field": score["field"] if score else None,
        "moves": _keyed(score["moves"]) if score else {},
        "detective_moves": _keyed(det["moves"]) if det else {},
        "positions": list(state.positions),
        "exhibition_sizes": _keyed({p: len(v) for p, v in shown.items()}),
        "steal_order": steal_order,
        "loot": _keyed(loot),
        "caught": det["caught"] if det else [],
        "prison": [t.number for t in state.prison],
        "collections": _keyed({p: _letters(c) for p, c in enumerate(state.collections)}),
        "order": [k for k, _ in events if k in castle_kinds],
        "movers": len(score["moves"]) if score else 0,
        "exhibitions": len(shown),
        "loot_counts": _keyed({p: len(letters) for p, letters in loot.items()}),
    })
    return out


@PROBES("prison")
def probe_prison(given: Mapping[str, Any]) -> dict[str, Any]:
    """Thieves caught in the castle enter the prison (Phase 4 · Detektive, Gefängnis).

    given: players (count, = number of cells), prison (thief numbers already inside, cell 1 first),
    caught (thief numbers played in the castle this round, owners distinct). Every other player
    plays the detective. Default thief numbers: player p owns p+1 and p+1+n.
    returns: cell_count, cells (thief numbers, cell 1 first), entered (numbers in order of entry),
    freed (numbers pushed out of the last cell), returned_to (owner -> freed numbers), thieves_in_hand
    (player -> thief numbers in hand after the round).
    """
    n = int(given.get("players", 3))
    game = AdelGame(num_players=n)
    owner = {t.number: t.owner for t in game.all_thieves()}
    caught = [int(x) for x in given.get("caught", [])]
    plays: dict[int, str] = {}
    for number in caught:
        if owner[number] in plays:
            raise ValueError("each player plays at most one thief per round")
        plays[owner[number]] = f"castle thief {number}"
    for p in range(n):
        plays.setdefault(p, "castle detective")
    state = _setup(game, int(given.get("seed", 0)), prison=given.get("prison"))
    round_no = state.round
    drive_round(state, plays)
    events = round_log(state, round_no)
    freed = [d for k, d in events if k == "freed"]
    returned: dict[int, list[int]] = {}
    for d in freed:
        returned.setdefault(d["owner"], []).append(d["thief"])
    return {
        "cell_count": game.prison_cells,
        "cells": [t.number for t in state.prison],
        "entered": [d["thief"] for k, d in events if k == "prison"],
        "freed": [d["thief"] for d in freed],
        "returned_to": _keyed(returned),
        "thieves_in_hand": _keyed({p: [t.number for t in h] for p, h in enumerate(state.thieves)}),
    }


# ---------------------------------------------------------------------------------- variants ---

@PROBES("variant")
def probe_variant(given: Mapping[str, Any]) -> dict[str, Any]:
    """Plays the first ``rounds`` rounds of a game (always the first legal action) and reports how
    places and cards are chosen.

    given: variant ("standard"/"surprise"/"confrontation"), players (default 2), rounds (default 2).
    returns: allowed (False if the engine refuses the set-up), error, action_types (names of the
    action types offered at the start of round 1), locations_by_round (list of per-player places),
    same_place (all players at the same place in every round), revealed_together (places and action
    cards revealed by the same action), location_choice_rule (rule refusing a free choice of place,
    None if allowed).
    """
    try:
        state = AdelState.new_game(int(given.get("seed", 0)), num_players=int(given.get("players", 2)),
                                   variant=str(given["variant"]))
    except ValueError as exc:
        return {"allowed": False, "error": str(exc)}
    action_types = sorted({type(a).__name__ for a in state.legal_actions()})
    rule = broken_rule(state.copy(), ChooseLocation("0", Location.CASTLE))
    together = False
    locations: list[list[str]] = []
    for _ in range(int(given.get("rounds", 2))):
        start = state.round
        while not state.is_terminal() and state.round == start:
            before = len(state.log)
            state.apply(state.legal_actions()[0])
            kinds = [k for _, k, _ in state.log[before:]]
            if "cards" in kinds and ("locations" in kinds):
                together = True
        for r, kind, data in state.log:
            if r == start and kind in ("locations", "announce"):
                locs = data["locations"] if kind == "locations" else [data["place"]] * state.num_players
                locations.append(locs)
    return {"allowed": True, "error": None, "action_types": action_types,
            "locations_by_round": locations,
            "same_place": all(len(set(l)) == 1 for l in locations),
            "revealed_together": together, "location_choice_rule": rule}


# ------------------------------------------------------------------------------- whole round ---

_AUCTION_EVENTS = ("buy", "return", "tie", "thief-cheque", "thieves-block", "auction-thief-empty")
_CASTLE_EVENTS = ("exhibit", "score", "steal", "thief-empty", "detectives", "detective-idle",
                  "prison", "freed")


def _top_letter(stack: list[CollectionCard]) -> str | None:
    return stack[-1].letter if stack else None


@PROBES("round")
def probe_round(given: Mapping[str, Any]) -> dict[str, Any]:
    """One full round with the given plays (Phases 1-4 and the round end, all through ``apply``);
    reports where every card is afterwards and what the next round offers.

    given: plays (player -> play, every player), players (optional count), shows (player -> letters
    to exhibit), collections (player -> letters; an exhibitor without one owns exactly its show),
    stacks (two letter strings, top card FIRST; the other collection cards are shuffled under them),
    take_stack (0/1: the stack the buyer takes from), positions, prison, cash_box, steal.
    returns: bought (letter or None), taken_from (stack index or None), stack_tops (top letter of
    each stack after the round, None if empty), auction_events / castle_events (event kinds of that
    place this round, in order), cheques_in_hand (player -> values), thieves_in_hand (player ->
    numbers), cash_box (values), prison (cell 1 first), collections (player -> letters),
    on_display (player -> letters still lying out as an exhibition), positions, round (number of
    the round now being played), next_locations (player -> places the engine offers each player
    in the next round, walked on a copy), stacks (how many collection-card stacks the auction
    house has).
    """
    plays = _plays(given)
    shows = {p: str(v) for p, v in players_map(given.get("shows")).items()}
    collections = {p: str(v) for p, v in players_map(given.get("collections")).items()}
    for p, spec in plays.items():
        if parse_play(spec)[1] == "exhibition" and p not in collections:
            collections[p] = shows.get(p, "")
    stacks = given.get("stacks")
    game = _game(given, max(plays) + 1, *collections.values(), *(stacks or []))
    state = _setup(game, int(given.get("seed", 0)), collections=collections,
                        stacks=None if stacks is None else [str(s) for s in stacks],
                        positions=given.get("positions"), prison=given.get("prison"),
                        cash_box=given.get("cash_box"))
    round_no = state.round
    drive_round(state, plays, shows, take_stack=int(given.get("take_stack", 0)),
                steal=str(given.get("steal", "oldest")))
    events = round_log(state, round_no)
    buy = next((d for k, d in events if k == "buy"), None)
    out = {
        "bought": buy["letter"] if buy else None,
        "taken_from": buy["stack"] if buy else None,
        "stack_tops": [_top_letter(s) for s in state.stacks],
        "auction_events": [k for k, _ in events if k in _AUCTION_EVENTS],
        "castle_events": [k for k, _ in events if k in _CASTLE_EVENTS],
        "cheques_in_hand": _keyed({p: [c.value for c in h] for p, h in enumerate(state.hands)}),
        "thieves_in_hand": _keyed({p: [t.number for t in h] for p, h in enumerate(state.thieves)}),
        "cash_box": sorted(c.value for c in state.cash_box),
        "prison": [t.number for t in state.prison],
        "collections": _keyed({p: _letters(c) for p, c in enumerate(state.collections)}),
        "on_display": _keyed({p: _letters(c) for p, c in state.exhibitions.items() if c}),
        "positions": list(state.positions),
        "round": state.round,
        "next_locations": _keyed(_next_locations(state)),
        "stacks": len(state.stacks),
    }
    return out


def _next_locations(state: AdelState) -> dict[int, list[str]]:
    """On a copy: each player's place options in the next round's Phase 1 (seat order, each then
    takes the first option so the next player is asked)."""
    sim = state.copy()
    result: dict[int, list[str]] = {}
    while not sim.is_terminal() and sim.phase == LOCATION:
        p = sim.seat_to_act()
        options = [a for a in sim.legal_actions() if isinstance(a, ChooseLocation)]
        result[p] = sorted(Location(a.location).value for a in options)
        sim.apply(options[0])
    return result


# ------------------------------------------------------------------------ secret choices ---

@PROBES("reveal")
def probe_reveal(given: Mapping[str, Any]) -> dict[str, Any]:
    """Plays one round action by action and records when the hidden choices of Phases 1 and 2
    become visible (the engine's log is what the table sees).

    given: plays (player -> play, every player), players (optional count), variant (default
    "standard"), collections (player -> letters), shows.
    returns: first_action (type name of the action the engine asks for first in round 1),
    choices_before_location_reveal (location cards laid when the places were revealed, None if never
    revealed), locations_revealed (the places revealed, one per player), location_reveals (number of
    reveal events for places this round), locations_known_before_first_card (the places were
    revealed before anyone laid an action card), choices_before_card_reveal (action cards laid when
    the cards were revealed), cards_revealed (number of cards that reveal shows), visible_while_choosing
    (event kinds logged while some player still had to choose in that phase; [] = nothing leaks),
    locations_face_up_until_end (all places stayed laid out at every later action of the round).
    """
    plays = _plays(given)
    shows = {p: str(v) for p, v in players_map(given.get("shows")).items()}
    collections = {p: str(v) for p, v in players_map(given.get("collections")).items()}
    game = _game(given, max(plays) + 1, *collections.values())
    state = _setup(game, int(given.get("seed", 0)), collections=collections)
    round_no = state.round
    out: dict[str, Any] = {
        "first_action": type(state.legal_actions()[0]).__name__,
        "choices_before_location_reveal": None, "locations_revealed": None, "location_reveals": 0,
        "locations_known_before_first_card": False, "choices_before_card_reveal": None,
        "cards_revealed": None, "visible_while_choosing": [], "locations_face_up_until_end": True,
    }
    location_choices = card_choices = 0
    revealed = False
    while not state.is_terminal() and state.round == round_no:
        action = next_action(state, plays, shows)
        phase = state.phase
        if isinstance(action, (PlayCard, ChooseBoth, Pass)) and card_choices == 0:
            out["locations_known_before_first_card"] = revealed
        if revealed and state.phase != LOCATION and any(l is None for l in state.locations):
            out["locations_face_up_until_end"] = False
        before = len(state.log)
        state.apply(action)
        if isinstance(action, (ChooseLocation, ChooseBoth)):
            location_choices += 1
        if isinstance(action, (PlayCard, ChooseBoth, Pass)):
            card_choices += 1
        new = [(k, d) for r, k, d in state.log[before:] if r == round_no]
        for kind, data in new:
            if kind == "locations":
                revealed = True
                out["location_reveals"] += 1
                out["choices_before_location_reveal"] = location_choices
                out["locations_revealed"] = data["locations"]
            if kind == "cards":
                out["choices_before_card_reveal"] = card_choices
                out["cards_revealed"] = len(data["cards"])
        if phase in (LOCATION, ACTION) and state.phase == phase and state.round == round_no:
            out["visible_while_choosing"] += [k for k, _ in new]
    return out
