"""The web layer: pages, JSON API and error handling, wired into the app by ``init_app``."""
from __future__ import annotations

import os

from flask import Flask
from jinja2 import FileSystemBytecodeCache
from werkzeug.routing import IntegerConverter

from rules_index.corrections import availability, db

from . import api, changes_api, corrections, editor, errors, following, front, headers, i18n, installable, page_cache, pages, previews, security, seo, settings, site_version, state


def _keep_compiled_templates(app: Flask) -> None:
    """Templates compiled once are kept on disk (``TEMPLATE_CACHE_DIR``, default in the instance
    folder), so a worker that starts loads them instead of compiling them; a changed template has
    another checksum and is compiled again."""
    folder = app.config.get("TEMPLATE_CACHE_DIR") or os.path.join(app.instance_path, "compiled-templates")
    os.makedirs(folder, exist_ok=True)
    app.jinja_env.bytecode_cache = FileSystemBytecodeCache(folder)


class RowNumber(IntegerConverter):
    """``<int:…>`` in the site's addresses: a row's number, so at most what the database's 64-bit
    integers hold; a larger one is no row (404) rather than an overflow in the database driver."""

    def __init__(self, url_map, *args, **kwargs):
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(url_map, *args, **kwargs)


def init_app(app: Flask) -> None:
    settings.check(app.config)  # a wrong setting stops the start, named
    app.url_map.converters["int"] = RowNumber  # before any route is added
    _keep_compiled_templates(app)
    state.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    db.init_app(app)
    availability.init_app(app)
    site_version.init_app(app)
    page_cache.init_app(app)
    security.init_app(app)
    headers.init_app(app)
    app.register_blueprint(api.bp)
    security.csrf.exempt(api.bp)
    app.register_blueprint(changes_api.bp)
    security.csrf.exempt(changes_api.bp)
    app.register_blueprint(corrections.bp)
    app.register_blueprint(editor.bp)
    app.register_blueprint(seo.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(previews.bp)
    app.register_blueprint(installable.bp)
    front.init_app(app)
    following.init_app(app)
