"""At the table, in a real browser: short game pages on a phone, anchors that open their entry,
printing everything, copying a link, searching from a 404, and reporting a mistake; every kind of
page within a phone's width, the header on one row, one search box on the empty search page."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apptools import real_library
from conftest import DESKTOP, MOBILE

GAME = "ohne-furcht-und-adel"
GAMES = [game.slug for game in real_library()]
MAX_PHONE_HEIGHT = 12_000


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def in_viewport(locator) -> bool:
    return locator.evaluate("el => { const r = el.getBoundingClientRect(); return r.top >= -1 && r.top < window.innerHeight; }")


def open_ids(page) -> list[str]:
    return page.evaluate("[...document.querySelectorAll('details[open]')].map(d => d.id)")


@pytest.fixture()
def phone(browser):
    context = browser.new_context(viewport=MOBILE)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("slug", GAMES)
def test_game_page_fits_a_phone_collapsed(phone, live_server, slug):
    for lang in ("de", "en", "it"):
        phone.goto(f"{live_server}/{lang}/{slug}/")
        assert open_ids(phone) == []
        height = phone.evaluate("document.documentElement.scrollHeight")
        assert height < MAX_PHONE_HEIGHT, f"/{lang}/{slug}/ is {height} px tall at 360 px"
        assert no_horizontal_scroll(phone)


def test_contents_stay_in_reach_while_scrolling(any_page, live_server):
    page = any_page
    page.goto(f"{live_server}/de/{GAME}/")
    toc = page.get_by_role("navigation", name="Inhalt")
    expect(toc.get_by_role("heading", name="Inhalt")).to_be_visible()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight / 2)")
    expect(toc).to_be_in_viewport()
    assert toc.evaluate("el => Math.abs(el.getBoundingClientRect().top) < 1")
    page.locator("#glossary").get_by_role("link", name="Nach oben").click()
    page.wait_for_function("window.scrollY === 0")


def test_entries_open_by_keyboard_with_a_visible_focus(page, live_server):
    page.goto(f"{live_server}/it/{GAME}/")
    summary = page.locator("#faq-tie-break > summary")
    summary.focus()
    assert summary.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
    page.keyboard.press("Enter")
    expect(page.locator("#faq-tie-break")).to_have_attribute("open", "")
    expect(page.locator("#faq-tie-break .answer")).to_contain_text("punti dei soli quartieri")


def test_anchor_opens_its_entry(any_page, live_server):
    page = any_page
    page.goto(f"{live_server}/en/{GAME}/#faq-tie-break")
    entry = page.locator("#faq-tie-break")
    expect(entry).to_have_attribute("open", "")
    expect(entry.locator(".answer")).to_contain_text("the points from districts alone decide")
    assert in_viewport(entry)
    assert open_ids(page) == ["faq-tie-break"]

    # A quick link to a character opens its glossary entry.
    page.get_by_role("navigation", name="Characters and roles").get_by_role("link", name="Thief", exact=True).click()
    expect(page.locator("#term-thief")).to_have_attribute("open", "")
    expect(page.locator("#term-thief p")).to_be_visible()
    assert in_viewport(page.locator("#term-thief"))

    # Changing the address's anchor (back button, typed address) opens that entry too.
    page.evaluate("location.hash = '#rule-characters'")
    expect(page.locator("#rule-characters")).to_have_attribute("open", "")

    # A link to the anchor already in the address bar reopens an entry closed by hand.
    page.locator("#term-thief > summary").click()
    expect(page.locator("#term-thief")).not_to_have_attribute("open", "")
    page.evaluate("location.hash = '#term-thief'")
    page.locator("#term-thief > summary").click()
    expect(page.locator("#term-thief")).not_to_have_attribute("open", "")
    page.get_by_role("navigation", name="Characters and roles").get_by_role("link", name="Thief", exact=True).click()
    expect(page.locator("#term-thief")).to_have_attribute("open", "")

    # A common mistake leads to the answer that settles it, on the same page.
    page.locator("#mistake-thief-robs-assassin > summary").click()
    page.locator("#mistake-thief-robs-assassin .more a").click()
    expect(page.locator("#faq-thief-forbidden-targets")).to_have_attribute("open", "")
    assert in_viewport(page.locator("#faq-thief-forbidden-targets"))
    assert no_horizontal_scroll(page)


def test_print_shows_every_answer(page, live_server):
    page.goto(f"{live_server}/en/{GAME}/")
    page.emulate_media(media="print")
    hidden = page.evaluate("[...document.querySelectorAll('details.faq .answer')].filter(a => !a.checkVisibility()).length")
    assert hidden == 0
    for chrome in ("header.site", "nav.toc", "nav.roles", ".to-top", ".entry-links"):
        expect(page.locator(chrome).first).to_be_hidden()

    # Printing from the browser opens every entry, and closes again those that were closed.
    page.emulate_media(media="screen")
    page.locator("#faq-tie-break > summary").click()
    total = page.locator("details").count()
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert len(open_ids(page)) == total
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    assert open_ids(page) == ["faq-tie-break"]


@pytest.mark.parametrize("viewport", [DESKTOP, MOBILE], ids=["desktop", "mobile"])
def test_copy_link(browser, live_server, viewport):
    context = browser.new_context(viewport=viewport, locale="de-DE", permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.goto(f"{live_server}/de/{GAME}/faq/tie-break")
        field = page.locator("#link")
        button = page.get_by_role("button", name="Link kopieren")
        button.click()
        expect(page.locator(".share .copy").first).to_have_text("Kopiert")
        assert page.evaluate("navigator.clipboard.readText()") == field.input_value() == f"{live_server}/de/{GAME}/faq/tie-break"
        assert no_horizontal_scroll(page)
    finally:
        context.close()


def test_share_field_stays_without_javascript(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/it/{GAME}/faq/tie-break")
        expect(page.locator("#link")).to_have_value(f"{live_server}/it/{GAME}/faq/tie-break")
        expect(page.locator(".share button")).to_have_count(0)
    finally:
        context.close()


def test_not_found_page_searches(any_page, live_server):
    page = any_page
    response = page.goto(f"{live_server}/de/{GAME}/faq/dieb-bestiehlt-meuchler")
    assert response.status == 404
    box = page.locator("#nf-q")
    expect(box).to_have_value("dieb bestiehlt meuchler")
    matches = page.locator(".matches a")
    assert 1 <= matches.count() <= 5
    expect(page.locator(f'.matches a[href="/de/{GAME}/faq/thief-forbidden-targets"]')).to_be_visible()
    box.fill("Baumeister")
    box.press("Enter")
    page.wait_for_url(re.compile(r"/de/search\?q=Baumeister"))
    expect(page.locator(".hit a").first).to_be_visible()
    assert no_horizontal_scroll(page)


@pytest.mark.parametrize("viewport", [DESKTOP, MOBILE], ids=["desktop", "mobile"])
def test_report_starts_from_the_answer_and_returns_to_it(browser, live_server, viewport):
    context = browser.new_context(viewport=viewport, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(f"{live_server}/en/{GAME}/faq/tie-break")
        page.get_by_role("link", name="Found a mistake?").click()
        proposal = page.get_by_label("Your proposed wording (optional)")
        # As readers read it: no marks, no Markdown signs.
        expect(proposal).to_have_value(re.compile(r"^In a tie the points from districts alone decide, that is"))
        expect(page.get_by_text("never shown on this site or passed on")).to_be_visible()
        proposal.fill("The player with more districts wins.")
        page.get_by_label("What is wrong?").fill("It is the number of districts.")
        page.get_by_label("E-mail for a reply (optional)").fill("reader@example.org")
        page.get_by_role("button", name="Send report").click()
        expect(page.locator("h1")).to_have_text("Thank you for your report")
        tracking = page.locator('a[href*="/en/corrections/"]').get_attribute("href")
        page.get_by_role("link", name="Back to “Who wins if players are tied on points?”").click()
        page.wait_for_url(f"{live_server}/en/{GAME}/faq/tie-break")
        page.goto(live_server + tracking)
        sent = page.locator(".sent")
        expect(sent).to_contain_text("It is the number of districts.")
        expect(sent).to_contain_text("The player with more districts wins.")
        expect(page.locator("main")).not_to_contain_text("reader@example.org")
        assert no_horizontal_scroll(page)
    finally:
        context.close()


def test_small_links_are_a_thumbs_size_on_a_touch_screen(browser, live_server):
    """Back to top, link to this answer, report a mistake, the language switch, the calculators:
    at least 44 px high on a touch phone, and no two of them overlap."""
    context = browser.new_context(viewport=MOBILE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server}/de/{GAME}/")
    page.locator("details.entry.faq").first.locator("summary").click()
    boxes = page.evaluate("""() => [...document.querySelectorAll(
        '.to-top a, .entry-links a, .langs a, .calculators a, .crumbs a, .report-link a')]
        .filter(a => a.offsetParent !== null).map(a => { const r = a.getBoundingClientRect();
          return {text: a.textContent.trim(), top: r.top + scrollY, left: r.left, right: r.right, height: r.height}; })""")
    context.close()
    assert len(boxes) >= 8
    assert [b["text"] for b in boxes if b["height"] < 44] == []
    for a, b in zip(boxes, boxes[1:]):
        if abs(a["top"] - b["top"]) < 1:  # side by side on one line
            assert a["right"] <= b["left"] or b["right"] <= a["left"], (a, b)


# One page of each kind, in the page's language: what a reader opens at the table on a phone.
SEARCH_WITH_CARD = {"de": "Darf der Söldner eine fertige Stadt angreifen?", "en": "can the thief rob the assassin?",
                    "it": "il re assassinato prende la corona?"}
PAGE_KINDS = ["/{lang}/", f"/{{lang}}/{GAME}/", f"/{{lang}}/{GAME}/#term-thief", f"/{{lang}}/{GAME}/faq/tie-break",
              "/{lang}/search?q={card}", "/{lang}/search?q=", f"/{{lang}}/{GAME}/faq/tie-break/correction"]


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_no_kind_of_page_is_wider_than_a_phone(phone, live_server, lang):
    """Home, a game page, a glossary entry opened, an answer, a search with its answer card, the
    empty search, the report form: nothing wider than the 360 px screen."""
    for path in PAGE_KINDS:
        phone.goto(live_server + path.format(lang=lang, card=SEARCH_WITH_CARD[lang]))
        if "#term-" in path:
            expect(phone.locator("details.entry:target")).to_have_attribute("open", "")
        if "q=" in path and not path.endswith("q="):
            expect(phone.locator(".answer-card").first).to_be_visible()
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= MOBILE["width"], f"{path.format(lang=lang, card='…')} is {width} px wide"


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_the_contents_bar_keeps_the_page_within_a_phone(phone, live_server, lang):
    """The contents bar of every game page: its list scrolls within the bar, never the page. Held
    at the top while reading, each of its links can be brought on screen, and the page stays 360
    px wide and does not move sideways."""
    for slug in GAMES:
        phone.goto(f"{live_server}/{lang}/{slug}/")
        toc = phone.locator("nav.toc")
        phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight / 2)")
        assert toc.evaluate("el => Math.abs(el.getBoundingClientRect().top) < 1")  # held at the top
        links = toc.locator("a")
        assert links.count() >= 5
        for i in range(links.count()):
            links.nth(i).evaluate("a => a.scrollIntoView({block: 'nearest', inline: 'nearest'})")
            box = links.nth(i).bounding_box()
            assert 0 <= box["x"] and box["x"] + box["width"] <= MOBILE["width"], (slug, links.nth(i).inner_text(), box)
            bar = toc.bounding_box()
            assert bar["x"] >= 0 and bar["x"] + bar["width"] <= MOBILE["width"], (slug, bar)
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= MOBILE["width"], f"/{lang}/{slug}/ is {width} px wide"
        phone.evaluate("window.scrollBy(120, 0)")
        assert phone.evaluate("window.scrollX") == 0


def assert_header_on_one_row(page, live_server) -> None:
    heights = {}
    for lang in ("de", "en", "it"):
        page.goto(f"{live_server}/{lang}/")
        rows = page.evaluate("""() => {
            const box = s => document.querySelector(s).getBoundingClientRect().toJSON();
            const brand = document.querySelector("header.site .brand");
            return {header: box("header.site").height, brand: box("header.site .brand"), langs: box("nav.langs"),
                    form: box("form.search"), width: document.documentElement.scrollWidth,
                    tops: [...document.querySelectorAll("nav.langs a, nav.langs strong")].map(el => el.getBoundingClientRect().top),
                    whole: brand.scrollWidth <= brand.clientWidth && getComputedStyle(brand).textOverflow !== "ellipsis"};
        }""")
        brand, langs, form = rows["brand"], rows["langs"], rows["form"]
        # The languages stand on the brand's row, all three side by side, above the search box.
        assert langs["top"] < brand["bottom"] and brand["top"] < langs["bottom"], (lang, brand, langs)
        assert max(rows["tops"]) - min(rows["tops"]) < 1, (lang, rows["tops"])
        assert langs["bottom"] <= form["top"] and brand["bottom"] <= form["top"], (lang, rows)
        assert brand["right"] <= langs["left"], (lang, brand, langs)
        assert rows["whole"], (lang, "the site's name is cut")  # every word of it shown
        assert rows["width"] <= MOBILE["width"]
        heights[lang] = rows["header"]
    # As high as the German header, whose name and languages take one line.
    assert len(set(heights.values())) == 1, heights


def test_the_header_takes_one_row_on_a_phone(phone, live_server):
    """The brand and the languages share one row above the search box in every language; the
    Italian name ("Prontuario delle regole") took the row and pushed the languages onto one more."""
    assert_header_on_one_row(phone, live_server)
    phone.goto(f"{live_server}/it/")
    brand = phone.locator("header.site .brand")
    assert brand.evaluate("el => el.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(el).lineHeight)")


def test_the_header_takes_one_row_on_a_touch_phone(browser, live_server):
    """With the languages a thumb's size (44 px), the Italian name goes onto two short lines
    beside them, within their height: the header is as high as in German and English."""
    context = browser.new_context(viewport=MOBILE, is_mobile=True, has_touch=True)
    try:
        assert_header_on_one_row(context.new_page(), live_server)
    finally:
        context.close()


def placeholder_fits(page, selector: str) -> bool:
    """Whether the example in a box's placeholder is shown whole: its width in the box's font
    within the box's width less its padding."""
    return page.evaluate("""(selector) => {
        const box = document.querySelector(selector), style = getComputedStyle(box);
        const context = document.createElement("canvas").getContext("2d");
        context.font = style.font;
        const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return context.measureText(box.placeholder).width <= room;
    }""", selector)


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_the_empty_search_has_one_search_box(phone, live_server, lang):
    """The empty search page's own box, with its label and example, is the only one: the header's
    box above it was a second box for the same question."""
    for path in (f"/{lang}/search?q=", f"/{lang}/search"):
        phone.goto(live_server + path)
        visible = phone.evaluate("[...document.querySelectorAll('input')].filter(i => i.type !== 'hidden' && i.checkVisibility()).map(i => i.id)")
        assert visible == ["q-page"], (path, visible)
        assert phone.locator(".examples a").count() >= 4
        assert no_horizontal_scroll(phone)
        assert placeholder_fits(phone, "#q-page"), (path, phone.get_attribute("#q-page", "placeholder"))
    box = phone.locator("#q-page")
    box.fill(SEARCH_WITH_CARD[lang])
    box.press("Enter")
    phone.wait_for_url(f"**/{lang}/search?q=**")
    expect(phone.locator(".answer-card").first).to_be_visible()
    expect(phone.locator("#q")).to_have_value(SEARCH_WITH_CARD[lang])  # the results' page: the header's box
    # A game chosen before the box was emptied stays chosen in the page's own form.
    phone.goto(f"{live_server}/{lang}/search?q=&game=adel-verpflichtet")
    assert phone.locator("input[type=search]").count() == 1
    expect(phone.locator("#game-page")).to_have_value("adel-verpflichtet")
    phone.fill("#q-page", "Detektiv")
    phone.press("#q-page", "Enter")
    phone.wait_for_url(f"**/{lang}/search?q=Detektiv&game=adel-verpflichtet")


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_a_missing_page_and_the_offline_search_have_one_search_box(phone, live_server, lang):
    """A missing page's own box holds the words of its address; the offline search's own box is
    its search until something is asked. The header's box was a second one above each."""
    for path, own in ((f"/{lang}/thief-robs-king", "nf-q"), (f"/{lang}/offline-search", "q2")):
        phone.goto(live_server + path)
        visible = phone.evaluate("[...document.querySelectorAll('input')].filter(i => i.type !== 'hidden' && i.checkVisibility()).map(i => i.id)")
        assert visible == [own], (path, visible)
        assert no_horizontal_scroll(phone)
