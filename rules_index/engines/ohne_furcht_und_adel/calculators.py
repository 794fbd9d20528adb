"""Rule calculators of Ohne Furcht und Adel: the final score pad (Regelheft S. 2 · Spielende & Sieger)."""
from __future__ import annotations

from typing import Any

from ..base import InputError, require_int, require_list, require_mapping, require_text
from .cards import Color
from .scoring import score

COLOURS = tuple(c.value for c in Color)


def final_score(payload: Any) -> dict:
    """``{"first_complete": name|null, "players": [{"name", "districts": [{"color", "cost"}]}]}``."""
    body = require_mapping(payload, "body")
    players = require_list(body.get("players"), "players", min_items=1, max_items=7)
    entries, names = [], []
    for i, raw in enumerate(players):
        player = require_mapping(raw, f"players[{i}]")
        name = require_text(player.get("name"), f"players[{i}].name", 40)
        if name in names:
            raise InputError(f"players[{i}].name", f"'{name}' appears twice")
        names.append(name)
        districts = require_list(player.get("districts", []), f"players[{i}].districts", max_items=30)
        city = []
        for j, raw_district in enumerate(districts):
            where = f"players[{i}].districts[{j}]"
            district = require_mapping(raw_district, where)
            color = district.get("color")
            if color not in COLOURS:
                raise InputError(f"{where}.color", f"must be one of {', '.join(COLOURS)}")
            city.append((color, require_int(district.get("cost"), f"{where}.cost", 1, 6)))
        entries.append((name, city))
    first = body.get("first_complete")
    if first is not None:
        if first not in names:
            raise InputError("first_complete", "must be the name of one of the players, or null")
        if len(dict(entries)[first]) < 8:
            raise InputError("first_complete", f"'{first}' has fewer than 8 districts")
    result = score(entries, first_complete=first)
    return {
        "players": [{"name": name, **result["scores"][name]} for name in result["ranking"]],
        "winner": result["winner"],
        "winners": result["winners"],
        "tie_break_used": result["tie_break_used"],
    }


CALCULATORS = {"score": final_score}
