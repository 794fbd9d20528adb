"""Scenario texts say when they rest on values no source gives (content/README.md, "Assumed values").

The sentence is the same in every game and language; which checks need it is decided here from the
check itself (probe, scenario, expected results), one rule per game, so a new check that shows an
invented cheque, cost, colour or board detail without saying so fails.
"""
from __future__ import annotations

import re

import pytest

from apptools import real_library
from rules_index.content.schema import LANGS
from rules_index.engines.kardinal_und_koenig.sample_board import SAMPLE_BOARD

LIBRARY = real_library()

LABEL = {
    "de": "Angenommene Werte, die Quelle nennt keine: ",
    "en": "Assumed values, the source gives none: ",
    "it": "Valori ipotetici, la fonte non li indica: ",
}


def scenarios():
    for game in LIBRARY:
        for kind, entries in (("faq", game.faq), ("mistake", game.mistakes)):
            for entry in entries:
                for index, check in enumerate(entry.checks):
                    if check.scenario is not None:
                        yield game.slug, f"{kind}:{entry.id}:{index}", check


SCENARIOS = list(scenarios())


def labelled(check) -> dict[str, bool]:
    return {lang: LABEL[lang] in check.scenario.get(lang) for lang in LANGS}


# ------------------------------------------------------------------ what needs the sentence, per game

# Ohne Furcht und Adel: the rulebook names districts of value 1 and the green Kontor of value 3 only.
_COST_RESULTS = {"paid", "bank_gain", "warlord_gold", "scores", "totals"}


def _districts(value):
    if isinstance(value, list) and len(value) == 2 and isinstance(value[1], int) and isinstance(value[0], str):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _districts(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _districts(item)


def _ofua(check) -> bool:
    unsourced = [d for d in _districts(check.given) if d[1] != 1 and list(d) != ["green", 3]]
    return bool(unsourced) and bool(_COST_RESULTS & set(check.expect))


# Adel Verpflichtet: cheque values, scoring fields, thief numbers where their order decides, the
# ages of the cards, the confrontation variant's first place.
_CHEQUE_RESULTS = {"paid", "cash_box", "thief_gains", "returned", "hands", "playable_next_round", "cheques_in_hand"}
_THIEF_ORDER = {"steal_order", "cells", "entered", "freed"}


# A cheque's value ("$10"), a thief's number ("T3") or a card's age ("D13") shown in a result.
_NUMBERED_CARD = re.compile(r"\$\d|\b[TD]\d+\b")


def _tied(positions) -> bool:
    """Pawns on one space (none given: all on the start), where the source names no order."""
    return positions is None or len(set(positions)) < len(positions)


def _av(check) -> bool:
    plays = " ".join(str(p) for p in check.given.get("plays", {}).values())
    thieves = len(re.findall(r"thief", plays)) + len(re.findall(r"\bthief\b", " ".join(map(str, check.given.get("steps", [])))))
    exhibitions = "exhibition" in plays
    cheque_values = [check.expect[k] for k in _CHEQUE_RESULTS & set(check.expect)]
    return bool(
        any(v not in (None, [], {}) for v in cheque_values)
        or re.search(r"cheque \d", plays) and re.search(r"\d", check.scenario.en)
        or {"field", "moves"} & set(check.expect)
        or exhibitions and "positions" in check.expect
        or _THIEF_ORDER & set(check.expect)
        or len(check.expect.get("prison", [])) > 1
        or "locations_by_round" in check.expect
        or bool(_NUMBERED_CARD.search(str(check.expect)))
        or "detective_moves" in check.expect and _tied(check.given.get("positions"))
        or "collections" in check.expect and thieves > 1
    )


# Keine Ehre unter Dieben: the inspector's start once he moves, the card colours, the tile values.
def _moves(check) -> bool:
    moves = check.given.get("moves", [])
    return any((m if isinstance(m, int) else m.get("move", 0)) for m in moves) or "commissar_start" in check.given


def _keud(check) -> bool:
    colours = re.search(r"\b(red|blue|green|yellow|purple)\b", check.scenario.en)
    tiles = check.probe == "scoring" and {"awards", "feather_awards", "totals", "winners"} & set(check.expect)
    return bool(_moves(check) or colours or tiles)


# Kardinal & König: chains and alliance numbers on the sample board, and lands the sample board fills.
def _full_land(check) -> bool:
    taken = set(check.given.get("monasteries", {}))
    return any(set(fields) <= taken for fields in SAMPLE_BOARD.lands.values())


def _kk(check) -> bool:
    board_results = {"alliance_number", "alliances"} & set(check.expect) or check.expect.get("chains")
    return bool(check.probe == "chains" or check.probe == "final_scoring" and board_results or _full_land(check))


# The games whose engines take values no source gives. A game not named here has none (its
# engine follows its sources throughout): its scenarios need the sentence nowhere.
NEEDS_SENTENCE = {
    "ohne-furcht-und-adel": _ofua,
    "adel-verpflichtet": _av,
    "keine-ehre-unter-dieben": _keud,
    "kardinal-und-koenig": _kk,
}


def needs_sentence(game: str, check) -> bool:
    rule = NEEDS_SENTENCE.get(game)
    return rule is not None and rule(check)


# ------------------------------------------------------------------------------------------ tests

def test_every_rule_is_of_a_game():
    assert set(NEEDS_SENTENCE) <= {game.slug for game in LIBRARY}


@pytest.mark.parametrize("game,where,check", SCENARIOS, ids=[f"{g}:{w}" for g, w, _ in SCENARIOS])
def test_sentence_in_all_languages_or_none(game, where, check):
    found = labelled(check)
    assert len(set(found.values())) == 1, found
    if all(found.values()):
        for lang in LANGS:
            named = check.scenario.get(lang).split(LABEL[lang], 1)[1].strip(" .")
            assert named, f"{lang}: the sentence must name the assumed values"


@pytest.mark.parametrize("game,where,check", SCENARIOS, ids=[f"{g}:{w}" for g, w, _ in SCENARIOS])
def test_scenario_resting_on_assumed_values_says_so(game, where, check):
    if needs_sentence(game, check):
        assert all(labelled(check).values()), "the scenario rests on values no source gives: add the sentence"


def test_every_rule_finds_something():
    # A rule that never fires would let every scenario pass unlabelled.
    for slug, rule in NEEDS_SENTENCE.items():
        assert any(rule(check) for game, _, check in SCENARIOS if game == slug), slug
