"""Tests of the Kardinal & König rules engine (rules_index/engines/kardinal_und_koenig).

Scenario tests per rule (each refusal also leaves the state unchanged), the pure scoring
functions, agreement of legal_actions() with apply()'s checks, a golden playthrough, and
hypothesis property tests over many seeded random complete games.
"""
from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from rules_index.engines import probes_for
from rules_index.engines.base import RuleViolation
from rules_index.engines.kardinal_und_koenig import (
    COLOURS, SAMPLE_BOARD, Board, Colour, Config, Draw, KardinalState, Pass, Placement, Play, Swap,
    alliance_points, chain_points, chains, colour_of, monastery_points, winners,
)
from rules_index.engines.kardinal_und_koenig.cards import COUNCILLOR, MONASTERY, TOTAL_CARDS
from rules_index.engines.kardinal_und_koenig.scoring import alliance_scoring

FA, BB, LI, ES, FR = (Colour.FRANKEN_ARAGON, Colour.BAYERN_BURGUND, Colour.LOTHRINGEN_ITALIEN,
                      Colour.ENGLAND_SCHWABEN, Colour.FRANKREICH)
A, B, C, D, E = range(5)


def M(land: str, n: int, *cards: Colour) -> Placement:
    return Placement(land, MONASTERY, f"{land}-{n}", tuple(cards))


def R(land: str, *cards: Colour) -> Placement:
    return Placement(land, COUNCILLOR, "", tuple(cards))


def play(*placements: Placement) -> Play:
    return Play(tuple(placements))


def scenario(hand=(), players=4, **kw) -> KardinalState:
    """A scenario with Python values: ``open_cards`` for ``open``, ``current`` for ``player``."""
    data = {"config": kw.pop("config", None) or Config(num_players=players), "hand": list(hand) or None,
            "player": kw.pop("current", A), **kw}
    if "open_cards" in data:
        data["open"] = data.pop("open_cards")
    return KardinalState.from_scenario(data)


def refused(state: KardinalState, action, rule_name: str) -> RuleViolation:
    outcome = state.attempt(action)  # asserts that a refusal changes nothing
    assert isinstance(outcome, RuleViolation) and outcome.rule.name == rule_name, outcome
    assert state.check(action) is not None
    return outcome


# ------------------------------------------------------------------ material and setup (S. 2)
def test_material_55_cards_by_colour():
    assert [c.count for c in COLOURS] == [13, 12, 11, 10, 9]
    assert TOTAL_CARDS == 55
    assert FR.lands == ("Frankreich",) and BB.lands == ("Bayern", "Burgund")


@pytest.mark.parametrize("players,in_play", [(3, 45), (4, 50), (5, 55)], ids=["3p", "4p", "5p"])
def test_setup_removes_cards_and_deals(players, in_play):
    s = KardinalState(Config(num_players=players), seed=1)
    per_colour = Counter(s.removed)
    assert all(per_colour[c] == {3: 2, 4: 1, 5: 0}[players] for c in COLOURS)
    assert [len(h) for h in s.hands] == [3] * players and len(s.open) == 2
    assert len(s.deck) == in_play - 3 * players - 2
    assert s.supply_monasteries == [20] * players and s.supply_councillors == [8] * players
    assert s.card_count() == 55
    assert s.final is None and s.end_code is None and s.end_reason is None and s.interim is None


def test_scenario_places_the_given_discard_pile_and_stones():
    s = scenario(discard=[FR, FR], monasteries={"Bayern-1": B, "Bayern-2": B}, councillors={"Bayern": {B: 2}})
    assert s.discard == [FR, FR] and len(s.deck) == 50 - 4 * 3 - 2 - 2
    assert s.supply_monasteries[B] == 18 and s.supply_councillors[B] == 6 and s.supply_councillors[A] == 8


@pytest.mark.parametrize("players", [2, 6])
def test_player_count_3_to_5(players):
    with pytest.raises(RuleViolation):
        Config(num_players=players)


@pytest.mark.parametrize("start", [-1, 4])
def test_start_player_is_a_seat(start):
    with pytest.raises(ValueError, match="start_player out of range"):
        Config(num_players=4, start_player=start)


def test_sample_board_shape():
    assert len(SAMPLE_BOARD.lands) == 9 and len(SAMPLE_BOARD.alliances) == 15
    assert SAMPLE_BOARD.land_of("Bayern-1") == "Bayern"
    with pytest.raises(ValueError):
        Board(lands={"Franken": ("x",)}, roads=(), alliances=())


def test_board_holds_its_lands_read_only():
    # states share one board, so what it holds cannot be changed through it
    lands = {land: list(fields) for land, fields in SAMPLE_BOARD.lands.items()}
    board = Board(lands=lands, roads=SAMPLE_BOARD.roads, alliances=SAMPLE_BOARD.alliances)
    assert board.lands["Bayern"] == ("Bayern-1", "Bayern-2", "Bayern-3", "Bayern-4", "Bayern-5", "Bayern-6")
    with pytest.raises(TypeError):
        board.lands["Bayern"] = ()
    lands["Bayern"].append("Bayern-7")
    assert len(board.lands["Bayern"]) == 6


def test_game_on_a_custom_board():
    # the engine takes any board as data: only the roads given here link fields
    line = [["Bayern-1", "Bayern-2"], ["Bayern-2", "Bayern-3"], ["Bayern-3", "Bayern-4"]]
    board = Board(lands=dict(SAMPLE_BOARD.lands), roads=line, alliances=list(SAMPLE_BOARD.alliances))
    assert board.roads == tuple(tuple(r) for r in line)
    assert board.neighbours("Bayern-2") == {"Bayern-1", "Bayern-3"} and board.neighbours("Franken-1") == set()
    own = ["Bayern-1", "Bayern-2", "Bayern-3", "Bayern-4", "Franken-1", "Franken-2", "Franken-3", "Franken-4"]
    s = KardinalState.from_scenario({"config": Config(board=board), "monasteries": {f: A for f in own}})
    assert s.final_scoring()["chains"][A] == 4  # the Franken fields have no road on this board


@pytest.mark.parametrize("pair", [("Bayern", "Atlantis"), ("Atlantis", "Bayern"), ("Bayern", "Bayern")])
def test_board_alliance_must_join_two_known_lands(pair):
    alliances = list(SAMPLE_BOARD.alliances[:-1]) + [pair]
    with pytest.raises(ValueError):
        Board(lands=dict(SAMPLE_BOARD.lands), roads=(), alliances=alliances)


# ------------------------------------------------------------------ placing stones (S. 4)
def test_one_land_per_turn_even_with_two_land_card():
    s = scenario([BB, BB, FR], monasteries={"Bayern-2": B, "Burgund-2": B})
    refused(s, play(M("Bayern", 1, BB), M("Burgund", 1, BB)), "Ein Land pro Zug")
    s.apply(play(M("Bayern", 1, BB), M("Bayern", 3, BB)))
    assert s.monastery_counts("Bayern")[A] == 2


def test_card_must_show_land():
    s = scenario([ES, FR, FR])
    refused(s, play(M("Frankreich", 1, ES)), "Karte nennt das Land")
    s.apply(play(M("Frankreich", 1, FR)))


def test_joker_pair_for_another_land():
    s = scenario([ES, ES, FR], monasteries={"Frankreich-1": B})
    s.apply(play(M("Frankreich", 2, FR), M("Frankreich", 3, ES, ES)))
    assert s.monastery_counts("Frankreich") == [2, 1, 0, 0]
    assert s.hands[A] == [] and Counter(s.discard[-3:]) == Counter([FR, ES, ES])


def test_joker_needs_same_colour_and_other_land():
    s = scenario([ES, BB, FA])
    refused(s, play(M("Frankreich", 1, ES, BB)), "Joker")
    s2 = scenario([FA, FA, ES])
    # The source does not say outright whether a pair may pay in a land its cards show: a reading.
    own_land = refused(s2, play(M("Franken", 1, FA, FA)), "Joker im eigenen Land")
    assert own_land.rule.citation.startswith("Quelle schweigt · ")
    s3 = scenario([FA, FA, ES], config=Config(joker_for_shown_land=True))
    s3.apply(play(M("Franken", 1, FA, FA)))


def test_each_card_or_pair_one_stone_and_at_most_3_cards_2_stones():
    s = scenario([ES, ES, FR], monasteries={"Frankreich-1": B})
    refused(s, play(M("Frankreich", 2, ES, ES), M("Frankreich", 3)), "Höchstens 3 Karten und 2 Steine")
    s = scenario([FR, FR, FR], monasteries={"Frankreich-1": B})
    refused(s, play(M("Frankreich", 2, FR), M("Frankreich", 3, FR), M("Frankreich", 4, FR)),
            "Höchstens 3 Karten und 2 Steine")
    s = scenario([ES, ES, BB], monasteries={"Frankreich-1": B})
    s.hands[A] = [ES, ES, BB, BB]  # an impossible hand, to reach the card limit alone
    refused(s, play(M("Frankreich", 2, ES, ES), M("Frankreich", 3, BB, BB)),
            "Höchstens 3 Karten und 2 Steine")
    s = scenario([FR, FR, FR], monasteries={"Frankreich-1": B})
    tower = Placement("Frankreich", "Turm", "Frankreich-2", (FR,))
    assert refused(s, play(tower), "Höchstens 3 Karten und 2 Steine").message == "unknown stone 'Turm'"


def test_empty_play_is_refused():
    s = scenario([FR, BB, LI])
    refused(s, Play(()), "Höchstens 3 Karten und 2 Steine")


def test_unknown_action_is_refused():
    s = scenario([FR, BB, LI])
    refused(s, "pass", "Ablauf eines Zuges")


def test_cards_must_be_in_hand():
    s = scenario([FR, BB, LI])
    refused(s, play(M("Franken", 1, FA)), "Karten auf der Hand")


def test_empty_land_only_one_monastery():
    s = scenario([ES, ES, ES])
    refused(s, play(M("Schwaben", 1, ES), M("Schwaben", 2, ES)), "Leeres Land: nur ein Kloster")
    refused(s, play(M("Schwaben", 1, ES), R("Schwaben", ES)), "Leeres Land: nur ein Kloster")
    refused(s, play(R("Schwaben", ES)), "Kein Rat ohne Kloster")
    s.apply(play(M("Schwaben", 1, ES)))
    assert s.phase == "draw"


def test_land_with_foreign_monastery_takes_two_stones():
    s = scenario([ES, ES, ES], monasteries={"Schwaben-1": C})
    s.apply(play(M("Schwaben", 2, ES), R("Schwaben", ES)))
    assert s.councillors_in("Schwaben") == 1


def test_monastery_field_free_and_of_the_land():
    s = scenario([ES, ES, ES], monasteries={"Schwaben-1": C})
    refused(s, play(M("Schwaben", 1, ES)), "Klosterfeld")
    refused(s, play(Placement("Schwaben", MONASTERY, "Bayern-1", (ES,))), "Klosterfeld")
    refused(s, play(M("Schwaben", 2, ES), M("Schwaben", 2, ES)), "Klosterfeld")


def test_supply_is_limited():
    s = scenario([FR, FR, FR], supplies={A: {MONASTERY: 0, COUNCILLOR: 0}}, monasteries={"Frankreich-1": B})
    refused(s, play(M("Frankreich", 2, FR)), "Vorrat")
    refused(s, play(R("Frankreich", FR)), "Vorrat")
    assert not any(isinstance(a, Play) for a in s.legal_actions())


def test_council_limit_counts_all_colours():
    mons = {"Italien-1": A, "Italien-2": A, "Italien-3": B}
    s = scenario([LI, LI, LI], current=C, monasteries=mons, councillors={"Italien": {B: 1, C: 1}})
    assert s.council_limit("Italien") == 2
    refused(s, play(R("Italien", LI)), "Räte-Obergrenze")
    s = scenario([LI, LI, LI], current=C, monasteries=mons, councillors={"Italien": {B: 1}})
    refused(s, play(R("Italien", LI), R("Italien", LI)), "Räte-Obergrenze")
    s.apply(play(R("Italien", LI)))
    assert s.councillors_in("Italien") == 2


def test_council_without_own_monastery():
    s = scenario([LI, LI, LI], current=B, monasteries={"Italien-1": A, "Italien-2": A})
    s.apply(play(R("Italien", LI), R("Italien", LI)))
    assert s.councillors["Italien"][B] == 2


def test_monastery_placed_this_turn_raises_the_limit():
    # documented choice: the limit is checked after both stones stand
    s = scenario([LI, LI, LI], monasteries={"Italien-1": A}, councillors={"Italien": {B: 1}})
    refused(s, play(R("Italien", LI)), "Räte-Obergrenze")
    s.apply(play(M("Italien", 2, LI), R("Italien", LI)))
    assert s.council_limit("Italien") == 2 and s.councillors_in("Italien") == 2


# ------------------------------------------------------------------ refill, swap, passing (S. 3–5)
def test_refill_hand_then_open_cards():
    s = scenario([FR, FR, FR], open_cards=[BB, LI], deck=[ES, FA, FA, FA, FA])
    s.apply(play(M("Frankreich", 1, FR)))
    refused(s, play(M("Frankreich", 2, FR)), "Ablauf eines Zuges")
    refused(s, Swap(FR, "deck"), "Ablauf eines Zuges")
    assert set(s.legal_actions()) == {Draw("open", BB), Draw("open", LI), Draw("deck")}
    s.apply(Draw("open", BB))  # hand full: the open cards are topped up from the deck
    assert Counter(s.hands[A]) == Counter([FR, FR, BB])
    assert s.current == B and s.open == [LI, FA] and len(s.deck) == 4


def test_refill_open_cards_only_after_hand_is_full():
    s = scenario([FR, FR, ES], open_cards=[BB, LI], deck=[ES, ES, FA, FA], monasteries={"Frankreich-1": B})
    s.apply(play(M("Frankreich", 2, FR), M("Frankreich", 3, FR)))
    s.apply(Draw("open", BB))
    assert s.current == A and s.open == [LI]  # open cards wait until the hand is full
    refused(s, Draw("open", BB), "Hand auffüllen")
    s.apply(Draw("open", LI))
    assert s.current == B and s.open == [FA, FA]
    assert Counter(s.hands[A]) == Counter([ES, BB, LI])


def test_draw_refused_from_empty_sources():
    s = scenario([FR, FR, FR], open_cards=[BB, LI], deck=[ES, FA])
    s.apply(play(M("Frankreich", 1, FR)))
    refused(s, Draw("open", FR), "Hand auffüllen")
    refused(s, Draw("deck", FR), "Hand auffüllen")
    refused(s, Draw("discard"), "Hand auffüllen")  # only the open cards and the deck refill the hand


def test_swap_ends_turn_and_passing_is_refused():
    s = scenario([FR, BB, LI], open_cards=[ES, FA])
    assert refused(s, Pass(), "Kein Passen").message == "no passing: play cards or swap a card"
    refused(s, Swap(ES, "deck"), "Eine Karte tauschen")
    assert Pass() not in s.legal_actions()
    refused(s, Swap(FR, "discard"), "Eine Karte tauschen")
    s.apply(Swap(FR, "open", ES))
    assert s.current == B and Counter(s.hands[A]) == Counter([BB, LI, ES])
    assert len(s.open) == 2 and s.discard[-1] == FR
    assert s.history[-1] == "R1 A: swaps Frankreich for open England/Schwaben"
    s.apply(Swap(s.hands[B][0], "deck"))
    assert s.history[-2] == f"R1 B: swaps {s.discard[-1]} for the deck's top card"
    assert s.history[-1] == f"  took {s.hands[B][-1]}"


def test_no_play_possible_must_swap_not_pass():
    s = scenario([FR, BB, LI], open_cards=[ES, FA], supplies={A: {MONASTERY: 0, COUNCILLOR: 0}})
    assert not any(isinstance(a, Play) for a in s.legal_actions())
    refused(s, Pass(), "Kein Passen")
    assert Pass() not in s.legal_actions()


def test_swap_without_open_refill_parameter():
    s = scenario([FR, BB, LI], open_cards=[ES, FA], config=Config(refill_open_after_swap=False))
    s.apply(Swap(FR, "open", ES))
    assert s.open == [FA]


def test_pass_only_when_stuck():
    s = scenario(hands={A: []}, open_cards=[], deck=[], exhaustions=2)
    assert s.legal_actions() == [Pass()]
    s.apply(Pass())
    assert s.current == B


# ------------------------------------------------------------------ interim scoring (S. 5–6)
def test_interim_scoring_on_first_run_out_monasteries_only():
    mons = {"Italien-1": A, "Italien-2": A, "Italien-3": B, "Bayern-1": A}
    s = scenario([FR, BB, LI], open_cards=[ES, FA], deck=[FR], monasteries=mons,
                 councillors={"Italien": {A: 1, B: 1}, "Bayern": {A: 1}})
    discard_before = len(s.discard)
    s.apply(Swap(FR, "deck"))
    assert s.exhaustions == 1 and not s.final_round
    assert s.scores == [4, 2, 0, 0]  # councillors not counted
    assert s.open == [ES, FA]  # open cards stay
    assert len(s.deck) == discard_before + 1 and s.discard == []
    assert s.current == B and s.card_count() == 55


def test_interim_scoring_triggered_while_refilling():
    s = scenario([FR, FR, FR], open_cards=[BB, LI], deck=[ES], monasteries={"Franken-1": B},
                 discard=[FA, FA])
    s.apply(play(M("Frankreich", 1, FR)))
    s.apply(Draw("deck"))  # the last card: scoring, reshuffle, then the turn ends
    assert s.exhaustions == 1 and s.scores[A] == 1 and s.scores[B] == 1
    assert s.current == B and len(s.open) == 2


def test_interim_scoring_triggered_by_open_refill():
    s = scenario([FR, FR, ES], open_cards=[BB, LI], deck=[FA], monasteries={"Frankreich-1": B},
                 discard=[ES, ES])
    s.apply(play(M("Frankreich", 2, FR), M("Frankreich", 3, FR)))
    s.apply(Draw("open", BB))
    s.apply(Draw("open", LI))  # now the open cards are topped up and take the last deck card
    assert s.exhaustions == 1 and s.scores[A] == 3 and s.scores[B] == 2
    assert len(s.open) == 2 and s.current == B


# ------------------------------------------------------------------ game end (S. 6)
@pytest.mark.parametrize("trigger,after", [(A, [B, C, D]), (B, [C, D]), (D, [])], ids=["A", "B", "D"])
def test_round_is_finished_after_second_run_out(trigger, after):
    s = scenario(current=trigger, deck=[FR], exhaustions=1)
    s.apply(Swap(s.hands[trigger][0], "deck"))
    assert s.final_round
    moved = []
    while not s.is_terminal():
        moved.append(s.current)
        s.apply(s.legal_actions()[-1])
    assert moved == after and s.end_code == "round_finished" and s.final is not None
    refused(s, Pass(), "Spielende")
    assert s.legal_actions() == [] and s.current_player() is None


def test_game_ends_when_nobody_can_place():
    supplies = {p: {MONASTERY: 0, COUNCILLOR: 0} for p in range(4)}
    supplies[A] = {MONASTERY: 1, COUNCILLOR: 0}
    s = scenario([FR, FR, FR], supplies=supplies, monasteries={"Frankreich-1": B})
    assert s.someone_can_place()
    s.apply(play(M("Frankreich", 2, FR)))
    s.apply(Draw("deck"))
    assert s.is_terminal() and s.end_code == "blocked"
    assert s.end_reason == "nobody can place a stone any more"
    assert "Game over: nobody can place a stone any more" in s.history


# ------------------------------------------------------------------ scoring (S. 5–7)
@pytest.mark.parametrize("counts,points", [
    ({"A": 4, "B": 2, "C": 1}, {"A": 7, "B": 4, "C": 2}),
    ({"A": 3, "B": 3, "C": 1}, {"A": 7, "B": 7, "C": 3}),
    ({"A": 3, "B": 2, "C": 2, "D": 1}, {"A": 8, "B": 3, "C": 3, "D": 2}),
    ({"A": 5, "B": 3}, {"A": 8, "B": 5}),
    ({"A": 2, "B": 0}, {"A": 2, "B": 0}),
    ({"A": 0, "B": 0}, {"A": 0, "B": 0}),
    ({"A": 1, "B": 1, "C": 1}, {"A": 3, "B": 3, "C": 3}),
], ids=["example", "tie-first", "tie-second", "second", "zero", "empty", "all-tied"])
def test_monastery_points(counts, points):
    assert monastery_points(counts) == points


def test_monastery_points_rejects_bad_counts():
    with pytest.raises(ValueError):
        monastery_points({"A": -1})


def test_alliance_points():
    assert alliance_points({"C": 2, "A": 1, "B": 1}, {"C": 2}) == {"A": 0, "B": 0, "C": 6}
    assert alliance_points({"A": 2, "B": 2, "C": 1}, {"A": 1, "B": 1}) == {"A": 7, "B": 7, "C": 0}
    assert alliance_points({"A": 3}, {"B": 2}) == {"A": 0, "B": 0}
    assert alliance_points({"A": 3}, {}) == {"A": 0}


def test_alliance_scoring_of_players_missing_from_a_land():
    # councillors per land need not list every player: a missing player has none there
    councils = {"Italien": {C: 2, A: 1}, "Burgund": {C: 2}}
    totals, per = alliance_scoring(SAMPLE_BOARD, councils, [A, B, C])
    ib = SAMPLE_BOARD.alliances.index(("Italien", "Burgund"))
    assert per[ib] == {A: 0, B: 0, C: 5}
    assert totals == {A: 0, B: 0, C: 5}


def test_final_scoring_worked_example():
    mons = {"Italien-1": A, "Italien-2": A, "Italien-3": A, "Italien-4": A,
            "Burgund-1": B, "Burgund-2": B, "Bayern-1": B}
    s = scenario(players=3, monasteries=mons,
                 councillors={"Italien": {C: 2, A: 1, B: 1}, "Burgund": {C: 2}, "Bayern": {B: 1}})
    final = s.final_scoring()
    ib = SAMPLE_BOARD.alliances.index(("Italien", "Burgund"))
    iba = SAMPLE_BOARD.alliances.index(("Italien", "Bayern"))
    assert final["per_alliance"][ib] == {A: 0, B: 0, C: 6}
    assert final["per_alliance"][iba] == {A: 0, B: 0, C: 0}
    assert final["alliances"] == {A: 0, B: 0, C: 6}
    assert final["chains"] == {A: 4, B: 0, C: 0}
    assert s.scores == [4 + 4, 3, 6]


@pytest.mark.parametrize("own,points", [
    (["Bayern-1", "Bayern-2", "Bayern-3", "Bayern-4"], 4),
    (["Bayern-1", "Bayern-2", "Bayern-3"], 0),
    (["Franken-6", "Franken-7", "Bayern-1", "Bayern-2"], 4),
    (["Aragon-1", "Aragon-2", "Aragon-3", "Aragon-4", "Aragon-5"], 4),
    (["Schwaben-1", "Schwaben-2", "Schwaben-3", "Schwaben-4"], 0),
    ([f"Franken-{i}" for i in range(1, 8)], 6),
    ([f"Frankreich-{i}" for i in (3, 4, 5, 8, 7, 6)], 6),
    (["Bayern-1", "Bayern-2", "Bayern-3", "Bayern-4", "Italien-1", "Italien-2", "Italien-3", "Italien-4"], 8),
], ids=["line4", "line3", "border", "branch", "star", "cross", "loop", "two-chains"])
def test_chain_points(own, points):
    assert chain_points(own, SAMPLE_BOARD) == points
    for chain in chains(own, SAMPLE_BOARD):
        assert len(set(chain)) == len(chain) >= 4
        assert all(b in SAMPLE_BOARD.neighbours(a) for a, b in zip(chain, chain[1:]))


def test_chain_broken_by_opponent():
    s = scenario(monasteries={"Bayern-1": A, "Bayern-2": A, "Bayern-3": B, "Bayern-4": A, "Bayern-5": A})
    assert s.final_scoring()["chains"][A] == 0


def test_tie_break_by_stones_left():
    assert winners({A: 40, B: 40, C: 30}, {A: 5, B: 7, C: 10}) == [B]
    assert winners({A: 41, B: 40}, {A: 0, B: 28}) == [A]
    assert winners({A: 40, B: 40}, {A: 7, B: 7}) == [A, B]


def test_colour_names():
    assert colour_of("Bayern") is BB and colour_of("Franken/Aragon") is FA and colour_of("FRANKREICH") is FR
    with pytest.raises(ValueError):
        colour_of("Sachsen")


# ------------------------------------------------------------------ single source of truth
def play_key(action: Play) -> tuple:
    """What a play does, independent of the order of its placements and of which card pays for
    which stone (all stones go into one land, so that makes no difference)."""
    stones = tuple(sorted((pl.land, pl.kind, pl.field) for pl in action.placements))
    pays = tuple(sorted(tuple(c.name for c in pl.cards) for pl in action.placements))
    return stones, pays


def test_last_councillor_goes_with_a_monastery():
    # one councillor left: plays of a councillor and a monastery together are still offered
    s = scenario([BB, BB, BB], monasteries={"Bayern-1": A}, supplies={A: {COUNCILLOR: 1}})
    listed = {play_key(a) for a in s.legal_actions() if isinstance(a, Play)}
    assert listed == _brute_force_plays(s)
    assert play_key(play(R("Bayern", BB), M("Bayern", 2, BB))) in listed


def _brute_force_plays(s: KardinalState) -> set:
    """Every syntactically possible play from the hand, checked by apply()'s rules."""
    hand = s.hands[s.current]
    pays = sorted({(c,) for c in hand} | {(c, c) for c in hand if hand.count(c) >= 2}, key=repr)
    found = set()
    for land, fields in s.board.lands.items():
        stones = [(MONASTERY, f) for f in fields] + [(COUNCILLOR, "")]
        options = [((k, f), p) for (k, f) in stones for p in pays]
        for n in (1, 2):
            for combo in combinations(options, n) if n == 1 else (
                    (a, b) for i, a in enumerate(options) for b in options[i:]):
                action = Play(tuple(Placement(land, k, f, p) for (k, f), p in combo))
                if s.check(action) is None:
                    found.add(play_key(action))
    return found


@pytest.mark.parametrize("seed", range(6))
def test_legal_actions_agree_with_checks(seed):
    s = KardinalState(Config(num_players=3 + seed % 3), seed=seed)
    chooser = random.Random(seed)
    steps = 0
    while not s.is_terminal() and steps < 400:
        if s.phase == "play" and steps % 7 == 0:
            listed = [play_key(a) for a in s.legal_actions() if isinstance(a, Play)]
            assert len(listed) == len(set(listed)), "duplicate plays"
            assert set(listed) == _brute_force_plays(s)
            for a in s.legal_actions():
                assert s.check(a) is None
        s.apply(chooser.choice(s.legal_actions()))
        steps += 1


# ------------------------------------------------------------------ golden playthrough
GOLDEN_SEED = 2024
GOLDEN_FIRST_LINES = [
    "R1 A: places Kloster Burgund-5 [Bayern/Burgund]",
    "R1 A: draws open England/Schwaben",
    "R1 B: places Kloster Franken-7 [Bayern/Burgund+Bayern/Burgund]",
    "R1 B: draws from the deck",
    "  drew Frankreich",
    "R1 B: draws open Bayern/Burgund",
    "R1 C: places Kloster Italien-5 [Lothringen/Italien]",
    "R1 C: draws from the deck",
    "  drew Franken/Aragon",
    "R1 D: swaps England/Schwaben for the deck's top card",
]
GOLDEN_TAIL = [
    "Game over: the round after the deck ran out a second time is over",
    "Final scoring: monasteries A22 B32 C19 D20; councillors A2 B0 C0 D3; chains A0 B0 C0 D0",
    "Result: A38 B49 C33 D32; winner: B",
]


def test_golden_playthrough():
    s = KardinalState.play_random(GOLDEN_SEED, num_players=4)
    assert s.history[: len(GOLDEN_FIRST_LINES)] == GOLDEN_FIRST_LINES
    assert s.history[-len(GOLDEN_TAIL):] == GOLDEN_TAIL
    assert "Interim scoring: A14 B17 C14 D9" in s.history
    assert s.end_code == "round_finished" and s.end_reason == "the round after the deck ran out a second time is over"
    assert "R1 D: swaps England/Schwaben for the deck's top card" in s.history
    assert "R3 D: swaps England/Schwaben for open Frankreich" in s.history
    assert s.returns() == {"A": 38, "B": 49, "C": 33, "D": 32} and s.winners() == ["B"]
    assert KardinalState.play_random(GOLDEN_SEED, num_players=4).trace() == s.trace()


# ------------------------------------------------------------------ properties of random games
def check_invariants(s: KardinalState) -> None:
    cfg = s.config
    assert s.card_count() == TOTAL_CARDS
    everything = Counter(s.deck) + Counter(s.open) + Counter(s.discard) + Counter(s.removed)
    for h in s.hands:
        everything += Counter(h)
    assert everything == Counter({c: c.count for c in COLOURS})
    for p in range(s.num_players):
        placed_m = sum(1 for o in s.monasteries.values() if o == p)
        placed_c = sum(v[p] for v in s.councillors.values())
        assert 0 <= s.supply_monasteries[p] and placed_m + s.supply_monasteries[p] == cfg.monasteries_per_player
        assert 0 <= s.supply_councillors[p] and placed_c + s.supply_councillors[p] == cfg.councillors_per_player
        assert len(s.hands[p]) <= 3
    assert all(f in s.board.fields for f in s.monasteries)  # one owner per field by construction
    for land in s.board.lands:
        assert s.councillors_in(land) <= s.council_limit(land)
    assert len(s.open) <= 2
    if not s.is_terminal():
        assert s.legal_actions(), "no legal action before the end"


MAX_ACTIONS = 4 * (2 * TOTAL_CARDS + 5) + 10


@pytest.mark.slow  # fuzz, in make test-all; make test plays every engine through the kernel's state machine
@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 5))
def test_random_games_keep_invariants_and_end(seed, players):
    s = KardinalState(Config(num_players=players), seed=seed)
    chooser = random.Random(seed)
    turns = 0
    for _ in range(MAX_ACTIONS):
        check_invariants(s)
        if s.is_terminal():
            break
        before = s.current
        s.apply(chooser.choice(s.legal_actions()))
        turns += s.current != before or s.is_terminal()
    assert s.is_terminal(), "game did not end"
    assert turns <= 2 * TOTAL_CARDS + players
    assert s.final is not None and s.exhaustions <= 2
    assert sum(s.returns().values()) >= 0 and s.winners()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 5))
def test_play_random_replays(seed, players):
    a = KardinalState.play_random(seed, num_players=players)
    b = KardinalState.play_random(seed, num_players=players)
    assert a.trace() == b.trace() and a.is_terminal()
    assert a.num_players == players and len(a.returns()) == players


class RandomPlay(RuleBasedStateMachine):
    """Hypothesis drives the choices; invariants after every step."""

    @initialize(seed=st.integers(0, 10**6), players=st.integers(3, 5))
    def setup(self, seed, players):
        self.state = KardinalState(Config(num_players=players), seed=seed)

    @precondition(lambda self: not self.state.is_terminal())
    @rule(data=st.data())
    def act(self, data):
        legal = sorted(self.state.legal_actions(), key=repr)
        assert legal
        self.state.apply(data.draw(st.sampled_from(legal)))

    @precondition(lambda self: self.state.is_terminal())
    @rule()
    def finished(self):
        assert self.state.legal_actions() == [] and self.state.final is not None

    @invariant()
    def rules_hold(self):
        check_invariants(self.state)


TestRandomPlay = RandomPlay.TestCase
TestRandomPlay.settings = settings(max_examples=12, stateful_step_count=150, deadline=None)


# ------------------------------------------------------------------ probes
def test_every_probe_answers_through_the_engine():
    probes = probes_for("kardinal-und-koenig")
    assert probes.names() == ["alliance_points", "chains", "final_scoring", "monastery_points", "steps", "winner"]
    out = probes.run("steps", {"hand": ["Frankreich"], "steps": [{"stones": [
        {"land": "Frankreich", "kind": "Kloster", "field": "Frankreich-1", "cards": ["Frankreich"]}]}, "draw:deck"]})
    assert out["legal"] == [True, True] and out["stones_placed"] == 1 and out["cards_played"] == 1
    assert out["monasteries_in_land"] == {"Frankreich": {"A": 1}} and out["phase"] == "draw"
    assert out["choices"] == ["draw"] and out["last_player"] == "A"
    out = probes.run("monastery_points", {"counts": {"A": 4, "B": 2, "C": 1}})
    assert out["points"] == out["via_state"] == {"A": 7, "B": 4, "C": 2}


FIRST_RUN_OUT = {
    "monasteries": {"Frankreich-1": "B"},
    "hand": ["Frankreich", "England/Schwaben", "England/Schwaben"],
    "open": ["Bayern/Burgund", "Lothringen/Italien"],
    "deck": ["Frankreich"],
}
PLAY_THREE_CARDS = {"stones": [
    {"land": "Frankreich", "kind": "Kloster", "field": "Frankreich-2", "cards": ["Frankreich"]},
    {"land": "Frankreich", "kind": "Kloster", "field": "Frankreich-3",
     "cards": ["England/Schwaben", "England/Schwaben"]},
]}


def test_steps_observe_the_interim_scoring_reshuffle_and_kept_open_cards():
    probes = probes_for("kardinal-und-koenig")
    # 50 cards with 4 players: 12 in hands, 2 open, 1 in the deck, 35 discarded + 3 played
    out = probes.run("steps", {**FIRST_RUN_OUT, "steps": [PLAY_THREE_CARDS, "draw:Bayern/Burgund"]})
    assert out["interim"] is None and out["exhaustions"] == 0 and out["discard"] == 38 and out["deck"] == 1
    out = probes.run("steps", {**FIRST_RUN_OUT, "steps": [PLAY_THREE_CARDS, "draw:Bayern/Burgund", "draw:deck"]})
    assert out["interim"] == {"A": 3, "B": 2} and out["exhaustions"] == 1 and out["scores"]["A"] == 3
    assert out["deck"] == 38 and out["discard"] == 0 and out["open_cards"] == ["Lothringen/Italien"]
    assert out["phase"] == "draw" and out["player"] == "A"
    # taking the last card with the draw that fills the hand: the face-up cards are topped up
    # from the new pile only after the reshuffle, and the one left lying there is kept
    out = probes.run("steps", {**FIRST_RUN_OUT, "steps": [
        PLAY_THREE_CARDS, "draw:Bayern/Burgund", "draw:Lothringen/Italien", "draw:deck"]})
    assert out["interim"] == {"A": 3, "B": 2} and out["deck"] == 36 and out["open"] == 2
    assert out["player"] == "B" and out["hands"]["A"] == 3
    # no run-out: no interim scoring
    out = probes.run("steps", {**FIRST_RUN_OUT, "deck": ["Frankreich"] * 4,
                               "steps": [PLAY_THREE_CARDS, "draw:deck", "draw:deck", "draw:deck"]})
    assert out["interim"] is None and out["exhaustions"] == 0 and out["scores"] == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_steps_observe_the_plays_a_scenario_land_offers():
    probes = probes_for("kardinal-und-koenig")
    given = {"land": "Burgund", "player": "C", "monasteries": {"Burgund-1": "A", "Burgund-2": "B", "Burgund-3": "B"},
             "hand": ["Bayern/Burgund"] * 3}
    out = probes.run("steps", given)
    assert (out["max_stones"], out["max_councillors"]) == (2, 2) and out["has_monastery"]
    assert out["can_place_monastery"] and out["can_place_councillor"]
    out = probes.run("steps", {**given, "land": "Schwaben"})  # empty: one monastery, by a joker pair
    assert (out["max_stones"], out["max_councillors"]) == (1, 0) and not out["has_monastery"]
    assert out["can_place_monastery"] and not out["can_place_councillor"]
    # no card showing Burgund and no pair
    out = probes.run("steps", {**given, "hand": ["Frankreich", "Franken/Aragon", "England/Schwaben"]})
    assert out["max_stones"] == 0 and not out["can_place_monastery"] and not out["can_place_councillor"]
    assert "max_stones" not in probes.run("steps", {"hand": ["Frankreich"]})


def test_steps_observe_setup_and_game_end():
    probes = probes_for("kardinal-und-koenig")
    out = probes.run("steps", {"players": 3})
    assert out["cards_in_play"] == 45 and out["removed"] == 10 and out["removed_per_colour"]["Frankreich"] == 2
    assert out["end"] is None and out["last_player"] is None and out["choices"] == ["play", "swap"]
    out = probes.run("steps", {"players": 4, "player": "D", "exhaustions": 1, "deck": ["Frankreich"],
                               "hand": ["Frankreich"] * 3, "steps": ["swap:Frankreich:deck", "pass"]})
    assert out["rules"] == [None, "Spielende"] and out["end"] == "round_finished" and out["last_player"] == "D"
    assert out["phase"] == "over" and out["player"] is None and out["choices"] == [] and out["exhaustions"] == 2


def test_probe_play_config_and_stone_names():
    probes = probes_for("kardinal-und-koenig")
    pair = [{"land": "Franken", "kind": "monastery", "field": "Franken-1",
             "cards": ["Franken/Aragon", "Franken/Aragon"]}]
    hand = ["Franken/Aragon", "Franken/Aragon"]
    out = probes.run("steps", {"hand": hand, "steps": [{"stones": pair}]})
    assert out["legal"] == [False] and out["rules"] == ["Joker im eigenen Land"] and out["stones_placed"] == 0
    out = probes.run("steps", {"hand": hand, "steps": [{"play": pair}], "joker_for_shown_land": True})
    assert out["legal"] == [True] and out["stones_placed"] == 1 and out["monasteries_in_land"] == {"Franken": {"A": 1}}
    out = probes.run("steps", {"hand": hand, "open": ["Frankreich", "Frankreich"],
                               "steps": ["pass", "swap:Franken/Aragon:Frankreich", "draw:deck"]})
    assert out["legal"] == [False, True, False] and out["rules"] == ["Kein Passen", None, "Ablauf eines Zuges"]
    assert out["player"] == "B" and out["hands"]["A"] == 2 and out["open"] == 2


def test_probe_state_scores_and_exhaustions():
    probes = probes_for("kardinal-und-koenig")
    out = probes.run("final_scoring", {"monasteries": {"Frankreich-1": "A"}, "scores": {"A": 10, "B": 12}})
    assert out["total"] == {"A": 11, "B": 12} and out["winners"] == ["B"]
    # the deck runs out a second time: no second interim scoring, the round is finished
    out = probes.run("steps", {"monasteries": {"Frankreich-1": "A"}, "exhaustions": 1, "deck": ["Frankreich"],
                               "hand": ["Frankreich"] * 3, "steps": ["swap:Frankreich:deck"]})
    assert out["interim"] is None and out["scores"]["A"] == 0 and out["exhaustions"] == 2 and out["end"] is None
