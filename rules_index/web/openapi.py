"""The OpenAPI 3.1 description of the JSON API, generated from the pydantic models of its requests
and answers (``api_models``, and each engine's ``calculators.py``); tests validate real responses
against it.
"""
from __future__ import annotations

import copy
import re
from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema
from pydantic_core import core_schema

from rules_index.corrections import idempotency
from rules_index.engines import calculators_for

from . import api_models as M

REF = "#/components/schemas/"
BUSY = "The corrections database cannot be used now; ask again after Retry-After seconds"


class ApiJsonSchema(GenerateJsonSchema):
    """Pydantic's JSON Schema, with constrained mapping keys kept as constraints and no null
    defaults.

    Pydantic states a key pattern as ``patternProperties``, which leaves keys that do not match
    unconstrained; here every key must match (``propertyNames``) and every value follows the
    value schema (``additionalProperties``). A key that may be left out has no default to state
    (``"default": null`` would claim a value the key never takes).
    """

    def dict_schema(self, schema: core_schema.DictSchema) -> dict:
        json_schema = super().dict_schema(schema)
        by_pattern = json_schema.pop("patternProperties", None)
        if by_pattern:
            ((pattern, values),) = by_pattern.items()
            json_schema.setdefault("propertyNames", {})["pattern"] = pattern
            json_schema["additionalProperties"] = values
        return json_schema

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> dict:
        json_schema = super().default_schema(schema)
        if "default" in json_schema and json_schema["default"] is None:
            del json_schema["default"]
        return json_schema


@cache
def _generated_once(model: type[BaseModel], mode: str) -> dict:
    # Models are classes fixed at import: their schemas are made once, not per request.
    return model.model_json_schema(ref_template=REF + "{model}", schema_generator=ApiJsonSchema, mode=mode)


def _generated(model: type[BaseModel], mode: str) -> tuple[dict, dict]:
    """The model's schema and the schemas of the models it uses (referenced under REF)."""
    generated = copy.deepcopy(_generated_once(model, mode))
    return generated, generated.pop("$defs", {})


def _component(model: type[BaseModel], mode: str, schemas: dict) -> dict:
    """A reference to the model's schema, adding it and the models it uses to ``schemas``."""
    generated, used = _generated(model, mode)
    for name, schema in {**used, model.__name__: generated}.items():
        if schemas.setdefault(name, schema) != schema:
            raise ValueError(f"two API models are both called {name}")
    return {"$ref": REF + model.__name__}


def schema_at(model: type[BaseModel], path: str) -> dict:
    """The document's schema of one field of a request model, so that other checks of the same
    input (the calculator pages) read their limits from it.

    ``path`` names properties joined by dots; ``[]`` steps into a list's items, ``{}`` into a
    mapping's values and ``{key}`` to its keys: ``players[].districts[].cost``, ``lands{}{}``.
    References are followed, and a field that may be null is read as its non-null schema.
    """
    schema, defs = _generated(model, "validation")

    def resolved(schema: dict) -> dict:
        while True:
            if "$ref" in schema:
                schema = defs[schema["$ref"].removeprefix(REF)]
                continue
            options = [s for s in schema.get("anyOf", ()) if s != {"type": "null"}]
            if len(options) == 1:
                schema = options[0]
                continue
            return schema

    for step in re.findall(r"\[\]|\{key\}|\{\}|[^.\[{]+", path):
        schema = resolved(schema)
        if step == "[]":
            schema = schema["items"]
        elif step == "{}":
            schema = schema["additionalProperties"]
        elif step == "{key}":
            schema = schema["propertyNames"]
        else:
            schema = schema["properties"][step]
    return resolved(schema)


IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "description": "1 to 255 visible ASCII characters (a UUID, say), new for each new request: a repeat of the "
                   "request with the same key and body gets the first answer again and stores nothing more.",
    "schema": {"type": "string", "minLength": 1, "maxLength": idempotency.MAX_KEY, "pattern": idempotency.KEY_PATTERN},
}


def _parameters(model: type[BaseModel], where: str) -> list[dict]:
    """The model's fields as the operation's parameters (``query`` or ``path``)."""
    generated, _ = _generated(model, "validation")
    required = set(generated.get("required", ()))
    return [
        {"name": name, "in": where, "required": where == "path" or name in required, "schema": schema}
        for name, schema in generated["properties"].items()
    ]


def _body(model: type[BaseModel], schemas: dict) -> dict:
    return {"required": True, "content": {"application/json": {"schema": _component(model, "validation", schemas)}}}


def _answer(model: type[BaseModel], description: str, schemas: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": _component(model, "serialization", schemas)}}}


def _only_games(slugs: list[str]) -> dict:
    """A game's slug stated as one of the games being served."""
    return {"type": "string", "enum": slugs}


def _calculators(slugs: list[str], schemas: dict, error) -> dict:
    """The paths of every served game's calculators; their schemas go into ``schemas``."""
    paths = {}
    for slug in slugs:
        for name, calculator in calculators_for(slug).items():
            paths[f"/api/v1/games/{slug}/{name}"] = {"post": {
                "summary": calculator.summary, "operationId": f"{slug}-{name}".replace("-", "_"),
                "requestBody": _body(calculator.request, schemas),
                "responses": {
                    "200": _answer(calculator.result, "OK", schemas),
                    "400": error("Bad input; the error names the field"), "413": error("Body over 1 MiB"),
                },
            }}
    return paths


def openapi_document(base: str, slugs: list[str]) -> dict:
    """The document for the games being served (game parameters are enums of their slugs)."""
    schemas: dict[str, Any] = {}

    def error(description: str) -> dict:
        return _answer(M.Error, description, schemas)

    def ok(model: type[BaseModel], description: str = "OK") -> dict:
        return _answer(model, description, schemas)

    lang = _parameters(M.LangQuery, "query")
    search = [p if p["name"] != "game" else {**p, "schema": _only_games(slugs)}
              for p in _parameters(M.SearchQuery, "query")]
    paths = {
        "/api/v1/games": {"get": {
            "summary": "All games", "operationId": "games", "parameters": lang,
            "responses": {"200": ok(M.Games), "400": error("Bad parameter")},
        }},
        "/api/v1/games/{slug}": {"get": {
            "summary": "One game with its FAQ questions", "operationId": "game", "parameters": _parameters(M.GamePath, "path") + lang,
            "responses": {"200": ok(M.Game), "400": error("Bad parameter"), "404": error("Unknown game")},
        }},
        "/api/v1/games/{slug}/faq/{faq_id}": {"get": {
            "summary": "One FAQ answer with its citation and engine verification", "operationId": "faq",
            "parameters": _parameters(M.FaqPath, "path") + lang,
            "responses": {"200": ok(M.Faq), "400": error("Bad parameter"), "404": error("Unknown game or entry")},
        }},
        "/api/v1/games/{slug}/sections/{section_id}": {"get": {
            "summary": "One rules section with its version", "operationId": "section",
            "parameters": _parameters(M.SectionPath, "path") + lang,
            "responses": {"200": ok(M.Section), "400": error("Bad parameter"), "404": error("Unknown game or entry")},
        }},
        "/api/v1/search": {"get": {
            "summary": "Search the rules questions", "operationId": "search", "parameters": search,
            "responses": {"200": ok(M.SearchResult), "400": error("Bad parameter")},
        }},
        "/api/v1/health": {"get": {
            "summary": "Whether this process serves pages and search", "operationId": "health",
            "responses": {"200": ok(M.Health), "503": error("The search index cannot be read")},
        }},
        "/api/v1/corrections": {"post": {
            "summary": "Report a mistake", "operationId": "submit_correction",
            "parameters": [IDEMPOTENCY_KEY],
            "requestBody": _body(M.CorrectionRequest, schemas),
            "responses": {
                "201": ok(M.CorrectionCreated, "Stored (or stored before, for a repeated Idempotency-Key)"),
                "400": error("Bad input"), "404": error("Unknown game or entry"),
                "409": error("The first request with this Idempotency-Key is still under way"),
                "422": error("The Idempotency-Key was used with another request"),
                "413": error("Text or body too large"), "429": error("Too many submissions"), "503": error(BUSY),
            },
        }},
        "/api/v1/changes": {"post": {
            "summary": "An editor's change of a FAQ entry or rule section, through the engine gate",
            "operationId": "submit_change", "security": [{"editorToken": []}],
            "parameters": [IDEMPOTENCY_KEY],
            "requestBody": _body(M.ChangeRequest, schemas),
            "responses": {
                "200": ok(M.ChangeOutcome, "Dry run: the change would be accepted (outcome accepted) or held (outcome held)"),
                "201": ok(M.ChangeOutcome, "Accepted: written and published"),
                "202": ok(M.ChangeOutcome, "Held for a second editor (outcome held, nothing written), or written with "
                                           "publication failed and retried (outcome accepted, published: false)"),
                "400": error("Bad input"), "401": error("No valid editor token"),
                "404": error("Unknown game or entry"), "409": error("The entry changed since base_version, or the first request with this Idempotency-Key is under way"),
                "413": error("Text or body too large"),
                "422": ok(M.ChangeRefused, "Refused: the problems say why (check, claim, mistake, validation)"),
            },
        }},
        "/api/v1/changes/{id}/confirm": {"post": {
            "summary": "Another editor confirms a held change: it passes the gate again and goes live",
            "operationId": "confirm_change", "security": [{"editorToken": []}],
            "parameters": _parameters(M.HeldPath, "path"),
            "responses": {
                "201": ok(M.ChangeOutcome, "Confirmed: written and published"),
                "202": ok(M.ChangeOutcome, "Confirmed and written; publication failed and is retried"),
                "401": error("No valid editor token"), "403": error("Your own change: another editor must confirm it"),
                "404": error("No such held change"),
                "409": error("Decided already, or the entry changed since the change was held"),
                "422": ok(M.ChangeRefused, "Refused by the gate now"),
            },
        }},
        "/api/v1/changes/{id}/reject": {"post": {
            "summary": "An editor rejects a held change (its author may withdraw it); readers never saw it",
            "operationId": "reject_change", "security": [{"editorToken": []}],
            "parameters": _parameters(M.HeldPath, "path"),
            "requestBody": {**_body(M.RejectRequest, schemas), "required": False},
            "responses": {
                "200": ok(M.ChangeRejected), "400": error("Bad input"), "401": error("No valid editor token"),
                "404": error("No such held change"), "409": error("Decided already"),
            },
        }},
        "/api/v1/corrections/{token}": {"get": {
            "summary": "Status of a report (no personal data)", "operationId": "correction_status",
            "parameters": _parameters(M.TokenPath, "path"),
            "responses": {"200": ok(M.CorrectionStatus), "404": error("Unknown token"), "503": error(BUSY)},
        }},
    }
    paths.update(_calculators(slugs, schemas, error))
    report = schemas["CorrectionRequest"]
    schemas["CorrectionRequest"] = {**report, "properties": {
        **report["properties"], "game": _only_games(slugs),
    }}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Rules Reference API", "version": "1.0.0", "description": "Rules questions for board games in de/en/it, with citations and engine verification."},
        "servers": [{"url": base}],
        "paths": paths,
        "components": {"securitySchemes": {"editorToken": {
            "type": "http", "scheme": "bearer", "description": "An editor's API token: flask --app app editors token NAME",
        }}, "schemas": schemas},
    }
