"""Every radio group of the calculators works from the keyboard as a native radio group: its
radios stand together, Tab stops on the group once (on the checked radio, or the first when none
is checked), the arrow keys move the choice within it, Tab leaves it for the next field and
Shift+Tab comes back to the checked radio. (The score pad's "first with 8 districts" radios once
sat one in each player's card: one group spread over the form, so Tab reached it in one card
only and the arrow keys jumped between cards.)"""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

GROUPS = [  # page, the group's name
    ("/en/ohne-furcht-und-adel/calculators/score", "first"),
    ("/en/ohne-furcht-und-adel/calculators/score?name0=Anna&name1=Ben&name2=Cem&first=2", "first"),
    ("/en/adel-verpflichtet/calculators/exhibitions-ranking", "dating"),
    ("/en/adel-verpflichtet/calculators/exhibitions-ranking?dating=year", "dating"),
    ("/en/keine-ehre-unter-dieben/calculators/loot-sharing", "leader"),
    ("/en/keine-ehre-unter-dieben/calculators/loot-sharing", "ending"),  # none checked
]

# The focused element (its id, else its tag), or None when focus has left the page.
FOCUSED = "() => { const el = document.activeElement; return el && el !== document.body ? el.id || el.tagName : null; }"
# The elements Tab can reach, in the document's order (what the browser walks without tabindex > 0).
FOCUSABLE = """() => [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
  .filter((el) => !el.disabled && el.tabIndex >= 0 && el.getClientRects().length)
  .map((el) => el.id || el.tagName)"""


def tab_stops(page) -> list:
    """The ids Tab focuses, from the top of the page until focus leaves it."""
    stops = []
    for _ in range(300):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None and stops:
            return stops
        stops.append(focused)
    raise AssertionError("Tab never left the page")


def focused_on(page, element_id: str) -> None:
    """Tab on (from the top of the page once focus has left it) to the element: the keyboard's way there."""
    for _ in range(300):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == element_id:
            return
    raise AssertionError(f"Tab never reached #{element_id}")


@pytest.mark.parametrize("path,group", GROUPS, ids=["score", "score-first-2", "ranking", "ranking-year", "loot-leader", "loot-ending"])
def test_radio_group_is_one_tab_stop_and_arrows_move(page, live_server, path, group):
    page.goto(live_server + path)
    radios = page.evaluate("(name) => [...document.querySelectorAll(`input[type=radio][name=${name}]`)].map((r) => r.id)", group)
    checked = page.evaluate("(name) => (document.querySelector(`input[type=radio][name=${name}]:checked`) || {}).id || null", group)
    assert len(radios) >= 2

    # The radios stand together: nothing else to focus between them.
    focusable = page.evaluate(FOCUSABLE)
    first = focusable.index(radios[0])
    assert focusable[first:first + len(radios)] == radios
    after = focusable[first + len(radios)]

    # Tab stops on the group once: on the checked radio, or the first when none is checked.
    stops = tab_stops(page)
    on_group = [s for s in stops if s in radios]
    target = checked or radios[0]
    assert on_group == [target]
    assert stops[stops.index(target) + 1] == after

    # The arrow keys move the choice within the group (and wrap, as native groups do).
    focused_on(page, target)
    index = radios.index(target)
    page.keyboard.press("ArrowDown")
    moved = radios[(index + 1) % len(radios)]
    assert page.evaluate(FOCUSED) == moved and page.locator(f"#{moved}").is_checked()
    page.keyboard.press("ArrowUp")
    assert page.evaluate(FOCUSED) == target and page.locator(f"#{target}").is_checked()

    # Tab leaves the group for the next field; Shift+Tab comes back to the checked radio.
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == after
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED) == moved
