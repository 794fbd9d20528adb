"""The mark readers see, in a real browser at 360 px, in three languages, light and dark: the
badge counts the checked statements, each bound statement is marked in the text, and tapping it
shows the situation that checks it; editorial words stay unmarked."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.slow

GAME, FAQ = "ohne-furcht-und-adel", "thief-forbidden-targets"
BADGE = {"de": r"✓ \d+ von \d+ Aussagen in \d+ Spielsituationen geprüft",
         "en": r"✓ \d+ of \d+ statements checked in \d+ game situations",
         "it": r"✓ Affermazioni verificate: \d+ su \d+, in \d+ situazioni di gioco"}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_badge_and_marks_on_a_phone(phone, live_server, lang, scheme):
    phone.emulate_media(color_scheme=scheme)
    phone.goto(f"{live_server}/{lang}/{GAME}/faq/{FAQ}")
    expect(phone.locator(".verified summary")).to_have_text(re.compile(BADGE[lang]))
    marks = phone.locator(".answer a.bound")
    assert marks.count() >= 3
    first = marks.first
    expect(first).to_be_visible()
    # Subtle: the words keep the text colour, with a dotted underline.
    style = first.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e.closest('.answer')).color, getComputedStyle(e).textDecorationStyle]")
    assert style[0] == style[1] and style[2] == "dotted"
    # Accessible: a link with the situation as its description; tapping it opens the situation.
    assert first.get_attribute("title")
    situation = phone.locator(".situations li:target")
    expect(situation).to_have_count(0)
    first.click()
    expect(situation).to_have_count(1)
    expect(situation).to_be_visible()
    assert first.get_attribute("title").strip() == situation.locator(".scenario").inner_text().strip()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # The situation stands a screen or more below the answer on a phone: it leads back.
    situation.locator("a.to-answer").click()
    expect(phone.locator("#answer")).to_be_in_viewport()
    assert phone.evaluate("location.hash") == "#answer"


def test_the_best_answer_card_carries_the_badge(page, live_server):
    page.goto(f"{live_server}/en/search?q=can+the+thief+rob+the+assassin")
    card = page.locator(".answer-card")
    expect(card).to_be_visible()
    expect(card.locator(".card-badge")).to_have_text(re.compile(BADGE["en"]))
