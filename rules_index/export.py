"""A static copy of the whole site for a USB stick at the game table: ``flask --app app export OUT``.

Every reader page of every game and language is rendered by the app itself and written as
``<path>/index.html`` with relative links only, so the copy opens from ``file://`` and from any
folder of any web server. Search works offline (``static/search-index.js`` and MiniSearch), the
calculators compute in the browser; pages that need the server are left out. Links meant to be
shared point to ``base_url``, the live site; without one they are left out.
"""
from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, render_template
from flask_babel import force_locale, gettext

from .content import DEFAULT_LANG, LANGS
from .present import LANGUAGE_NAMES, games_by_title
from .search.offline import search_data_js

# Root-relative links in attributes (not "//host/…" links, which leave the site).
_LINK = re.compile(r'(href|src|action)="(/(?!/)[^"]*)"')
# The offline search page is rendered at /<lang>/offline-search and written where search lives.
_OFFLINE_SEARCH = re.compile(rf"^/({'|'.join(LANGS)})/offline-search$")
# schema.org data names the live site's addresses: without a base URL there are none to name.
_JSON_LD = re.compile(r'<script type="application/ld\+json">.*?</script>', re.S)
# Without a base URL, pages are rendered at this address; nothing of it remains in the output.
_LOCAL_BASE = "http://localhost"
# Marks a folder as written by this module: only such a folder is ever replaced.
SEARCH_INDEX = "static/search-index.js"


class ExportError(Exception):
    """The export cannot be written (a page failed, or OUT holds something else)."""


def page_paths(library) -> list[str]:
    paths = [f"/{lang}/" for lang in LANGS] + [f"/{lang}/engine" for lang in LANGS]
    for game in library:
        for lang in LANGS:
            paths.append(f"/{lang}/{game.slug}/")
            paths.append(f"/{lang}/{game.slug}/coverage")
            paths += [f"/{lang}/{game.slug}/faq/{faq.id}" for faq in game.faq]
    return paths


def file_for(path: str) -> str:
    """The file a site path is written to: directories and pages become ``…/index.html``."""
    clean = path.split("?", 1)[0].split("#", 1)[0].strip("/")
    if clean.startswith("static/"):
        return clean
    return f"{clean}/index.html" if clean else "index.html"


def relative_links(html: str, page_path: str, root: str = "") -> str:
    """Every root-relative link of a page at ``page_path``, made relative to its file.

    ``root`` is the path the pages were rendered under (the base URL's path, e.g. ``/rules``);
    it is taken off the links first. Query strings go: the export has one file per page.
    """
    here = posixpath.dirname(file_for(page_path)) or "."

    def rewrite(match: re.Match) -> str:
        attr, target = match.groups()
        if root and (target == root or target.startswith(root + "/")):
            target = target[len(root):] or "/"
        path, _, fragment = target.partition("#")
        path = _OFFLINE_SEARCH.sub(r"/\1/search", path.split("?", 1)[0])
        rel = posixpath.relpath(file_for(path), here)
        return f'{attr}="{rel}{"#" + fragment if fragment else ""}"'

    return _LINK.sub(rewrite, html)


def _export_url(url: str) -> str:
    """A hit's address in the offline search: its file in the export, relative to the root."""
    path, _, fragment = url.partition("#")
    return file_for(path) + (f"#{fragment}" if fragment else "")


def manifest_file(lang: str) -> str:
    """Where the export's web app manifest of ``lang`` is written (its pages link to it)."""
    return f"static/manifest.{lang}.webmanifest"


def export_manifest(lang: str) -> dict:
    """The live site's manifest with addresses relative to the manifest file, so the copy
    installs from any folder of a web server."""
    from .web.installable import manifest

    here = posixpath.dirname(manifest_file(lang))
    return manifest(lang, posixpath.relpath(file_for(f"/{lang}/"), here), "../",
                    lambda path: posixpath.relpath(f"static/{path}", here))


def front_door(app: Flask, library) -> str:
    """``OUT/index.html``: the three languages, each in its own words, with the games."""
    choices = []
    for lang in LANGS:
        with app.test_request_context(f"/{lang}/"), force_locale(lang):
            choices.append({
                "lang": lang, "name": LANGUAGE_NAMES[lang], "href": file_for(f"/{lang}/"),
                "title": gettext("Rules Reference"),
                "lead": gettext("Ask in your own words, in German, English or Italian."),
                "games": [game.title(lang) for game in games_by_title(library, lang)],
            })
    with app.test_request_context(f"/{DEFAULT_LANG}/"):
        return render_template("export_front.html", lang=DEFAULT_LANG, choices=choices)


def parse_base_url(value: str | None) -> str | None:
    """The live site's address as given to ``--base-url``, without a trailing slash; raises
    ValueError unless it is an http(s) URL with a host and no query or fragment."""
    if not value:
        return None
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError("expected an http:// or https:// address such as https://rules.example.org/")
    return value.strip().rstrip("/")


def export_site(app: Flask, out: Path, base_url: str | None = None) -> int:
    """Write the static site into ``out`` (an earlier export there is replaced); returns the number
    of pages. ``base_url`` (see :func:`parse_base_url`) is where the live site is."""
    from .web.calculator_forms import calculator_pages
    from .web.state import library

    out = Path(out)
    base_url = parse_base_url(base_url)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / SEARCH_INDEX).exists())):
        raise ExportError(f"{out} exists and is not an earlier export; choose an empty or new folder")
    root = urlsplit(base_url).path.rstrip("/") if base_url else ""
    saved = {key: app.config.get(key) for key in ("STATIC_EXPORT", "EXPORT_BASE_URL")}
    app.config.update(STATIC_EXPORT=True, EXPORT_BASE_URL=base_url)
    out.parent.mkdir(parents=True, exist_ok=True)
    # Written next to OUT, then swapped in: a failed export leaves the earlier one in place.
    staging = out.parent / f".{out.name}.export-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        with app.app_context():
            lib = library()
        # Every page is a request to the app, rendered exactly as the live site renders it.
        client = app.test_client()
        pages = [(path, path) for path in page_paths(lib)] + calculator_pages(lib)
        pages += [(f"/{lang}/offline-search", f"/{lang}/search") for lang in LANGS]
        for rendered, written in pages:
            response = client.get(rendered, base_url=base_url or _LOCAL_BASE)
            if response.status_code != 200:
                raise ExportError(f"{rendered}: HTTP {response.status_code}")
            html = response.get_data(as_text=True)
            if not base_url:
                html = _JSON_LD.sub("", html)
            target = staging / file_for(written)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(relative_links(html, written, root), encoding="utf-8")
        (staging / "index.html").write_text(front_door(app, lib), encoding="utf-8")
        shutil.copytree(app.static_folder, staging / "static")
        (staging / SEARCH_INDEX).write_text(search_data_js(lib, _export_url), encoding="utf-8")
        for lang in LANGS:
            with app.test_request_context(f"/{lang}/"):
                (staging / manifest_file(lang)).write_text(json.dumps(export_manifest(lang), ensure_ascii=False), encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    finally:
        app.config.update(saved)
        shutil.rmtree(staging, ignore_errors=True)
    return len(pages) + 1
