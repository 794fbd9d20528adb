"""The site as an app on a phone: web app manifest, icons (``/favicon.ico`` too), and the
service worker that keeps what the reader opened for use without a network.

The worker (``templates/sw.js``) is rendered with the addresses of the current static files and
the search data (each carrying its version) and a version made from them, so a new release or new
content installs a new worker. Pages come from the network first and are kept as they arrive;
without a network the kept copy is shown, else a short page that says so. At install it keeps
what the search and the calculators need offline: the offline search page and every calculator
page with every player card.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Blueprint, abort, current_app, jsonify, render_template, request, send_from_directory, url_for
from flask_babel import force_locale, gettext

from rules_index import present
from rules_index.content import LANGS
from rules_index.search.offline import search_data_js

from .calculator_forms import calculator_pages
from .headers import YEAR, static_url
from .site_version import release
from .state import library

bp = Blueprint("installable", __name__)

THEME_COLOUR = "#8a2d1c"       # the accent of static/site.css
BACKGROUND_COLOUR = "#fffdf8"  # its paper
ICONS = [("icons/icon-192.png", "192x192", "any"), ("icons/icon-512.png", "512x512", "any"),
         ("icons/icon-maskable-512.png", "512x512", "maskable")]
# What an answer page, the search and the calculators need besides their HTML.
SHELL_FILES = ["site.css", "copy-link.js", "disclosure.js", "calculator.js", "language-hint.js", "register-sw.js", "error-summary.js",
               "icons/icon-192.png", "icons/favicon.ico", "offline-search.js", "vendor/minisearch.js"]
# Each game's calculators compute with a script of their own (static/calculators/<game>.js).
CALCULATOR_SCRIPTS = "calculators"
SEARCH_DATA_KEY = "rules_index.offline_search_data"


def manifest(lang: str, start_url: str, scope: str, icon_url) -> dict:
    """The web app manifest in ``lang``; ``icon_url(path)`` is where a file of static/ is served."""
    with force_locale(lang):
        name = gettext("Rules Reference")
        # Under the home-screen icon, where about 12 characters show.
        short_name = gettext("Rules FAQ")
        description = gettext("Short answers to board game rules questions, each with its source: the rulebook page where there is one.")
    return {
        "id": start_url,
        "name": name,
        "short_name": short_name,
        "description": description,
        "lang": lang,
        "start_url": start_url,
        "scope": scope,
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [{"src": icon_url(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
                  for path, sizes, purpose in ICONS],
    }


@bp.get("/<lang>/manifest.webmanifest")
def web_manifest(lang: str):
    if lang not in LANGS:
        abort(404)
    body = manifest(lang, url_for("pages.home", lang=lang), url_for("pages.root"), static_url)
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/favicon.ico")
def favicon():
    return send_from_directory(current_app.static_folder, "icons/favicon.ico", mimetype="image/vnd.microsoft.icon", max_age=24 * 3600)


def _search_data() -> tuple[str, str]:
    """(version, script) of the offline search's data for the library served, built once per
    library (it takes a fraction of a second)."""
    served, root = library(), request.script_root
    kept = current_app.extensions.get(SEARCH_DATA_KEY)
    if kept is None or kept[0] is not served or kept[1] != root:
        body = search_data_js(served, lambda path: root + path)
        kept = (served, root, hashlib.blake2b(body.encode(), digest_size=8).hexdigest(), body)
        current_app.extensions[SEARCH_DATA_KEY] = kept
    return kept[2], kept[3]


def search_data_url() -> str:
    """The address of the offline search's data of the content served (its version in it)."""
    return url_for("installable.search_data", v=_search_data()[0])


@bp.get("/offline-search-data.js")
def search_data():
    version, body = _search_data()
    response = current_app.response_class(body, mimetype="text/javascript")
    if request.args.get("v") == version:  # this address holds these bytes for good
        response.cache_control.public = True
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
    else:
        response.cache_control.no_cache = True
    return response


@bp.get("/sw.js")
def service_worker():
    scripts = sorted(f"{CALCULATOR_SCRIPTS}/{path.name}"
                     for path in (Path(current_app.static_folder) / CALCULATOR_SCRIPTS).glob("*.js"))
    precache = [static_url(name) for name in SHELL_FILES + scripts] + [search_data_url()]
    offline = {lang: url_for("installable.offline", lang=lang) for lang in LANGS}
    precache += list(offline.values())
    # Offline, a page without a kept copy of its own is answered by its stand-in, kept at install.
    root = request.script_root
    standin = {url_for("pages.search", lang=lang): url_for("pages.offline_search", lang=lang) for lang in LANGS}
    standin.update({root + path: root + every_card for every_card, path in calculator_pages(library())})
    precache += list(standin.values())
    # Every answer and game page of a language, kept by the installed app once a page of that
    # language is read: at the table without a network, any answer the offline search finds opens
    # (about 300 KB a language).
    answers = {lang: [url_for("pages.game", lang=lang, slug=game.slug) for game in library()]
               + [root + present.permalink(lang, game.slug, entry.id) for game in library() for entry in game.faq]
               for lang in LANGS}
    # The stand-ins are rendered pages: a new release (templates, words) renews them too.
    version = hashlib.blake2b("\0".join([release(current_app.root_path), *precache]).encode(), digest_size=8).hexdigest()
    body = render_template("sw.js", version=version, precache=precache, offline=offline, standin=standin, answers=answers,
                           versioned=[url_for("static", filename=""), url_for("installable.search_data")],
                           skip=[url_for("pages.root") + p for p in ("editor", "api/")], tracking=present.TRACKING_PARAMETERS)
    response = current_app.response_class(body, mimetype="text/javascript")
    response.cache_control.no_cache = True  # the browser checks for a new worker on every visit
    return response


@bp.get("/<lang>/offline")
def offline(lang: str):
    """What the worker shows for a page never opened while there is no network."""
    if lang not in LANGS:
        abort(404)
    return render_template("offline.html", lang=lang)
