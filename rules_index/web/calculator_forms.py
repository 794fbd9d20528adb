"""Calculator pages: the reader's form fields turned into a calculator's payload.

Each form is a plain GET form (no script needed); problems are reported in the reader's
language next to the field. Limits come from the calculators' request models, so a form never
accepts what the calculator refuses.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from flask_babel import gettext as _
from flask_babel import lazy_gettext
from pydantic import TypeAdapter, ValidationError
from werkzeug.datastructures import MultiDict

from rules_index.engines.adel_verpflichtet import calculators as exhibitions
from rules_index.engines.calculator_models import MAX_NAME, PlayerName
from rules_index.engines.kardinal_und_koenig import calculators as monasteries
from rules_index.engines.ohne_furcht_und_adel import calculators as citadels

OFUA_COLOURS = ("yellow", "blue", "green", "red", "purple")  # the order of the form's columns
MAX_ROWS = {"ohne-furcht-und-adel/score": citadels.MAX_PLAYERS, "kardinal-und-koenig/monastery-score": monasteries.MAX_PLAYERS}
PLAYER_NAME = TypeAdapter(PlayerName)


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


def _name_error(name: str) -> str | None:
    """The reader's message if the calculators would refuse this player name, else None."""
    if not name:
        return _("Please enter a name.")
    try:
        PLAYER_NAME.validate_python(name)
    except ValidationError:
        return _("A name has at most %(max)d characters and no control characters.", max=MAX_NAME)
    return None


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
        name_error = _name_error(name)
        if name_error:
            result.errors[f"name{row}"] = name_error
            continue
        districts = []
        for colour, text in costs.items():
            for token in _numbers(text):
                value = _whole(token)
                if value is None or not citadels.MIN_COST <= value <= citadels.MAX_COST:
                    result.errors[f"{colour}{row}"] = _(
                        "Costs are whole numbers from %(low)d to %(high)d, separated by spaces.",
                        low=citadels.MIN_COST, high=citadels.MAX_COST,
                    )
                    break
                districts.append({"color": colour, "cost": value})
        players.append({"name": name, "districts": districts})
        if first_row == str(row):
            first_name = name
    if result.submitted and not players and not result.errors:
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
        number, name_error = _whole(count), _name_error(name)
        if name_error:
            result.errors[f"name{row}"] = name_error
        elif name in counts:
            result.errors[f"name{row}"] = _("Each name only once, please.")
        elif number is None or not monasteries.MIN_MONASTERIES <= number <= monasteries.MAX_MONASTERIES:
            result.errors[f"count{row}"] = _(
                "Enter a number of monasteries from %(low)d to %(high)d.",
                low=monasteries.MIN_MONASTERIES, high=monasteries.MAX_MONASTERIES,
            )
        else:
            counts[name] = number
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
        elif len(cards) > exhibitions.MAX_CARDS or re.search(exhibitions.NOT_A_CARD, cards):
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
