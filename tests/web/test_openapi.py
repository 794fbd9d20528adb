"""The OpenAPI document describes the API truly: real responses validate against it."""
from __future__ import annotations

import json
import re

import jsonschema_rs
import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

GAME = "ohne-furcht-und-adel"


@pytest.fixture(scope="module")
def spec(app):
    return app.test_client().get("/api/v1/openapi.json").get_json()


def validate(spec, body, ref):
    resource = Resource.from_contents({**spec, "$schema": "https://json-schema.org/draft/2020-12/schema"})
    registry = Registry().with_resource("urn:openapi", resource)
    schema = {"$ref": f"urn:openapi#/components/schemas/{ref}"}
    errors = list(Draft202012Validator(schema, registry=registry).iter_errors(body))
    assert errors == [], [e.message for e in errors[:3]]


def response_ref(spec, path, method, status):
    return spec["paths"][path][method]["responses"][str(status)]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]


CASES = [
    ("get", "/api/v1/games", "/api/v1/games?lang=it", None, 200),
    ("get", "/api/v1/games/{slug}", f"/api/v1/games/{GAME}?lang=en", None, 200),
    ("get", "/api/v1/games/{slug}", "/api/v1/games/nope", None, 404),
    ("get", "/api/v1/games/{slug}/faq/{faq_id}", f"/api/v1/games/{GAME}/faq/tie-break?lang=de", None, 200),
    ("get", "/api/v1/games/{slug}/faq/{faq_id}", f"/api/v1/games/{GAME}/faq/nope", None, 404),
    ("get", "/api/v1/games/{slug}/sections/{section_id}", f"/api/v1/games/{GAME}/sections/goal?lang=it", None, 200),
    ("get", "/api/v1/games/{slug}/sections/{section_id}", f"/api/v1/games/{GAME}/sections/nope", None, 404),
    ("get", "/api/v1/search", "/api/v1/search?q=Baumeister&lang=de&limit=5", None, 200),
    ("get", "/api/v1/search", "/api/v1/search?q=", None, 400),
    ("get", "/api/v1/health", "/api/v1/health", None, 200),
    ("post", "/api/v1/games/ohne-furcht-und-adel/score", "/api/v1/games/ohne-furcht-und-adel/score", {"players": [{"name": "A", "districts": [{"color": "red", "cost": 2}]}]}, 200),
    ("post", "/api/v1/games/ohne-furcht-und-adel/score", "/api/v1/games/ohne-furcht-und-adel/score", {"players": []}, 400),
    ("post", "/api/v1/games/kardinal-und-koenig/monastery-score", "/api/v1/games/kardinal-und-koenig/monastery-score", {"monasteries": {"A": 3, "B": 1}}, 200),
    ("post", "/api/v1/games/adel-verpflichtet/exhibition", "/api/v1/games/adel-verpflichtet/exhibition", {"cards": "ABD"}, 200),
    ("post", "/api/v1/corrections", "/api/v1/corrections", {"game": GAME, "lang": "de"}, 400),
    ("post", "/api/v1/changes", "/api/v1/changes", {"game": GAME, "kind": "faq", "id": "tie-break", "text": {"de": {"answer": "x"}}}, 401),
]


@pytest.mark.parametrize("method,path,url,body,status", CASES, ids=[f"{c[0]} {c[2]} {c[4]}" for c in CASES])
def test_responses_match_the_document(client, spec, method, path, url, body, status):
    response = client.get(url) if method == "get" else client.post(url, json=body)
    assert response.status_code == status
    validate(spec, response.get_json(), response_ref(spec, path, method, status))


def test_document_is_openapi_3(spec):
    assert spec["openapi"].startswith("3.")
    assert {"/api/v1/games", "/api/v1/search", "/api/v1/corrections"} <= set(spec["paths"])
    for path, item in spec["paths"].items():
        for operation in item.values():
            assert operation["responses"] and operation["operationId"]


def test_correction_status_matches(site_client_token):
    client, spec, token = site_client_token
    response = client.get(f"/api/v1/corrections/{token}")
    validate(spec, response.get_json(), "CorrectionStatus")


@pytest.fixture()
def site_client_token(tmp_path, spec):
    from apptools import make_app
    from app import ROOT

    app = make_app(tmp_path / "instance", ROOT / "content")
    client = app.test_client()
    created = client.post("/api/v1/corrections", json={"game": GAME, "faq": "tie-break", "lang": "de", "message": "x", "email": "a@b.cd"})
    validate(spec, created.get_json(), "CorrectionCreated")
    return client, spec, created.get_json()["token"]


def test_change_answers_match_the_document(tmp_path, spec):
    from apptools import make_app
    from app import ROOT
    from rules_index.corrections.db import session
    from rules_index.corrections.editors import add_editor
    from rules_index.corrections.tokens import issue_token

    app = make_app(tmp_path / "instance", ROOT / "content")
    with app.app_context():
        add_editor(session(), "otto", "a-long-editor-password")
        token = issue_token(session(), "otto")
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    faq = client.get(f"/api/v1/games/{GAME}/faq/warlord-complete-city?lang=en").get_json()
    validate(spec, faq, "Faq")
    with app.app_context():
        from rules_index.web.state import library
        answer = library().game(GAME).faq_entry("warlord-complete-city").en.answer
    cases = [
        ({"en": {"answer": answer + " (p. 2)"}}, {"base_version": faq["version"]}, 200),
        ({"en": {"answer": answer + "\n\n[Ask the table.]{.editorial}"}}, {"base_version": faq["version"]}, 200),  # held
        ({"en": {"answer": answer.replace("[No]", "[Yes]")}}, {"base_version": faq["version"]}, 422),
        ({"en": {"answer": answer}}, {"base_version": "stale"}, 409),
        ({"xx": {"answer": answer}}, {"base_version": faq["version"]}, 400),
        ({"en": {"answer": answer + " (p. 2)"}}, {}, 400),  # no base_version: what would it replace?
    ]
    for text, extra, status in cases:
        body = {"game": GAME, "kind": "faq", "id": "warlord-complete-city", "text": text, "dry_run": True, **extra}
        response = client.post("/api/v1/changes", json=body, headers=headers)
        assert response.status_code == status, response.get_json()
        validate(spec, response.get_json(), response_ref(spec, "/api/v1/changes", "post", status))


# ------------------------------------------------------------------ the schema and the server agree
# Each value is judged by the document under both regex dialects (Python's, and the Rust validator
# schemathesis generates with, which reads \s as ECMA-262 does) and by the server: all three agree.
NAMES = [
    "Anna", " Anna ", "Zoë", "李", "a" * 40, "a" * 41, "", " ", "\u3000", "\ufeff", "\x1f", "\x00", "\x1b[31m",
    "Anna\n", "An\tna", "\x85", "A\x7f", "A\u2028B", "A\u2029", "\u202eanna", "A\u2066B", "\u00a0A\u00a0",
]


def judged(spec, ref, body) -> tuple[bool, bool]:
    resource = Resource.from_contents({**spec, "$schema": "https://json-schema.org/draft/2020-12/schema"})
    schema = {"$ref": f"urn:openapi#/components/schemas/{ref}"}
    python = Draft202012Validator(schema, registry=Registry().with_resource("urn:openapi", resource)).is_valid(body)
    rust = jsonschema_rs.validator_for({**spec["components"]["schemas"][ref], "components": spec["components"]}).is_valid(body)
    return python, rust


@pytest.mark.parametrize("name", NAMES, ids=[repr(n)[:20] for n in NAMES])
def test_player_names_schema_and_server_agree(client, spec, name):
    body = {"players": [{"name": name, "districts": [{"color": "red", "cost": 2}]}]}
    accepted = client.post("/api/v1/games/ohne-furcht-und-adel/score", json=body).status_code == 200
    assert judged(spec, "ScoreRequest", body) == (accepted, accepted)
    body = {"monasteries": {name: 2}}
    accepted = client.post("/api/v1/games/kardinal-und-koenig/monastery-score", json=body).status_code == 200
    assert judged(spec, "MonasteryRequest", body) == (accepted, accepted)


@pytest.mark.parametrize("cards", ["AAB", " a b ", "", " ", "AB\n", "ABG", "A\x00", "A" * 60, "A" * 61])
def test_exhibition_cards_schema_and_server_agree(client, spec, cards):
    accepted = client.post("/api/v1/games/adel-verpflichtet/exhibition", json={"cards": cards}).status_code == 200
    assert judged(spec, "ExhibitionRequest", {"cards": cards}) == (accepted, accepted)


@pytest.fixture(scope="module")
def reports_client(tmp_path_factory):
    from apptools import make_app
    from app import ROOT

    return make_app(tmp_path_factory.mktemp("reports"), ROOT / "content").test_client()


@pytest.mark.parametrize("body", [
    {"game": GAME, "faq": "tie-break", "lang": "en", "message": "The page is wrong."},
    {"game": GAME, "section": "goal", "lang": "de", "message": "Seite?", "proposed_answer": "Neu.", "page": "S. 2", "email": "a@b.cd"},
])
def test_the_document_describes_the_correction_request(reports_client, spec, body):
    # The API validates with the model the document is generated from; what it takes, the document allows.
    assert reports_client.post("/api/v1/corrections", json=body).status_code == 201
    assert judged(spec, "CorrectionRequest", body) == (True, True)


def test_calculator_schemas_come_from_the_models(spec):
    from rules_index.engines.ohne_furcht_und_adel.calculators import MAX_COST, MAX_PLAYERS

    schemas = spec["components"]["schemas"]
    assert schemas["District"]["properties"]["cost"]["maximum"] == MAX_COST
    assert schemas["ScoreRequest"]["properties"]["players"]["maxItems"] == MAX_PLAYERS
    names = schemas["MonasteryRequest"]["properties"]["monasteries"]
    assert "patternProperties" not in names and names["propertyNames"]["pattern"] and names["additionalProperties"]
    refs = re.findall(r'"\$ref": "#/components/schemas/([^"]+)"', json.dumps(spec))
    assert refs and set(refs) <= set(schemas)


@pytest.mark.parametrize("query", ["Baumeister", " a ", "", " ", "\x1c", "\x1f", "\x85", "\u3000", "\u2028", "\ufeff", "\t\n"])
def test_search_text_schema_and_server_agree(client, spec, query):
    schema = next(p["schema"] for p in spec["paths"]["/api/v1/search"]["get"]["parameters"] if p["name"] == "q")
    accepted = client.get("/api/v1/search", query_string={"q": query}).status_code == 200
    assert (Draft202012Validator(schema).is_valid(query), jsonschema_rs.validator_for(schema).is_valid(query)) == (accepted, accepted)


def test_search_text_pattern_is_what_the_server_searches(spec):
    # Every character alone (those below U+3001 and the invisible ones above): the document's
    # pattern finds it exactly when the server's cleaning leaves a search text.
    from rules_index.search import clean_query

    schema = next(p["schema"] for p in spec["paths"]["/api/v1/search"]["get"]["parameters"] if p["name"] == "q")
    rust = jsonschema_rs.validator_for(schema)
    python = re.compile(schema["pattern"])
    chars = [chr(c) for c in range(0x3001) if not 0xD800 <= c <= 0xDFFF] + ["\u3000", "\ufeff", "\u2066", "\u2069", "\uffff"]
    disagree = [f"U+{ord(c):04X}" for c in chars if bool(clean_query(c)) != bool(python.search(c)) or rust.is_valid(c) != bool(clean_query(c))]
    assert disagree == []


def test_every_api_shape_is_generated_from_its_model(client, spec):
    from rules_index.web import api_models
    from rules_index.web.openapi import ApiJsonSchema, REF

    schemas = spec["components"]["schemas"]
    for model in api_models.COMPONENTS:
        for mode in ("validation", "serialization"):
            generated = model.model_json_schema(ref_template=REF + "{model}", schema_generator=ApiJsonSchema, mode=mode)
            for name, schema in generated.pop("$defs", {}).items():
                assert schemas[name] == schema, name
            if model is not api_models.CorrectionRequest:  # its game is an enum of the served games
                assert schemas[model.__name__] == generated, model.__name__
    served = [g["slug"] for g in client.get("/api/v1/games").get_json()["games"]]
    assert schemas["CorrectionRequest"]["properties"]["game"]["enum"] == served
