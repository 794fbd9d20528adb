"""A calculator page states every rule its engine refuses on: whatever a form lets through, the
engine computes (an engine's refusal reaches the reader only as a message in English, the
engine's own language)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from rules_index.engines import InputError, calculators_for
from rules_index.web.calculator_forms import ENDINGS, FORMS, LANDS, MAX_ROWS, OFUA_COLOURS

# Values as readers type them: repeated and near-repeated names, empty fields, numbers in and
# out of range, several district costs in one field, letters where numbers belong. Values a form
# refuses are drawn rarely, so that most drawn forms reach their engine.


def mostly(valid: list[str], refused: list[str]) -> st.SearchStrategy[str]:
    return st.sampled_from(valid * 8 + refused)


NAMES = mostly(["", "Anna", "Anna", "Ben", "anna", "Cleo"], ["\x07"])
NUMBERS = mostly(["", "0", "1", "2", "3", "4", "5", "7", "8", "9", "12"], ["30", "x", "-1"])
COSTS = mostly(["", "", "", "1", "4", "3 5", "2 6", "12345"], ["0", "9", "x"])
CARDS = mostly(["", "AAB", "ABC", "AABBCC", "DEF", "a b c"], ["ABG"])


def rows(key: str) -> range:
    return range(min(MAX_ROWS.get(key, 3), 3))


def fields(key: str) -> st.SearchStrategy[dict]:
    """The form's fields for ``key``, each drawn from what readers type there."""
    per_row: dict[str, st.SearchStrategy] = {}
    if key == "ohne-furcht-und-adel/score":
        per_row = {"name": NAMES, **{colour: COSTS for colour in OFUA_COLOURS}}
        once = {"first": st.sampled_from(["", *map(str, rows(key))])}
    elif key == "kardinal-und-koenig/monastery-score":
        per_row, once = {"name": NAMES, "count": NUMBERS}, {}
    elif key == "kardinal-und-koenig/lands-score":
        per_row, once = {"name": NAMES, **{land: NUMBERS for land in LANDS}}, {}
    elif key == "adel-verpflichtet/exhibition":
        once = {"cards": CARDS}
    elif key == "adel-verpflichtet/exhibitions-ranking":
        per_row, once = {"name": NAMES, "cards": CARDS, "age": NUMBERS}, {"dating": st.sampled_from(["age", "year"])}
    elif key == "keine-ehre-unter-dieben/loot-sharing":
        per_row = {"name": NAMES}
        once = {"leader": st.sampled_from(["", *map(str, rows(key))]), "ending": st.sampled_from(["", *ENDINGS]),
                "cards": NUMBERS, "takes": NUMBERS}
    else:
        raise AssertionError(f"no fields drawn for the form {key}: add them here")
    drawn = {f"{name}{row}": strategy for row in rows(key) for name, strategy in per_row.items()}
    return st.fixed_dictionaries({**drawn, **once})


def test_every_form_has_its_fields_drawn():
    for key in FORMS:
        fields(key)


@pytest.mark.parametrize("key", sorted(FORMS))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_what_a_form_lets_through_its_engine_computes(app, key, data):
    slug, name = key.split("/")
    args = MultiDict({k: v for k, v in data.draw(fields(key)).items() if v} | {"submit": "1"})
    with app.test_request_context(f"/en/{slug}/calculators/{name}"):
        filled = FORMS[key](args)
    if not filled.submitted or filled.errors:
        return  # the page computes nothing
    try:
        calculators_for(slug)[name](filled.payload)
    except InputError as exc:
        raise AssertionError(f"{key}: the form let through {dict(args)}, the engine refused it: {exc}") from None
