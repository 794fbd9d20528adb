"""The static export opens from disk (file://) in the browser: pages, links and the offline search."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

GAME = "ohne-furcht-und-adel"


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    from apptools import make_app
    from app import ROOT
    from rules_index.export import export_site

    base = tmp_path_factory.mktemp("export")
    app = make_app(base / "instance", ROOT / "content")
    out = base / "site"
    pages = export_site(app, out, "https://rules.example")
    assert pages > 250
    return out


def test_export_has_every_page(exported):
    for lang in ("de", "en", "it"):
        assert (exported / lang / "index.html").exists()
        assert (exported / lang / GAME / "faq" / "tie-break" / "index.html").exists()
        assert (exported / lang / "search" / "index.html").exists()
    html = (exported / "en" / GAME / "faq" / "tie-break" / "index.html").read_text(encoding="utf-8")
    assert 'href="/' not in html and "correction" not in html
    assert '<link rel="canonical" href="https://rules.example/en/ohne-furcht-und-adel/faq/tie-break">' in html


def test_export_browses_and_searches_offline(page, exported):
    page.goto((exported / "de" / "index.html").as_uri())
    page.locator(f'a[href="{GAME}/index.html"]').first.click()
    expect(page.locator("h1")).to_have_text("Ohne Furcht und Adel")
    expect(page.locator("link[rel=stylesheet]")).to_have_count(1)
    page.locator("#faq-tie-break > summary").click()  # answers are collapsed on the game page
    page.locator("a[href='faq/tie-break/index.html']").first.click()
    expect(page.locator(".citation").first).to_contain_text("Regelheft")
    page.locator("#q").fill("Baumeister")
    page.locator("#q").press("Enter")
    expect(page.locator("#results a").first).to_be_visible()
    links = page.locator("#results a")
    assert any("architect-builds" in (links.nth(i).get_attribute("href") or "") for i in range(links.count()))
    links.first.click()
    assert page.url.startswith("file://")
    expect(page.locator("h1")).to_be_visible()


def test_export_styles_apply(page, exported):
    page.goto((exported / "it" / GAME / "index.html").as_uri())
    color = page.evaluate("getComputedStyle(document.querySelector('.citation')).backgroundColor")
    assert color == "rgb(243, 239, 228)"
    assert re.search(r"Cittadelle", page.title())
