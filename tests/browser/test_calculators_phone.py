"""The calculators at the table, in a real browser: filled in and read on a 360 px phone and at
1280 px, with no sideways scrolling and the totals on screen after submitting; live totals with
JavaScript, the same page without it; the result's link reproduces it; no serious axe finding. The rule coverage table on a phone, every cell on screen."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import AXE, DESKTOP, MOBILE

SCORE = "/en/ohne-furcht-und-adel/calculators/score"
LANDS = "/en/kardinal-und-koenig/calculators/lands-score"
RANKING = "/en/adel-verpflichtet/calculators/exhibitions-ranking"
LOOT = "/en/keine-ehre-unter-dieben/calculators/loot-sharing"
CITIES = [  # name, {colour: costs as typed on a number pad}, expected total
    ("Anna", {"yellow": "35", "blue": "2", "green": "1", "red": "111", "purple": "6"}, 27),
    ("Ben", {"yellow": "66"}, 12),
    ("Chiara", {"green": "54", "red": "3"}, 12),
    ("Dmitri", {"purple": "5", "blue": "3"}, 8),
]


def fits(page) -> bool:
    """Nothing wider than the viewport: the page never scrolls sideways."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def in_viewport(locator) -> bool:
    return locator.evaluate(
        "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight && r.width > 0; }")


def fill_score_pad(page, live_server):
    page.goto(live_server + SCORE)
    for row, (name, costs, _total) in enumerate(CITIES):
        page.locator(f"#name{row}").fill(name)
        for colour, typed in costs.items():
            page.locator(f"#{colour}{row}").fill(typed)
    page.locator("#first0").check()


@pytest.fixture(params=[MOBILE, DESKTOP], ids=["360px", "1280px"])
def screen(browser, request):
    context = browser.new_context(viewport=request.param, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture()
def no_script_phone(browser):
    context = browser.new_context(viewport=MOBILE, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def test_score_pad_at_the_table(screen, live_server):
    page = screen
    fill_score_pad(page, live_server)
    assert page.locator("#red0").get_attribute("inputmode") == "numeric"
    assert fits(page)
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator(".winner")).to_have_text("Winner: Anna")
    assert fits(page)
    totals = page.locator(".ranking .sum strong")
    assert totals.all_inner_texts() == ["27", "12", "12", "8"]
    for i in range(len(CITIES)):
        assert in_viewport(totals.nth(i)), f"total {i} is off screen after submitting"
    for row, (_name, _costs, total) in enumerate(CITIES):
        expect(page.locator(f'output[data-out="{row}"]')).to_have_text(f"{total} points")


def test_score_pad_totals_follow_the_input(page, live_server):
    page.goto(live_server + SCORE)
    page.locator("#name0").fill("Anna")
    expect(page.locator('[data-name-of="0"]')).to_have_text(["Anna", "Anna"])  # the card's heading and the first-to-8 choice
    page.locator("#yellow0").press_sequentially("35")
    expect(page.locator('output[data-out="0"]')).to_have_text("8 points")
    page.locator("#red0").press_sequentially("6")
    expect(page.locator('output[data-out="0"]')).to_have_text("14 points")
    assert page.locator("#result").count() == 0  # nothing was submitted


def test_score_pad_without_javascript(no_script_phone, live_server):
    page = no_script_phone
    fill_score_pad(page, live_server)
    with page.expect_navigation():  # without JavaScript the button submits the form
        page.get_by_role("button", name="Add a player").click()
    expect(page.locator("fieldset.pcard")).to_have_count(5)
    expect(page.locator("#name0")).to_have_value("Anna")  # the filled cards came back as they were
    with page.expect_navigation():
        page.get_by_role("button", name="Calculate").click()
    expect(page.locator(".winner")).to_have_text("Winner: Anna")
    assert in_viewport(page.locator(".ranking .sum strong").first)
    assert fits(page)


def test_all_lands_at_the_table(screen, live_server):
    page = screen
    page.goto(live_server + LANDS)
    for row, name in enumerate(["Green", "Red", "Blue"]):
        page.locator(f"#name{row}").fill(name)
    expect(page.get_by_label("Green, Franconia")).to_be_visible()  # the names label the counts at once
    expect(page.locator("#Franken3")).to_be_hidden()  # and only named players are asked
    counts = {"Franken": (4, 2, 1), "Bayern": (1, 1, 0), "England": (0, 0, 3)}
    for land, per_player in counts.items():
        for row, count in enumerate(per_player):
            field = page.locator(f"#{land}{row}")
            assert field.get_attribute("inputmode") == "numeric"
            field.fill(str(count))
    assert fits(page)
    page.get_by_role("button", name="Calculate").click()
    totals = page.locator(".ranking li")
    expect(totals).to_have_text(["Green 9 points", "Red 6 points", "Blue 5 points"])
    for i in range(3):
        assert in_viewport(totals.nth(i).locator("strong"))
    expect(page.locator(".land-result").filter(has_text="Franconia")).to_contain_text("Green has the most (4 monasteries) → 7 points")
    assert fits(page)


def not_cut_off(locator) -> bool:
    """The element is wholly within the screen's width: no part of it hides past the right edge
    (a table that scrolls inside its box does not make the page scroll, so ``fits`` misses it)."""
    return locator.evaluate("el => { const r = el.getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth && r.width > 0; }")


@pytest.mark.parametrize("lang,points", [("de", "7 Punkte"), ("en", "7 points"), ("it", "7 punti")])
def test_one_lands_monasteries_at_the_table(browser, live_server, lang, points):
    context = browser.new_context(viewport=MOBILE)
    page = context.new_page()
    page.goto(f"{live_server}/{lang}/kardinal-und-koenig/calculators/monastery-score")
    for row, (name, count) in enumerate([("Anna", 3), ("Ben", 2), ("Cleo", 2)]):
        page.locator(f"#name{row}").fill(name)
        page.locator(f"#count{row}").fill(str(count))
    total = page.locator('output[data-out="0"]')
    expect(total).to_have_text(points)
    for cell in (total, page.locator("#count0"), page.locator("#name0"), page.locator("table.players thead th").last):
        assert not_cut_off(cell)
    assert fits(page)
    context.close()


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_rule_coverage_on_a_phone(browser, live_server, lang):
    context = browser.new_context(viewport=MOBILE)
    page = context.new_page()
    page.goto(f"{live_server}/{lang}/ohne-furcht-und-adel/coverage")
    cells = page.locator("table.coverage tbody td")
    assert cells.count() > 8
    for i in range(cells.count()):
        assert not_cut_off(cells.nth(i)), cells.nth(i).inner_text()
    assert fits(page)
    context.close()


def test_exhibitions_ranking_at_the_table(screen, live_server):
    page = screen
    page.goto(live_server + RANKING)
    for row, (name, cards, age) in enumerate([("Ann", "abc", "120"), ("Ben", "def", "300"), ("Cem", "bcf", "")]):
        page.locator(f"#name{row}").fill(name)
        page.locator(f"#cards{row}").fill(cards)
        page.locator(f"#age{row}").fill(age)
    assert page.locator("#age0").get_attribute("inputmode") == "numeric"
    page.get_by_role("button", name="Compare").click()
    places = page.locator(".ranking li")
    expect(places.locator(".who")).to_have_text(["Ben", "Ann"])
    expect(places.nth(1)).to_contain_text("the oldest object decides: 120 against 300 for Ben")
    expect(page.locator(".invalid-list")).to_contain_text("Cem BCF: the letters must follow each other without a gap.")
    assert in_viewport(places.nth(0)) and in_viewport(places.nth(1))
    assert fits(page)


def test_loot_sharing_at_the_table(screen, live_server):
    page = screen
    page.goto(live_server + LOOT)
    for row, name in enumerate(["Anna", "Ben", "Cem", "Dora"]):
        page.locator(f"#name{row}").fill(name)
    expect(page.get_by_role("radio", name="Cem")).to_be_visible()  # the names label the leader's choice at once
    page.get_by_role("radio", name="Cem").check()
    page.locator("#ending-master_stroke").check()
    assert page.locator("#cards").get_attribute("inputmode") == "numeric"
    page.locator("#cards").fill("6")
    expect(page.locator('output[data-out="2"]')).to_have_text("0 to 6 cards")  # computed in the browser
    page.locator("#takes").fill("1")
    expect(page.locator('output[data-out="left"]')).to_have_text("2 cards are left: Cem may take one more, the rest is discarded.")
    assert fits(page)
    page.get_by_role("button", name="Calculate").click()
    shares = page.locator(".ranking li")
    expect(shares.locator(".who")).to_have_text(["Cem", "Dora", "Anna", "Ben"])
    expect(shares.locator(".sum")).to_have_text(["1 card", "1 card", "1 card", "1 card"])
    for i in range(4):
        assert in_viewport(shares.nth(i).locator("strong")), f"share {i} is off screen after submitting"
    expect(page.locator("#result .citation")).to_contain_text("Review: Sharing the loot")
    assert fits(page)


def words(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("path,fill,button", [
    (SCORE, {"#name0": "Anna", "#yellow0": "35", "#name1": "Ben", "#red1": "6"}, "Calculate"),
    (LANDS, {"#name0": "Green", "#name1": "Red", "#Franken0": "2", "#Franken1": "1"}, "Calculate"),
    (RANKING, {"#name0": "Ann", "#cards0": "AAB", "#name1": "Ben", "#cards1": "CDEE"}, "Compare"),
    (LOOT, {"#name0": "Ann", "#name1": "Ben", "#name2": "Cem", "#leader1": True, "#ending-caught": True, "#cards": "4"}, "Calculate"),
])
def test_the_link_to_a_result_reproduces_it(browser, live_server, path, fill, button):
    context = browser.new_context(viewport=MOBILE)
    page = context.new_page()
    page.goto(live_server + path)
    for selector, value in fill.items():
        if value is True:
            page.locator(selector).check()
        else:
            page.locator(selector).fill(value)
    page.get_by_role("button", name=button).click()
    result = words(page.locator("#result .ranking").text_content())
    link = page.locator("#link").input_value()
    assert link.startswith(live_server)
    shared = context.new_page()
    shared.goto(link)
    # The same words; where lines break depends on when the stylesheet applied, not on the result.
    assert words(shared.locator("#result .ranking").text_content()) == result
    assert fits(shared)
    context.close()


NEW_PAGES = [
    SCORE + "?name0=Anna&yellow0=35&red0=111&first=0&name1=Ben&yellow1=66&red1=9&submit=1",
    LANDS + "?name0=Green&name1=Red&Franken0=4&Franken1=2&Bayern0=25&submit=1",
    LANDS + "?name0=Green&name1=Red&Franken0=4&Franken1=2&submit=1",
    RANKING + "?name0=Ann&cards0=ABC&age0=3&name1=Ben&cards1=CDE&name2=Cem&cards2=BCF&submit=1",
    LOOT + "?name0=Ann&name1=Ben&name2=Cem&leader=0&ending=voluntary_stop&cards=5&submit=1",
    LOOT + "?name0=Ann&leader=3&ending=caught&cards=9&submit=1",
]


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (make test-slow runs npm ci)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", NEW_PAGES)
def test_calculator_pages_pass_axe_on_a_phone(browser, live_server, path, scheme):
    context = browser.new_context(viewport=MOBILE, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    page.goto(live_server + path)
    assert fits(page)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in result["violations"] if v["impact"] in ("serious", "critical")]
    context.close()
    assert serious == []
