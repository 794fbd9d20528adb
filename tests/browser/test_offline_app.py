"""The site as an installed app at 360 px: Chromium's installability checks pass, and with the
server gone after a first visit, the answers, rules and calculator pages opened before still
load; a page never opened says so in the reader's language. Also the answer page's copy
buttons and language hint, which only a browser runs."""
from __future__ import annotations

import os

import shutil
import threading

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from app import ROOT
from rules_index.engines import calculators_for

from conftest import CHROMIUM, MOBILE
from test_export import CALCULATORS

pytestmark = pytest.mark.slow

ANSWER = "/en/ohne-furcht-und-adel/faq/thief-forbidden-targets"
OTHER = "/de/adel-verpflichtet/faq/valid-exhibition"
GAME = "/de/kardinal-und-koenig/"
CALCULATOR = "/en/ohne-furcht-und-adel/calculators/score?name0=Anna&yellow0=3+5&name1=Ben&yellow1=6+6&submit=1"
# A reader's question offline, and the answer it must find among the first three.
QUESTION = "Dieb Meuchler"
FOUND = "/de/ohne-furcht-und-adel/faq/thief-forbidden-targets"
SHARED = "/en/ohne-furcht-und-adel/faq/tie-break"
NEVER_OPENED = "/de/keine-ehre-unter-dieben/faq/master-stroke"
GAMES = sorted(folder.name for folder in (ROOT / "content").iterdir() if folder.is_dir())


@pytest.fixture()
def own_server(tmp_path):
    """A server of its own, so that the test can take it away (the network off, for real)."""
    from apptools import make_app
    from rules_index.web.state import served

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    app = make_app(tmp_path / "instance", content)
    app.config["TESTING"] = False
    with app.app_context():
        served().current()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state = {"url": f"http://127.0.0.1:{server.server_port}", "server": server}
    yield state
    if state["server"] is not None:
        server.shutdown()
        server.server_close()


def _wait_until_kept(page, path: str, seconds: float = 10) -> None:
    """Until the worker has kept ``path``: asked again and again (``wait_for_function`` would take
    the promise an async function returns for a true answer)."""
    import time

    deadline = time.monotonic() + seconds
    while not page.evaluate("async (path) => !!(await caches.match(path))", path):
        assert time.monotonic() < deadline, f"{path} was not kept within {seconds} s"
        time.sleep(0.2)


def _take_the_network_away(context, page, own_server) -> None:
    base = own_server["url"]
    own_server["server"].shutdown()
    own_server["server"].server_close()
    own_server["server"] = None
    context.set_offline(True)  # and connections the browser still holds to it are cut too
    assert page.evaluate("async (url) => { try { const r = await fetch(url, {cache: 'no-store'}); return 'reached ' + r.status + ' ' + (await r.text()).slice(0, 80); } catch (e) { return 'down'; } }",
                         base + "/robots.txt?probe") == "down"


@pytest.fixture()
def profile_context(tmp_path, playwright_instance):
    """A browser with a profile on disk: Chromium does not offer to install from an incognito
    context, which is what ``browser.new_context`` makes."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    context = playwright_instance.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, viewport=MOBILE, locale="en-GB", env=env,
        args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync"])
    yield context
    context.close()


# The app opened from the home screen: display-mode standalone (Chromium's headless tab is not).
AS_INSTALLED = """(() => {
  const real = window.matchMedia.bind(window);
  window.matchMedia = (query) => query.includes("display-mode: standalone")
    ? {matches: true, media: query, onchange: null, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}}
    : real(query);
})();"""


def test_installable_and_opened_pages_work_offline(profile_context, own_server):
    base = own_server["url"]
    context = profile_context
    context.add_init_script(AS_INSTALLED)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(base + ANSWER)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/en/manifest.webmanifest") and manifest["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        _wait_until_kept(page, base + ANSWER)  # the first page, loaded before the worker
        for path in (OTHER, GAME, CALCULATOR):
            page.goto(base + path)
            _wait_until_kept(page, base + path)
        # A link shared in a chat carries tracking parameters: the page is kept as itself.
        page.goto(base + SHARED + "?utm_source=whatsapp&utm_medium=chat")
        _wait_until_kept(page, base + SHARED)
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        # Every answer of a language read is kept too: what the offline search finds opens.
        _wait_until_kept(page, base + NEVER_OPENED, seconds=120)

        _take_the_network_away(context, page, own_server)

        page.goto(base + NEVER_OPENED)
        assert page.locator("h1").inner_text() != "Kein Netz" and page.locator(".answer").count() == 1

        page.goto(base + ANSWER)
        assert page.locator("h1").inner_text() == "Who can't the Thief steal from?"
        assert "German rulebook: p. 2 · Thief" in page.locator(".citation").inner_text()
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"  # the stylesheet came too
        page.goto(base + OTHER)
        assert "Ausstellung" in page.locator("h1").inner_text()
        page.goto(base + GAME)
        assert page.locator("h1").inner_text() == "Kardinal & König"
        page.goto(base + CALCULATOR)
        assert page.locator("#result .winner").inner_text() == "Winner: Ben"
        # A score pad's result shared as a link, not opened before: the fields come from the
        # address and the totals follow (the verdict line needs the server).
        page.goto(base + "/en/ohne-furcht-und-adel/calculators/score?name0=Cleo&red0=5+4&name1=Dan&red1=1&submit=1")
        assert page.locator("#name0").input_value() == "Cleo"
        assert page.locator('output[data-out="0"]').inner_text() == "9 points"
        for address in (SHARED, SHARED + "/", SHARED + "?utm_campaign=x"):
            page.goto(base + address)
            assert page.locator("h1").inner_text() == "Who wins if players are tied on points?", address
        page.goto(base + "/somewhere/else")  # an address of no language: the browser's (en-GB)
        assert page.locator("h1").inner_text() == "No network"
        page.goto(base + "/it/ohne-furcht-und-adel/faq/assassin-victim-skips-round")
        assert page.locator("h1").inner_text() == "Rete assente"
        assert page.evaluate("document.documentElement.scrollWidth") <= MOBILE["width"]
    finally:
        page.close()


def test_search_and_every_calculator_work_offline_after_a_first_visit(profile_context, own_server):
    """One page opened, then no network: a question typed in the header finds its answer (the
    offline search page stands in for the server's search), and every calculator of every game,
    none of them opened before, computes from what is typed."""
    base = own_server["url"]
    page = profile_context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(base + OTHER)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # installed: its files are kept
        _wait_until_kept(page, base + OTHER)
        _take_the_network_away(profile_context, page, own_server)

        page.goto(base + OTHER)
        page.locator("#q").fill(QUESTION)
        page.locator("#q").press("Enter")
        page.wait_for_url("**/de/search?q=*")
        results = page.locator("#results li a")
        expect(results.first).to_be_visible()
        first_three = [results.nth(i).get_attribute("href") for i in range(min(3, results.count()))]
        assert FOUND in first_three, first_three
        assert page.locator("#q2").input_value() == QUESTION
        assert page.evaluate("document.documentElement.scrollWidth") <= MOBILE["width"]

        assert sorted(f"{game}/{name}" for game, name, *_ in CALCULATORS) == sorted(
            f"{slug}/{name}" for slug in GAMES for name in calculators_for(slug))
        for game, name, fields, radios, outputs in CALCULATORS:
            page.goto(f"{base}/en/{game}/calculators/{name}")
            for selector, value in fields.items():
                page.locator(selector).fill(value)
            for selector in radios:
                page.locator(selector).check()
            for out, text in outputs.items():
                expect(page.locator(f'output[data-out="{out}"]')).to_have_text(text)
            # Enter offline keeps the page and what was typed: no server to send the form to.
            last = list(fields)[-1]
            page.locator(last).press("Enter")
            expect(page.locator(last)).to_have_value(fields[last])
            assert page.url == f"{base}/en/{game}/calculators/{name}"
            assert page.evaluate("document.documentElement.scrollWidth") <= MOBILE["width"]
    finally:
        page.close()


def test_copy_buttons_copy_the_quote_and_reset(browser, live_server):
    context = browser.new_context(viewport=MOBILE, locale="de-DE")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page = context.new_page()
    try:
        page.goto(live_server + "/de/ohne-furcht-und-adel/faq/thief-forbidden-targets")
        button = page.get_by_role("button", name="Als Zitat kopieren")
        button.click()
        page.wait_for_function("() => [...document.querySelectorAll('button.copy')].some((b) => b.textContent === 'Kopiert')")
        text = page.evaluate("navigator.clipboard.readText()")
        assert text.splitlines()[0] == "Wen darf der Dieb nicht bestehlen?" and "Regelheft S. 2" in text
        assert text.splitlines()[-1] == live_server + "/de/ohne-furcht-und-adel/faq/thief-forbidden-targets"
        page.get_by_role("button", name="Als Markdown kopieren").click()
        assert page.evaluate("navigator.clipboard.readText()").startswith("> **Wen darf der Dieb nicht bestehlen?**")
        # Each button says "Copied" for a moment, then offers itself again.
        page.wait_for_function("() => ![...document.querySelectorAll('button.copy')].some((b) => b.textContent === 'Kopiert')", timeout=5_000)
        assert page.get_by_role("button", name="Als Zitat kopieren").is_visible()
        assert page.get_by_role("button", name="Link kopieren").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= MOBILE["width"]
    finally:
        context.close()


@pytest.mark.parametrize("locale,shown", [("it-IT", "Leggi questa risposta in italiano"), ("en-GB", None), ("fr-FR", None)])
def test_language_hint_offers_the_readers_language(browser, live_server, locale, shown):
    context = browser.new_context(viewport=MOBILE, locale=locale)
    page = context.new_page()
    try:
        page.goto(live_server + "/en/ohne-furcht-und-adel/faq/thief-forbidden-targets")
        visible = page.locator(".language-hint:visible")
        if shown is None:
            assert visible.count() == 0
            return
        assert visible.count() == 1 and visible.inner_text() == shown
        with page.expect_navigation():
            visible.get_by_role("link").click()
        expect(page).to_have_url(live_server + "/it/ohne-furcht-und-adel/faq/thief-forbidden-targets")
        expect(page.locator(".language-hint:visible")).to_have_count(0)
    finally:
        context.close()


def test_a_browser_tab_keeps_what_it_opened_not_the_whole_site(profile_context, own_server):
    """A reader who follows one shared link in a tab is not sent every answer (only the app,
    opened from the home screen, keeps them all)."""
    import time

    base = own_server["url"]
    page = profile_context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(base + OTHER)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        _wait_until_kept(page, base + OTHER)
        time.sleep(3)  # the installed app keeps dozens of pages in this time
        kept = page.evaluate("async () => (await (await caches.open('pages')).keys()).map((r) => r.url)")
        assert base + NEVER_OPENED not in kept and len(kept) <= 3, kept
    finally:
        page.close()
