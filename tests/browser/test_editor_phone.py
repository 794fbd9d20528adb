"""The editors' pages on a phone (360 px), in each interface language: the queue is a list of
cards, the review of a report is short, and no editor page scrolls sideways."""
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


# A report on an answer with bound statements, a list and a long check, reviewed on a phone.
REVIEWED = "final-scoring-bonuses"
REVIEW_HEIGHT = 2_000
EDITOR_PAGES = ["/editor/", "/editor/entries", "/editor/changes", f"/editor/entries/ohne-furcht-und-adel/faq/{REVIEWED}",
                "/editor/entries/ohne-furcht-und-adel/section/goal"]
ADDED = {"de": "Das steht auf Seite 2.", "en": "See page 2.", "it": "Vedi pagina 2."}


def _entry(lang: str):
    from apptools import real_library

    return real_library().game("ohne-furcht-und-adel").faq_entry(REVIEWED).text(lang)


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_the_review_is_short_and_no_editor_page_scrolls_sideways(browser, live_server, lang):
    """The review of a report shows the texts rendered and their diff, the YAML closed: at most
    2,000 px high at 360 px (5,102 px in German when it showed every field's source; run with -s
    for the figures)."""
    from rules_index.content.marks import unmarked

    context = browser.new_context(viewport=MOBILE, locale=LOCALES[lang])
    page = context.new_page()
    page.set_default_timeout(15_000)
    fits = "document.documentElement.scrollWidth <= window.innerWidth"
    try:
        response = page.request.post(live_server + "/api/v1/corrections", data={
            "game": "ohne-furcht-und-adel", "faq": REVIEWED, "lang": lang, "message": "Die Seitenzahl fehlt.",
            "proposed_answer": unmarked(_entry(lang).answer).rstrip() + " " + ADDED[lang]})
        assert response.status == 201
        page.goto(live_server + "/editor/login")
        assert page.evaluate(fits), "/editor/login"
        page.fill('input[name="name"]', "anna")
        page.fill('input[name="password"]', "a-long-editor-password")
        page.click('form.login button[type="submit"]')
        page.wait_for_url(live_server + "/editor/")
        page.goto(f"{live_server}/editor/?game=ohne-furcht-und-adel&lang={lang}")
        with page.expect_navigation():
            page.locator("table.queue td.entry a", has_text=_entry(lang).question).first.click()
        assert page.evaluate("document.documentElement.lang") == lang
        height = page.evaluate("document.documentElement.scrollHeight")
        print(f"\nreview page at {MOBILE['width']} px ({lang}): {height} px high")
        # The YAML is in the form (the accept posts it), closed.
        assert page.locator('textarea[name="check"]').count() == 1
        assert not page.locator('textarea[name="check"]').is_visible()
        assert height <= REVIEW_HEIGHT
        assert page.evaluate(fits), "the review"
        for value in ("check", "accept", "reject"):
            assert page.locator(f'button[name="action"][value="{value}"]').is_visible(), value
        # Asked for, the YAML opens, and the page still fits the width.
        page.locator("details.yaml-fields > summary").click()
        assert page.locator('textarea[name="check"]').is_visible()
        assert page.evaluate(fits), "the review with its YAML open"
        for path in EDITOR_PAGES:
            page.goto(live_server + path)
            assert page.evaluate(fits), path
    finally:
        context.close()
