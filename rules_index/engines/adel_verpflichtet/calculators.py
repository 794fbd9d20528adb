"""Rule calculators of Adel Verpflichtet: is a set of collection cards a valid exhibition?"""
from __future__ import annotations

from typing import Any

from ..base import InputError, require_mapping
from .exhibitions import exhibition_validity

MAX_CARDS = 60


def exhibition(payload: Any) -> dict:
    """``{"cards": "AABBC"}`` -> ``{"valid", "reason"}`` (reason codes: too-few-cards, gap)."""
    body = require_mapping(payload, "body")
    cards = body.get("cards")
    if not isinstance(cards, str):
        raise InputError("cards", "must be a text of letters A to F, like AABBC")
    letters = cards.replace(" ", "")
    if not letters:
        raise InputError("cards", "is empty: give at least one letter A to F")
    if len(letters) > MAX_CARDS:
        raise InputError("cards", f"may hold at most {MAX_CARDS} letters")
    if any(c.upper() not in "ABCDEF" for c in letters):
        raise InputError("cards", "may only hold the letters A to F")
    valid, reason = exhibition_validity(letters)
    return {"cards": letters.upper(), "valid": valid, "reason": reason}


CALCULATORS = {"exhibition": exhibition}
