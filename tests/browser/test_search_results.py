"""The search page as a player sees it on a phone: the answer first, mistakes refuted, one form."""
from __future__ import annotations

import re

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


CLOSE = [("de", "Ende des Spiels", {2: "Zwei Antworten passen:", 3: "Drei Antworten passen:"}),
         ("en", "game end", {2: "Two answers fit:", 3: "Three answers fit:"}),
         ("it", "fine della partita", {2: "Due risposte corrispondono:", 3: "Tre risposte corrispondono:"})]


@pytest.mark.parametrize("lang,question,headings", CLOSE, ids=[q[0] for q in CLOSE])
def test_close_answers_side_by_side_instead_of_a_card(phone, live_server, lang, question, headings):
    """A game's end asked of no game: each game's answer about its end, side by side."""
    phone.goto(f"{live_server}/{lang}/search?q={question}")
    section = phone.locator(".close-answers")
    cards = section.locator(".close-card")
    expect(cards.first).to_be_visible()
    count = cards.count()
    assert count in headings
    expect(section.locator("h2")).to_have_text(headings[count])
    assert phone.locator(".hit.best").count() == 0  # no best-answer card when unsure
    hrefs = [cards.nth(i).locator("h3 a").get_attribute("href") for i in range(count)]
    games = [h.split("/")[2] for h in hrefs]
    assert all(h.startswith(f"/{lang}/") and "/faq/game-end" in h for h in hrefs) and len(set(games)) == count, hrefs
    first = cards.nth(0).bounding_box()
    assert first["y"] < PHONE_HEIGHT  # the first answer starts without scrolling
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


RULES_AT_LARGE = [("de", "Worum geht es bei Ohne Furcht und Adel?", "/de/ohne-furcht-und-adel/#rule-goal"),
                  ("en", "how do you set up web of power", "/en/kardinal-und-koenig/#rule-setup"),
                  ("it", "preparazione cittadelle", "/it/ohne-furcht-und-adel/#rule-setup")]


@pytest.mark.parametrize("lang,question,href", RULES_AT_LARGE, ids=[q[0] for q in RULES_AT_LARGE])
def test_a_question_about_the_rules_at_large_leads_with_the_rules_section(phone, live_server, lang, question, href):
    """"How do you set it up?" is answered by the rules summary's section, first and without
    scrolling; no one answer is put forward as the answer."""
    phone.goto(f"{live_server}/{lang}/search?q={question}")
    first = phone.locator(".results .hit").first
    expect(first).to_have_class(re.compile(r"\bhit-section\b"))
    assert first.locator("a").get_attribute("href") == href
    assert phone.locator(".hit.best").count() == 0 and phone.locator(".close-answers").count() == 0
    assert first.bounding_box()["y"] < PHONE_HEIGHT
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


CORRECTED = [("de", "Kommisar ertappt Anfüher", "Ergebnisse für", "Kommissar ertappt Anführer", "stattdessen suchen nach"),
             ("en", "warlrod destroy cost", "Showing results for", "warlord destroy cost", "search instead for"),
             ("it", "condottero distruggere quartiere", "Risultati per", "condottiero distruggere quartiere", "cerca invece")]


@pytest.mark.parametrize("lang,typed,showing,fixed,instead", CORRECTED, ids=[q[0] for q in CORRECTED])
def test_showing_results_for_the_corrected_question(phone, live_server, lang, typed, showing, fixed, instead):
    phone.goto(f"{live_server}/{lang}/search?q={typed}")
    line = phone.locator(".suggestion.corrected")
    expect(line).to_contain_text(showing)
    expect(line.locator("strong a")).to_have_text(fixed)
    expect(line).to_contain_text(instead)
    line.locator(".as-typed a").click()
    phone.wait_for_url("**as_typed=1**")
    expect(phone.locator(".suggestion.corrected")).to_have_count(0)
    expect(phone.locator(".suggestion a")).to_have_text(fixed)  # offered, not applied
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


EMPTY = [("de", "Stell eine Regelfrage"), ("en", "Ask a rules question"), ("it", "Fai una domanda sulle regole")]


@pytest.mark.parametrize("lang,heading", EMPTY, ids=[q[0] for q in EMPTY])
def test_an_empty_search_shows_the_search_page_with_examples(phone, live_server, lang, heading):
    phone.goto(f"{live_server}/{lang}/search?q=")
    expect(phone.locator(".search-start h2")).to_have_text(heading)
    examples = phone.locator(".examples a")
    assert examples.count() >= 4
    example = examples.first.inner_text()
    examples.first.click()
    phone.wait_for_url(f"**/{lang}/search?q=**")
    expect(phone.locator("#q")).to_have_value(example)
    assert phone.locator(".hit").count() > 0
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_the_header_search_box_keeps_a_usable_width_on_a_phone(phone, live_server, lang):
    phone.goto(f"{live_server}/{lang}/search?q=Dieb")
    box = phone.locator("#q").bounding_box()
    assert box["width"] >= 200, box  # about 12 characters was too narrow to read a question back
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("lang", ["de", "en", "it"])
@pytest.mark.parametrize("path", ["/{lang}/", "/{lang}/ohne-furcht-und-adel/faq/thief-forbidden-targets"])
def test_the_header_search_hint_is_read_whole_on_a_phone(phone, live_server, lang, path):
    """An example question cut mid-word ("z. B. Darf der Dieb den I") says nothing: the hint in
    the header fits its box; the search page's own box carries the example."""
    phone.goto(live_server + path.format(lang=lang))
    fits = phone.locator("#q").evaluate("""box => {
        const style = getComputedStyle(box);
        const context = document.createElement("canvas").getContext("2d");
        context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return [context.measureText(box.placeholder).width, room, box.placeholder];
    }""")
    assert fits[0] <= fits[1], fits


@pytest.mark.parametrize("lang", ["de", "en", "it"])
@pytest.mark.parametrize("game", ["ohne-furcht-und-adel", "keine-ehre-unter-dieben", "kardinal-und-koenig", "adel-verpflichtet"])
def test_the_chosen_game_is_read_whole_in_the_filter_on_a_phone(phone, live_server, lang, game):
    """With a game chosen, the filter showed "Ohne Furcht" of "Ohne Furcht und Adel"."""
    phone.goto(f"{live_server}/{lang}/search?q=Dieb&game={game}")
    fits = phone.locator("#game").evaluate("""select => {
        const style = getComputedStyle(select);
        const context = document.createElement("canvas").getContext("2d");
        context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return [context.measureText(select.options[select.selectedIndex].text).width, room];
    }""")
    assert fits[0] <= fits[1] - 16, fits  # room for the arrow too
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("lang", ["de", "en", "it"])
@pytest.mark.parametrize("game", ["", "&game=keine-ehre-unter-dieben"])
def test_the_header_leaves_the_screen_to_the_answer_on_a_phone(phone, live_server, lang, game):
    """Brand, box, filter and button, languages: five rows took 237 of the phone's 740 pixels."""
    phone.goto(f"{live_server}/{lang}/search?q=Dieb{game}")
    header, box, button, select = (phone.locator(s).bounding_box() for s in ("header.site", "#q", "form.search button", "#game"))
    assert header["height"] <= 200, header
    assert phone.locator("nav.langs").bounding_box()["y"] < box["y"]  # on the brand's row
    assert abs(button["y"] - select["y"]) < 8 and box["width"] >= 200, (box, select, button)  # one row
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("path", ["/de/", "/it/ohne-furcht-und-adel/faq/thief-forbidden-targets"])
def test_without_a_filter_the_button_stands_beside_the_box_on_a_phone(phone, live_server, path):
    phone.goto(live_server + path)
    box, button = (phone.locator(s).bounding_box() for s in ("#q", "form.search button"))
    assert abs(button["y"] - box["y"]) < 8 and box["width"] >= 200, (box, button)
