"""Calculator requests and answers as pydantic models: one definition for validation and the API schema.

Each game's ``calculators.py`` declares a request and a result model per calculator and registers
a ``Calculator``. Calling it validates a JSON-like payload against the request model; a problem
becomes an ``InputError`` that names the field (``players[0].districts[2].cost``) and says what is
wrong in words. The API's OpenAPI document is generated from the same models.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, Callable

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, GetJsonSchemaHandler, ValidationError, WrapValidator
from pydantic_core import PydanticCustomError, core_schema

from rules_index import characters as chars

from .base import InputError


class CalculatorModel(BaseModel):
    """Base of calculator models: unknown keys are ignored, as the API always did."""

    model_config = ConfigDict(extra="ignore", frozen=True)


def _whole_number_validator(low: int, high: int):
    def validate(value: Any, handler: Callable[[Any], int]) -> int:
        # JSON has one number type: 2.0 is the whole number 2 (as JSON Schema says), 2.5 is not.
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        try:
            return handler(value)
        except ValidationError:
            raise PydanticCustomError(
                "whole_number", "must be a whole number from {low} to {high}", {"low": low, "high": high},
            ) from None

    return validate


def whole_number(low: int, high: int) -> Any:
    """The type of an integer from ``low`` to ``high``: no strings, no booleans, floats only when whole."""
    return Annotated[int, Field(strict=True, ge=low, le=high), WrapValidator(_whole_number_validator(low, high))]


@dataclass(frozen=True)
class Characters:
    """A text holding at least one character of the class ``needed`` and none of ``refused``.

    Both are regex character classes (``[...]``) that are only ever searched for, never anchored,
    so Python, the validators and ECMA-262 read them alike; the same strings are checked here and
    stated in the JSON Schema (``pattern`` and ``not``/``pattern``).
    """

    needed: str
    refused: str
    needed_message: str
    refused_message: str  # may name the offending character as {char}

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler) -> dict:
        json_schema = handler(schema)
        json_schema["pattern"] = self.needed
        json_schema["not"] = {"pattern": self.refused}
        return json_schema

    def check(self, value: str) -> str:
        bad = re.search(self.refused, value)
        if bad is not None:
            raise PydanticCustomError("refused_character", self.refused_message, {"char": chars.describe(bad.group())})
        if re.search(self.needed, value) is None:
            raise PydanticCustomError("needed_character", self.needed_message)
        return value


MAX_NAME = 40
_NOT_IN_NAMES = chars.regex_class(chars.CONTROLS, chars.LINE_BREAKS, chars.SEPARATORS, chars.BIDI_CONTROLS)
PlayerName = Annotated[
    str,
    Field(min_length=1, max_length=MAX_NAME),
    Characters(
        needed=f"[^{_NOT_IN_NAMES}{chars.regex_class(chars.SPACES)}]",
        refused=f"[{_NOT_IN_NAMES}]",
        needed_message="must hold a visible character, not only spaces",
        refused_message="may not hold the character {char}",
    ),
]
"""A player's name: 1 to 40 characters on one line, something visible, no control characters."""


@dataclass(frozen=True)
class Calculator:
    """A rule calculator: its request and result models and the computation between them.

    ``compute`` may raise InputError for rules a schema cannot say (two players of one name).
    """

    summary: str
    request: type[CalculatorModel]
    result: type[CalculatorModel]
    compute: Callable[[Any], CalculatorModel]

    def __call__(self, payload: Any) -> dict:
        try:
            request = self.request.model_validate(payload)
        except ValidationError as exc:
            raise input_error(exc) from None
        return self.compute(request).model_dump(mode="json")


def field_path(loc: tuple) -> str:
    """``("players", 0, "districts", 2, "cost")`` -> ``players[0].districts[2].cost``."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path or "body"


_MESSAGES = {
    "missing": "is required",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "dict_type": "must be an object",
    "list_type": "must be a list",
    "string_type": "must be a text",
    "bool_type": "must be true or false",
    "string_unicode": "is not valid Unicode text",
    "literal_error": "must be one of {expected}",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "greater_than_equal": "must be at least {ge}",
    "less_than_equal": "must be at most {le}",
}


def _message(error: dict) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind in ("too_short", "string_too_short"):
        return f"needs at least {ctx['min_length']} {'character' if kind.startswith('string') else 'item'}(s)"
    if kind in ("too_long", "string_too_long"):
        return f"may hold at most {ctx['max_length']} {'characters' if kind.startswith('string') else 'items'}"
    if kind in _MESSAGES:
        return _MESSAGES[kind].format(**{k: str(v).replace("'", "") for k, v in ctx.items()})
    return error["msg"]  # our own PydanticCustomError messages are already worded for readers


def input_error(exc: ValidationError) -> InputError:
    """The first problem of a validation as an InputError naming the field."""
    error = exc.errors(include_url=False, include_input=False)[0]
    loc = tuple(error["loc"])
    if loc and loc[-1] == "[key]":  # a dict key (a player's name in a mapping) failed
        return InputError(field_path(loc[:-2]), f"a name {_message(error)}")
    return InputError(field_path(loc), _message(error))
