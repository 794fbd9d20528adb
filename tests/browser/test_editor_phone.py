"""The editors' pages on a phone (360 px), in each interface language: the queue is a list of
cards and no editor page scrolls sideways."""
from __future__ import annotations

import pytest

from conftest import MOBILE

pytestmark = pytest.mark.slow

LOCALES = {"de": "de-DE", "en": "en-GB", "it": "it-IT"}


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_editor_pages_fit_a_phone(browser, live_server, lang):
    context = browser.new_context(viewport=MOBILE, locale=LOCALES[lang])
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        response = page.request.post(live_server + "/api/v1/corrections", data={
            "game": "ohne-furcht-und-adel", "faq": "tie-break", "lang": "de",
            "message": "Die Formulierung ist unklar und sehr lang " * 3, "proposed_answer": "Neuer Text."})
        assert response.status == 201
        page.goto(live_server + "/editor/login")
        page.fill('input[name="name"]', "anna")
        page.fill('input[name="password"]', "a-long-editor-password")
        page.click('form.login button[type="submit"]')
        page.wait_for_url(live_server + "/editor/")
        assert page.evaluate("document.documentElement.lang") == lang
        rows = page.locator("table.queue tbody tr")
        assert rows.count() >= 1
        first, second = rows.first.locator("td").nth(0).bounding_box(), rows.first.locator("td").nth(1).bounding_box()
        assert second["y"] > first["y"]  # one value under the other: a card, not a table row
        assert page.evaluate("document.documentElement.scrollWidth") <= MOBILE["width"]
        for link in [rows.first.locator("td.entry a").get_attribute("href"), "/editor/entries", "/editor/changes"]:
            page.goto(live_server + link if link.startswith("/") else link)
            assert page.evaluate("document.documentElement.scrollWidth") <= MOBILE["width"], link
    finally:
        context.close()
