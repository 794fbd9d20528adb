"""Every limit of a calculator's input is stated once: the calculator page's form, the OpenAPI
document and the API all take it from the request model, so at each field's edges they agree.

The limits are read from the served document, never from the code under test: a form that kept
its own copy of a limit, or a model whose limit the document did not state, fails here.
"""
from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from werkzeug.datastructures import MultiDict

from rules_index.web import calculator_forms as forms

OFUA, KUK, AV, KEUD = "ohne-furcht-und-adel", "kardinal-und-koenig", "adel-verpflichtet", "keine-ehre-unter-dieben"


@pytest.fixture(scope="module")
def spec(app):
    return app.test_client().get("/api/v1/openapi.json").get_json()


def field(spec, model: str, *path: str) -> dict:
    """The document's schema of a field: property names, ``[]`` for items, ``{}`` for values."""
    schemas = spec["components"]["schemas"]

    def resolved(schema: dict) -> dict:
        if "$ref" in schema:
            return resolved(schemas[schema["$ref"].rsplit("/", 1)[1]])
        options = [s for s in schema.get("anyOf", ()) if s != {"type": "null"}]
        return resolved(options[0]) if len(options) == 1 else schema

    schema = resolved(schemas[model])
    for step in path:
        schema = resolved(schema["items"] if step == "[]" else schema["additionalProperties"] if step == "{}" else schema["properties"][step])
    return schema


def schema_accepts(spec, model: str, body) -> bool:
    resource = Resource.from_contents({**spec, "$schema": "https://json-schema.org/draft/2020-12/schema"})
    schema = {"$ref": f"urn:openapi#/components/schemas/{model}"}
    return Draft202012Validator(schema, registry=Registry().with_resource("urn:openapi", resource)).is_valid(body)


def form_accepts(app, key: str, args: dict) -> bool:
    with app.test_request_context("/en/"):
        filled = forms.FORMS[key](MultiDict({**args, "submit": "1"}))
    return not filled.errors


# (calculator, request model, path to the field in the model, form fields for a value, API body for a value)
NUMBERS = [
    (f"{OFUA}/score", "ScoreRequest", ("players", "[]", "districts", "[]", "cost"),
     lambda v: {"name0": "A", "red0": str(v)},
     lambda v: {"players": [{"name": "A", "districts": [{"color": "red", "cost": v}]}]}),
    (f"{KUK}/monastery-score", "MonasteryRequest", ("monasteries", "{}"),
     lambda v: {"name0": "A", "count0": str(v)},
     lambda v: {"monasteries": {"A": v}}),
    (f"{KUK}/lands-score", "LandsRequest", ("lands", "{}", "{}"),
     lambda v: {"name0": "A", "Franken0": str(v)},
     lambda v: {"players": ["A"], "lands": {"Franken": {"A": v}}}),
    (f"{AV}/exhibitions-ranking", "RankingRequest", ("players", "{}", "oldest_age"),
     lambda v: {"name0": "A", "cards0": "AB", "age0": str(v)},
     lambda v: {"players": {"A": {"cards": "AB", "oldest_age": v}}}),
    (f"{KEUD}/loot-sharing", "ShareRequest", ("leader_takes",),
     lambda v: {"name0": "A", "name1": "B", "leader": "0", "ending": "master_stroke", "cards": "7", "takes": str(v)},
     lambda v: {"players": ["A", "B"], "leader": "A", "ending": "master_stroke", "cards": 7, "leader_takes": v}),
]


@pytest.mark.parametrize("key,model,path,form_args,body", NUMBERS, ids=[n[0] for n in NUMBERS])
def test_number_ranges_agree(app, client, spec, key, model, path, form_args, body):
    limits = field(spec, model, *path)
    low, high = limits["minimum"], limits["maximum"]
    for value in (low - 1, low, high, high + 1):
        inside = low <= value <= high
        assert form_accepts(app, key, form_args(value)) is inside, (value, "form")
        assert schema_accepts(spec, model, body(value)) is inside, (value, "schema")
        assert (client.post(f"/api/v1/games/{key}", json=body(value)).status_code == 200) is inside, (value, "API")


# (calculator, request model, path to the text, form fields for a text, API body for a text)
TEXTS = [
    (f"{OFUA}/score", "ScoreRequest", ("players", "[]", "name"),
     lambda t: {"name0": t, "red0": "2"}, lambda t: {"players": [{"name": t, "districts": [{"color": "red", "cost": 2}]}]}),
    (f"{KUK}/monastery-score", "MonasteryRequest", ("monasteries", "propertyNames"),
     lambda t: {"name0": t, "count0": "2"}, lambda t: {"monasteries": {t: 2}}),
    (f"{KUK}/lands-score", "LandsRequest", ("players", "[]"),
     lambda t: {"name0": t, "Franken0": "2"}, lambda t: {"players": [t], "lands": {"Franken": {t: 2}}}),
    (f"{AV}/exhibitions-ranking", "RankingRequest", ("players", "propertyNames"),
     lambda t: {"name0": t, "cards0": "AB"}, lambda t: {"players": {t: {"cards": "AB"}}}),
    (f"{AV}/exhibitions-ranking", "RankingRequest", ("players", "{}", "cards"),
     lambda t: {"name0": "A", "cards0": "A" * len(t)}, lambda t: {"players": {"A": {"cards": "A" * len(t)}}}),
    (f"{AV}/exhibition", "ExhibitionRequest", ("cards",),
     lambda t: {"cards": "A" * len(t)}, lambda t: {"cards": "A" * len(t)}),
    (f"{KEUD}/loot-sharing", "ShareRequest", ("players", "[]"),
     lambda t: {"name0": t, "name1": "b", "leader": "0", "ending": "caught", "cards": "1"},
     lambda t: {"players": [t, "b"], "leader": t, "ending": "caught", "cards": 1}),
]


@pytest.mark.parametrize("key,model,path,form_args,body", TEXTS, ids=[f"{t[0]} {t[2][-1]}" for t in TEXTS])
def test_text_lengths_agree(app, client, spec, key, model, path, form_args, body):
    *parent, last = path
    limits = field(spec, model, *parent)[last] if last == "propertyNames" else field(spec, model, *path)
    longest = limits["maxLength"]
    for length in (longest, longest + 1):
        text, inside = "a" * length, length <= longest
        assert form_accepts(app, key, form_args(text)) is inside, (length, "form")
        assert schema_accepts(spec, model, body(text)) is inside, (length, "schema")
        assert (client.post(f"/api/v1/games/{key}", json=body(text)).status_code == 200) is inside, (length, "API")


def test_districts_per_city_agree(app, client, spec):
    most = field(spec, "ScoreRequest", "players", "[]", "districts")["maxItems"]
    for count in (most, most + 1):
        inside = count <= most
        args = {"name0": "A", "red0": " ".join(["2"] * count)}
        body = {"players": [{"name": "A", "districts": [{"color": "red", "cost": 2}] * count}]}
        assert form_accepts(app, f"{OFUA}/score", args) is inside, (count, "form")
        assert schema_accepts(spec, "ScoreRequest", body) is inside, (count, "schema")
        assert (client.post(f"/api/v1/games/{OFUA}/score", json=body).status_code == 200) is inside, (count, "API")


# (calculator, request model, the players' field, its schema keyword for "at most")
PLAYERS = [
    (f"{OFUA}/score", "ScoreRequest", "players", "maxItems"),
    (f"{KUK}/monastery-score", "MonasteryRequest", "monasteries", "maxProperties"),
    (f"{KUK}/lands-score", "LandsRequest", "players", "maxItems"),
    (f"{AV}/exhibitions-ranking", "RankingRequest", "players", "maxProperties"),
    (f"{KEUD}/loot-sharing", "ShareRequest", "players", "maxItems"),
]


@pytest.mark.parametrize("key,model,name,keyword", PLAYERS, ids=[p[0] for p in PLAYERS])
def test_player_cards_are_as_many_as_players_allowed(spec, key, model, name, keyword):
    assert forms.MAX_ROWS[key] == field(spec, model, name)[keyword]


def test_choices_agree(spec):
    assert set(forms.OFUA_COLOURS) == set(field(spec, "District", "color")["enum"])
    assert set(forms.LANDS) == set(field(spec, "LandsRequest", "lands")["propertyNames"]["enum"])
    assert set(forms.ENDINGS) == set(field(spec, "ShareRequest", "ending")["enum"])


# Inside the text: the form strips what surrounds a name or card letters, as a reader would want.
NAME_TEXTS = ["Zoë", "李", "A\x1fB", "A\x00B", "A\u202eB", "A\u2028B", "A\x85B", "A\tB"]
CARD_TEXTS = ["AB", "abf", "A B", "ABG", "A1", "A\x00B", "Ä"]


@pytest.mark.parametrize("key,model,path,form_args,body", TEXTS, ids=[f"{t[0]} {t[2][-1]}" for t in TEXTS])
def test_characters_agree(app, client, spec, key, model, path, form_args, body):
    if path[-1] == "cards":  # the builders above only use a text's length for cards
        form_args = (lambda t: {"cards": t}) if key.endswith("/exhibition") else (lambda t: {"name0": "A", "cards0": t})
        body = (lambda t: {"cards": t}) if key.endswith("/exhibition") else (lambda t: {"players": {"A": {"cards": t}}})
    for text in CARD_TEXTS if path[-1] == "cards" else NAME_TEXTS:
        api = client.post(f"/api/v1/games/{key}", json=body(text)).status_code == 200
        assert schema_accepts(spec, model, body(text)) is api, (text, "schema")
        assert form_accepts(app, key, form_args(text)) is api, (text, "form")
