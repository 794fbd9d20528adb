"""The search page as a player sees it on a phone: the answer first, mistakes refuted, one form."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

GAME = "ohne-furcht-und-adel"
QUESTIONS = [
    ("de", "Darf der Söldner eine fertige Stadt angreifen?", "warlord-complete-city"),
    ("en", "can the thief rob the assassin?", "thief-forbidden-targets"),
    ("it", "il re assassinato prende la corona?", "assassinated-king-crown"),
]
PHONE_HEIGHT = 740  # the phone viewport of tests/browser/conftest.py


@pytest.mark.parametrize("lang,question,faq", QUESTIONS, ids=[q[0] for q in QUESTIONS])
def test_answer_card_above_the_fold_on_a_phone(phone, live_server, lang, question, faq):
    phone.goto(f"{live_server}/{lang}/search?q={question}")
    card = phone.locator(".answer-card")
    expect(card).to_be_visible()
    expect(card.locator(f'a[href="/{lang}/{GAME}/faq/{faq}"]')).to_be_visible()
    box = card.bounding_box()
    assert box["y"] + box["height"] <= PHONE_HEIGHT, box  # the whole card without scrolling
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_single_search_form_that_keeps_the_game(phone, live_server):
    phone.goto(f"{live_server}/de/search?q=Dieb&game=adel-verpflichtet")
    assert phone.locator("form").count() == 1
    expect(phone.locator("#game")).to_have_value("adel-verpflichtet")
    phone.fill("#q", "Detektiv")
    phone.press("#q", "Enter")
    phone.wait_for_url("**/de/search?q=Detektiv&game=adel-verpflichtet")


def test_a_mistake_reads_as_refuted(phone, live_server):
    phone.goto(f"{live_server}/en/search?q=thief steal assassin")
    mistake = phone.locator(".hit-mistake").first
    expect(mistake).to_contain_text("✗ Mistake:")
    expect(mistake).to_contain_text("✓ Correct:")
    expect(mistake.locator("s")).to_be_visible()  # the false statement is struck through
    assert mistake.locator("a").get_attribute("href").startswith(f"/en/{GAME}/faq/")
