"""Readers in a real browser: search to an answer, permalinks, language switch, anchors, forms, 404."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

GAME = "ohne-furcht-und-adel"


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_search_from_home_to_answer_by_keyboard(any_page, live_server):
    page = any_page
    page.goto(live_server + "/de/")
    page.keyboard.press("Tab")  # skip link
    page.keyboard.press("Tab")  # brand
    page.keyboard.press("Tab")  # search field
    expect(page.locator("#q")).to_be_focused()
    page.keyboard.type("Darf der Söldner eine fertige Stadt angreifen?")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/de/search\?q="))
    # The answer leads as the best-answer card (a refuted mistake further down links to it too).
    link = page.locator(f'.answer-card a[href="/de/{GAME}/faq/warlord-complete-city"]')
    expect(link).to_be_visible()
    link.click()
    expect(page.locator("h1")).to_contain_text("Söldner")
    expect(page.locator(".citation").first).to_contain_text("Regelheft: S. 2")
    assert no_horizontal_scroll(page)


def test_permalink_language_switch_stays_on_entry(any_page, live_server):
    page = any_page
    page.goto(f"{live_server}/de/{GAME}/faq/thief-forbidden-targets")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.locator('nav.langs a[hreflang="it"]').click()
    page.wait_for_url(f"**/it/{GAME}/faq/thief-forbidden-targets")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator(".citation").first).to_have_text(re.compile("Regolamento tedesco: p. 2 · Ladro"))
    page.locator('nav.langs a[hreflang="en"]').click()
    page.wait_for_url(f"**/en/{GAME}/faq/thief-forbidden-targets")
    expect(page.locator("#link")).to_have_value(f"{live_server}/en/{GAME}/faq/thief-forbidden-targets")
    expect(page.locator(".verified")).to_be_visible()
    assert no_horizontal_scroll(page)


def test_game_page_anchors(any_page, live_server):
    page = any_page
    page.goto(f"{live_server}/en/{GAME}/#faq-tie-break")
    target = page.locator("#faq-tie-break")
    expect(target).to_be_visible()
    assert target.evaluate("el => { const r = el.getBoundingClientRect(); return r.top >= -1 && r.top < window.innerHeight; }")
    page.locator('a[href="#rules"]').click()
    expect(page.locator("#rules")).to_be_in_viewport()
    assert no_horizontal_scroll(page)


def test_correction_form_and_confirmation(page, live_server):
    page.goto(f"{live_server}/en/{GAME}/faq/tie-break")
    page.get_by_role("link", name="Found a mistake?").click()
    page.get_by_label("What is wrong?").fill("The tie-break sentence reads oddly.")
    page.get_by_label("Page in the rulebook (optional)").fill("2")
    page.get_by_role("button", name="Send report").click()
    expect(page.locator("h1")).to_have_text("Thank you for your report")
    page.locator('a[href*="/en/corrections/"]').click()
    expect(page.locator(".status")).to_contain_text("Pending")


def test_correction_form_reports_missing_text(page, live_server):
    page.goto(f"{live_server}/it/{GAME}/faq/tie-break/correction")
    page.get_by_role("button", name="Invia segnalazione").click()
    expect(page.locator(".field-error").first).to_contain_text("Descrivi che cosa è sbagliato.")


def test_calculator_page(any_page, live_server):
    page = any_page
    page.goto(f"{live_server}/de/{GAME}/calculators/score")
    page.locator("#name0").fill("Anna")
    page.locator("#yellow0").fill("3 5")
    page.locator("#blue0").fill("2")
    page.locator("#green0").fill("1")
    page.locator("#red0").fill("1 1 1")
    page.locator("#purple0").fill("6")
    page.locator("#first0").check()
    page.locator("#name1").fill("Ben")
    page.locator("#yellow1").fill("6 6")
    page.get_by_role("button", name="Berechnen").click()
    expect(page.locator(".winner")).to_have_text("Sieger: Anna")
    assert no_horizontal_scroll(page)


@pytest.mark.parametrize("path,heading", [("/en/no-such-game/", "Page not found"), ("/xx/", "Seite nicht gefunden")])
def test_not_found_page(page, live_server, path, heading):
    response = page.goto(live_server + path)
    assert response.status == 404
    expect(page.locator("h1")).to_have_text(heading)
