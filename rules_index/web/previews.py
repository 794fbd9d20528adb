"""A page outside the site: the preview picture (``og:image``) of an answer, a game's page and
the start page, and an answer's oEmbed card.

The picture's address carries its version (``card_version``: the text it shows and how it is
drawn), so a chat service that keeps pictures by address gets a new one when the page changes,
and the picture itself can be cached for a year.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, jsonify, request, url_for
from flask_babel import force_locale, gettext, ngettext

from rules_index.caches import MiB, ByteCache
from rules_index.content import DEFAULT_LANG, LANGS
from rules_index.present import games_by_title
from rules_index.previews import Preview, answer_preview, card_html, game_preview, site_preview
from rules_index.previews.card import HEIGHT, WIDTH, card_png, card_version

from .headers import YEAR
from .not_found import first_real_page, meant_addresses
from .state import library

bp = Blueprint("previews", __name__)

# A picture is 30-60 kB: a few hundred stay in memory per process.
_pictures = ByteCache(16 * MiB)
CARD_WIDTH, CARD_HEIGHT = 600, 260  # the oEmbed card's size when the consumer sets no bounds
OEMBED_CACHE_AGE = 24 * 3600


def site_name(lang: str) -> str:
    with force_locale(lang):
        return gettext("Rules Reference")


def _game(lang: str, slug: str):
    game = library().game(slug) if lang in LANGS else None
    if game is None:
        abort(404)
    return game


def _answer(lang: str, slug: str, faq_id: str):
    game = _game(lang, slug)
    entry = game.faq_entry(faq_id)
    if entry is None:
        abort(404)
    return game, entry


def _questions(count: int) -> str:
    return ngettext("%(num)d question", "%(num)d questions", count)


def _game_preview(lang: str, slug: str) -> Preview:
    game = _game(lang, slug)
    with force_locale(lang):
        return game_preview(game, lang, _questions(len(game.faq)))


def _site_preview(lang: str) -> Preview:
    if lang not in LANGS:
        abort(404)
    games = games_by_title(library(), lang)
    with force_locale(lang):
        return site_preview(games, lang, gettext("Rules questions, answered with the rulebook page"),
                            _questions(sum(len(game.faq) for game in games)))


def _version_url(endpoint: str, lang: str, preview: Preview, **args) -> str:
    version = card_version(preview, site_name(lang))
    return url_for(endpoint, lang=lang, v=version, _external=True, **args)


def image_url(lang: str, slug: str, faq_id: str) -> str:
    """The absolute address of the answer's preview picture, with its version."""
    game, entry = _answer(lang, slug, faq_id)
    return _version_url("previews.image", lang, answer_preview(game, entry, lang), slug=slug, faq_id=faq_id)


def game_image_url(lang: str, slug: str) -> str:
    """The absolute address of a game page's preview picture, with its version."""
    return _version_url("previews.game_image", lang, _game_preview(lang, slug), slug=slug)


def site_image_url(lang: str) -> str:
    """The absolute address of the start page's preview picture, with its version."""
    return _version_url("previews.site_image", lang, _site_preview(lang))


def _picture(preview: Preview, lang: str):
    name = site_name(lang)
    version = card_version(preview, name)
    picture = _pictures.get(version)
    if picture is None:
        picture = card_png(preview, name)
        _pictures.put(version, picture)
    response = current_app.response_class(picture, mimetype="image/png")
    response.set_etag(version)
    response.cache_control.public = True
    if request.args.get("v") == version:
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
    else:  # an old or bare address: the current picture, checked again next time
        response.cache_control.no_cache = True
    return response.make_conditional(request)


@bp.get("/<lang>/<slug>/faq/<faq_id>/preview.png")
def image(lang: str, slug: str, faq_id: str):
    game, entry = _answer(lang, slug, faq_id)
    return _picture(answer_preview(game, entry, lang), lang)


@bp.get("/<lang>/<slug>/preview.png")
def game_image(lang: str, slug: str):
    return _picture(_game_preview(lang, slug), lang)


@bp.get("/<lang>/preview.png")
def site_image(lang: str):
    return _picture(_site_preview(lang), lang)


def _answer_from_url(url: str):
    """The (lang, slug, faq_id) of an answer URL of this site, or None (also for a URL that
    cannot be read, such as "http://[::1/x": no answer is there)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https", "") or (parts.netloc and parts.netloc != request.host):
        return None
    adapter = current_app.url_map.bind(request.host, script_name=request.script_root or None)
    path = parts.path
    root = request.script_root
    if root and path.startswith(root + "/"):
        path = path[len(root):]
    # The address as pasted, or the one the site would lead it to (a trailing slash, another
    # name of the game, capitals: not_found.meant_addresses).
    found = first_real_page(adapter, (path, *meant_addresses(path, DEFAULT_LANG)), "pages.faq")
    return None if found is None else (found[1]["lang"], found[1]["slug"], found[1]["faq_id"])


def _bound(name: str) -> int | None:
    """``maxwidth`` / ``maxheight``: None when absent; ValueError unless a positive whole number."""
    value = request.args.get(name)
    if value is None or value == "":
        return None
    if not value.isascii() or not value.isdigit() or int(value) < 1 or len(value) > 6:
        raise ValueError(f"{name} must be a positive whole number")
    return int(value)


@bp.get("/oembed")
def oembed():
    """oEmbed 1.0 (https://oembed.com): a rich card for an answer's URL, as JSON."""
    url = request.args.get("url", "")
    if not url:
        return jsonify(error="url is required"), 400
    if request.args.get("format", "json") != "json":
        return jsonify(error="only format=json is offered"), 501
    found = _answer_from_url(url)
    game = library().game(found[1]) if found is not None and found[0] in LANGS else None
    entry = game.faq_entry(found[2]) if game is not None else None
    if entry is None:
        return jsonify(error="not an answer of this site"), 404
    lang, slug, faq_id = found
    try:
        max_width, max_height = _bound("maxwidth"), _bound("maxheight")
    except ValueError as exc:
        return jsonify(error=str(exc)), 400
    preview, name = answer_preview(game, entry, lang), site_name(lang)
    canonical = url_for("pages.faq", lang=lang, slug=slug, faq_id=faq_id, _external=True)
    card = {
        "version": "1.0",
        "type": "rich",
        "title": preview.question,
        "author_name": preview.game,
        "provider_name": name,
        "provider_url": url_for("pages.home", lang=lang, _external=True),
        "cache_age": OEMBED_CACHE_AGE,
        "html": card_html(preview, canonical, name),
        "width": min(CARD_WIDTH, max_width or CARD_WIDTH),
        "height": min(CARD_HEIGHT, max_height or CARD_HEIGHT),
    }
    # The thumbnail is offered only where it fits the consumer's bounds.
    if (max_width or WIDTH) >= WIDTH and (max_height or HEIGHT) >= HEIGHT:
        card.update(thumbnail_url=image_url(lang, slug, faq_id), thumbnail_width=WIDTH, thumbnail_height=HEIGHT)
    return jsonify(card)
