"""What people send, checked once: pydantic annotations that clean and check a field and state the
same check in the JSON Schema.

The request models of readers' reports (``reports.CorrectionRequest``) and editors' changes
(``change_requests.ChangeRequest``) are built from them; the API validates its bodies with those
models, the report form its fields with the same types (``web.forms``), and the OpenAPI document
is generated from them. ``field_error`` turns a model's refusal into the API's ``field: message``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, GetJsonSchemaHandler, ValidationError
from pydantic_core import PydanticCustomError, core_schema

from rules_index import characters as chars
from rules_index.engines.calculator_models import input_error

from .field_error import FieldError

# A control character other than tab and line breaks, as a regex class the JSON Schema states too.
REFUSED = f"[{chars.regex_class(chars.CONTROLS)}]"
# Blanks around a text: stripped (readers' texts) before the field's other checks.
ENDS = chars.characters(chars.LINE_BREAKS, chars.SPACES)


class RequestModel(BaseModel):
    """Base of the request models: unknown keys are ignored, as the API always did."""

    model_config = ConfigDict(extra="ignore", frozen=True)


def left_out(**details: Any) -> Any:
    """The default of a key that may be left out but is never null (the document states no default)."""
    return Field(default=None, **details)


def plain(value: str, strip: bool) -> str:
    """``characters.plain_text`` as a pydantic check: line breaks made LF, invisible characters
    removed, blanks around the text stripped if ``strip``; a control character or a lone surrogate
    is refused (error types ``control_character`` with ``char``, ``string_unicode``)."""
    try:
        text = chars.plain_text(value)
    except chars.RefusedText as exc:
        if exc.char is None:
            raise PydanticCustomError("string_unicode", "is not valid Unicode text") from None
        raise PydanticCustomError(
            "control_character", "may not hold the control character {char}", {"char": chars.describe(exc.char)},
        ) from None
    return text.strip(ENDS) if strip else text


@dataclass(frozen=True)
class Plain:
    """A text made plain (``plain``) before the field's other checks, which therefore judge the
    text as it is stored (its length, a pattern). The document states the refusal as
    ``not``/``pattern``."""

    strip: bool = True

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_before_validator_function(self.clean, handler(source))

    def __get_pydantic_json_schema__(self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler) -> dict:
        json_schema = handler(schema)
        json_schema["not"] = {"pattern": REFUSED}
        return json_schema

    def clean(self, value: Any) -> Any:
        return plain(value, self.strip) if isinstance(value, str) else value  # not a text: str refuses it


@dataclass(frozen=True)
class Matches:
    """A text in which ``pattern`` is found (searched, as JSON Schema's ``pattern`` is), else the
    error ``kind`` saying ``message``. The document states the same ``pattern``."""

    pattern: str
    kind: str
    message: str

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler) -> dict:
        json_schema = handler(schema)
        json_schema["pattern"] = self.pattern
        return json_schema

    def check(self, value: str) -> str:
        if re.search(self.pattern, value) is None:
            raise PydanticCustomError(self.kind, self.message)
        return value


def located(error_type: str, field: str, message: str, **details: Any) -> PydanticCustomError:
    """An error of a whole model that concerns one field (``field``, dotted): named so in the API's
    message (pydantic locates a model's own errors at the model)."""
    return PydanticCustomError(error_type, message, {"field": field, **details})


def field_error(exc: ValidationError, error: type[FieldError]) -> FieldError:
    """The first problem of a request as ``error``: its field and what is wrong; 413 for a text
    over its length, else 400."""
    first = exc.errors(include_url=False, include_input=False)[0]
    found = input_error(exc)
    field = first.get("ctx", {}).get("field", found.field) if not first["loc"] else found.field
    return error(field, found.message, 413 if first["type"] == "string_too_long" else 400)
