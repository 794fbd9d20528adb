"""The site as an app: manifest per language, icons, /favicon.ico, the service worker and its
offline page, and the same manifest and icons in the static export."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from PIL import Image

from rules_index.content import LANGS
from rules_index.web.calculator_forms import FORMS, MAX_ROWS

ANSWER = "/de/ohne-furcht-und-adel/faq/thief-forbidden-targets"


def fetched(client, url: str) -> bytes:
    """The body of a GET (a file's response closed, so its handle is too)."""
    with client.get(url) as response:
        assert response.status_code == 200, url
        return response.data


def test_favicon_is_an_icon_not_a_redirect(client):
    with client.get("/favicon.ico") as response:
        assert response.status_code == 200 and response.mimetype == "image/vnd.microsoft.icon"
        data = response.data
    icon = Image.open(io.BytesIO(data))
    assert icon.format == "ICO" and (32, 32) in icon.info["sizes"]


@pytest.mark.parametrize("lang", LANGS)
def test_manifest_makes_the_site_installable(client, lang):
    page = client.get(f"/{lang}/").get_data(as_text=True)
    href = re.search(r'<link rel="manifest" href="([^"]+)"', page).group(1)
    assert '<meta name="theme-color" content="#8a2d1c">' in page
    response = client.get(href)
    assert response.status_code == 200 and response.mimetype == "application/manifest+json"
    manifest = response.get_json()
    assert manifest["lang"] == lang and manifest["start_url"] == f"/{lang}/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone" and manifest["name"] and manifest["theme_color"] == "#8a2d1c"
    assert client.get(manifest["start_url"]).status_code == 200
    sizes = set()
    for icon in manifest["icons"]:
        image = Image.open(io.BytesIO(fetched(client, icon["src"])))
        assert f"{image.width}x{image.height}" == icon["sizes"] and image.format == "PNG"
        sizes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    assert client.get("/xx/manifest.webmanifest").status_code == 404
    # A home screen shows about 12 characters under the icon.
    assert 0 < len(manifest["short_name"]) <= 12 and manifest["short_name"] != manifest["name"]


def test_service_worker_is_registered_and_its_files_exist(client):
    page = client.get(ANSWER).get_data(as_text=True)
    worker = re.search(r'src="(/static/register-sw.js\?v=\w+)" data-worker="([^"]+)"', page)
    assert worker and worker.group(2) == "/sw.js"
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert "no-cache" in response.headers["Cache-Control"]
    body = response.get_data(as_text=True)
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", body).group(1))
    assert len(precache) >= 8
    for url in precache:
        fetched(client, url)
    # Every script and stylesheet an answer page or a calculator loads is in the worker's list.
    calculators = [client.get("/en/{}/calculators/{}".format(*key.split("/"))).get_data(as_text=True) for key in FORMS]
    for html in [page, *calculators]:
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+\.(?:js|css)\?v=\w+)"', html):
            assert asset in precache, asset
    # A new release of a static file is a new worker.
    assert re.search(r'const VERSION = "(\w+)"', body)


def test_editor_pages_start_no_offline_download(client):
    login = client.get("/editor/login").get_data(as_text=True)
    assert "<form" in login and "register-sw.js" not in login
    assert "register-sw.js" in client.get("/de/").get_data(as_text=True)


def _worker_constant(body: str, name: str):
    return json.loads(re.search(rf"const {name} = (.*?);\n", body).group(1))


def test_worker_keeps_the_search_and_every_calculator_page_for_use_offline(client):
    body = client.get("/sw.js").get_data(as_text=True)
    precache, standin = _worker_constant(body, "PRECACHE"), _worker_constant(body, "STANDIN")
    for lang in LANGS:
        assert standin[f"/{lang}/search"] == f"/{lang}/offline-search"
        for key in FORMS:
            slug, name = key.split("/")
            path = f"/{lang}/{slug}/calculators/{name}"
            # Every player card: offline there is no server to add one.
            assert standin[path] == path + (f"?rows={MAX_ROWS[key]}" if key in MAX_ROWS else "")
    assert set(standin.values()) <= set(precache)
    page = client.get("/de/offline-search").get_data(as_text=True)
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert [s for s in scripts if "search" in s or "minisearch" in s] and all(s in precache for s in scripts if "?v=" in s)
    data = next(url for url in precache if url.startswith("/offline-search-data.js?v="))
    assert data in scripts
    assert 'href="/en/search" hreflang="en"' in page  # the language switch keeps to the search


def test_offline_search_data_is_the_live_sites_and_kept_under_its_version(client):
    body = client.get("/sw.js").get_data(as_text=True)
    url = next(u for u in _worker_constant(body, "PRECACHE") if u.startswith("/offline-search-data.js"))
    response = client.get(url)
    assert response.mimetype == "text/javascript" and "immutable" in response.headers["Cache-Control"]
    data = json.loads(response.get_data(as_text=True).removeprefix("window.RULES_INDEX = ").rstrip().removesuffix(";"))
    doc = next(d for d in data["docs"] if d["kind"] == "faq" and d["entry"] == "thief-forbidden-targets" and d["lang"] == "de")
    assert doc["url"] == ANSWER  # the live page, not the export's file
    assert client.get(url).get_data() == response.get_data()
    # Another version's address is answered, but not kept for good.
    assert "immutable" not in client.get("/offline-search-data.js?v=old").headers["Cache-Control"]
    assert client.get("/de/offline-search").headers["X-Robots-Tag"] == "noindex"


@pytest.mark.parametrize("lang,words", [("de", "Kein Netz"), ("en", "No network"), ("it", "Rete assente")])
def test_offline_page_in_the_readers_language(client, lang, words):
    page = client.get(f"/{lang}/offline").get_data(as_text=True)
    assert f"<h1>{words}</h1>" in page


def test_export_has_manifest_and_icons(tmp_path):
    from apptools import make_app
    from rules_index.export import export_site
    app = make_app(tmp_path / "instance", Path(__file__).parents[1] / "fixtures" / "content")
    out = tmp_path / "site"
    export_site(app, out)
    for lang in LANGS:
        page = (out / lang / "index.html").read_text(encoding="utf-8")
        href = re.search(r'<link rel="manifest" href="([^"]+)"', page).group(1)
        assert href == f"../static/manifest.{lang}.webmanifest"
        manifest = json.loads((out / lang / href).read_text(encoding="utf-8"))
        assert (out / "static" / manifest["start_url"]).resolve() == (out / lang / "index.html").resolve()
        for icon in manifest["icons"]:
            assert (out / "static" / icon["src"]).is_file()
        assert "register-sw.js" not in page  # a file:// page has no service worker
        icon = re.search(r'<link rel="icon" href="([^"]+)"', page).group(1)
        assert (out / lang / icon).resolve().is_file()
