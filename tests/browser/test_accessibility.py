"""axe-core finds no serious or critical violation (colour contrast included) on any page type, at
phone and desktop widths, in the light and the dark colour scheme."""
from __future__ import annotations

import pytest

from conftest import AXE, DESKTOP, MOBILE

GAME = "ohne-furcht-und-adel"
PAGES = [
    "/de/",
    f"/en/{GAME}/",
    "/it/kardinal-und-koenig/",
    f"/de/{GAME}/faq/thief-forbidden-targets",
    "/en/search?q=thief+assassin",
    "/it/search?q=xylofono+quokka",
    "/de/search",                                   # the empty search: the search page with examples
    "/en/search?q=game+end",                        # answers side by side
    "/it/search?q=condottero+distruggere+quartiere",  # "Showing results for"
    f"/de/{GAME}/faq/tie-break/correction",
    f"/en/{GAME}/calculators/score",
    "/it/kardinal-und-koenig/calculators/monastery-score",
    "/de/adel-verpflichtet/calculators/exhibition?cards=AACE",
    "/it/keine-ehre-unter-dieben/calculators/loot-sharing",
    f"/en/{GAME}/coverage",
    f"/de/{GAME}/faq/tie-break/history",
    "/en/no-such-page/",
    f"/de/{GAME}/faq/dieb-bestiehlt-meuchler",
    "/editor/login",
]

if not AXE.exists():
    pytest.skip("axe-core is not installed (make test-slow runs npm ci)", allow_module_level=True)


@pytest.fixture(params=[(DESKTOP, "light"), (MOBILE, "light"), (DESKTOP, "dark"), (MOBILE, "dark")],
                ids=["desktop-light", "mobile-light", "desktop-dark", "mobile-dark"])
def audit_page(browser, request):
    viewport, scheme = request.param
    # The site's policy forbids inline scripts; the audit script is injected by the test only.
    context = browser.new_context(viewport=viewport, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    yield page
    context.close()


@pytest.mark.parametrize("path", PAGES)
def test_no_serious_violations(audit_page, live_server, path):
    audit_page.goto(live_server + path)
    audit_page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # audit collapsed text too
    audit_page.add_script_tag(path=str(AXE))
    result = audit_page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]])
        for v in result["violations"] if v["impact"] in ("serious", "critical")
    ]
    assert serious == []
    assert audit_page.evaluate("document.documentElement.lang") in ("de", "en", "it")


def test_focus_is_visible(page, live_server):
    page.goto(live_server + "/en/")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", "")


def test_the_review_of_a_report_has_no_serious_violations(audit_page, live_server):
    """The editors' review: the texts rendered with their diff, the form's fields folded."""
    from apptools import real_library
    from rules_index.content.marks import unmarked

    answer = real_library().game(GAME).faq_entry("final-scoring-bonuses").text("en").answer
    response = audit_page.request.post(live_server + "/api/v1/corrections", data={
        "game": GAME, "faq": "final-scoring-bonuses", "lang": "en", "message": "The page is missing.",
        "proposed_answer": unmarked(answer).replace("Each district scores", "Each district earns").rstrip() + " See page 2."})
    assert response.status == 201
    audit_page.goto(live_server + "/editor/login")
    audit_page.fill('input[name="name"]', "anna")
    audit_page.fill('input[name="password"]', "a-long-editor-password")
    with audit_page.expect_navigation():
        audit_page.click('form.login button[type="submit"]')
    audit_page.goto(live_server + "/editor/?lang=en&game=" + GAME)
    with audit_page.expect_navigation():
        audit_page.locator("table.queue td.entry a").first.click()
    assert audit_page.locator(".answer.rendered.diff").count() >= 1
    audit_page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    audit_page.add_script_tag(path=str(AXE))
    result = audit_page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]])
               for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == []
