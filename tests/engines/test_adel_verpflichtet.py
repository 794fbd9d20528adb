"""Tests of the Adel Verpflichtet engine: one scenario per rule, a golden playthrough, and property
tests over seeded random games (conservation, termination, legal actions never empty)."""
from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_index.engines import probes_for
from rules_index.engines.base import RuleViolation
from rules_index.engines.adel_verpflichtet import (
    AdelGame, AdelState, Cheque, ChooseBoth, ChooseLocation, CollectionCard, ExhibitCard, FinishExhibition, Location,
    Pass, PlayCard, Steal, TakeCard, Thief, check_invariants, exhibition_validity,
)
from rules_index.engines.adel_verpflichtet import rules as R
from rules_index.engines.adel_verpflichtet.game import ACTION, AUCTION_TAKE, EXHIBIT, STEAL
from rules_index.engines.adel_verpflichtet.scenario import drive_round, next_step, round_log

A, C = Location.AUCTION, Location.CASTLE


def scenario(game, seed=0, give_cheques=None, **data):
    return AdelState.from_scenario({"game": game, "seed": seed, "give": give_cheques, **data})


def snapshot(state):
    """Everything a refused action must leave unchanged."""
    return copy.deepcopy({k: v for k, v in vars(state).items() if k not in ("game", "rng")})


def refused(state, action, rule):
    before = snapshot(state)
    with pytest.raises(RuleViolation) as info:
        state.apply(action)
    assert info.value.rule == rule, info.value
    assert snapshot(state) == before
    assert action not in state.legal_actions()
    return info.value


def choose(state, *locations):
    for p, loc in enumerate(locations):
        state.apply(ChooseLocation(str(p), loc))


def events(state, kind, round_no=1):
    return [d for k, d in round_log(state, round_no) if k == kind]


# ------------------------------------------------------------------------- exhibition validity ---

@pytest.mark.parametrize("cards, valid, reason", [
    ("AAA", True, None), ("AABBC", True, None), ("CCD", True, None), ("DEF", True, None),
    ("ABCDEF", True, None), ("fed", True, None), ("A, B, C", True, None),
    ("AB", False, "too-few-cards"), ("BCF", False, "gap"), ("AACE", False, "gap"),
    ("", False, "empty"), ("  ", False, "empty"), ("ABX", False, "unknown-letter"),
    ("AC", False, "too-few-cards"),
], ids=lambda v: repr(v))
def test_exhibition_validity_table(cards, valid, reason):
    assert exhibition_validity(cards) == (valid, reason)


def test_exhibition_validity_type():
    with pytest.raises(TypeError):
        exhibition_validity(["A", "B", "C"])


# ------------------------------------------------------------------------------------ phase 2 ---

def test_exhibition_card_needs_valid_exhibition():
    state = scenario(AdelGame(num_players=2), collections={0: "ABE", 1: "CDE"})
    choose(state, C, C)
    refused(state, PlayCard("0", "exhibition"), R.EXHIBITION_CARD)
    state.apply(PlayCard("0", "detective"))
    state.apply(PlayCard("1", "exhibition"))  # CDE is a valid exhibition
    assert state.phase == EXHIBIT


def test_detective_forbidden_in_auction_house():
    state = scenario(AdelGame(num_players=2))
    choose(state, A, C)
    refused(state, PlayCard("0", "detective"), R.DETECTIVE_CASTLE_ONLY)
    refused(state, PlayCard("0", "exhibition"), R.CHOOSE_ACTION)
    refused(state, PlayCard("0", "cheque", 2), R.CHOOSE_ACTION)  # P1's cheque value, not in P0's hand
    kinds = {a.kind for a in state.legal_actions() if isinstance(a, PlayCard) and a.player == "0"}
    assert kinds == {"cheque", "thief"}


def test_cheque_forbidden_in_castle_and_out_of_phase_refused():
    state = scenario(AdelGame(num_players=2))
    choose(state, C, C)
    refused(state, PlayCard("0", "cheque", 1), R.CHOOSE_ACTION)
    refused(state, PlayCard("0", "cheque", 2), R.CHOOSE_ACTION)
    refused(state, TakeCard("0", 0), R.ROUND_STRUCTURE)


def test_hidden_choices_in_any_order():
    # "alle handeln gleichzeitig": whoever has not chosen yet may lay their card; one card each.
    state = scenario(AdelGame(num_players=3))
    assert {a.player for a in state.legal_actions()} == {"0", "1", "2"}
    state.apply(ChooseLocation("2", C))
    refused(state, ChooseLocation("2", A), R.SIMULTANEOUS_CHOICE)
    assert {a.player for a in state.legal_actions()} == {"0", "1"}
    assert state.current_player() == "0"  # the default actor of a scenario step
    state.apply(ChooseLocation("1", A))
    assert not events(state, "locations")
    state.apply(ChooseLocation("0", C))
    assert events(state, "locations")[0]["locations"] == ["castle", "auction", "castle"]
    state.apply(PlayCard("2", "detective"))
    refused(state, PlayCard("2", "thief", 3), R.SIMULTANEOUS_CHOICE)
    state.apply(PlayCard("0", "thief", 1))
    assert not events(state, "cards") and state.current_player() == "1"
    state.apply(PlayCard("1", "cheque", 5))
    assert events(state, "cards")[0]["cards"] == ["thief T1", "cheque $5", "detective"]
    refused(state, ChooseLocation("9", A), R.ROUND_STRUCTURE)


def test_legal_actions_are_exactly_the_accepted_choices_of_everyone_still_to_choose():
    state = scenario(AdelGame(num_players=3), collections={1: "ABC"})
    choose(state, A, C, C)
    candidates = [PlayCard(str(p), kind, value) for p in range(3)
                  for kind, value in state._card_candidates(p)] + [Pass(str(p)) for p in range(3)]
    accepted = [a for a in candidates if isinstance(state.copy().attempt(a), AdelState)]
    assert state.legal_actions() == accepted
    assert {a.player for a in accepted} == {"0", "1", "2"}
    surprise = AdelState.new_game(0, num_players=2, variant="surprise")
    surprise.apply(ChooseBoth("1", C, "detective"))
    assert {a.player for a in surprise.legal_actions()} == {"0"}


def test_unknown_location_refused():
    state = scenario(AdelGame(num_players=2))
    refused(state, ChooseLocation("0", "garden"), R.CHOOSE_LOCATION)


def test_locations_revealed_only_when_all_chose():
    state = scenario(AdelGame(num_players=3))
    state.apply(ChooseLocation("0", A))
    state.apply(ChooseLocation("1", C))
    assert not events(state, "locations")
    state.apply(ChooseLocation("2", C))
    assert events(state, "locations")[0]["locations"] == ["auction", "castle", "castle"]
    assert state.phase == ACTION


# ---------------------------------------------------------------------------------- exhibitions ---

def test_one_exhibition_per_round_separate_run_refused():
    state = scenario(AdelGame(num_players=2), collections={0: "ABCEFF"})
    choose(state, C, C)
    state.apply(PlayCard("0", "exhibition"))
    state.apply(PlayCard("1", "thief", 2))
    cards = sorted(state.collections[0])
    for card in cards[:3]:
        state.apply(ExhibitCard("0", card))
    exc = refused(state, ExhibitCard("0", cards[3]), R.ONE_EXHIBITION)
    assert exc.reason == "gap"
    state.apply(FinishExhibition("0"))
    assert state.phase == STEAL
    refused(state, ExhibitCard("0", cards[4]), R.ONE_EXHIBITION)


def test_exhibitions_put_together_in_any_order():
    # Phase 4 · Ausstellungen: several exhibitors put theirs together at the same time, face down.
    state = scenario(AdelGame(num_players=3), collections={0: "ABC", 1: "DEF"})
    choose(state, C, C, C)
    state.apply(PlayCard("0", "exhibition"))
    state.apply(PlayCard("1", "exhibition"))
    state.apply(PlayCard("2", "detective"))
    assert state.phase == EXHIBIT and {a.player for a in state.legal_actions()} == {"0", "1"}
    mine, yours = sorted(state.collections[0]), sorted(state.collections[1])
    state.apply(ExhibitCard("1", yours[0]))
    state.apply(ExhibitCard("0", mine[0]))
    for card in yours[1:]:
        state.apply(ExhibitCard("1", card))
    state.apply(FinishExhibition("1"))
    refused(state, FinishExhibition("1"), R.ONE_EXHIBITION)
    refused(state, ExhibitCard("2", mine[1]), R.ROUND_STRUCTURE)  # P2 shows no exhibition card
    assert not events(state, "exhibit") and {a.player for a in state.legal_actions()} == {"0"}
    for card in mine[1:]:
        state.apply(ExhibitCard("0", card))
    state.apply(FinishExhibition("0"))
    assert events(state, "exhibit")[0]["exhibitions"] == {0: "ABC", 1: "DEF"}


def test_exhibition_must_be_valid_to_finish():
    state = scenario(AdelGame(num_players=2), collections={0: "AABC"})
    choose(state, C, C)
    state.apply(PlayCard("0", "exhibition"))
    state.apply(PlayCard("1", "detective"))
    a1, a2 = sorted(state.collections[0])[:2]
    state.apply(ExhibitCard("0", a1))
    state.apply(ExhibitCard("0", a2))
    exc = refused(state, FinishExhibition("0"), R.EXHIBITION)
    assert exc.reason == "too-few-cards"
    refused(state, ExhibitCard("0", a1), R.EXHIBITION)  # already chosen


def test_ranking_most_cards_then_oldest_and_only_two_move():
    game = AdelGame(num_players=4)
    state = scenario(game, collections={0: "DEF", 1: "ABC", 2: "CDEF"}, positions=[0, 0, 0, 0])
    drive_round(state, {0: "castle exhibition", 1: "castle exhibition", 2: "castle exhibition",
                        3: "castle detective"})
    score = events(state, "score")[0]
    assert score["ranking"] == [2, 1, 0]     # 4 cards first; ABC holds the older object than DEF
    assert score["field"] == [4, 2]          # clubroom field
    assert state.positions == [0, 2, 4, 0]   # the third exhibitor does not move


def test_scoring_field_follows_leading_pawn():
    state = scenario(AdelGame(num_players=3), collections={0: "ABC", 1: "DEF"},
                        positions=[1, 1, 12])
    drive_round(state, {0: "castle exhibition", 1: "castle exhibition", 2: "castle detective"})
    assert events(state, "score")[0]["field"] == [3, 2]
    assert state.positions == [4, 3, 12]


def test_scoring_field_with_equal_numbers():
    game = AdelGame(num_players=3, scoring_fields=((0, 3, 3),))
    state = scenario(game, collections={0: "ABC", 1: "DEF"})
    drive_round(state, {0: "castle exhibition", 1: "castle exhibition", 2: "castle detective"})
    assert state.positions == [3, 3, 0]
    with pytest.raises(ValueError):
        AdelGame(scoring_fields=((0, 2, 3),))


def test_single_exhibitor_gets_higher_number():
    state = scenario(AdelGame(num_players=2), collections={1: "EEF"})
    drive_round(state, {0: "castle detective", 1: "castle exhibition"})
    assert state.positions == [0, 4]
    assert events(state, "end")[0]["positions"] == [0, 4]
    assert sorted(c.letter for c in state.collections[1]) == ["E", "E", "F"]  # exhibits go back


# ------------------------------------------------------------------------------- auction house ---

def test_highest_cheque_buys_lower_returns():
    state = scenario(AdelGame(num_players=3), stacks=["AB", "C"], leftovers=2)
    choose(state, A, A, C)
    state.apply(PlayCard("0", "cheque", 10))
    state.apply(PlayCard("1", "cheque", 11))
    state.apply(PlayCard("2", "detective"))
    assert state.phase == AUCTION_TAKE and state.current_player() == "1"
    refused(state, TakeCard("0", 0), R.ROUND_STRUCTURE)
    state.apply(TakeCard("1", 1))
    assert [c.letter for c in state.collections[1]] == ["C"]
    assert [c.value for c in state.cash_box] == [11]
    assert 10 in [c.value for c in state.hands[0]]
    assert events(state, "return") == [{"player": 0, "cheque": 10}]
    assert not check_invariants(state)


def test_empty_stack_cannot_be_chosen():
    state = scenario(AdelGame(num_players=2), stacks=["A", ""], leftovers=1)
    choose(state, A, C)
    state.apply(PlayCard("0", "cheque", 1))
    state.apply(PlayCard("1", "detective"))
    refused(state, TakeCard("0", 1), R.AUCTION_CHEQUES)
    refused(state, TakeCard("0", 2), R.AUCTION_CHEQUES)  # there are only two stacks
    assert state.legal_actions() == [TakeCard("0", 0)]


def test_scenario_with_one_stack_given_leaves_the_other_empty():
    state = scenario(AdelGame(num_players=2), stacks=["AB"], leftovers=1)
    assert [c.letter for c in reversed(state.stacks[0])] == ["A", "B"] and state.stacks[1] == []
    drive_round(state, {0: "auction cheque", 1: "castle detective"})
    assert events(state, "buy")[0]["letter"] == "A"


def test_buyer_takes_from_first_stack_by_default():
    state = scenario(AdelGame(num_players=3), stacks=["B", "C"], leftovers=2)
    drive_round(state, {0: "auction cheque", 1: "castle detective", 2: "castle detective"})
    buy = events(state, "buy")[0]
    assert (buy["player"], buy["stack"], buy["letter"]) == (0, 0, "B")


def test_auction_thief_takes_only_this_rounds_cheque():
    state = scenario(AdelGame(num_players=3), cash_box=[12])
    drive_round(state, {0: "auction cheque 4", 1: "auction thief", 2: "castle detective"})
    assert [c.value for c in state.cash_box] == [12]
    assert 4 in [c.value for c in state.hands[1]]
    state = scenario(AdelGame(num_players=3), cash_box=[12])
    drive_round(state, {0: "castle detective", 1: "auction thief", 2: "castle detective"})
    assert [c.value for c in state.cash_box] == [12]
    assert events(state, "auction-thief-empty")
    assert [t.number for t in state.thieves[1]] == [2, 5]


def test_several_auction_thieves_block_each_other():
    state = scenario(AdelGame(num_players=3))
    drive_round(state, {0: "auction cheque 10", 1: "auction thief", 2: "auction thief"})
    assert [c.value for c in state.cash_box] == [10]
    assert events(state, "thieves-block")[0]["players"] == [1, 2]


def test_stolen_cheque_playable_and_wins_next_round():
    state = scenario(AdelGame(num_players=3))
    drive_round(state, {0: "auction cheque 10", 1: "auction thief", 2: "castle detective"})
    assert 10 in [c.value for c in state.hands[1]]
    drive_round(state, {0: "auction cheque 7", 1: "auction cheque 10", 2: "castle detective"})
    buy = events(state, "buy", 2)[0]
    assert buy["player"] == 1 and buy["cheque"] == 10


def test_cheque_tie_parameter():
    game = AdelGame(num_players=2, cheque_values=((5, 1), (5, 2)))
    state = scenario(game)
    drive_round(state, {0: "auction cheque 5", 1: "auction cheque 5"})
    assert events(state, "tie") and not state.cash_box
    game = AdelGame(num_players=2, cheque_values=((5, 1), (5, 2)), cheque_tie="first-seat")
    state = scenario(game)
    drive_round(state, {0: "auction cheque 5", 1: "auction cheque 5"})
    assert events(state, "buy")[0]["player"] == 0


# -------------------------------------------------------------------------------------- castle ---

def test_castle_thieves_after_scoring_higher_number_first_one_card_each():
    state = scenario(AdelGame(num_players=4), collections={0: "ABC", 1: "DEEF"})
    drive_round(state, {0: "castle exhibition", 1: "castle exhibition", 2: "castle thief 3",
                        3: "castle thief 4"}, stop_phase=STEAL)
    assert state.positions == [2, 4, 0, 0]      # scored with full exhibitions before any theft
    assert state.current_player() == "3"          # T4 before T3
    victim_cards = sorted(state.exhibitions[0])
    state.apply(Steal("3", "0", victim_cards[2]))
    refused(state, Steal("3", "0", victim_cards[0]), R.CASTLE_THIEVES)
    drive_round(state, {})
    order = [d["thief"] for d in events(state, "steal")]
    assert order == [4, 4, 3, 3]
    assert len(state.collections[2]) == 2 and len(state.collections[3]) == 2


def test_castle_thief_without_exhibition_gets_nothing():
    state = scenario(AdelGame(num_players=2))
    drive_round(state, {0: "castle thief", 1: "castle thief"})
    assert not events(state, "steal") and len(events(state, "thief-empty")) == 2


def test_detective_catches_all_castle_thieves_who_keep_loot():
    state = scenario(AdelGame(num_players=4), collections={0: "ABC"}, positions=[5, 3, 3, 0])
    drive_round(state, {0: "castle exhibition", 1: "castle thief", 2: "castle thief",
                        3: "castle detective"})
    assert [t.number for t in state.prison] == [3, 2]   # lower number entered first
    assert len(state.collections[1]) == 1 and len(state.collections[2]) == 1
    # P0 exhibited alone (+4 -> 9), P3 is 4th of 4 after that: +4
    assert state.positions == [9, 3, 3, 4]


def test_detective_moves_by_place_ties_share():
    state = scenario(AdelGame(num_players=4), positions=[7, 7, 2, 0])
    drive_round(state, {0: "castle detective", 1: "castle detective", 2: "castle detective",
                        3: "castle thief"})
    assert state.positions == [8, 8, 5, 0]
    assert [t.number for t in state.prison] == [4]


def test_detective_without_thief_does_nothing():
    state = scenario(AdelGame(num_players=3), positions=[4, 2, 0])
    drive_round(state, {0: "castle detective", 1: "castle detective", 2: "auction thief"})
    assert state.positions == [4, 2, 0]
    assert events(state, "detective-idle")


def test_prison_pushes_and_frees():
    game = AdelGame(num_players=3)
    state = scenario(game, prison=[1, 2, 3])
    drive_round(state, {0: "castle thief 4", 1: "castle thief 5", 2: "castle detective"})
    assert [t.number for t in state.prison] == [5, 4, 1]
    assert [d["thief"] for d in events(state, "freed")] == [3, 2]
    assert [t.number for t in state.thieves[1]] == [2]
    assert [t.number for t in state.thieves[2]] == [3, 6]


def test_thief_numbers_parameter():
    game = AdelGame(num_players=2, thief_numbers=((5,), (9,)))
    state = scenario(game)
    assert [[t.number for t in h] for h in state.thieves] == [[5], [9]]
    drive_round(state, {0: "castle thief", 1: "castle detective"})
    assert [(t.number, t.owner) for t in state.prison] == [(5, 0)]
    with pytest.raises(ValueError):
        AdelGame(num_players=2, thief_numbers=((3,), (3,)))


def test_thief_in_prison_cannot_be_played():
    state = scenario(AdelGame(num_players=2), prison=[1])
    choose(state, C, C)
    refused(state, PlayCard("0", "thief", 1), R.PRISON)
    assert PlayCard("0", "thief", 3) in state.legal_actions()


def test_auction_house_closes():
    state = scenario(AdelGame(num_players=2), stacks=["A", ""], leftovers=1)
    drive_round(state, {0: "auction cheque", 1: "castle detective"})
    assert state.auction_closed and events(state, "closed")
    refused(state, ChooseLocation("0", A), R.AUCTION_CLOSED)
    assert state.legal_actions() == [ChooseLocation("0", C), ChooseLocation("1", C)]


def test_auction_needs_a_card():
    # The source is silent on a player with no card allowed in the auction house: the refusal is
    # the engine's reading and cited as such.
    state = scenario(AdelGame(num_players=2), prison=[1, 3], cash_box=[1, 3, 5, 7])
    refusal = state.attempt(ChooseLocation("0", A))
    assert isinstance(refusal, RuleViolation) and "Quelle schweigt" in refusal.rule.citation, refusal
    refused(state, ChooseLocation("0", A), R.NO_CARD_FOR_PLACE)
    assert [a for a in state.legal_actions() if a.player == "0"] == [ChooseLocation("0", C)]


# ------------------------------------------------------------------------------------ variants ---

def test_variants_allowed_for_any_player_count():
    # Spiel zu zweit describes both variants and forbids them for no player count.
    state = AdelState.new_game(1, num_players=3, variant="surprise")
    state.apply(ChooseBoth("0", A, "cheque", 1))
    state.apply(ChooseBoth("1", C, "detective"))
    assert not events(state, "locations")
    state.apply(ChooseBoth("2", C, "thief", 3))
    assert events(state, "locations") and events(state, "cards")
    state = AdelState.new_game(1, num_players=4, variant="confrontation")
    assert state.locations == [A] * 4 and state.phase == ACTION
    assert AdelState.play_random(2, num_players=3, variant="confrontation").is_terminal()


def test_surprise_variant_lays_both_together():
    state = AdelState.new_game(1, num_players=2, variant="surprise")
    assert {type(a) for a in state.legal_actions()} == {ChooseBoth}
    refused(state, ChooseLocation("0", A), R.SURPRISE)
    refused(state, ChooseBoth("0", A, "detective"), R.DETECTIVE_CASTLE_ONLY)
    state.apply(ChooseBoth("0", A, "cheque", 1))
    assert not events(state, "locations")
    state.apply(ChooseBoth("1", C, "detective"))
    assert events(state, "locations") and events(state, "cards")


def test_confrontation_alternates_same_place():
    state = AdelState.new_game(1, num_players=2, variant="confrontation")
    refused(state, ChooseLocation("0", C), R.CONFRONTATION)
    assert state.locations == [A, A]
    drive_round(state, {0: "cheque 1", 1: "thief"})
    assert state.locations == [C, C]
    refused(state, PlayCard("0", "cheque", 3), R.CHOOSE_ACTION)


def test_confrontation_pass_only_without_card():
    game = AdelGame(num_players=2, variant="confrontation")
    state = scenario(game, prison=[1, 3], cash_box=[1, 3, 5, 7])
    assert [a for a in state.legal_actions() if a.player == "0"] == [Pass("0")]
    state.apply(Pass("0"))
    refused(state, Pass("1"), R.CHOOSE_ACTION)


# ------------------------------------------------------------------------------------ probes ---

def test_probes_registered_and_compute():
    probes = probes_for("adel-verpflichtet")
    assert probes.names() == ["castle", "exhibition_validity", "steps", "variant"]
    a = probes.run("castle", {"plays": {"0": "castle exhibition", "1": "castle exhibition",
                                        "2": "castle thief", "3": "castle detective"},
                              "shows": {"0": "DEF", "1": "ABC"}})
    assert a["ranking"] == [1, 0] and a["caught"] == [3] and a["loot"] == {"2": "AD"}
    b = probes.run("castle", {"plays": {"0": "castle exhibition", "1": "castle exhibition",
                                        "2": "castle thief", "3": "castle detective"},
                              "shows": {"0": "DEFF", "1": "ABC"}})
    assert b["ranking"] == [0, 1]
    with pytest.raises(ValueError, match="missing"):
        probes.run("castle", {"players": 3, "plays": {"0": "castle detective", "1": "castle thief"}})
    assert probes.run("variant", {"variant": "surprise", "players": 3}) == {"allowed": True, "error": None}
    assert probes.run("variant", {"variant": "confrontation"}) == {"allowed": True, "error": None}


def test_steps_observe_a_whole_round():
    probes = probes_for("adel-verpflichtet")
    out = probes.run("steps", {"players": 4, "collections": {"1": "ABC"}, "stacks": ["D", "E"], "steps": [
        "auction", "castle", "castle", "castle", "cheque 13", "exhibition", "thief", "detective", "take 0",
        "exhibit A", "exhibit B", "exhibit C", "finish", "steal 1 A"]})
    assert all(out["legal"]) and out["cash_box"] == [13] and out["on_display"] == {}
    assert out["collections"] == {"0": "D", "1": "BC", "2": "A", "3": ""}
    assert out["prison"] == [3] and out["thieves_in_hand"]["2"] == [7]
    assert out["events"] == ["locations", "cards", "buy", "exhibit", "score", "steal", "detectives", "prison", "end"]
    assert out["round"] == 2 and out["phase"] == "location" and out["player"] == "0"
    assert out["places"] == {str(p): None for p in range(4)}
    assert out["allowed_places"] == ["auction", "castle"] and out["allowed_cards"] == []
    assert out["positions"] == {"0": 0, "1": 4, "2": 0, "3": 2}  # P3 second: 2 steps
    other = probes.run("steps", {"players": 3, "stacks": ["BA", "DC"], "steps": [
        "auction", "auction", "castle", "cheque 7", "cheque 2", "detective", "take 0"]})
    assert other["collections"]["0"] == "B" and other["stack_tops"] == ["A", "D"] and other["stacks"] == 2
    assert other["cheques_in_hand"]["1"] == [2, 5, 8, 11]
    thief = probes.run("steps", {"players": 3, "steps": [
        "auction", "auction", "castle", "cheque 10", "thief", "detective", "take 0"]})
    assert thief["prison"] == [] and thief["thieves_in_hand"]["1"] == [2, 5]
    assert 10 in thief["cheques_in_hand"]["1"] and thief["prison_cells"] == 3


def test_steps_report_exhibition_refusals():
    probes = probes_for("adel-verpflichtet")
    out = probes.run("steps", {"collections": {"0": "AB"}, "steps": ["castle", "castle", "exhibition"]})
    assert out["rules"] == [None, None, R.EXHIBITION_CARD.name]
    out = probes.run("steps", {"collections": {"0": "ABCEFF"}, "steps": [
        "castle", "castle", "exhibition", "thief", "exhibit A", "exhibit B", "exhibit C", "exhibit E"]})
    assert out["legal"] == [True] * 7 + [False] and out["rules"][-1] == R.ONE_EXHIBITION.name
    assert out["places"] == {"0": "castle", "1": "castle"} and out["phase"] == EXHIBIT


def test_steps_show_the_table_hidden_choices_until_all_chose():
    probes = probes_for("adel-verpflichtet")
    steps = ["auction", "castle", "castle", "cheque", "exhibition", "thief"]
    for seen in range(len(steps) + 1):
        table = probes.run("steps", {"players": 3, "collections": {"1": "ABC"}, "steps": steps[:seen]})["table"]
        assert len(table) == seen + (seen >= 3) + (seen == 6)
        assert all("face down" in line for line in table if "locations" not in line and "cards" not in line)
    assert table[3] == "R1 locations P0:auction P1:castle P2:castle"
    assert table[7] == "R1 cards P0:cheque $10 P1:exhibition P2:thief T3"
    surprise = probes.run("steps", {"variant": "surprise", "steps": ["auction cheque"]})
    assert surprise["table"] == ["R1 0 lays a place and an action card face down"] and surprise["events"] == []
    surprise = probes.run("steps", {"variant": "surprise", "steps": ["auction cheque", "castle thief"]})
    assert surprise["events"] == ["locations", "cards"]


# ------------------------------------------------------------------------------- scenarios ---

def test_parse_action_reads_every_step():
    state = scenario(AdelGame(num_players=3), collections={0: "AAB", 2: "CDE"})
    cards = sorted(state.collections[0])
    assert state.parse_action("auction") == ChooseLocation("0", A)
    assert state.parse_action("2:castle") == ChooseLocation("2", C)
    assert state.parse_action("cheque") == PlayCard("0", "cheque", 10)       # the highest in hand
    assert state.parse_action("1:cheque 5") == PlayCard("1", "cheque", 5)
    assert state.parse_action("1:thief") == PlayCard("1", "thief", 2)        # the lowest in hand
    assert state.parse_action("detective") == PlayCard("0", "detective", None)
    assert state.parse_action("castle exhibition") == ChooseBoth("0", C, "exhibition", None)
    assert state.parse_action("auction cheque 7") == ChooseBoth("0", A, "cheque", 7)
    assert state.parse_action("pass") == Pass("0")
    assert state.parse_action("take") == TakeCard("0", 0) and state.parse_action("take 1") == TakeCard("0", 1)
    assert state.parse_action("finish") == FinishExhibition("0")
    assert state.parse_action("exhibit a") == ExhibitCard("0", cards[0])    # the oldest A
    assert state.parse_action("exhibit F") == ExhibitCard("0", CollectionCard(0, "F"))  # not owned: refused later
    state.selection = {0: [cards[0]]}
    assert state.parse_action("exhibit A") == ExhibitCard("0", cards[1])    # the next free A
    state.exhibitions = {2: sorted(state.collections[2])}
    assert state.parse_action("steal 2 D") == Steal("0", "2", state.exhibitions[2][1])
    assert state.parse_action("steal 1 D") == Steal("0", "1", CollectionCard(0, "D"))
    with pytest.raises(ValueError, match="unknown step"):
        state.parse_action("dance")


def test_scenario_material_and_its_limits():
    state = scenario(AdelGame(num_players=2), cash_box=[3], give_cheques={0: [4]}, positions=[5, 2], prison=[2])
    assert [c.value for c in state.cash_box] == [3]
    assert [c.value for c in state.hands[0]] == [1, 4, 5, 7] and [c.value for c in state.hands[1]] == [2, 6, 8]
    assert state.positions == [5, 2] and [t.number for t in state.prison] == [2]
    assert [t.number for t in state.thieves[1]] == [4]
    big = AdelState.from_scenario({"players": 3, "collections": {"0": "AAAAAB"}, "stacks": ["F"]})
    assert big.game.cards_per_letter == 5 and big.num_players == 3
    assert [c.letter for c in big.stacks[0]][-1] == "F" and not check_invariants(big)
    assert AdelState.from_scenario({"collections": {0: "AB"}}).game.cards_per_letter == 4
    mine = AdelState.from_scenario({"stacks": ["A", "B"], "leftovers": 1})
    assert [len(s) for s in mine.stacks] == [1, 1] and len(mine.collections[1]) == 22
    assert not mine.auction_closed
    assert AdelState.from_scenario({"stacks": ["", ""], "leftovers": 0}).auction_closed
    with pytest.raises(ValueError, match="no collection card A left"):
        AdelState.from_scenario({"collections": {0: "AAA"}, "cards_per_letter": 2})
    with pytest.raises(ValueError, match="no cheque of value 99"):
        AdelState.from_scenario({"cash_box": [99]})


def test_game_parameters_are_checked():
    assert AdelGame(num_players=3).cheques_of(1) == tuple(Cheque(v, 1) for v in (2, 5, 8, 11))
    assert AdelGame(num_players=3, thieves_per_player=3).thieves_of(2) == tuple(Thief(v, 2) for v in (3, 6, 9))
    assert AdelGame(num_players=2, cheque_values=((9,), (4, 8))).cheques_of(1) == (Cheque(4, 1), Cheque(8, 1))
    assert len(AdelGame(num_players=2, cards_per_letter=1).all_cards()) == 6
    for bad, why in [({"num_players": 1}, "num_players must be at least 2"), ({"variant": "solo"}, "variant must be"),
                     ({"num_players": 4, "max_players": 3}, "num_players must be 2..3"),
                     ({"cheque_tie": "coin"}, "cheque_tie must be"), ({"cards_per_letter": 0}, "cards_per_letter"),
                     ({"cheque_values": ((1,),)}, "cheque_values needs one tuple per player"),
                     ({"thief_numbers": ((1,),)}, "thief_numbers needs one tuple per player"),
                     ({"cheque_values": ((1, 1), (2,))}, "two cheques of the same value"),
                     ({"scoring_fields": ((1, 4, 2),)}, "must start with the clubroom"),
                     ({"scoring_fields": ()}, "must start with the clubroom"),
                     ({"scoring_fields": ((0, 2, 3),)}, r"^each scoring field is \(from, higher, lower\)$"),
                     ({"confrontation_start": "garden"}, "is not a valid Location")]:
        with pytest.raises(ValueError, match=why):
            AdelGame(**{"num_players": 2, **bad})
    assert AdelGame(num_players=5).prison_cells == 5
    # The source names no player count, so the engine sets no upper bound of its own.
    assert AdelGame().max_players is None and AdelGame(num_players=9).prison_cells == 9
    assert AdelState.play_random(3, num_players=7).is_terminal()


def test_scenario_driver_defaults():
    state = scenario(AdelGame(num_players=2), stacks=["", "B"], leftovers=0, collections={1: "ABCEF"})
    drive_round(state, {0: "auction cheque", 1: "castle exhibition"}, take_stack=0)
    assert events(state, "buy")[0]["stack"] == 1          # the given stack is empty: the other one
    assert events(state, "exhibit")[0]["exhibitions"] == {1: "ABC"}  # the largest exhibition
    state = scenario(AdelGame(num_players=3), collections={0: "AABC"})
    drive_round(state, {0: "castle exhibition", 1: "castle thief", 2: "castle detective"}, stop_phase=STEAL)
    assert state.phase == STEAL and state.current_player() == "1"
    drive_round(state, {})
    assert [d["card"] for d in events(state, "steal")] == ["A1"]   # the oldest card
    with pytest.raises(ValueError, match="nothing to do"):
        next_step(AdelState.play_random(1), {})


def test_observe_reports_the_table_and_the_choices():
    state = scenario(AdelGame(num_players=2), collections={1: "ABC"}, stacks=["D", ""], leftovers=1)
    state.apply(ChooseLocation("0", A))
    out = state.observe()
    assert out["places"] == {"0": "auction", "1": None} and out["allowed_places"] == ["auction", "castle"]
    assert out["player"] == "1" and out["phase"] == "location" and out["events"] == []
    assert out["table"] == ["R1 0 lays a place face down"] and out["stack_tops"] == ["D", None]
    state.apply(ChooseLocation("1", C))
    out = state.observe()
    assert out["allowed_cards"] == ["cheque", "thief"] and out["allowed_places"] == []
    state.apply(PlayCard("0", "cheque", 7))
    assert state.observe()["allowed_cards"] == ["detective", "exhibition", "thief"]
    drive_round(state, {1: "castle exhibition"}, stop_phase="over")
    out = state.observe()
    assert out["collections"]["0"] == "D" and out["cash_box"] == [7] and out["stack_tops"] == [None, None]
    assert out["auction_closed"] and out["allowed_places"] == ["castle"] and out["round"] == 2
    assert out["positions"] == {"0": 0, "1": 4} and out["prison_cells"] == 2 and out["stacks"] == 2


def test_refusals_say_why():
    state = AdelState.new_game(0, num_players=2, variant="surprise")
    assert "laid together" in refused(state, ChooseLocation("0", A), R.SURPRISE).message
    state = scenario(AdelGame(num_players=2), collections={0: "AB", 1: "ABCE"})
    choose(state, A, C)
    assert refused(state, PlayCard("0", "exhibition"), R.CHOOSE_ACTION).message == (
        "exhibition is not allowed in the auction; allowed there: a cheque or a thief")
    state.apply(PlayCard("0", "cheque", 7))
    assert refused(state, PlayCard("1", "cheque", 2), R.CHOOSE_ACTION).message.endswith(
        "allowed there: the exhibition card, a thief or the detective")
    state = scenario(AdelGame(num_players=2), collections={0: "AB", 1: "ABCE"})
    choose(state, C, C)
    assert refused(state, PlayCard("0", "exhibition"), R.EXHIBITION_CARD).message == (
        "P0 cannot form a valid exhibition (collection AB)")
    state.apply(PlayCard("0", "detective"))
    state.apply(PlayCard("1", "exhibition"))
    lone = max(state.collections[1])  # the E, apart from the run ABC
    assert refused(state, ExhibitCard("1", lone), R.EXHIBITION).message == (
        "E17 cannot be part of a valid exhibition with nothing (too-few-cards)")
    assert refused(state, FinishExhibition("1"), R.EXHIBITION).message == "nothing is no valid exhibition (empty)"


def test_the_end_of_the_game_is_revealed_with_its_winners():
    state = AdelState.play_random(7)
    assert state.log[-1] == (state.round, "over", {"winners": [2]})
    assert state.observe()["events"][-2:] == ["end", "over"] and state.history[-1].endswith("winners [2]")


# ------------------------------------------------------------------------------- golden game ---

GOLDEN_FIRST_LINES = [  # the hidden choices come in any order
    'R1 1 lays a place face down',
    'R1 0 lays a place face down',
    'R1 2 lays a place face down',
    'R1 3 lays a place face down',
    'R1 locations P0:auction P1:auction P2:castle P3:auction',
    'R1 1 lays an action card face down',
    'R1 3 lays an action card face down',
    'R1 0 lays an action card face down',
    'R1 2 lays an action card face down',
    'R1 cards P0:cheque $13 P1:cheque $14 P2:thief T7 P3:cheque $8',
    'R1 1 takes from stack 0',
    'R1 P1 pays $14 and takes E17 from stack 0',
    'R1 P0 takes back $13',
    'R1 P3 takes back $8',
    'R1 T7 finds no exhibition',
]
GOLDEN_SCORES = (42, (29, 26, 30, 29), [2])
GOLDEN_LENGTH = 803


def test_golden_playthrough():
    state = AdelState.play_random(7)
    lines = state.history[:len(GOLDEN_FIRST_LINES)]
    assert lines == GOLDEN_FIRST_LINES
    assert (state.round, tuple(state.returns().values()), state.winners()) == GOLDEN_SCORES
    assert len(state.history) == GOLDEN_LENGTH
    again = AdelState.play_random(7)
    assert again.history == state.history


# ---------------------------------------------------------------------------------- properties ---

def test_check_invariants_reports_lost_material():
    state = scenario(AdelGame(num_players=2))
    assert check_invariants(state) == []
    state.hands[0].pop()
    state.thieves[1].pop()
    problems = check_invariants(state)
    assert len(problems) == 2
    assert problems[0].startswith("cheques not conserved") and problems[1].startswith("thieves not conserved")
    state = scenario(AdelGame(num_players=2), prison=[1, 2])
    state.prison.append(state.thieves[0].pop())
    state.thieves[0].append(state.thieves[1].pop())
    state.collections[0].append(state.stacks[0].pop())
    state.stacks[1].append(state.stacks[0].pop())
    state.collections[1].append(state.collections[0][-1])
    state.auction_closed = True
    assert check_invariants(state) == ["collection cards not conserved", "prison over capacity",
                                       "P0 holds another player's thief", "auction house closed with cards left"]


game_params = st.one_of(
    st.builds(dict, num_players=st.integers(2, 8)),
    st.builds(dict, num_players=st.integers(2, 8), variant=st.sampled_from(["surprise", "confrontation"])),
)


@pytest.mark.slow  # fuzz, in make test-all; make test plays every engine through the kernel's state machine
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), params=game_params)
def test_random_games_conserve_material_and_end(seed, params):
    game = AdelGame(**params)
    state = AdelState(game, random.Random(seed))
    rng = random.Random(seed)
    bound = game.max_rounds * (4 * game.num_players + 2 * len(game.all_cards()) + 8)
    for _ in range(bound):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal, str(state)
        state.apply(rng.choice(sorted(legal, key=repr)))
        assert check_invariants(state) == []
        assert len(state.prison) <= game.prison_cells
    assert state.is_terminal()
    assert state.round <= game.max_rounds
    assert state.legal_actions() == []
    assert state.winners() and set(state.returns()) == {str(p) for p in range(game.num_players)}


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 300))
def test_illegal_candidates_refused_without_change(seed, steps):
    state = AdelState.new_game(seed, num_players=3)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))
    if state.is_terminal():
        return
    legal = set(state.legal_actions())
    for candidate in state._candidates():
        if candidate not in legal:
            before = snapshot(state)
            with pytest.raises(RuleViolation):
                state.apply(candidate)
            assert snapshot(state) == before


# Phase 4 · Ausstellungen – Vergleichen: "Am wertvollsten ist die Ausstellung mit den meisten Karten.
# Haben mehrere gleich viele Karten, gewinnt die Ausstellung mit dem ältesten Objekt. Stellt nur eine
# Person aus, ist ihre Ausstellung automatisch die wertvollste."
from rules_index.engines.adel_verpflichtet import exhibitions as X  # noqa: E402


def places(ranked):
    return [(r.player, r.place, r.decided_by) for r in ranked]


def test_comparison_most_cards_first():
    ranked, invalid = X.compare_exhibitions({"ann": ("ABC", None), "ben": ("CCDDE", None), "cem": ("DDEF", None)})
    assert places(ranked) == [("ben", 1, X.DECIDED_FIRST), ("cem", 2, X.DECIDED_MORE_CARDS), ("ann", 3, X.DECIDED_MORE_CARDS)]
    assert invalid == {}


def test_comparison_equal_counts_oldest_object_wins():
    ranked, _ = X.compare_exhibitions({"ann": ("ABC", 120), "ben": ("def", 300), "cem": ("AAAA", 5)})
    assert places(ranked) == [("cem", 1, X.DECIDED_FIRST), ("ben", 2, X.DECIDED_MORE_CARDS), ("ann", 3, X.DECIDED_OLDER_OBJECT)]
    assert ranked[1].cards == "DEF"


def test_comparison_only_one_exhibitor_is_the_most_valuable():
    ranked, invalid = X.compare_exhibitions({"ann": ("AAA", None), "ben": ("AB", None)})
    assert places(ranked) == [("ann", 1, X.DECIDED_ONLY_ONE)]
    assert invalid == {"ben": X.REASON_TOO_FEW}


def test_comparison_names_invalid_exhibitions_with_the_reason():
    _, invalid = X.compare_exhibitions({"ann": ("BCF", None), "ben": ("", None), "cem": ("ABG", None)})
    assert invalid == {"ann": X.REASON_GAP, "ben": X.REASON_EMPTY, "cem": X.REASON_UNKNOWN_LETTER}


def test_comparison_does_not_decide_what_the_rules_cannot():
    # Equal counts without every age: the oldest object decides, so it stays open (shared place).
    ranked, _ = X.compare_exhibitions({"ann": ("ABC", 50), "ben": ("BCD", None), "cem": ("AAAAB", None)})
    assert places(ranked) == [("cem", 1, X.DECIDED_FIRST), ("ann", 2, X.DECIDED_MORE_CARDS), ("ben", 2, X.TIED_AGE_UNKNOWN)]
    # Equally old objects: the source is silent; the two share the place and the next is third.
    ranked, _ = X.compare_exhibitions({"ann": ("ABC", 50), "ben": ("BCD", 50), "cem": ("CDE", 10)})
    assert places(ranked) == [("ann", 1, X.DECIDED_FIRST), ("ben", 1, X.TIED_SAME_AGE), ("cem", 3, X.DECIDED_OLDER_OBJECT)]


def test_location_cards_are_face_up_from_the_reveal_to_the_round_end():
    # Rundenablauf: the location cards are revealed together and stay face up until the round ends.
    probes = probes_for("adel-verpflichtet")
    steps = ["auction", "castle", "castle", "cheque", "exhibition", "thief"]
    laid = probes.run("steps", {"players": 3, "collections": {"1": "ABC"}, "steps": steps[:2]})
    assert laid["places"] == {"0": "auction", "1": "castle", "2": None}
    assert laid["face_up_places"] == {"0": None, "1": None, "2": None}  # laid face down, not yet seen
    later = probes.run("steps", {"players": 3, "collections": {"1": "ABC"}, "steps": steps})
    assert later["face_up_places"] == {"0": "auction", "1": "castle", "2": "castle"}
    done = probes.run("steps", {"players": 4, "collections": {"1": "ABC"}, "stacks": ["D", "E"], "steps": [
        "auction", "castle", "castle", "castle", "cheque 13", "exhibition", "thief", "detective", "take 0",
        "exhibit A", "exhibit B", "exhibit C", "finish", "steal 1 A"]})
    assert done["round"] == 2 and done["face_up_places"] == {str(p): None for p in range(4)}
