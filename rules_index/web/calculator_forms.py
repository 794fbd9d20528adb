"""Calculator pages: the reader's form fields turned into a calculator's payload.

Each form is a plain GET form (no script needed); problems are reported in the reader's
language next to the field.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from flask_babel import gettext as _
from flask_babel import lazy_gettext
from werkzeug.datastructures import MultiDict

OFUA_COLOURS = ("yellow", "blue", "green", "red", "purple")
MAX_ROWS = {"ohne-furcht-und-adel/score": 7, "kardinal-und-koenig/monastery-score": 5}


@dataclass
class FormResult:
    payload: Any = None
    errors: dict[str, str] = field(default_factory=dict)
    submitted: bool = False


def _numbers(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,;]+", text.strip()) if t]


def _whole(token: str) -> int | None:
    """A whole number in ASCII digits, else None (str.isdigit also accepts '³' and '٣')."""
    return int(token) if re.fullmatch(r"[0-9]{1,4}", token) else None


def citadels_score(args: MultiDict) -> FormResult:
    result = FormResult(submitted="submit" in args)
    players = []
    first_row = args.get("first")
    first_name = None
    for row in range(MAX_ROWS["ohne-furcht-und-adel/score"]):
        name = args.get(f"name{row}", "").strip()
        costs = {c: args.get(f"{c}{row}", "") for c in OFUA_COLOURS}
        if not name and not any(v.strip() for v in costs.values()):
            continue
        if not name:
            result.errors[f"name{row}"] = _("Please enter a name.")
            continue
        districts = []
        for colour, text in costs.items():
            for token in _numbers(text):
                value = _whole(token)
                if value is None or not 1 <= value <= 6:
                    result.errors[f"{colour}{row}"] = _("Costs are whole numbers from 1 to 6, separated by spaces.")
                    break
                districts.append({"color": colour, "cost": value})
        players.append({"name": name, "districts": districts})
        if first_row == str(row):
            first_name = name
    if result.submitted and not players:
        result.errors["name0"] = _("Enter at least one player.")
    result.payload = {"players": players, "first_complete": first_name}
    return result


def monastery_score(args: MultiDict) -> FormResult:
    result = FormResult(submitted="submit" in args)
    counts: dict[str, int] = {}
    for row in range(MAX_ROWS["kardinal-und-koenig/monastery-score"]):
        name = args.get(f"name{row}", "").strip()
        count = args.get(f"count{row}", "").strip()
        if not name and not count:
            continue
        if not name:
            result.errors[f"name{row}"] = _("Please enter a name.")
        elif name in counts:
            result.errors[f"name{row}"] = _("Each name only once, please.")
        elif _whole(count) is None or _whole(count) > 20:
            result.errors[f"count{row}"] = _("Enter a number of monasteries from 0 to 20.")
        else:
            counts[name] = _whole(count)
    if result.submitted and not counts and not result.errors:
        result.errors["name0"] = _("Enter at least one player.")
    result.payload = {"monasteries": counts}
    return result


def exhibition(args: MultiDict) -> FormResult:
    result = FormResult(submitted="cards" in args)
    cards = args.get("cards", "").replace(" ", "")
    if result.submitted:
        if not cards:
            result.errors["cards"] = _("Enter the letters of your cards, e.g. AABBC.")
        elif len(cards) > 60 or any(c.upper() not in "ABCDEF" for c in cards):
            result.errors["cards"] = _("Only the letters A to F are collection cards.")
    result.payload = {"cards": cards}
    return result


FORMS: dict[str, Callable[[MultiDict], FormResult]] = {
    "ohne-furcht-und-adel/score": citadels_score,
    "kardinal-und-koenig/monastery-score": monastery_score,
    "adel-verpflichtet/exhibition": exhibition,
}


TITLES = {
    "ohne-furcht-und-adel/score": lazy_gettext("Final score pad"),
    "kardinal-und-koenig/monastery-score": lazy_gettext("Monastery scoring of one land"),
    "adel-verpflichtet/exhibition": lazy_gettext("Is this a valid exhibition?"),
}
