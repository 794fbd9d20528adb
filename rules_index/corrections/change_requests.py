"""An editor's change as the API receives it: checked by its request model (``ChangeRequest``),
then against the content, before it reaches the gate.

``{"game", "kind": "faq"|"section", "id", "text": {lang: {"question"?, "answer"?} | {"body"}},
"base_version", "dry_run"?}``; languages left out stay as they are.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from rules_index.content import LANGS, Library

from .field_error import FieldError
from .sent import Plain, RequestModel, field_error, left_out, located

MAX_TEXT = 20000
FIELDS = {"faq": ("question", "answer"), "section": ("body",)}
_ALL_FIELDS = tuple(name for names in FIELDS.values() for name in names)


class RequestError(FieldError):
    """A request that cannot be a change: the field, what is wrong, and the HTTP status."""


# An entry's text in one language, made plain as readers' texts and the editors' forms are.
EntryText = Annotated[str, Field(max_length=MAX_TEXT), Plain(strip=False)]


class LangText(RequestModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"minProperties": 1})

    question: EntryText = left_out()
    answer: EntryText = left_out()
    body: EntryText = left_out()

    @model_validator(mode="before")
    @classmethod
    def _known_fields(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for name in data:
                if name not in _ALL_FIELDS:
                    raise PydanticCustomError("unknown_field", "unknown field '{name}'; use {fields}",
                                              {"name": str(name)[:40], "fields": ", ".join(_ALL_FIELDS)})
            if not data:
                raise PydanticCustomError("no_field", "must be an object with {fields} or {last}",
                                          {"fields": ", ".join(_ALL_FIELDS[:-1]), "last": _ALL_FIELDS[-1]})
        return data

    def given(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in _ALL_FIELDS if getattr(self, name) is not None}


class ChangeText(RequestModel):
    """New text per language; languages left out stay as they are. FAQ entries: question and/or
    answer; sections: body."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"minProperties": 1})

    de: LangText = left_out()
    en: LangText = left_out()
    it: LangText = left_out()

    @model_validator(mode="before")
    @classmethod
    def _known_languages(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for lang in data:
                if lang not in LANGS:
                    raise PydanticCustomError("unknown_language", "unknown language '{lang}', use {langs}",
                                              {"lang": str(lang)[:10], "langs": ", ".join(LANGS)})
            if not data:
                raise PydanticCustomError("no_language", "give the new text of at least one language, e.g. {example}",
                                          {"example": '{"de": {"answer": "..."}}'})
        return data

    def given(self) -> dict[str, LangText]:
        return {lang: getattr(self, lang) for lang in LANGS if getattr(self, lang) is not None}


class ChangeRequest(RequestModel):
    game: Annotated[str, Field(min_length=1)]
    kind: Literal[tuple(FIELDS)]
    id: Annotated[str, Field(min_length=1)]
    text: ChangeText
    # Required: a change made without knowing what it replaces would undo another editor's change
    # unseen.
    base_version: Annotated[str, Field(min_length=1, description=(
        "The entry's version when it was read (GET .../faq/{id} returns it); 409 if it changed since."))]
    dry_run: bool = Field(default=False, strict=True,
                          description="Only check the change: 200 if it would be accepted, nothing is written.")

    @model_validator(mode="after")
    def _fields_of_the_kind(self) -> ChangeRequest:
        for lang, texts in self.text.given().items():
            for name in texts.given():
                if name not in FIELDS[self.kind]:
                    raise located("field_for_kind", f"text.{lang}", "unknown field '{name}' for a {kind}; use {fields}",
                                  name=name, kind=self.kind, fields=", ".join(FIELDS[self.kind]))
        return self


@dataclass(frozen=True)
class Change:
    game: str
    kind: str
    target: str
    updates: dict  # {lang: {field: text}}, the form apply_change takes
    base_version: str
    dry_run: bool


def parse_change(library: Library, data: dict) -> Change:
    """A change request checked by its model (``ChangeRequest``), then against the content (the
    game and the entry exist); raises RequestError naming the field."""
    try:
        request = ChangeRequest.model_validate(data)
    except ValidationError as exc:
        raise field_error(exc, RequestError) from None
    game = library.game(request.game)
    if game is None:
        raise RequestError("game", f"no game '{request.game[:80]}'", 404)
    found = game.faq_entry(request.id) if request.kind == "faq" else game.section(request.id)
    if found is None:
        what = "FAQ entry" if request.kind == "faq" else "rule section"
        raise RequestError("id", f"game '{request.game}' has no {what} '{request.id[:120]}'", 404)
    updates = {lang: texts.given() for lang, texts in request.text.given().items()}
    return Change(request.game, request.kind, request.id, updates, request.base_version, request.dry_run)
