"""Rule calculators: computed by the engines, on the API and as pages; bad input is a 400 naming the field."""
from __future__ import annotations

import pytest

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


def test_calculator_pages_linked_from_game_pages(client):
    for slug, name in [("ohne-furcht-und-adel", "score"), ("kardinal-und-koenig", "monastery-score"), ("adel-verpflichtet", "exhibition")]:
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
@pytest.mark.parametrize("cost", ["0", "1", "6", "7", "12"])
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
