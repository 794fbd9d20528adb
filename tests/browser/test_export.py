"""The static export opens from disk (file://) in the browser: front door, pages, links, the
language switch and the offline search with snippets, in every language and at phone width."""
from __future__ import annotations

import functools
import re
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from conftest import AXE

GAME = "ohne-furcht-und-adel"
# Per language: a question's words, the answer they must find, its kind label and a word of its text.
SEARCHES = {
    "de": ("Punktgleichheit Bauwerke", "tie-break", "Frage", "Bauwerken"),
    "en": ("tied on points", "tie-break", "Question", "districts"),
    "it": ("parità di punti", "tie-break", "Domanda", "quartieri"),
}
NEXT_LANG = {"de": "en", "en": "it", "it": "de"}


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_export_has_every_page(exported):
    assert (exported / "index.html").exists()
    for lang in ("de", "en", "it"):
        assert (exported / lang / "index.html").exists()
        assert (exported / lang / GAME / "faq" / "tie-break" / "index.html").exists()
        assert (exported / lang / "search" / "index.html").exists()
    html = (exported / "en" / GAME / "faq" / "tie-break" / "index.html").read_text(encoding="utf-8")
    assert 'href="/' not in html and "correction" not in html
    assert '<link rel="canonical" href="https://rules.example/en/ohne-furcht-und-adel/faq/tie-break">' in html


@pytest.mark.parametrize("lang", ["de", "en", "it"])
def test_export_in_each_language_from_file(any_page, exported, lang):
    page = any_page
    query, entry, kind, word = SEARCHES[lang]
    page.goto((exported / "index.html").as_uri())
    page.locator(f'a[hreflang="{lang}"]').click()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator(f'main a[href="{GAME}/index.html"]').first.click()
    expect(page.locator("link[rel=stylesheet]")).to_have_count(1)
    assert page.evaluate("getComputedStyle(document.body).fontFamily") != ""
    page.locator(f"#faq-{entry} > summary").click()  # answers are collapsed on the game page
    page.locator(f"a[href='faq/{entry}/index.html']").first.click()
    expect(page.locator("h1")).to_be_visible()
    assert no_horizontal_scroll(page)

    # The header search leads to the offline search page: results with labels and snippets.
    page.locator("#q").fill(query)
    page.locator("#q").press("Enter")
    first = page.locator("#results li.hit").first
    expect(first).to_be_visible()
    expect(first.locator(".kind")).to_contain_text(kind)
    hit = page.locator(f"#results li.hit:has(a[href$='{GAME}/faq/{entry}/index.html'])").first
    expect(hit.locator(".snippet")).to_contain_text(word)
    expect(hit.locator(".snippet mark").first).to_be_visible()
    assert no_horizontal_scroll(page)

    # The language switch goes to the other language's search page and keeps the question.
    other = NEXT_LANG[lang]
    page.locator(f'nav.langs a[hreflang="{other}"]').click()
    expect(page.locator("html")).to_have_attribute("lang", other)
    expect(page.locator("#q2")).to_have_value(query)
    expect(page.locator("#q")).to_have_value(query)
    assert page.locator("input[type=search]:visible").count() == 1  # one box holds the question
    expect(page.locator("#results li.hit").first).to_be_visible()
    expect(page.locator("#results li.hit .kind").first).to_contain_text(SEARCHES[other][2])

    # Results lead to pages of the export.
    page.locator("#results li.hit a").first.click()
    assert page.url.startswith("file://")
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", other)


def test_export_language_switch_on_pages(page, exported):
    page.goto((exported / "it" / GAME / "faq" / "tie-break" / "index.html").as_uri())
    page.locator('nav.langs a[hreflang="en"]').click()
    assert page.url.endswith("/en/ohne-furcht-und-adel/faq/tie-break/index.html")
    expect(page.locator("h1")).to_have_text("Who wins if players are tied on points?")
    page.locator("a.brand").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.url.endswith("/en/index.html")


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def test_export_served_from_a_sub_path(page, exported, tmp_path):
    folder = tmp_path / "deep" / "path"
    folder.mkdir(parents=True)
    (folder / "site").symlink_to(exported, target_is_directory=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    failed = []
    page.on("response", lambda response: response.status >= 400 and failed.append(response.url))
    try:
        page.goto(f"http://127.0.0.1:{server.server_port}/deep/path/site/")
        page.locator('a[hreflang="it"]').click()
        page.locator(f'main a[href="{GAME}/index.html"]').first.click()
        expect(page.locator("h1")).to_have_text("Cittadelle")
        page.locator("#q").fill("ladro")
        page.locator("#q").press("Enter")
        # The reader sees the Italian hits, then switches; the switch keeps the question.
        expect(page.locator("#results li.hit").first).to_be_visible()
        page.locator('nav.langs a[hreflang="de"]').click()
        expect(page.locator("#results li.hit .kind").first).to_contain_text("Frage")
        page.locator("#results li.hit a").first.click()
        expect(page.locator("html")).to_have_attribute("lang", "de")
        assert "/deep/path/site/de/" in page.url
    finally:
        server.shutdown()
        server.server_close()
    assert failed == []


def test_export_styles_apply(page, exported):
    page.goto((exported / "it" / GAME / "index.html").as_uri())
    color = page.evaluate("getComputedStyle(document.querySelector('.citation')).backgroundColor")
    assert color == "rgb(243, 239, 228)"
    assert re.search(r"Cittadelle", page.title())


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (make test-slow runs npm ci)")
@pytest.mark.parametrize("path", ["index.html", "it/search/index.html?q=ladro+assassino"])
def test_export_front_door_and_offline_results_pass_axe(any_page, exported, path):
    file, _, query = path.partition("?")
    any_page.goto((exported / file).as_uri() + (f"?{query}" if query else ""))
    if query:
        expect(any_page.locator("#results .snippet mark").first).to_be_visible()
    any_page.add_script_tag(path=str(AXE))
    result = any_page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == []
    assert no_horizontal_scroll(any_page)


# The calculators in the copy, computed by the browser from the engines' rule tables: per
# calculator the fields filled, the radios chosen, and what each output then shows.
CALCULATORS = [
    ("ohne-furcht-und-adel", "score",
     {"#name0": "Anna", "#yellow0": "35", "#blue0": "2", "#green0": "1", "#red0": "111", "#purple0": "6", "#name1": "Ben", "#yellow1": "66"},
     ["#first0"], {"0": "27 points", "1": "12 points"}),
    ("kardinal-und-koenig", "monastery-score",
     {"#name0": "Green", "#count0": "4", "#name1": "Red", "#count1": "2", "#name2": "Blue", "#count2": "1"},
     [], {"0": "7 points", "1": "4 points", "2": "2 points"}),
    ("kardinal-und-koenig", "lands-score",
     {"#name0": "Green", "#name1": "Red", "#name2": "Blue", "#Franken0": "4", "#Franken1": "2", "#Franken2": "1", "#Bayern0": "1", "#Bayern1": "1"},
     [], {"0": "9 points", "1": "6 points", "2": "2 points"}),
    ("adel-verpflichtet", "exhibition", {"#cards": "aab bc"}, [], {"verdict": "AABBC is a valid exhibition."}),
    ("adel-verpflichtet", "exhibitions-ranking",
     {"#name0": "Ann", "#cards0": "abc", "#age0": "120", "#name1": "Ben", "#cards1": "def", "#age1": "300", "#name2": "Cem", "#cards2": "bcf"},
     [], {"0": "Place 2", "1": "Place 1", "2": "Not valid"}),
    ("keine-ehre-unter-dieben", "loot-sharing",
     {"#name0": "Anna", "#name1": "Ben", "#name2": "Cem", "#name3": "Dora", "#cards": "5"},
     ["#leader1", "#ending-voluntary_stop"], {"1": "2 cards", "2": "1 card", "3": "1 card", "0": "1 card", "left": "No card is left."}),
]


@pytest.mark.parametrize("game,name,fields,radios,outputs", CALCULATORS, ids=[c[1] for c in CALCULATORS])
def test_export_calculators_work_from_file(any_page, exported, game, name, fields, radios, outputs):
    page = any_page  # at desktop width and at 360 px
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto((exported / "en" / game / "index.html").as_uri())
    page.locator(f'.calculators a[href="calculators/{name}/index.html"]').click()
    assert page.url == (exported / "en" / game / "calculators" / name / "index.html").as_uri()
    expect(page.get_by_role("button", name="Calculate")).to_have_count(0)  # no server to send the form to
    expect(page.locator(".static-note")).to_be_visible()
    for selector, value in fields.items():
        page.locator(selector).fill(value)
    for selector in radios:
        page.locator(selector).check()
    for out, text in outputs.items():
        expect(page.locator(f'output[data-out="{out}"]')).to_have_text(text)
    # Enter in a field keeps the page and what was typed (a submit would reload it empty).
    last = list(fields)[-1]
    page.locator(last).press("Enter")
    assert page.url.endswith(f"calculators/{name}/index.html")
    expect(page.locator(last)).to_have_value(fields[last])
    assert [url for url in requests if not url.startswith("file://")] == []
    assert no_horizontal_scroll(page)


def test_export_calculator_in_german_at_phone_width(phone, exported):
    phone.goto((exported / "de" / "keine-ehre-unter-dieben" / "calculators" / "loot-sharing" / "index.html").as_uri())
    for row, name in enumerate(["Anna", "Ben", "Cem", "Dora", "Emil", "Fritz", "Greta", "Hugo"]):
        phone.locator(f"#name{row}").fill(name)  # every player card is there: nothing to add
    phone.locator("#leader7").check()
    phone.locator("#ending-master_stroke").check()
    phone.locator("#cards").fill("6")
    expect(phone.locator('output[data-out="7"]')).to_have_text("0 bis 6 Karten")
    phone.locator("#takes").fill("2")
    expect(phone.locator('output[data-out="7"]')).to_have_text("2 Karten")
    expect(phone.locator('output[data-out="3"]')).to_have_text("1 Karte")
    expect(phone.locator('output[data-out="4"]')).to_have_text("0 Karten")
    expect(phone.locator('output[data-out="left"]')).to_have_text("Es bleibt keine Karte übrig.")
    assert no_horizontal_scroll(phone)
