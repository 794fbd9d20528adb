"""The site as an app on a phone: web app manifest, icons (``/favicon.ico`` too), and the
service worker that keeps what the reader opened for use without a network.

The worker (``templates/sw.js``) is rendered with the addresses of the current static files
(each carrying its content hash) and a version made from them, so a new release installs a new
worker that fetches the new files and drops the old ones. Pages are fetched from the network
first and kept as they arrive; without a network the kept copy is shown, and a page never opened
gets a short page in the reader's language that says so.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Blueprint, abort, current_app, jsonify, render_template, send_from_directory, url_for
from flask_babel import force_locale, gettext

from rules_index.content import LANGS

from .headers import static_url

bp = Blueprint("installable", __name__)

THEME_COLOUR = "#8a2d1c"       # the accent of static/site.css
BACKGROUND_COLOUR = "#fffdf8"  # its paper
ICONS = [("icons/icon-192.png", "192x192", "any"), ("icons/icon-512.png", "512x512", "any"),
         ("icons/icon-maskable-512.png", "512x512", "maskable")]
# What an answer page, the search and the calculators need besides their HTML.
SHELL_FILES = ["site.css", "copy-link.js", "disclosure.js", "calculator.js", "language-hint.js", "register-sw.js", "error-summary.js",
               "icons/icon-192.png", "icons/favicon.ico"]
# Each game's calculators compute with a script of their own (static/calculators/<game>.js).
CALCULATOR_SCRIPTS = "calculators"


def manifest(lang: str, start_url: str, scope: str, icon_url) -> dict:
    """The web app manifest in ``lang``; ``icon_url(path)`` is where a file of static/ is served."""
    with force_locale(lang):
        name = gettext("Rules Reference")
        description = gettext("Short answers to board game rules questions, with the rulebook page.")
    return {
        "id": start_url,
        "name": name,
        "short_name": name,
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


@bp.get("/sw.js")
def service_worker():
    scripts = sorted(f"{CALCULATOR_SCRIPTS}/{path.name}"
                     for path in (Path(current_app.static_folder) / CALCULATOR_SCRIPTS).glob("*.js"))
    precache = [static_url(name) for name in SHELL_FILES + scripts]
    offline = {lang: url_for("installable.offline", lang=lang) for lang in LANGS}
    precache += list(offline.values())
    version = hashlib.blake2b("\0".join(precache).encode(), digest_size=8).hexdigest()
    body = render_template("sw.js", version=version, precache=precache, offline=offline,
                           static_prefix=url_for("static", filename=""), skip=[url_for("pages.root") + p for p in ("editor", "api/")])
    response = current_app.response_class(body, mimetype="text/javascript")
    response.cache_control.no_cache = True  # the browser checks for a new worker on every visit
    return response


@bp.get("/<lang>/offline")
def offline(lang: str):
    """What the worker shows for a page never opened while there is no network."""
    if lang not in LANGS:
        abort(404)
    return render_template("offline.html", lang=lang)
