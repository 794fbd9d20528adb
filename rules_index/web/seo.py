"""Findable and shareable: sitemap, robots.txt, OpenSearch description, OpenAPI document."""
from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from rules_index.content import LANGS

from .calculator_forms import calculator_pages
from .openapi import openapi_document
from .state import library

bp = Blueprint("seo", __name__)


def base_url() -> str:
    return request.url_root.rstrip("/")


@bp.app_template_global()
def public_base() -> str | None:
    """Where links meant to leave the page point (canonical, hreflang, og:url, an answer's link
    field): this request's root. A static export is rendered at its ``--base-url``; without one
    it has no public address, and these links are left out (None)."""
    if current_app.config.get("STATIC_EXPORT") and not current_app.config.get("EXPORT_BASE_URL"):
        return None
    return base_url()


@bp.get("/robots.txt")
def robots():
    body = f"User-agent: *\nDisallow: /editor/\nDisallow: /api/\nAllow: /\nSitemap: {base_url()}/sitemap.xml\n"
    return Response(body, mimetype="text/plain")


@bp.get("/sitemap.xml")
def sitemap():
    pages = []
    for lang in LANGS:
        pages.append((f"/{lang}/", None))
    games = list(library())
    calculators = [path for _address, path in calculator_pages(games)]
    for game in games:
        stand = game.info.stand.isoformat()
        for lang in LANGS:
            pages.append((f"/{lang}/{game.slug}/", stand))
            for faq in game.faq:
                pages.append((f"/{lang}/{game.slug}/faq/{faq.id}", stand))
            # The calculators and what the engine covers are pages a player looks for too.
            pages += [(path, stand) for path in calculators if path.startswith(f"/{lang}/{game.slug}/")]
            pages.append((f"/{lang}/{game.slug}/coverage", stand))
    body = render_template("sitemap.xml", base=base_url(), pages=pages, langs=LANGS)
    return Response(body, mimetype="application/xml")


@bp.get("/opensearch.xml")
def opensearch():
    lang = request.args.get("lang", "de")
    lang = lang if lang in LANGS else "de"
    body = render_template("opensearch.xml", base=base_url(), lang=lang)
    return Response(body, mimetype="application/opensearchdescription+xml")


@bp.get("/api/v1/openapi.json")
def openapi():
    return jsonify(openapi_document(base_url(), [g.slug for g in library()]))
