"""Rule calculators of Kardinal & König: the monastery scoring of one land (Regelheft S. 5–6)."""
from __future__ import annotations

from typing import Any

from ..base import InputError, require_int, require_mapping
from .scoring import monastery_points


def monastery_score(payload: Any) -> dict:
    """``{"monasteries": {"<player>": <count>}}`` for one land -> ``{"points": {"<player>": <points>}}``."""
    body = require_mapping(payload, "body")
    counts = require_mapping(body.get("monasteries"), "monasteries")
    if not 1 <= len(counts) <= 5:
        raise InputError("monasteries", "needs 1 to 5 players")
    checked = {}
    for name, count in counts.items():
        if not str(name).strip() or len(str(name)) > 40:
            raise InputError("monasteries", "player names must be 1 to 40 characters")
        checked[str(name)] = require_int(count, f"monasteries.{name}", 0, 20)
    return {"points": monastery_points(checked)}


CALCULATORS = {"monastery-score": monastery_score}
