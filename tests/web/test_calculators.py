"""Rule calculators: computed by the engines, on the API and as pages; bad input is a 400 naming the field
on the API and a field error in the reader's language on the page; a result page's link reproduces it."""
from __future__ import annotations

import html
import re

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SCORE = "/api/v1/games/ohne-furcht-und-adel/score"


def city(colours_costs):
    return [{"color": c, "cost": k} for c, k in colours_costs]


def test_score_with_bonuses(client):
    anna = city([("yellow", 3), ("blue", 2), ("green", 1), ("red", 1), ("purple", 6), ("red", 1), ("red", 1), ("yellow", 5)])
    ben = city([("yellow", 6)] * 8)
    body = client.post(SCORE, json={"first_complete": "Ben", "players": [{"name": "Anna", "districts": anna}, {"name": "Ben", "districts": ben}]}).get_json()
    by_name = {p["name"]: p for p in body["players"]}
    assert by_name["Anna"] == {"name": "Anna", "district_points": 20, "all_colours_bonus": 3, "complete_bonus": 2, "total": 25}
    assert by_name["Ben"] == {"name": "Ben", "district_points": 48, "all_colours_bonus": 0, "complete_bonus": 4, "total": 52}
    assert body["winner"] == "Ben"


def test_score_tie_broken_by_district_points(client):
    # A: 5 colours (3) + 25 = 28; B: first to 8 (4) + 24 = 28 -> A wins on districts alone.
    a = city([("yellow", 5), ("blue", 5), ("green", 5), ("red", 5), ("purple", 5)])
    b = city([("yellow", 3)] * 8)
    body = client.post(SCORE, json={"first_complete": "B", "players": [{"name": "A", "districts": a}, {"name": "B", "districts": b}]}).get_json()
    assert [p["total"] for p in body["players"]] == [28, 28]
    assert body["winner"] == "A"


def test_score_full_tie_is_shared(client):
    same = city([("green", 4), ("red", 2)])
    body = client.post(SCORE, json={"players": [{"name": "A", "districts": same}, {"name": "B", "districts": same}]}).get_json()
    assert body["winner"] is None and sorted(body["winners"]) == ["A", "B"]


@pytest.mark.parametrize("payload,field", [
    ({}, "players"),
    ({"players": "x"}, "players"),
    ({"players": []}, "players"),
    ({"players": [{"name": "A", "districts": [{"color": "pink", "cost": 2}]}]}, "players[0].districts[0].color"),
    ({"players": [{"name": "A", "districts": [{"color": "red", "cost": 7}]}]}, "players[0].districts[0].cost"),
    ({"players": [{"name": "A", "districts": [{"color": "red", "cost": "2"}]}]}, "players[0].districts[0].cost"),
    ({"players": [{"name": "A", "districts": [{"color": "red", "cost": True}]}]}, "players[0].districts[0].cost"),
    ({"players": [{"name": "", "districts": []}]}, "players[0].name"),
    ({"players": [{"name": "A"}, {"name": "A"}]}, "players[1].name"),
    ({"players": [{"name": "A"}], "first_complete": "Z"}, "first_complete"),
    ({"players": [{"name": "A"}], "first_complete": "A"}, "first_complete"),
    ([1, 2], "body"),
])
def test_score_bad_input(client, payload, field):
    response = client.post(SCORE, json=payload)
    assert response.status_code == 400
    assert response.get_json()["error"].startswith(field + ":")


@pytest.mark.parametrize("counts,points", [
    ({"green": 4, "red": 2, "blue": 1}, {"green": 7, "red": 4, "blue": 2}),
    ({"green": 3, "red": 3, "blue": 1}, {"green": 7, "red": 7, "blue": 3}),
    ({"green": 2, "red": 0}, {"green": 2, "red": 0}),
])
def test_monastery_score(client, counts, points):
    body = client.post("/api/v1/games/kardinal-und-koenig/monastery-score", json={"monasteries": counts}).get_json()
    assert body == {"points": points}


@pytest.mark.parametrize("payload,field", [
    ({}, "monasteries"), ({"monasteries": {}}, "monasteries"), ({"monasteries": {"a": -1}}, "monasteries.a"),
    ({"monasteries": {"a": 1.5}}, "monasteries.a"), ({"monasteries": {"a": "2"}}, "monasteries.a"), ({"monasteries": {str(i): 1 for i in range(6)}}, "monasteries"),
])
def test_monastery_score_bad_input(client, payload, field):
    response = client.post("/api/v1/games/kardinal-und-koenig/monastery-score", json=payload)
    assert response.status_code == 400 and response.get_json()["error"].startswith(field + ":")


@pytest.mark.parametrize("cards,valid,reason", [
    ("AAA", True, None), ("AABBC", True, None), ("CCD", True, None), ("DEF", True, None),
    ("AB", False, "too-few-cards"), ("BCF", False, "gap"), ("AACE", False, "gap"), ("fed", True, None),
])
def test_exhibition(client, cards, valid, reason):
    body = client.post("/api/v1/games/adel-verpflichtet/exhibition", json={"cards": cards}).get_json()
    assert (body["valid"], body["reason"]) == (valid, reason)


@pytest.mark.parametrize("payload", [{}, {"cards": ""}, {"cards": "ABG"}, {"cards": 12}, {"cards": "A" * 61}])
def test_exhibition_bad_input(client, payload):
    response = client.post("/api/v1/games/adel-verpflichtet/exhibition", json=payload)
    assert response.status_code == 400 and response.get_json()["error"].startswith("cards:")


def test_calculator_errors(client):
    assert client.post("/api/v1/games/adel-verpflichtet/nope", json={}).status_code == 404
    assert client.post("/api/v1/games/nope/score", json={}).status_code == 404
    response = client.post("/api/v1/games/adel-verpflichtet/exhibition", data="not json", content_type="text/plain")
    assert response.status_code == 400 and response.get_json()["error"].startswith("body:")
    response = client.post("/api/v1/games/adel-verpflichtet/exhibition", data="{bad", content_type="application/json")
    assert response.status_code == 400


def test_oversized_body_is_refused(client):
    response = client.post(SCORE, data="x" * (1024 * 1024 + 1), content_type="application/json")
    assert response.status_code == 413 and "error" in response.get_json()


@pytest.mark.parametrize("lang,winner", [("de", "Sieger: Anna"), ("en", "Winner: Anna"), ("it", "Vincitore: Anna")])
def test_score_pad_page(client, lang, winner):
    query = "name0=Anna&yellow0=3+5&blue0=2&green0=1&red0=1+1+1&purple0=6&first=0&name1=Ben&yellow1=6+6&submit=1"
    page = client.get(f"/{lang}/ohne-furcht-und-adel/calculators/score?{query}").get_data(as_text=True)
    assert winner in page and "<strong>27</strong>" in page


def test_score_pad_page_reports_bad_cost_in_readers_language(client):
    response = client.get("/de/ohne-furcht-und-adel/calculators/score?name0=Anna&red0=9&submit=1")
    assert response.status_code == 200
    assert "Kosten sind ganze Zahlen von 1 bis 6" in response.get_data(as_text=True)


# The range of costs and the number of thieves are bounds of the calculators: the sources give
# neither, and the pages say so.
@pytest.mark.parametrize("lang,hint,error", [
    ("de", "Dieser Rechner erlaubt Kosten von 1 bis 6, eine Grenze des Rechners, keine Regel", "(eine Grenze dieses Rechners, keine Regel)"),
    ("en", "this calculator takes costs from 1 to 6, a limit of the calculator, not a rule", "(a limit of this calculator, not a rule)"),
    ("it", "questo calcolatore accetta costi da 1 a 6, un limite del calcolatore, non una regola", "(un limite di questo calcolatore, non una regola)"),
])
def test_score_pad_says_the_cost_range_is_its_own_limit(client, lang, hint, error):
    assert hint in client.get(f"/{lang}/ohne-furcht-und-adel/calculators/score").get_data(as_text=True)
    page = client.get(f"/{lang}/ohne-furcht-und-adel/calculators/score?name0=Anna&red0=7&submit=1").get_data(as_text=True)
    assert error in page


@pytest.mark.parametrize("lang,hint,error", [
    ("de", "Dieser Rechner erlaubt 2 bis 8 Diebe, eine Grenze des Rechners, keine Regel", "(eine Grenze dieses Rechners, keine Regel)"),
    ("en", "this calculator takes 2 to 8 thieves, a limit of the calculator, not a rule", "(a limit of this calculator, not a rule)"),
    ("it", "questo calcolatore accetta da 2 a 8 ladri, un limite del calcolatore, non una regola", "(un limite di questo calcolatore, non una regola)"),
])
def test_loot_sharing_says_the_player_count_is_its_own_limit(client, lang, hint, error):
    assert hint in client.get(f"/{lang}/keine-ehre-unter-dieben/calculators/loot-sharing").get_data(as_text=True)
    page = client.get(f"/{lang}/keine-ehre-unter-dieben/calculators/loot-sharing?name0=Anna&leader=0&ending=caught&cards=1&submit=1")
    assert error in page.get_data(as_text=True)


def test_calculator_pages_linked_from_game_pages(client):
    from apptools import real_library
    from rules_index.engines import calculators_for

    found = [(game.slug, name) for game in real_library() for name in calculators_for(game.slug)]
    assert ("ohne-furcht-und-adel", "score") in found and ("adel-verpflichtet", "exhibitions-ranking") in found
    for slug, name in found:
        for lang in ("de", "en", "it"):
            assert f"/{lang}/{slug}/calculators/{name}" in client.get(f"/{lang}/{slug}/").get_data(as_text=True)
            assert client.get(f"/{lang}/{slug}/calculators/{name}").status_code == 200
    assert client.get("/de/keine-ehre-unter-dieben/calculators/score").status_code == 404


def test_exhibition_page(client):
    page = client.get("/it/adel-verpflichtet/calculators/exhibition?cards=AB").get_data(as_text=True)
    assert "almeno 3 carte" in page


def test_whole_numbers_written_as_floats_count(client):
    body = client.post("/api/v1/games/kardinal-und-koenig/monastery-score", json={"monasteries": {"a": 2.0, "b": 1}}).get_json()
    assert body == {"points": {"a": 3, "b": 2}}


@pytest.mark.parametrize("name", ["\x1f", "Anna\n", "A\x85", "A\u2028B", "\u202eanna", "\x1b[31mAnna"])
def test_names_with_control_characters_are_refused(client, name):
    response = client.post(SCORE, json={"players": [{"name": name}]})
    assert response.status_code == 400 and response.get_json()["error"].startswith("players[0].name: may not hold")
    response = client.post("/api/v1/games/kardinal-und-koenig/monastery-score", json={"monasteries": {name: 1}})
    assert response.status_code == 400 and response.get_json()["error"].startswith("monasteries: a name may not hold")


@pytest.mark.parametrize("lang,message", [("de", "keine Steuerzeichen"), ("it", "nessun carattere di controllo"), ("en", "no control characters")])
def test_score_pad_refuses_control_characters_in_the_readers_language(client, lang, message):
    for path in ("ohne-furcht-und-adel/calculators/score?red0=3", "kardinal-und-koenig/calculators/monastery-score?count0=3"):
        response = client.get(f"/{lang}/{path}&name0=An%C2%85na&submit=1")
        assert response.status_code == 200
        page = response.get_data(as_text=True)
        assert message in page and "may not hold" not in page


# The pages take their limits from the request models: a page refuses exactly what the API refuses.
@pytest.mark.parametrize("cost", ["0", "1", "6", "7", "9"])
def test_score_pad_and_api_agree_on_costs(client, cost):
    page = client.get(f"/en/ohne-furcht-und-adel/calculators/score?name0=A&red0={cost}&submit=1").get_data(as_text=True)
    api = client.post(SCORE, json={"players": [{"name": "A", "districts": [{"color": "red", "cost": int(cost)}]}]})
    assert ("Costs are whole numbers" not in page) == (api.status_code == 200)


@pytest.mark.parametrize("count", ["0", "20", "21", "99"])
def test_monastery_page_and_api_agree_on_counts(client, count):
    page = client.get(f"/en/kardinal-und-koenig/calculators/monastery-score?name0=A&count0={count}&submit=1").get_data(as_text=True)
    api = client.post("/api/v1/games/kardinal-und-koenig/monastery-score", json={"monasteries": {"A": int(count)}})
    assert ("Enter a number of monasteries" not in page) == (api.status_code == 200)


def test_monastery_page_offers_as_many_rows_as_the_model_allows(client):
    from rules_index.engines.kardinal_und_koenig.calculators import MAX_PLAYERS

    page = client.get("/en/kardinal-und-koenig/calculators/monastery-score").get_data(as_text=True)
    assert f'name="name{MAX_PLAYERS - 1}"' in page and f'name="name{MAX_PLAYERS}"' not in page


# --- Kardinal & König: all lands at once (Regelheft S. 5–6 · Klosterwertung) ---

LANDS = "/api/v1/games/kardinal-und-koenig/lands-score"


def test_lands_score_rulebook_example_and_totals(client):
    # The rulebook's Franken example (4/2/1 -> 7/4/2), plus Bayern where Grün and Rot tie at the top.
    body = client.post(LANDS, json={"players": ["Grün", "Rot", "Blau"], "lands": {
        "Bayern": {"Grün": 1, "Rot": 1, "Blau": 0}, "Franken": {"Grün": 4, "Rot": 2, "Blau": 1},
    }}).get_json()
    bayern, franken = body["lands"]  # in the order asked
    assert franken["points"] == {"Grün": 7, "Rot": 4, "Blau": 2} and franken["monasteries_in_land"] == 7
    assert [(p["place"], p["players"], p["monasteries"], p["points"], p["worth_from"]) for p in franken["places"]] == [
        (1, ["Grün"], 4, 7, "land"), (2, ["Rot"], 2, 4, "place-above"), (3, ["Blau"], 1, 2, "place-above")]
    assert bayern["points"] == {"Grün": 2, "Rot": 2, "Blau": 0}
    assert [(p["place"], p["players"]) for p in bayern["places"]] == [(1, ["Grün", "Rot"])]
    assert body["players"] == [{"name": "Grün", "total": 9, "rank": 1}, {"name": "Rot", "total": 6, "rank": 2},
                               {"name": "Blau", "total": 2, "rank": 3}]


def test_lands_score_equal_totals_share_a_rank(client):
    body = client.post(LANDS, json={"players": ["A", "B", "C"], "lands": {"England": {"A": 2, "B": 2}, "Aragon": {"C": 1}}}).get_json()
    assert [(p["name"], p["total"], p["rank"]) for p in body["players"]] == [("A", 4, 1), ("B", 4, 1), ("C", 1, 3)]


def test_lands_score_counts_a_name_found_only_in_a_land(client):
    body = client.post(LANDS, json={"players": ["A"], "lands": {"Schwaben": {"A": 1, "B": 2}}}).get_json()
    assert [(p["name"], p["total"], p["rank"]) for p in body["players"]] == [("B", 3, 1), ("A", 2, 2)]


def test_lands_score_agrees_with_the_one_land_calculator(client):
    counts = {"A": 3, "B": 3, "C": 1, "D": 0}
    one = client.post("/api/v1/games/kardinal-und-koenig/monastery-score", json={"monasteries": counts}).get_json()
    many = client.post(LANDS, json={"players": list(counts), "lands": {"Burgund": counts}}).get_json()
    assert many["lands"][0]["points"] == one["points"]


@pytest.mark.parametrize("payload,field", [
    ({}, "players"),
    ({"players": []}, "players"),
    ({"players": ["A"] * 6}, "players"),
    ({"players": ["A", "A"]}, "players[1]"),
    ({"players": ["A"], "lands": {"Atlantis": {"A": 1}}}, "lands"),
    ({"players": ["A"], "lands": {"Franken": {"A": 21}}}, "lands.Franken.A"),
    ({"players": ["A"], "lands": {"Franken": {"A": 1.5}}}, "lands.Franken.A"),
    ({"players": ["A"], "lands": {"Franken": {str(i): 1 for i in range(6)}}}, "lands.Franken"),
    ({"players": ["A"], "lands": ["Franken"]}, "lands"),
])
def test_lands_score_bad_input(client, payload, field):
    response = client.post(LANDS, json=payload)
    assert response.status_code == 400 and response.get_json()["error"].startswith(field + ":")


# --- Adel Verpflichtet: the exhibitions of a round (Phase 4 · Ausstellungen – Vergleichen) ---

RANKING = "/api/v1/games/adel-verpflichtet/exhibitions-ranking"


def test_exhibitions_ranking(client):
    body = client.post(RANKING, json={"players": {
        "Ann": {"cards": "abc", "oldest_age": 120}, "Ben": {"cards": "DEF", "oldest_age": 300},
        "Cem": {"cards": "AAAA"}, "Dora": {"cards": "BCF"}, "Emil": {"cards": "AB"},
    }}).get_json()
    assert [(r["name"], r["cards"], r["place"], r["decided_by"]) for r in body["ranking"]] == [
        ("Cem", "AAAA", 1, "first"), ("Ben", "DEF", 2, "more-cards"), ("Ann", "ABC", 3, "older-object")]
    assert body["invalid"] == [{"name": "Dora", "cards": "BCF", "reason": "gap"}, {"name": "Emil", "cards": "AB", "reason": "too-few-cards"}]


def test_exhibitions_ranking_leaves_open_what_the_rules_leave_open(client):
    body = client.post(RANKING, json={"players": {"A": {"cards": "ABC"}, "B": {"cards": "CDE"}}}).get_json()
    assert [(r["place"], r["decided_by"]) for r in body["ranking"]] == [(1, "first"), (1, "age-unknown")]
    body = client.post(RANKING, json={"players": {"A": {"cards": "ABC", "oldest_age": 7}, "B": {"cards": "CDE", "oldest_age": 7}}}).get_json()
    assert [(r["place"], r["decided_by"]) for r in body["ranking"]] == [(1, "first"), (1, "same-age")]


@pytest.mark.parametrize("payload,field", [
    ({}, "players"), ({"players": {}}, "players"), ({"players": [{"cards": "ABC"}]}, "players"),
    ({"players": {"A": {"cards": "ABG"}}}, "players.A.cards"),
    ({"players": {"A": {"cards": ""}}}, "players.A.cards"),
    ({"players": {"A": {}}}, "players.A.cards"),
    ({"players": {"A": {"cards": "ABC", "oldest_age": -1}}}, "players.A.oldest_age"),
    ({"players": {"A": {"cards": "ABC", "oldest_age": 1.5}}}, "players.A.oldest_age"),
    ({"players": {"A\n": {"cards": "ABC"}}}, "players"),
    ({"players": {str(i): {"cards": "ABC"} for i in range(9)}}, "players"),
])
def test_exhibitions_ranking_bad_input(client, payload, field):
    response = client.post(RANKING, json=payload)
    assert response.status_code == 400 and response.get_json()["error"].startswith(field + ":")


# --- Keine Ehre unter Dieben: sharing the loot (Rezension · Das Verteilen der Beute) ---

LOOT = "/api/v1/games/keine-ehre-unter-dieben/loot-sharing"
THIEVES = ["Anna", "Ben", "Cem", "Dora"]


def shares(body: dict) -> list[tuple[str, int]]:
    return [(s["name"], s["cards"]) for s in body["shares"]]


def test_loot_sharing_after_a_voluntary_stop_takes_the_printed_number(client):
    # Fields 1-3: 1 card, 4-5: 2, 6: 4 of the 6; then one each clockwise from the leader's left.
    for cards, printed in [(1, 1), (3, 1), (4, 2), (5, 2), (6, 4)]:
        body = client.post(LOOT, json={"players": THIEVES, "leader": "Ben", "ending": "voluntary_stop", "cards": cards}).get_json()
        assert (body["leader_min"], body["leader_max"]) == (printed, printed)
        assert body["order"] == ["Cem", "Dora", "Anna"] and shares(body)[0] == ("Ben", printed)
    body = client.post(LOOT, json={"players": THIEVES, "leader": "Ben", "ending": "voluntary_stop", "cards": 6}).get_json()
    assert shares(body) == [("Ben", 4), ("Cem", 1), ("Dora", 1), ("Anna", 0)] and body["left"] == 0


def test_loot_sharing_after_a_master_stroke_waits_for_the_leaders_choice(client):
    body = client.post(LOOT, json={"players": THIEVES, "leader": "Dora", "ending": "master_stroke", "cards": 5}).get_json()
    assert (body["leader_min"], body["leader_max"], body["shares"], body["order"]) == (0, 5, None, ["Anna", "Ben", "Cem"])
    body = client.post(LOOT, json={"players": THIEVES, "leader": "Dora", "ending": "master_stroke", "cards": 5, "leader_takes": 1}).get_json()
    assert shares(body) == [("Dora", 1), ("Anna", 1), ("Ben", 1), ("Cem", 1)]
    assert (body["left"], body["extra_card"]) == (1, True)  # the leader may take one more


def test_loot_sharing_after_a_capture_gives_the_leader_nothing(client):
    body = client.post(LOOT, json={"players": THIEVES, "leader": "Anna", "ending": "caught", "cards": 5}).get_json()
    assert shares(body) == [("Anna", 0), ("Ben", 1), ("Cem", 1), ("Dora", 1)]
    assert (body["left"], body["extra_card"]) == (2, False)  # discarded: no extra card when caught


@pytest.mark.parametrize("payload,field", [
    ({"players": ["A"], "leader": "A", "ending": "caught", "cards": 1}, "players"),
    ({"players": ["A", "A"], "leader": "A", "ending": "caught", "cards": 1}, "players[1]"),
    ({"players": ["A", "B"], "leader": "C", "ending": "caught", "cards": 1}, "leader"),
    ({"players": ["A", "B"], "leader": "A", "ending": "escaped", "cards": 1}, "ending"),
    ({"players": ["A", "B"], "leader": "A", "ending": "caught", "cards": 8}, "cards"),
    ({"players": ["A", "B"], "leader": "A", "ending": "caught", "cards": 7}, "cards"),  # his card is discarded
    ({"players": ["A", "B"], "leader": "A", "ending": "voluntary_stop", "cards": 7}, "cards"),  # no printed number in the source
    ({"players": ["A", "B"], "leader": "A", "ending": "voluntary_stop", "cards": 0}, "cards"),
    ({"players": ["A", "B"], "leader": "A", "ending": "master_stroke", "cards": 0}, "cards"),
    ({"players": ["A", "B"], "leader": "A", "ending": "voluntary_stop", "cards": 3, "leader_takes": 1}, "leader_takes"),
    ({"players": ["A", "B"], "leader": "A", "ending": "master_stroke", "cards": 3, "leader_takes": 4}, "leader_takes"),
])
def test_loot_sharing_bad_input(client, payload, field):
    response = client.post(LOOT, json=payload)
    assert response.status_code == 400 and response.get_json()["error"].startswith(field + ":")


@pytest.mark.parametrize("lang,words", [
    ("de", ["Cem", "Nach einem Meisterstreich nimmt der Anführer zuerst so viele Karten, wie er möchte.",
            "2 Karten bleiben übrig: Cem darf sich noch 1 aussuchen, der Rest kommt auf den Ablagestapel.", "Rezension: Das Verteilen der Beute"]),
    ("en", ["After a master stroke the leader takes first as many cards as they like.", "2 cards are left: Cem may take one more",
            "Review: Sharing the loot"]),
    ("it", ["Dopo un colpo da maestro il capobanda prende per primo quante carte vuole.", "Restano 2 carte: Cem può sceglierne 1 in più",
            "Recensione: La spartizione del bottino"]),
])
def test_loot_sharing_page_explains_each_share(client, lang, words):
    query = "name0=Anna&name1=Ben&name2=Cem&leader=2&ending=master_stroke&cards=6&takes=2&submit=1"
    page = client.get(f"/{lang}/keine-ehre-unter-dieben/calculators/loot-sharing?{query}").get_data(as_text=True)
    for text in words:
        assert text in html.unescape(page)


@pytest.mark.parametrize("query,field", [
    ("name0=Anna&leader=0&ending=caught&cards=1", "name1"),
    ("name0=Anna&name1=Anna&leader=0&ending=caught&cards=1", "name1"),
    ("name0=Anna&name1=Ben&leader=3&ending=caught&cards=1", "leader"),
    ("name0=Anna&name1=Ben&leader=0&cards=1", "ending"),
    ("name0=Anna&name1=Ben&leader=0&ending=voluntary_stop&cards=7", "cards"),
    ("name0=Anna&name1=Ben&leader=0&ending=caught&cards=x", "cards"),
    ("name0=Anna&name1=Ben&leader=0&ending=master_stroke&cards=3&takes=4", "takes"),
])
def test_loot_sharing_page_field_errors(client, query, field):
    response = client.get(f"/de/keine-ehre-unter-dieben/calculators/loot-sharing?{query}&submit=1")
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and f'id="err-{field}"' in page and 'id="result"' not in page


def test_loot_sharing_page_reads_the_leaders_count_after_a_master_stroke_only(client):
    page = client.get("/en/keine-ehre-unter-dieben/calculators/loot-sharing?name0=A&name1=B&leader=0"
                      "&ending=caught&cards=2&takes=x&submit=1").get_data(as_text=True)
    assert 'id="err-takes"' not in page and 'id="result"' in page


@pytest.mark.parametrize("url,body,model", [
    (LANDS, {"players": ["A", "B"], "lands": {"Franken": {"A": 2, "B": 1}}}, "LandsResult"),
    (RANKING, {"players": {"A": {"cards": "ABC", "oldest_age": 3}, "B": {"cards": "AB"}}}, "RankingResult"),
    (LOOT, {"players": ["A", "B", "C"], "leader": "B", "ending": "master_stroke", "cards": 4}, "ShareResult"),
    (LOOT, {"players": ["A", "B", "C"], "leader": "B", "ending": "voluntary_stop", "cards": 4}, "ShareResult"),
])
def test_new_calculators_answer_as_their_openapi_schema_says(client, url, body, model):
    spec = client.get("/api/v1/openapi.json").get_json()
    operation = spec["paths"][url]["post"]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/" + model)
    resource = Resource.from_contents({**spec, "$schema": "https://json-schema.org/draft/2020-12/schema"})
    validator = Draft202012Validator({"$ref": f"urn:openapi#/components/schemas/{model}"},
                                     registry=Registry().with_resource("urn:openapi", resource))
    assert list(validator.iter_errors(client.post(url, json=body).get_json())) == []


# --- Pages: the result, its share link, field errors ---

def result_of(page: str) -> str:
    found = re.search(r'<section aria-labelledby="result-h" class="result" id="result">.*?</section>', page, re.S)
    return found.group(0) if found else ""


def share_link(page: str) -> str:
    found = re.search(r'<input id="link" type="text" readonly value="([^"]+)">', page)
    assert found, "no link to the result"
    return html.unescape(found.group(1))


SHARED = [
    "/de/ohne-furcht-und-adel/calculators/score?name0=Anna&yellow0=35&blue0=2&green0=1&red0=111&purple0=6&first=0&name1=Ben&yellow1=66&submit=1",
    "/en/kardinal-und-koenig/calculators/lands-score?name0=Green&name1=Red&name2=Blue&Franken0=4&Franken1=2&Franken2=1&Bayern0=1&Bayern1=1&submit=1",
    "/it/adel-verpflichtet/calculators/exhibitions-ranking?name0=Ann&cards0=abc&age0=120&name1=Ben&cards1=DEF&age1=300&name2=Cem&cards2=BCF&submit=1",
    "/en/kardinal-und-koenig/calculators/monastery-score?name0=A&count0=3&name1=B&count1=1&submit=1",
    "/en/adel-verpflichtet/calculators/exhibition?cards=AABBC",
    "/de/keine-ehre-unter-dieben/calculators/loot-sharing?name0=Anna&name1=Ben&name2=Cem&leader=2&ending=master_stroke&cards=6&takes=2&submit=1",
]


@pytest.mark.parametrize("url", SHARED)
def test_result_link_reproduces_the_result(client, url):
    first = client.get(url).get_data(as_text=True)
    link = share_link(first)
    assert link.startswith("http://localhost/")
    again = client.get(link.removeprefix("http://localhost")).get_data(as_text=True)
    assert result_of(first) and result_of(again) == result_of(first)


def test_empty_form_has_no_result_and_no_link(client):
    page = client.get("/en/kardinal-und-koenig/calculators/lands-score").get_data(as_text=True)
    assert 'id="result"' not in page and 'id="link"' not in page


def test_score_pad_reads_costs_typed_on_a_number_pad(client):
    typed = client.get("/en/ohne-furcht-und-adel/calculators/score?name0=A&red0=351&yellow0=6&submit=1").get_data(as_text=True)
    spaced = client.get("/en/ohne-furcht-und-adel/calculators/score?name0=A&red0=3+5+1&yellow0=6&submit=1").get_data(as_text=True)
    ranking = re.compile(r'<ol class="ranking">.*?</ol>', re.S)
    assert "<strong>15</strong>" in typed and ranking.search(typed).group(0) == ranking.search(spaced).group(0)


def test_score_pad_shows_each_total_in_the_players_card(client):
    page = client.get(SHARED[0].replace("/de/", "/en/")).get_data(as_text=True)
    assert re.search(r'<output class="total" data-out="0"[^>]*>27 points</output>', page)
    assert re.search(r'<output class="total" data-out="1"[^>]*>12 points</output>', page)
    assert re.search(r'<output class="total" data-out="2"[^>]*>–</output>', page)


def test_score_pad_has_a_keyboard_for_each_field(client):
    page = client.get("/en/ohne-furcht-und-adel/calculators/score").get_data(as_text=True)
    assert re.search(r'<input id="red0" name="red0"[^>]*inputmode="numeric"', page)
    assert 'type="radio" name="first" value="0" id="first0"' in page and 'id="first-none" checked' in page
    assert "<table" not in page


def test_score_pad_grows_by_one_card_at_a_time(client):
    def cards(query):
        return len(re.findall(r'<fieldset class="pcard"', client.get(f"/en/ohne-furcht-und-adel/calculators/score?{query}").get_data(as_text=True)))

    assert cards("") == 4
    assert cards("name4=E") == 6
    assert cards("rows=5") == 5
    assert cards("rows=99") == cards("name6=G") == 7


def test_score_pad_refuses_a_city_too_big_in_the_readers_language(client):
    response = client.get("/it/ohne-furcht-und-adel/calculators/score?name0=A&red0=" + "1" * 31 + "&submit=1")
    assert response.status_code == 200 and "al massimo 30 quartieri" in response.get_data(as_text=True)


@pytest.mark.parametrize("lang,query,field,words", [
    ("de", "name0=Anna&yellow0=351&name1=Anna&blue1=2", "name1", "Jeden Namen bitte nur einmal"),
    ("it", "name0=Anna&yellow0=351&name1=Bruno&blue1=2&first=0", "first", "Anna ha meno di 8 quartieri"),
    ("en", "name0=Anna&yellow0=351&name1=Bruno&blue1=2&first=0", "first", "Anna has fewer than 8 districts"),
])
def test_score_pad_states_the_engines_rules_at_the_field_in_the_readers_language(client, lang, query, field, words):
    page = client.get(f"/{lang}/ohne-furcht-und-adel/calculators/score?{query}&submit=1").get_data(as_text=True)
    assert f'id="err-{field}"' in page and words in html.unescape(page) and 'id="result"' not in page
    assert "appears twice" not in page and "fewer than" not in page.replace(words, "")


@pytest.mark.parametrize("lang,words", [
    ("en", ["Green has the most (4 monasteries) → 7 points", "Red: place 2 (2 monasteries) → 4 points, one for each monastery Green has here"]),
    ("de", ["Green hat die meisten (4 Klöster) → 7 Punkte", "Red: Platz 2 (2 Klöster) → 4 Punkte"]),
    ("it", ["Green ha il maggior numero (4 monasteri) → 7 punti", "Red: posto 2 (2 monasteri) → 4 punti"]),
])
def test_lands_page_explains_each_figure(client, lang, words):
    page = client.get(SHARED[1].replace("/en/", f"/{lang}/")).get_data(as_text=True)
    for text in words:
        assert text in page
    assert "<strong>9</strong>" in page


@pytest.mark.parametrize("lang,message", [("de", "Gib eine Zahl von Klöstern zwischen 0 und 20 ein."), ("en", "Enter a number of monasteries from 0 to 20."),
                                          ("it", "Inserisci un numero di monasteri da 0 a 20.")])
@pytest.mark.parametrize("count", ["21", "-1", "2.5", "\u00b3", "x"])
def test_lands_page_field_errors_in_the_readers_language(client, lang, message, count):
    response = client.get(f"/{lang}/kardinal-und-koenig/calculators/lands-score", query_string={"name0": "A", "Franken0": count, "submit": "1"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and 'class="field-error" id="err-Franken0"' in page and 'id="result"' not in page
    assert message in page


def test_lands_page_refuses_counts_without_a_player(client):
    page = client.get("/en/kardinal-und-koenig/calculators/lands-score?Franken3=2&submit=1").get_data(as_text=True)
    assert 'id="err-name3"' in page and "Please enter a name." in page


def test_lands_page_lists_every_land_of_the_engine(client):
    from rules_index.engines.kardinal_und_koenig.cards import LANDS as ENGINE_LANDS

    page = client.get("/en/kardinal-und-koenig/calculators/lands-score").get_data(as_text=True)
    assert sorted(re.findall(r'<input id="([A-Za-z]+)0" name="[A-Za-z]+0" value="" type="number"', page)) == sorted(ENGINE_LANDS)


@pytest.mark.parametrize("query,field", [
    ("name0=A&cards0=ABG", "cards0"), ("name0=A&cards0=", "cards0"), ("name0=A&cards0=ABC&age0=-3", "age0"),
    ("name0=A&cards0=ABC&age0=1000001", "age0"), ("cards0=ABC", "name0"), ("name0=A&cards0=ABC&name1=A&cards1=DEF", "name1"),
])
def test_ranking_page_field_errors(client, query, field):
    response = client.get(f"/de/adel-verpflichtet/calculators/exhibitions-ranking?{query}&submit=1")
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and f'id="err-{field}"' in page and 'id="result"' not in page


@pytest.mark.parametrize("lang,words", [
    ("en", ["Fewer cards than Cem (3 against 4)", "the letters must follow each other without a gap"]),
    ("de", ["Weniger Karten als Cem (3 gegen 4)", "die Buchstaben müssen lückenlos aufeinander folgen"]),
    ("it", ["Meno carte di Cem (3 contro 4)", "le lettere devono susseguirsi senza buchi"]),
])
def test_ranking_page_explains_the_ranking(client, lang, words):
    page = client.get(f"/{lang}/adel-verpflichtet/calculators/exhibitions-ranking?name0=Ann&cards0=ABC&name1=Cem&cards1=AAAA&name2=Dora&cards2=BCF&submit=1").get_data(as_text=True)
    for text in words:
        assert text in page


def test_lands_page_asks_only_for_named_players(client):
    page = client.get("/en/kardinal-und-koenig/calculators/lands-score?name0=Green&name2=Blue&Aragon4=1").get_data(as_text=True)
    shown = re.findall(r'<div class="field count" data-row="(\d)">', page)
    assert shown and set(shown) == {"0", "2", "4"}  # row 4: a count without a name stays in view
    assert len(re.findall(r'data-row="1" hidden', page)) == 9


ODD_VALUES = ["\u00b3", "\uff15", "ja" * 2000, "\x00", "POST\u202e../", "-1", "1e3", " "]
NEW_PAGE_FIELDS = [
    ("/{lang}/kardinal-und-koenig/calculators/lands-score", {"name0": "Ada", "Franken0": "2", "submit": "1"}, ["name1", "Franken0", "Burgund1", "rows"]),
    ("/{lang}/adel-verpflichtet/calculators/exhibitions-ranking", {"name0": "Ada", "cards0": "ABC", "submit": "1"}, ["name0", "cards0", "age0", "rows"]),
    ("/{lang}/ohne-furcht-und-adel/calculators/score", {"name0": "Ada", "red0": "3", "submit": "1"}, ["red0", "first", "rows"]),
    ("/{lang}/keine-ehre-unter-dieben/calculators/loot-sharing",
     {"name0": "Ada", "name1": "Bo", "leader": "0", "ending": "master_stroke", "cards": "3", "submit": "1"},
     ["name1", "leader", "ending", "cards", "takes", "rows"]),
]


@pytest.mark.parametrize("path,rest,fields", NEW_PAGE_FIELDS)
def test_odd_values_in_any_field_are_a_page_never_a_server_error(client, path, rest, fields):
    for lang in ("de", "en", "it"):
        for name in fields:
            for value in ODD_VALUES:
                response = client.get(path.format(lang=lang), query_string={**rest, name: value})
                assert response.status_code == 200, (lang, name, value[:10])


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_the_error_summary_links_every_field_to_fix(client, lang):
    """On a phone the fields may be a screen or two below: the summary says each problem and
    links to it, as the report form's does."""
    page = client.get(f"/{lang}/ohne-furcht-und-adel/calculators/score",
                      query_string={"name0": "Anna", "yellow0": "9", "name1": "Anna", "submit": "1"}).get_data(as_text=True)
    summary = re.search(r'<div class="form-errors error-summary" id="error-summary"[^>]*>(.*?)</div>', page, re.S).group(1)
    links = re.findall(r'<a href="#(err-[\w-]+)">', summary)
    assert len(links) >= 2
    for target in links:
        assert f'id="{target}"' in page, target
