"""Browser tests: Playwright driving Debian's Chromium against a live server on loopback.

Skipped when /usr/bin/chromium is absent (CI installs it). A failing test leaves a screenshot in
test-artifacts/.
"""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from app import ROOT

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP = {"width": 1280, "height": 900}
MOBILE = {"width": 360, "height": 740}

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM}", allow_module_level=True)

from playwright.sync_api import sync_playwright  # noqa: E402


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    from apptools import make_app
    from rules_index.corrections.db import session
    from rules_index.corrections.editors import add_editor
    from rules_index.web.state import served

    base = tmp_path_factory.mktemp("live")
    content = base / "content"
    shutil.copytree(ROOT / "content", content)
    app = make_app(base / "instance", content)
    app.config["TESTING"] = False
    with app.app_context():
        served().current()
        add_editor(session(), "anna", "a-long-editor-password")
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="session")
def exported(tmp_path_factory):
    """The static export of the real content (``flask export``), written once per test process."""
    from apptools import make_app
    from rules_index.export import export_site

    base = tmp_path_factory.mktemp("export")
    app = make_app(base / "instance", ROOT / "content")
    out = base / "site"
    pages = export_site(app, out, "https://rules.example")
    assert pages > 250
    return out


@pytest.fixture(scope="session")
def playwright_instance():
    """One Playwright per test process: its sync API cannot be started twice in one."""
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(tmp_path_factory, playwright_instance):
    # Playwright gives the browser a temporary profile (--user-data-dir); Chromium still keeps
    # its crash reports and dconf cache under XDG_CONFIG_HOME and XDG_CACHE_HOME, by default in
    # the home folder: those go to the temporary folder too.
    folder = tmp_path_factory.mktemp("chromium-home")
    env = {**os.environ, "XDG_CONFIG_HOME": str(folder / "config"), "XDG_CACHE_HOME": str(folder / "cache")}
    instance = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, env=env,
        args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync"],
    )
    yield instance
    instance.close()


def _page(browser, request, viewport):
    context = browser.new_context(viewport=viewport, locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()


@pytest.fixture()
def page(browser, request):
    yield from _page(browser, request, DESKTOP)


@pytest.fixture()
def phone(browser, request):
    yield from _page(browser, request, MOBILE)


@pytest.fixture(params=[DESKTOP, MOBILE], ids=["desktop", "mobile"])
def any_page(browser, request):
    yield from _page(browser, request, request.param)
