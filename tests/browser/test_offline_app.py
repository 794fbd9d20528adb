"""The site as an installed app at 360 px: Chromium's installability checks pass, and with the
server gone after a first visit, the answers, rules and calculator pages opened before still
load; a page never opened says so in the reader's language. Also the answer page's copy
buttons and language hint, which only a browser runs."""
from __future__ import annotations

import os

import shutil
import threading

import pytest
from werkzeug.serving import make_server

from app import ROOT

from conftest import CHROMIUM, MOBILE

pytestmark = pytest.mark.slow

ANSWER = "/en/ohne-furcht-und-adel/faq/thief-forbidden-targets"
OTHER = "/de/adel-verpflichtet/faq/valid-exhibition"
GAME = "/de/kardinal-und-koenig/"
CALCULATOR = "/en/ohne-furcht-und-adel/calculators/score?name0=Anna&yellow0=3+5&name1=Ben&yellow1=6+6&submit=1"


@pytest.fixture()
def own_server(tmp_path):
    """A server of its own, so that the test can take it away (the network off, for real)."""
    from apptools import make_app
    from rules_index.web.search_state import search_index

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    app = make_app(tmp_path / "instance", content)
    app.config["TESTING"] = False
    with app.app_context():
        search_index()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state = {"url": f"http://127.0.0.1:{server.server_port}", "server": server}
    yield state
    if state["server"] is not None:
        server.shutdown()
        server.server_close()


def _wait_until_kept(page, path: str) -> None:
    page.wait_for_function("async (path) => !!(await caches.match(path))", arg=path, timeout=10_000)


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


def test_installable_and_opened_pages_work_offline(profile_context, own_server):
    base = own_server["url"]
    context = profile_context
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
        assert page.evaluate("navigator.serviceWorker.controller !== null")

        own_server["server"].shutdown()
        own_server["server"].server_close()
        own_server["server"] = None
        context.set_offline(True)  # and connections the browser still holds to it are cut too
        assert page.evaluate("async (url) => { try { const r = await fetch(url, {cache: 'no-store'}); return 'reached ' + r.status + ' ' + (await r.text()).slice(0, 80); } catch (e) { return 'down'; } }",
                             base + "/robots.txt?probe") == "down"

        page.goto(base + ANSWER)
        assert page.locator("h1").inner_text() == "Who can't the Thief steal from?"
        assert "Rulebook: p. 2 · Thief" in page.locator(".citation").inner_text()
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"  # the stylesheet came too
        page.goto(base + OTHER)
        assert "Ausstellung" in page.locator("h1").inner_text()
        page.goto(base + GAME)
        assert page.locator("h1").inner_text() == "Kardinal & König"
        page.goto(base + CALCULATOR)
        assert page.locator("#result .winner").inner_text() == "Winner: Ben"
        page.goto(base + "/it/ohne-furcht-und-adel/faq/assassin-victim-skips-round")
        assert page.locator("h1").inner_text() == "Rete assente"
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
        visible.get_by_role("link").click()
        assert page.url.endswith("/it/ohne-furcht-und-adel/faq/thief-forbidden-targets")
        assert page.locator(".language-hint:visible").count() == 0
    finally:
        context.close()
