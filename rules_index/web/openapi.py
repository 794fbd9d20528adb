"""The OpenAPI 3.1 description of the JSON API (kept true by tests that validate real responses).

The calculators' schemas are generated from their pydantic models, the ones the API validates
with; a correction's text fields are stated with the character classes ``reports`` checks.
"""
from __future__ import annotations

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema
from pydantic_core import core_schema

from rules_index import characters as chars
from rules_index.corrections import reports
from rules_index.engines import calculators_for

REF = "#/components/schemas/"
LANG = {"name": "lang", "in": "query", "required": False, "schema": {"type": "string", "enum": ["de", "en", "it"], "default": "de"}}
SLUG = {"name": "slug", "in": "path", "required": True, "schema": {"type": "string"}}
# A character the server's strip() leaves (not \S, which ECMA-262 and Python read differently).
TEXT = {"type": "string", "pattern": f"[^{chars.regex_class(chars.PYTHON_WHITESPACE)}]"}


def _plain(constraints: dict, nullable: bool = False) -> dict:
    """A report's text: ``constraints`` and no control character; or null when ``nullable``.

    Null gets its own branch: the ``not`` holds a bare ``pattern``, which null would satisfy.
    """
    text = {"type": "string", **constraints, "not": {"pattern": reports.REFUSED}}
    return {"anyOf": [text, {"type": "null"}]} if nullable else text


def _around(pattern: str) -> str:
    """The whole text is ``pattern`` or nothing, with blanks (which the server strips) around it.

    Anchored, unlike the character classes: safe here because a final newline is a blank, so
    Python's ``$`` (which also matches before one) and ECMA-262's agree.
    """
    return f"^[{reports.BLANK}]*({pattern})?[{reports.BLANK}]*$"


def _error(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _ok(ref: str, description: str = "OK", status_schema: dict | None = None) -> dict:
    schema = status_schema or {"$ref": f"#/components/schemas/{ref}"}
    return {"description": description, "content": {"application/json": {"schema": schema}}}


SCHEMAS = {
    "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string", "minLength": 1}}},
    "GameSummary": {
        "type": "object", "required": ["slug", "title", "url"],
        "properties": {"slug": {"type": "string"}, "title": {"type": "string"}, "url": {"type": "string"}},
    },
    "Games": {"type": "object", "required": ["games"], "properties": {"games": {"type": "array", "items": {"$ref": "#/components/schemas/GameSummary"}}}},
    "FaqLink": {
        "type": "object", "required": ["id", "question", "url"],
        "properties": {"id": {"type": "string"}, "question": {"type": "string"}, "url": {"type": "string"}},
    },
    "Game": {
        "allOf": [{"$ref": "#/components/schemas/GameSummary"}, {
            "type": "object", "required": ["faq", "sections"],
            "properties": {
                "faq": {"type": "array", "items": {"$ref": "#/components/schemas/FaqLink"}},
                "sections": {"type": "array", "items": {
                    "type": "object", "required": ["id", "title", "url"],
                    "properties": {"id": {"type": "string"}, "title": {"type": "string"}, "url": {"type": "string"}},
                }},
            },
        }],
    },
    "Citation": {
        "type": "object", "required": ["source", "pages", "section", "label"],
        "properties": {
            "source": {"type": "string"}, "pages": {"type": ["string", "null"], "pattern": "^[0-9]+(-[0-9]+)?$"},
            "section": {"type": "string"}, "label": {"type": "string"},
        },
    },
    "Verified": {
        "type": "object", "required": ["status", "basis", "unchecked", "checks", "facts"],
        "properties": {
            "status": {
                "type": "string", "enum": ["verified", "partial", "assumption", "editorial", "failed"],
                "description": "verified: every claim of the answer is checked by the rules engine; partial: the claims in "
                               "'unchecked' are not; assumption: the sources are silent and the engine follows a stated reading; "
                               "editorial: no rule claim (editions, history, questions the sources leave open).",
            },
            "basis": {"type": "string", "enum": ["rule", "assumption", "editorial"]},
            "unchecked": {"type": "array", "items": {"type": "string"}, "description": "Claims of the answer no check tests."},
            "checks": {"type": "array", "items": {
                "type": "object", "required": ["probe", "scenario", "given", "expect", "ok"],
                "properties": {"probe": {"type": "string"}, "scenario": {"type": ["string", "null"]}, "given": {"type": "object"}, "expect": {"type": "object"}, "ok": {"type": "boolean"}},
            }},
            "facts": {"type": "array", "description": "The values the answer states, each tied to a check's output.", "items": {
                "type": "object", "required": ["value", "check", "where", "ok"],
                "properties": {"value": {"type": ["integer", "boolean", "string"]}, "check": {"type": "integer", "minimum": 1}, "where": {"type": "string"}, "ok": {"type": "boolean"}},
            }},
        },
    },
    "Faq": {
        "type": "object",
        "required": ["game", "id", "lang", "question", "answer_html", "citation", "editions", "section", "url", "version", "verified", "related"],
        "properties": {
            "game": {"type": "string"}, "id": {"type": "string"}, "lang": {"type": "string", "enum": ["de", "en", "it"]},
            "version": {"type": "string", "description": "Hash of the entry's stored form: the base_version of a change."},
            "question": {"type": "string"}, "answer_html": {"type": "string"},
            "citation": {"$ref": "#/components/schemas/Citation"},
            "editions": {"type": "array", "items": {"type": "string"}}, "section": {"type": "string"}, "url": {"type": "string"},
            "verified": {"$ref": "#/components/schemas/Verified"},
            "related": {"type": "array", "items": {"$ref": "#/components/schemas/FaqLink"}},
        },
    },
    "Section": {
        "type": "object",
        "required": ["game", "id", "lang", "title", "body_html", "url", "version"],
        "properties": {
            "game": {"type": "string"}, "id": {"type": "string"}, "lang": {"type": "string", "enum": ["de", "en", "it"]},
            "title": {"type": "string"}, "body_html": {"type": "string"}, "url": {"type": "string"},
            "version": {"type": "string", "description": "Hash of the section's stored text in every language: the base_version of a change."},
        },
    },
    "Hit": {
        "type": "object", "required": ["type", "game", "id", "title", "snippet", "url", "score", "best"],
        "description": "Hits come answers first (FAQ entries and the game's facts), then rules sections, glossary terms and "
                       "common mistakes; the first answer has best: true. A mistake's title states it refuted and its url "
                       "leads to the answer that settles it.",
        "properties": {
            "type": {"type": "string", "enum": ["faq", "fact", "section", "mistake", "glossary"]}, "game": {"type": "string"},
            "id": {"type": "string"}, "title": {"type": "string"}, "snippet": {"type": "string"}, "url": {"type": "string"},
            "score": {"type": "number"}, "best": {"type": "boolean"},
        },
    },
    "SearchResult": {
        "type": "object", "required": ["query", "lang", "hits", "suggestion"],
        "properties": {
            "query": {"type": "string"}, "lang": {"type": "string"},
            "hits": {"type": "array", "items": {"$ref": "#/components/schemas/Hit"}},
            "suggestion": {"type": ["string", "null"]},
        },
    },
    "CorrectionRequest": {
        "type": "object", "required": ["game", "lang", "message"],
        "oneOf": [{"required": ["faq"], "not": {"required": ["section"]}}, {"required": ["section"], "not": {"required": ["faq"]}}],
        "properties": {
            "game": {"type": "string", "minLength": 1}, "faq": {"type": "string"}, "section": {"type": "string"},
            "lang": {"type": "string", "enum": ["de", "en", "it"]},
            "message": _plain({"maxLength": reports.MAX_MESSAGE, "pattern": reports.VISIBLE}),
            "proposed_answer": _plain({"maxLength": reports.MAX_PROPOSAL}, nullable=True),
            "page": _plain({"pattern": _around(reports.PAGE)}, nullable=True),
            "email": _plain({"maxLength": reports.MAX_EMAIL, "pattern": _around(reports.EMAIL)}, nullable=True),
        },
    },
    "CorrectionCreated": {
        "type": "object", "required": ["id", "token", "status"],
        "properties": {"id": {"type": "integer"}, "token": {"type": "string"}, "status": {"type": "string", "enum": ["pending"]}},
    },
    "CorrectionStatus": {
        "type": "object", "required": ["token", "status", "game", "lang", "reason", "created_at", "updated_at"],
        "properties": {
            "token": {"type": "string"}, "status": {"type": "string", "enum": ["pending", "accepted", "rejected"]},
            "game": {"type": "string"}, "faq": {"type": "string"}, "section": {"type": "string"}, "lang": {"type": "string"},
            "reason": {"type": ["string", "null"]}, "created_at": {"type": "string"}, "updated_at": {"type": "string"},
        },
        "not": {"anyOf": [{"required": ["email"]}, {"required": ["message"]}]},
    },
    "ChangeRequest": {
        "type": "object", "required": ["game", "kind", "id", "text"],
        "properties": {
            "game": {"type": "string", "minLength": 1}, "kind": {"type": "string", "enum": ["faq", "section"]},
            "id": {"type": "string", "minLength": 1},
            "text": {
                "type": "object", "minProperties": 1, "additionalProperties": False,
                "description": "New text per language; languages left out stay as they are. FAQ entries: question and/or answer; sections: body.",
                "properties": {lang: {
                    "type": "object", "minProperties": 1, "additionalProperties": False,
                    "properties": {"question": {"type": "string", "maxLength": 20000}, "answer": {"type": "string", "maxLength": 20000}, "body": {"type": "string", "maxLength": 20000}},
                } for lang in ("de", "en", "it")},
            },
            "base_version": {"type": "string", "description": "The entry's version when it was read (GET .../faq/{id} returns it); 409 if it changed since."},
            "dry_run": {"type": "boolean", "default": False, "description": "Only check the change: 200 if it would be accepted, nothing is written."},
        },
    },
    "ChangeAccepted": {
        "type": "object", "required": ["accepted", "change", "version", "flags"],
        "properties": {
            "accepted": {"type": "boolean", "enum": [True]},
            "change": {"type": ["integer", "null"], "description": "The stored change's id; null for a dry run."},
            "version": {"type": "string", "description": "The entry's version: the new one when written, the current one for a dry run."},
            "flags": {"type": "array", "items": {"type": "string", "enum": ["de", "en", "it"]}, "description": "Languages put under translation review."},
        },
    },
    "ChangeRefused": {
        "type": "object", "required": ["error", "problems"],
        "properties": {
            "error": {"type": "string", "minLength": 1},
            "problems": {"type": "array", "minItems": 1, "items": {
                "type": "object", "required": ["kind", "message"],
                "properties": {
                    "kind": {"type": "string", "enum": ["check", "claim", "mistake", "validation"]},
                    "message": {"type": "string"}, "lang": {"type": "string", "enum": ["de", "en", "it"]},
                    "mistake": {"type": "string"}, "check": {"type": "string"}, "scenario": {"type": "string"},
                },
            }},
        },
    },
}


class ApiJsonSchema(GenerateJsonSchema):
    """Pydantic's JSON Schema, with constrained mapping keys kept as constraints.

    Pydantic states a key pattern as ``patternProperties``, which leaves keys that do not match
    unconstrained; here every key must match (``propertyNames``) and every value follows the
    value schema (``additionalProperties``).
    """

    def dict_schema(self, schema: core_schema.DictSchema) -> dict:
        json_schema = super().dict_schema(schema)
        by_pattern = json_schema.pop("patternProperties", None)
        if by_pattern:
            ((pattern, values),) = by_pattern.items()
            json_schema.setdefault("propertyNames", {})["pattern"] = pattern
            json_schema["additionalProperties"] = values
        return json_schema


def _model_schema(model: type[BaseModel], mode: str, schemas: dict) -> dict:
    """A reference to the model's schema, adding it and the models it uses to ``schemas``."""
    generated = model.model_json_schema(ref_template=REF + "{model}", schema_generator=ApiJsonSchema, mode=mode)
    for name, schema in {**generated.pop("$defs", {}), model.__name__: generated}.items():
        if schemas.setdefault(name, schema) != schema:
            raise ValueError(f"two calculator models are both called {name}")
    return {"$ref": REF + model.__name__}


def _calculators(slugs: list[str], schemas: dict) -> dict:
    """The paths of every served game's calculators; their schemas go into ``schemas``."""
    paths = {}
    for slug in slugs:
        for name, calculator in calculators_for(slug).items():
            request = _model_schema(calculator.request, "validation", schemas)
            result = _model_schema(calculator.result, "serialization", schemas)
            paths[f"/api/v1/games/{slug}/{name}"] = {"post": {
                "summary": calculator.summary, "operationId": f"{slug}-{name}".replace("-", "_"),
                "requestBody": {"required": True, "content": {"application/json": {"schema": request}}},
                "responses": {
                    "200": {"description": "OK", "content": {"application/json": {"schema": result}}},
                    "400": _error("Bad input; the error names the field"), "413": _error("Body over 1 MiB"),
                },
            }}
    return paths


def openapi_document(base: str, slugs: list[str]) -> dict:
    """The document for the games being served (game parameters are enums of their slugs)."""
    paths = {
        "/api/v1/games": {"get": {"summary": "All games", "operationId": "games", "parameters": [LANG], "responses": {"200": _ok("Games"), "400": _error("Bad parameter")}}},
        "/api/v1/games/{slug}": {"get": {
            "summary": "One game with its FAQ questions", "operationId": "game", "parameters": [SLUG, LANG],
            "responses": {"200": _ok("Game"), "400": _error("Bad parameter"), "404": _error("Unknown game")},
        }},
        "/api/v1/games/{slug}/faq/{faq_id}": {"get": {
            "summary": "One FAQ answer with its citation and engine verification", "operationId": "faq",
            "parameters": [SLUG, {"name": "faq_id", "in": "path", "required": True, "schema": {"type": "string"}}, LANG],
            "responses": {"200": _ok("Faq"), "400": _error("Bad parameter"), "404": _error("Unknown game or entry")},
        }},
        "/api/v1/games/{slug}/sections/{section_id}": {"get": {
            "summary": "One rules section with its version", "operationId": "section",
            "parameters": [SLUG, {"name": "section_id", "in": "path", "required": True, "schema": {"type": "string"}}, LANG],
            "responses": {"200": _ok("Section"), "400": _error("Bad parameter"), "404": _error("Unknown game or entry")},
        }},
        "/api/v1/search": {"get": {
            "summary": "Search the rules questions", "operationId": "search",
            "parameters": [
                {"name": "q", "in": "query", "required": True, "schema": TEXT}, LANG,
                {"name": "game", "in": "query", "required": False, "schema": {"type": "string", "enum": slugs}},
                {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10}},
            ],
            "responses": {"200": _ok("SearchResult"), "400": _error("Bad parameter")},
        }},
        "/api/v1/corrections": {"post": {
            "summary": "Report a mistake", "operationId": "submit_correction",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CorrectionRequest"}}}},
            "responses": {
                "201": _ok("CorrectionCreated", "Stored"), "400": _error("Bad input"), "404": _error("Unknown game or entry"),
                "413": _error("Text or body too large"), "429": _error("Too many submissions"),
                "503": _error("The corrections database cannot be used now; ask again after Retry-After seconds"),
            },
        }},
        "/api/v1/changes": {"post": {
            "summary": "An editor's change of a FAQ entry or rule section, through the engine gate",
            "operationId": "submit_change", "security": [{"editorToken": []}],
            "requestBody": {"required": True, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ChangeRequest"}}}},
            "responses": {
                "200": _ok("ChangeAccepted", "Dry run: the change would be accepted"),
                "201": _ok("ChangeAccepted", "Written and published"),
                "400": _error("Bad input"), "401": _error("No valid editor token"),
                "404": _error("Unknown game or entry"), "409": _error("The entry changed since base_version"),
                "413": _error("Text or body too large"),
                "422": _ok("ChangeRefused", "Refused: the problems say why (check, claim, mistake, validation)"),
            },
        }},
        "/api/v1/corrections/{token}": {"get": {
            "summary": "Status of a report (no personal data)", "operationId": "correction_status",
            "parameters": [{"name": "token", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {
                "200": _ok("CorrectionStatus"), "404": _error("Unknown token"),
                "503": _error("The corrections database cannot be used now; ask again after Retry-After seconds"),
            },
        }},
    }
    schemas = {**SCHEMAS, "CorrectionRequest": {
        **SCHEMAS["CorrectionRequest"],
        "properties": {**SCHEMAS["CorrectionRequest"]["properties"], "game": {"type": "string", "enum": slugs}},
    }}
    paths.update(_calculators(slugs, schemas))
    return {
        "openapi": "3.1.0",
        "info": {"title": "Rules Reference API", "version": "1.0.0", "description": "Rules questions for board games in de/en/it, with citations and engine verification."},
        "servers": [{"url": base}],
        "paths": paths,
        "components": {"securitySchemes": {"editorToken": {
            "type": "http", "scheme": "bearer", "description": "An editor's API token: flask --app app editors token NAME",
        }}, "schemas": schemas},
    }
