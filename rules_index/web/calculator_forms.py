"""Calculator pages: the reader's form fields turned into a calculator's payload.

Each form is a plain GET form (no script needed), so a result's address holds the whole input
and can be shared as a link; problems are reported in the reader's language next to the field.
Limits (ranges, lengths, choices, how many players) are read from the calculators' request
models through the schemas the API's OpenAPI document states (``openapi.schema_at``), so a form
never accepts what the calculator refuses. Each form also says how many player cards the page
shows (``rows``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from flask_babel import get_translations, lazy_gettext
from flask_babel import gettext as _
from pydantic import TypeAdapter, ValidationError
from werkzeug.datastructures import MultiDict

from rules_index.content import LANGS
from rules_index.engines import calculators_for, rule_table_for
from rules_index.engines.adel_verpflichtet.calculators import ExhibitionRequest, RankingRequest
from rules_index.engines.calculator_models import PlayerName
from rules_index.engines.kardinal_und_koenig.calculators import LandsRequest, MonasteryRequest
from rules_index.engines.keine_ehre_unter_dieben.calculators import CARDS_AFTER, ShareRequest
from rules_index.engines.ohne_furcht_und_adel.calculators import ScoreRequest

from .openapi import schema_at


def _bounds(model, path: str) -> tuple[int, int]:
    field_schema = schema_at(model, path)
    return field_schema["minimum"], field_schema["maximum"]


def _in_order(order: tuple[str, ...], model, path: str) -> tuple[str, ...]:
    """The field's choices in the order the form shows them; a choice the form has no place for
    stops the import rather than going missing from the page."""
    return tuple(sorted(schema_at(model, path)["enum"], key=order.index))


# The order of the score pad's colour fields.
OFUA_COLOURS = _in_order(("yellow", "blue", "green", "red", "purple"), ScoreRequest, "players[].districts[].color")
MIN_COST, MAX_COST = _bounds(ScoreRequest, "players[].districts[].cost")
MAX_DISTRICTS = schema_at(ScoreRequest, "players[].districts")["maxItems"]
MAX_NAME = schema_at(ScoreRequest, "players[].name")["maxLength"]
MIN_MONASTERIES, MAX_MONASTERIES = _bounds(MonasteryRequest, "monasteries{}")
MIN_LAND_MONASTERIES, MAX_LAND_MONASTERIES = _bounds(LandsRequest, "lands{}{}")
MAX_CARDS = schema_at(ExhibitionRequest, "cards")["maxLength"]
NOT_A_CARD = schema_at(ExhibitionRequest, "cards")["not"]["pattern"]
MAX_SHOWN_CARDS = schema_at(RankingRequest, "players{}.cards")["maxLength"]
NOT_A_SHOWN_CARD = schema_at(RankingRequest, "players{}.cards")["not"]["pattern"]
MIN_AGE, MAX_AGE = _bounds(RankingRequest, "players{}.oldest_age")
ENDINGS = tuple(schema_at(ShareRequest, "ending")["enum"])
MIN_LOOT, MAX_LOOT = _bounds(ShareRequest, "cards")
MIN_THIEVES = schema_at(ShareRequest, "players")["minItems"]
MAX_ROWS = {
    "ohne-furcht-und-adel/score": schema_at(ScoreRequest, "players")["maxItems"],
    "kardinal-und-koenig/monastery-score": schema_at(MonasteryRequest, "monasteries")["maxProperties"],
    "kardinal-und-koenig/lands-score": schema_at(LandsRequest, "players")["maxItems"],
    "adel-verpflichtet/exhibitions-ranking": schema_at(RankingRequest, "players")["maxProperties"],
    "keine-ehre-unter-dieben/loot-sharing": schema_at(ShareRequest, "players")["maxItems"],
}
# Player cards shown on an empty form; one more empty card follows the last filled one.
MIN_ROWS = {"ohne-furcht-und-adel/score": 4, "adel-verpflichtet/exhibitions-ranking": 3,
            "keine-ehre-unter-dieben/loot-sharing": 4}
PLAYER_NAME = TypeAdapter(PlayerName)
NAME_SCHEMA = schema_at(ScoreRequest, "players[].name")


@dataclass
class FormResult:
    payload: Any = None
    errors: dict[str, str] = field(default_factory=dict)
    submitted: bool = False
    rows: int = 0  # player cards the page shows


def shown_rows(args: MultiDict, key: str, fields: tuple[str, ...]) -> int:
    """How many player cards to show: at least ``MIN_ROWS``, the last filled one and one empty card
    after it, or what the reader asked for with "Add a player" (``rows``), never more than allowed."""
    most = MAX_ROWS[key]
    filled = [row for row in range(most) if any(args.get(f"{f}{row}", "").strip() for f in fields)]
    wanted = MIN_ROWS.get(key, most)
    if filled:
        wanted = max(wanted, filled[-1] + 2)
    asked = args.get("rows", "")
    if re.fullmatch(r"[0-9]{1,2}", asked):
        wanted = max(wanted, int(asked))
    return min(wanted, most)


def _numbers(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,;]+", text.strip()) if t]


def _costs(text: str) -> list[str]:
    """The district costs typed in one field: separated (``3 5 1``) or, while every cost is a
    single digit, also one digit each (``351``, as a phone's number pad types them)."""
    tokens = []
    for token in _numbers(text):
        single_digits = MAX_COST < 10 and re.fullmatch(r"[0-9]{2,}", token)
        tokens.extend(token if single_digits else [token])
    return tokens


def _whole(token: str) -> int | None:
    """A whole number in ASCII digits, else None (str.isdigit also accepts '³' and '٣')."""
    return int(token) if re.fullmatch(r"[0-9]{1,9}", token) else None


def _name_error(name: str, taken) -> str | None:
    """The reader's message if the calculators would refuse this player name or it is one of
    ``taken`` (the names of the rows above), else None."""
    if not name:
        return _("Please enter a name.")
    try:
        PLAYER_NAME.validate_python(name)
    except ValidationError:
        return _("A name has at most %(max)d characters and no control characters.", max=MAX_NAME)
    if name in taken:
        return _("Each name only once, please.")
    return None


def citadels_score(args: MultiDict) -> FormResult:
    result = FormResult(submitted="submit" in args,
                        rows=shown_rows(args, "ohne-furcht-und-adel/score", ("name", *OFUA_COLOURS)))
    players = []
    first_row = args.get("first")
    first_name = None
    for row in range(MAX_ROWS["ohne-furcht-und-adel/score"]):
        name = args.get(f"name{row}", "").strip()
        costs = {c: args.get(f"{c}{row}", "") for c in OFUA_COLOURS}
        if not name and not any(v.strip() for v in costs.values()):
            continue
        name_error = _name_error(name, [p["name"] for p in players])
        if name_error:
            result.errors[f"name{row}"] = name_error
            continue
        districts = []
        for colour, text in costs.items():
            for token in _costs(text):
                value = _whole(token)
                if value is None or not MIN_COST <= value <= MAX_COST:
                    result.errors[f"{colour}{row}"] = _(
                        "Costs are whole numbers from %(low)d to %(high)d, separated by spaces (a limit of this "
                        "calculator, not a rule).", low=MIN_COST, high=MAX_COST,
                    )
                    break
                districts.append({"color": colour, "cost": value})
        if len(districts) > MAX_DISTRICTS:
            result.errors[f"name{row}"] = _("A city has at most %(max)d districts.", max=MAX_DISTRICTS)
            continue
        players.append({"name": name, "districts": districts})
        if first_row == str(row):
            first_name = name
            complete = rule_table_for("ohne-furcht-und-adel")["complete_city"]
            if len(districts) < complete:
                result.errors["first"] = _("%(name)s has fewer than %(num)d districts: only a complete city can be the first.",
                                           name=name, num=complete)
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
        number, name_error = _whole(count), _name_error(name, counts)
        if name_error:
            result.errors[f"name{row}"] = name_error
        elif number is None or not MIN_MONASTERIES <= number <= MAX_MONASTERIES:
            result.errors[f"count{row}"] = _(
                "Enter a number of monasteries from %(low)d to %(high)d.", low=MIN_MONASTERIES, high=MAX_MONASTERIES,
            )
        else:
            counts[name] = number
    if result.submitted and not counts and not result.errors:
        result.errors["name0"] = _("Enter at least one player.")
    result.payload = {"monasteries": counts}
    return result


# The lands in the rulebook's handy order for a scoring: the edge clockwise, then the middle.
LANDS = _in_order(
    ("England", "Franken", "Bayern", "Italien", "Aragon", "Frankreich", "Lothringen", "Schwaben", "Burgund"), LandsRequest, "lands{key}",
)
LAND_NAMES = {  # the lands as the rules summaries name them (the engine's names are the German ones)
    "Franken": lazy_gettext("Franconia"), "Aragon": lazy_gettext("Aragon"), "Bayern": lazy_gettext("Bavaria"),
    "Burgund": lazy_gettext("Burgundy"), "Lothringen": lazy_gettext("Lorraine"), "Italien": lazy_gettext("Italy"),
    "England": lazy_gettext("England"), "Schwaben": lazy_gettext("Swabia"), "Frankreich": lazy_gettext("France"),
}


def lands_score(args: MultiDict) -> FormResult:
    """Fields ``name0``..``name4`` and per land one count per player, ``Franken0``..``Franken4``."""
    key = "kardinal-und-koenig/lands-score"
    result = FormResult(submitted="submit" in args, rows=MAX_ROWS[key])
    names: dict[int, str] = {}
    for row in range(MAX_ROWS[key]):
        name = args.get(f"name{row}", "").strip()
        counted = any(args.get(f"{land}{row}", "").strip() for land in LANDS)
        if not name and not counted:
            continue
        name_error = _name_error(name, names.values())
        if name_error:
            result.errors[f"name{row}"] = name_error
        else:
            names[row] = name
    lands: dict[str, dict[str, int]] = {}
    for land in LANDS:
        counts: dict[str, int] = {}
        for row, name in names.items():
            text = args.get(f"{land}{row}", "").strip()
            if not text:
                continue
            number = _whole(text)
            if number is None or not MIN_LAND_MONASTERIES <= number <= MAX_LAND_MONASTERIES:
                result.errors[f"{land}{row}"] = _(
                    "Enter a number of monasteries from %(low)d to %(high)d.", low=MIN_LAND_MONASTERIES, high=MAX_LAND_MONASTERIES,
                )
            elif number:
                counts[name] = number
        if counts:
            lands[land] = counts
    if result.submitted and not names and not result.errors:
        result.errors["name0"] = _("Enter at least one player.")
    result.payload = {"players": list(names.values()), "lands": lands}
    return result


# The oldest object as players read it off the cards: its age (greater = older) or the year it
# was made (smaller = older). A year is turned into an age counted back from YEAR_REFERENCE,
# which keeps the order and the differences; pages show the year again.
DATINGS = ("age", "year")
YEAR_REFERENCE = 3000


def dating(args: MultiDict) -> str:
    return args.get("dating") if args.get("dating") in DATINGS else "age"


def exhibitions_ranking(args: MultiDict) -> FormResult:
    """Fields per player: ``name0``, ``cards0`` (letters) and ``age0`` (oldest object, optional:
    an age, or a year when ``dating=year``)."""
    key = "adel-verpflichtet/exhibitions-ranking"
    result = FormResult(submitted="submit" in args, rows=shown_rows(args, key, ("name", "cards", "age")))
    players: dict[str, dict] = {}
    for row in range(MAX_ROWS[key]):
        name = args.get(f"name{row}", "").strip()
        cards = args.get(f"cards{row}", "").replace(" ", "")
        age_text = args.get(f"age{row}", "").strip()
        if not name and not cards and not age_text:
            continue
        name_error = _name_error(name, players)
        if name_error:
            result.errors[f"name{row}"] = name_error
        if not cards:
            result.errors[f"cards{row}"] = _("Enter the letters of your cards, e.g. AABBC.")
        elif len(cards) > MAX_SHOWN_CARDS or re.search(NOT_A_SHOWN_CARD, cards):
            result.errors[f"cards{row}"] = _("Only the letters A to F are collection cards.")
        age = _whole(age_text)
        if dating(args) == "year":
            if age_text and (age is None or age > YEAR_REFERENCE):
                result.errors[f"age{row}"] = _("The year is a whole number up to %(high)d.", high=YEAR_REFERENCE)
            elif age is not None:
                age = YEAR_REFERENCE - age
        elif age_text and (age is None or not MIN_AGE <= age <= MAX_AGE):
            # An age is never below 0, so the message (in every catalog) names only the top.
            result.errors[f"age{row}"] = _("The age is a whole number from 0 to %(high)d.", high=MAX_AGE)
        if not any(k in result.errors for k in (f"name{row}", f"cards{row}", f"age{row}")):
            players[name] = {"cards": cards, "oldest_age": age}
    if result.submitted and not players and not result.errors:
        result.errors["name0"] = _("Enter at least one player.")
    result.payload = {"players": players}
    return result


def exhibition(args: MultiDict) -> FormResult:
    result = FormResult(submitted="cards" in args)
    cards = args.get("cards", "").replace(" ", "")
    if result.submitted:
        if not cards:
            result.errors["cards"] = _("Enter the letters of your cards, e.g. AABBC.")
        elif len(cards) > MAX_CARDS or re.search(NOT_A_CARD, cards):
            result.errors["cards"] = _("Only the letters A to F are collection cards.")
    result.payload = {"cards": cards}
    return result


def _cards_error(ending: str | None) -> str:
    """The reader's message for loot cards the board cannot hold after ``ending``."""
    if ending not in CARDS_AFTER:
        return _("Enter a number of cards from %(low)d to %(high)d.", low=MIN_LOOT, high=MAX_LOOT)
    low, high = CARDS_AFTER[ending]
    return {
        "voluntary_stop": _("After a voluntary stop, enter %(low)d to %(high)d cards: the review names the numbers "
                            "printed under fields 1 to %(high)d only.", low=low, high=high),
        "master_stroke": _("After a master stroke, %(low)d to %(high)d cards lie on the board.", low=low, high=high),
        "caught": _("After the leader was caught, %(low)d to %(high)d cards lie left of the inspector.", low=low, high=high),
    }[ending]


def loot_sharing(args: MultiDict) -> FormResult:
    """Fields ``name0``.. (the thieves clockwise), ``leader`` (a row), ``ending``, ``cards`` and, read
    after a master stroke only, ``takes`` (the leader's choice; empty: not chosen yet)."""
    key = "keine-ehre-unter-dieben/loot-sharing"
    result = FormResult(submitted="submit" in args, rows=shown_rows(args, key, ("name",)))
    names: dict[int, str] = {}
    for row in range(MAX_ROWS[key]):
        name = args.get(f"name{row}", "").strip()
        if not name:
            continue
        name_error = _name_error(name, names.values())
        if name_error:
            result.errors[f"name{row}"] = name_error
        else:
            names[row] = name
    leader_row = args.get("leader", "")
    leader = names.get(int(leader_row)) if re.fullmatch(r"[0-9]{1,2}", leader_row) else None
    ending = args.get("ending") if args.get("ending") in ENDINGS else None
    cards = _whole(args.get("cards", "").strip())
    low, high = CARDS_AFTER.get(ending, (MIN_LOOT, MAX_LOOT))
    takes_text = args.get("takes", "").strip() if ending == "master_stroke" else ""
    takes = _whole(takes_text) if takes_text else None
    if result.submitted:
        if leader is None and not result.errors.get(f"name{leader_row}"):
            result.errors["leader"] = _("Choose the leader among the named players.")
        if ending is None:
            result.errors["ending"] = _("Choose how the heist ended.")
        if cards is None or not low <= cards <= high:
            result.errors["cards"] = _cards_error(ending)
        elif takes_text and (takes is None or takes > cards):
            result.errors["takes"] = _("Enter a number from 0 to %(high)d: the cards on the board.", high=cards)
        if len(names) < MIN_THIEVES and not any(k.startswith("name") for k in result.errors):
            row = 1 if args.get("name0", "").strip() else 0
            result.errors[f"name{row}"] = _("Enter at least %(num)d players (a limit of this calculator, not a rule).",
                                            num=MIN_THIEVES)
    result.payload = {"players": list(names.values()), "leader": leader, "ending": ending, "cards": cards,
                      "leader_takes": takes}
    return result


FORMS: dict[str, Callable[[MultiDict], FormResult]] = {
    "ohne-furcht-und-adel/score": citadels_score,
    "kardinal-und-koenig/monastery-score": monastery_score,
    "adel-verpflichtet/exhibition": exhibition,
    "kardinal-und-koenig/lands-score": lands_score,
    "adel-verpflichtet/exhibitions-ranking": exhibitions_ranking,
    "keine-ehre-unter-dieben/loot-sharing": loot_sharing,
}


def calculator_pages(library) -> list[tuple[str, str]]:
    """Every calculator page as (address with every player card, path): what the static export
    writes and the service worker keeps, since without a server "Add a player" cannot add one."""
    pages = []
    for game in library:
        for name in calculators_for(game.slug):
            key = f"{game.slug}/{name}"
            if key not in FORMS:
                continue
            query = f"?rows={MAX_ROWS[key]}" if key in MAX_ROWS else ""
            for lang in LANGS:
                path = f"/{lang}/{game.slug}/calculators/{name}"
                pages.append((path + query, path))
    return pages


def plural_message(singular: str, plural: str) -> tuple[str, str]:
    """A message with a plural form for the page's script (``make translations`` extracts it)."""
    return singular, plural


# What a page's script writes into its outputs (static/calculators/<game>.js), by name; the
# script gets each message translated, its placeholders kept (``messages``).
OUTPUT_MESSAGES: dict[str, dict[str, Any]] = {
    "ohne-furcht-und-adel/score": {"points": lazy_gettext("%(points)d points")},
    "kardinal-und-koenig/monastery-score": {"points": lazy_gettext("%(points)d points")},
    "kardinal-und-koenig/lands-score": {"points": lazy_gettext("%(points)d points")},
    "adel-verpflichtet/exhibition": {
        "valid": lazy_gettext("%(cards)s is a valid exhibition."),
        "too_few": lazy_gettext("%(cards)s is not valid: an exhibition needs at least 3 cards."),
        "gap": lazy_gettext("%(cards)s is not valid: the letters must follow each other without a gap."),
    },
    "adel-verpflichtet/exhibitions-ranking": {"place": lazy_gettext("Place %(place)d"), "not_valid": lazy_gettext("Not valid")},
    "keine-ehre-unter-dieben/loot-sharing": {
        "cards": plural_message("%(num)d card", "%(num)d cards"),
        "between": lazy_gettext("%(low)d to %(high)d cards"),
        "choose": lazy_gettext("After a master stroke, %(name)s takes any number of cards from 0 to %(high)d: "
                               "enter it to see what the others get."),
        "none_left": lazy_gettext("No card is left."),
        "left_extra": plural_message("%(num)d card is left: %(name)s may take it, otherwise it is discarded.",
                                     "%(num)d cards are left: %(name)s may take one more, the rest is discarded."),
        "left_discarded": plural_message("%(num)d card is left: it is discarded.",
                                         "%(num)d cards are left: they are discarded."),
    },
}


def messages(key: str) -> dict[str, Any]:
    """The page's output messages in the reader's language: a text, or [one, other] for a plural
    (de, en and it have these two forms)."""
    translations = get_translations()
    out: dict[str, Any] = {}
    for name, message in OUTPUT_MESSAGES.get(key, {}).items():
        if isinstance(message, tuple):
            out[name] = [translations.ungettext(*message, 1), translations.ungettext(*message, 2)]
        else:
            out[name] = str(message)  # a lazy text without values: its placeholders stay
    return out


def context(key: str, args: MultiDict) -> dict[str, Any]:
    """What a calculator's page needs besides the form and the answer: for its script, the rule
    table of the game's engine, how names are read, the output messages and the form's constants."""
    shared = {
        "script": {"rules": rule_table_for(key.split("/")[0]), "messages": messages(key),
                   "names": {"max": NAME_SCHEMA["maxLength"], "needed": NAME_SCHEMA["pattern"],
                             "refused": NAME_SCHEMA["not"]["pattern"]}},
    }
    if key == "kardinal-und-koenig/lands-score":
        # Once players are named, each land asks only for them; a count without a name still
        # shows (with its error). Before any name, every row is there.
        rows = range(MAX_ROWS[key])
        named = [r for r in rows if args.get(f"name{r}", "").strip()
                 or any(args.get(f"{land}{r}", "").strip() for land in LANDS)]
        return {**shared, "lands": LANDS, "land_names": LAND_NAMES, "count_rows": named or list(rows)}
    if key == "adel-verpflichtet/exhibitions-ranking":
        chosen = dating(args)
        shared["script"]["form"] = {"year_reference": YEAR_REFERENCE}
        # What the page shows for an age the engine compared: the number as the reader typed it.
        return {**shared, "dating": chosen,
                "as_typed": (lambda age: YEAR_REFERENCE - age) if chosen == "year" else (lambda age: age)}
    if key == "keine-ehre-unter-dieben/loot-sharing":
        return {**shared, "endings": ENDINGS}
    return shared


TITLES = {
    "ohne-furcht-und-adel/score": lazy_gettext("Final score pad"),
    "kardinal-und-koenig/monastery-score": lazy_gettext("Monastery scoring of one land"),
    "adel-verpflichtet/exhibition": lazy_gettext("Is this a valid exhibition?"),
    "kardinal-und-koenig/lands-score": lazy_gettext("Monastery scoring of all lands"),
    "adel-verpflichtet/exhibitions-ranking": lazy_gettext("Which exhibition wins?"),
    "keine-ehre-unter-dieben/loot-sharing": lazy_gettext("Who takes how many loot cards?"),
}
