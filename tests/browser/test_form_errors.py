"""A report form sent back with problems, on a phone: the summary of them is on the first screen
and has the focus; its links lead to the fields."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


def test_error_summary_takes_focus_on_the_first_screen(phone, live_server):
    phone.goto(live_server + "/de/ohne-furcht-und-adel/faq/tie-break/correction")
    phone.fill("#page", "die zweite")
    phone.get_by_role("button", name="Meldung absenden").click()
    phone.wait_for_load_state()
    assert phone.evaluate("document.activeElement.id") == "error-summary"
    box = phone.locator("#error-summary").bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + 40 <= phone.viewport_size["height"]
    assert phone.locator("#error-summary h2").inner_text() == "Bitte prüfe das Formular"
    phone.locator("#error-summary a[href='#page']").click()
    assert phone.evaluate("location.hash") == "#page"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    # What the reader typed is still there to correct.
    assert phone.input_value("#page") == "die zweite"
