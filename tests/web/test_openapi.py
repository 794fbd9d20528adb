"""The OpenAPI document describes the API truly: real responses validate against it."""
from __future__ import annotations

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
    ("get", "/api/v1/search", "/api/v1/search?q=Baumeister&lang=de&limit=5", None, 200),
    ("get", "/api/v1/search", "/api/v1/search?q=", None, 400),
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
    answer = "No. The Warlord can never destroy anything in a city with 8 districts or more."
    cases = [
        ({"en": {"answer": answer}}, {"base_version": faq["version"]}, 200),
        ({"en": {"answer": "Yes. " + answer[4:]}}, {}, 422),
        ({"en": {"answer": answer}}, {"base_version": "stale"}, 409),
        ({"xx": {"answer": answer}}, {}, 400),
    ]
    for text, extra, status in cases:
        body = {"game": GAME, "kind": "faq", "id": "warlord-complete-city", "text": text, "dry_run": True, **extra}
        response = client.post("/api/v1/changes", json=body, headers=headers)
        assert response.status_code == status, response.get_json()
        validate(spec, response.get_json(), response_ref(spec, "/api/v1/changes", "post", status))
