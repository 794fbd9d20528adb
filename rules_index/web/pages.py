"""Reader-facing pages, server-rendered and usable without JavaScript."""
from __future__ import annotations

import logging
import re
from urllib.parse import urlencode

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import force_locale, gettext, lazy_gettext

from rules_index import present, previews, structured_data
from rules_index.corrections import availability, changes, history
from rules_index.corrections.db import session as db_session
from rules_index.corrections.extras import entry_extras
from rules_index.coverage import game_coverage
from rules_index.content import LANGS, Game
from rules_index.engines import InputError, calculators_for
from rules_index.render import first_sentence, inline_html, markdown_html, marked_answer_html, plain_text, reader_markdown
from rules_index.search import MAX_QUERY_CHARS, clean_query

from . import calculator_forms, page_cache, site_version
from .browser_lang import browser_lang
from . import previews as web_previews
from .seo import public_base
from .state import content_dir, library, related_faq, search_results, verification

log = logging.getLogger(__name__)

bp = Blueprint("pages", __name__)

# A language named inside a sentence of the interface, in the interface's language ("sul testo in
# tedesco"); language choices use each language's own name (present.LANGUAGE_NAMES).
LANGUAGE_IN_SENTENCE = {"de": lazy_gettext("German"), "en": lazy_gettext("English"), "it": lazy_gettext("Italian")}

KIND_LABELS = {
    "faq": lazy_gettext("Question"),
    "fact": lazy_gettext("At a glance"),
    "section": lazy_gettext("Rule"),
    "mistake": lazy_gettext("Common mistake"),
    "glossary": lazy_gettext("Glossary"),
}


bp.add_app_template_filter(markdown_html, "markdown")
bp.add_app_template_filter(reader_markdown, "reader_markdown")
bp.add_app_template_filter(inline_html, "markdown_inline")


@bp.app_template_filter("first_sentence")
def first_sentence_filter(text: str) -> str:
    return first_sentence(plain_text(text))


TRACKING = re.compile(present.TRACKING_PARAMETERS)


@bp.app_context_processor
def helpers():
    def alternates() -> dict[str, str]:
        """The current page in each language (the language switch and hreflang)."""
        if request.endpoint is None or not request.view_args or "lang" not in request.view_args:
            return {lang: url_for("pages.home", lang=lang) for lang in LANGS}
        # The query string is appended as it came, never handed to url_for: a parameter named
        # like a view argument or like url_for's own options (_external, _method) would clash.
        # What a chat or a newsletter added to a shared link (utm_*, fbclid…) is left behind.
        query = urlencode([(k, v) for k, v in request.args.items(multi=True) if not TRACKING.match(k)])
        suffix = f"?{query}" if query else ""
        return {lang: url_for(request.endpoint, **{**request.view_args, "lang": lang}) + suffix for lang in LANGS}

    return {
        "LANGS": LANGS,
        "max_query_chars": MAX_QUERY_CHARS,
        "alternates": alternates,
        "entry_url": present.entry_url,
        "permalink": present.permalink,
        "anchor": present.ANCHOR_PREFIX,
        "kind_label": lambda kind: KIND_LABELS[kind],
        "language_in_sentence": lambda code: LANGUAGE_IN_SENTENCE[code],
        "calculator_title": lambda slug, name: calculator_forms.TITLES[f"{slug}/{name}"],
    }


@bp.get("/")
def root():
    lang = browser_lang()
    response = redirect(url_for("pages.home", lang=lang))
    response.vary.add("Accept-Language")
    return response


def _check_lang(lang: str) -> None:
    if lang not in LANGS:
        abort(404)


def _game_or_404(slug: str) -> Game:
    game = library().game(slug)
    if game is None:
        abort(404)
    return game


@bp.get("/<lang>/")
@site_version.conditional
def home(lang: str):
    _check_lang(lang)
    return render_template("home.html", lang=lang, games=present.games_by_title(library(), lang),
                           image_url=web_previews.site_image_url(lang) if public_base() else None)


# Only a language of the site starts a game's address: another two-segment address ("/editor/logout",
# which takes POST only) is then a 405 with its Allow, not a 308 to a slash and a page of no game.
@bp.get(f"/<any({', '.join(LANGS)}):lang>/<slug>/")
@site_version.conditional
def game(lang: str, slug: str):
    _check_lang(lang)
    found = _game_or_404(slug)
    return render_template("game.html", lang=lang, game=found, calculators=[
        name for name in calculators_for(slug) if f"{slug}/{name}" in calculator_forms.FORMS
    ], jsonld=structured_data.faq_page(found, lang, request.url_root.rstrip("/")),
        image_url=web_previews.game_image_url(lang, slug) if public_base() else None)


@bp.get("/<lang>/<slug>/faq/<faq_id>")
@page_cache.cached
def faq(lang: str, slug: str, faq_id: str):
    _check_lang(lang)
    found = _game_or_404(slug)
    entry = found.faq_entry(faq_id)
    if entry is None:
        abort(404)
    related = related_faq(found, entry, lang)
    extras = entry_extras(slug, "faq", faq_id, lang)
    preview = previews.answer_preview(found, entry, lang)
    base = public_base()
    share = base + present.permalink(lang, slug, faq_id) if base else None
    return render_template(
        "faq.html", lang=lang, game=found, entry=entry, related=related,
        section=found.section(entry.section), mistakes=found.mistakes_for(faq_id),
        canonical=request.url_root.rstrip("/") + present.permalink(lang, slug, faq_id),
        jsonld=structured_data.qa_page(found, entry, lang, request.url_root.rstrip("/"), found.info.stand.isoformat()),
        verified=present.verified_json(entry, verification().for_entry(slug, "faq", faq_id), lang, verification().facts_for(slug, "faq", faq_id)),
        answer_html=marked_answer_html(entry.text(lang).answer, present.fact_targets(entry, lang)),
        under_review=extras.under_review, history_count=extras.history_count,
        preview=preview, quote_text=previews.quote_text(preview, share), quote_markdown=previews.quote_markdown(preview, share),
        image_url=web_previews.image_url(lang, slug, faq_id) if base else None,
        oembed_url=url_for("previews.oembed", url=share, format="json", _external=True) if base else None,
        language_hints=_language_hints(lang, slug, faq_id),
    )


def _language_hints(lang: str, slug: str, faq_id: str) -> list[dict]:
    """The answer in each other language, offered in that language's own words; a script shows
    the one the reader's browser prefers (the page stays the same for every reader, so it is
    cached as one)."""
    hints = []
    for other in LANGS:
        if other == lang:
            continue
        with force_locale(other):
            # Translators: shown in your language on a page in another one; name your own language.
            hints.append({"lang": other, "url": present.permalink(other, slug, faq_id),
                          "text": gettext("Read this answer in English")})
    return hints


@bp.get("/<lang>/search")
@site_version.conditional
def search(lang: str):
    _check_lang(lang)
    query = clean_query(request.args.get("q", ""))  # echoed as searched: no control or bidirectional characters
    game_filter = request.args.get("game") or None
    unknown_game = game_filter is not None and library().game(game_filter) is None
    if unknown_game:
        game_filter = None
    as_typed = request.args.get("as_typed") == "1"  # "search instead for" the words as typed
    result = search_results(query, lang, game=game_filter, limit=30, correct=not as_typed) if query else None
    games = library()
    hits = [present.hit_view(hit, lang, games.game(hit.game)) for hit in result.hits] if result else []
    picked = library().game(result.game) if result is not None and result.game and not game_filter else None
    # A shared search with an answer card shows that answer's picture, as its own page does; any
    # other, the site's (described as on the home page).
    best = next((hit for hit in result.hits if hit.best and hit.kind == "faq"), None) if result else None
    card = previews.answer_preview(games.game(best.game), games.game(best.game).faq_entry(best.entry), lang) if best else None
    image_url = None
    if public_base():
        image_url = web_previews.image_url(lang, best.game, best.entry) if best else web_previews.site_image_url(lang)
    return render_template(
        "search.html", lang=lang, query=query, result=result, hits=[h for h in hits if not h["close"]],
        close=[h for h in hits if h["close"]], picked_game=picked, examples=present.example_questions(library(), lang),
        game_filter=game_filter or (picked.slug if picked else None), unknown_game=unknown_game, games=present.games_by_title(library(), lang),
        image_url=image_url, card_preview=card,
    )


@bp.get("/<lang>/<slug>/calculators/<name>")
@site_version.conditional
def calculator(lang: str, slug: str, name: str):
    """A rule calculator as a page: the form, and the engine's answer once submitted."""
    _check_lang(lang)
    found = _game_or_404(slug)
    compute = calculators_for(slug).get(name)
    form = calculator_forms.FORMS.get(f"{slug}/{name}")
    if compute is None or form is None:
        abort(404)
    filled = form(request.args)
    answer = None
    if filled.submitted and not filled.errors:
        try:
            answer = compute(filled.payload)
        except InputError as exc:
            # The form states every rule the engine refuses on, in the reader's language; this is
            # a rule it missed: said in general here, logged to be added.
            log.warning("calculator %s/%s refused what its form let through: %s", slug, name, exc)
            filled.errors["form"] = gettext("These values do not fit the game's rules.")
    return render_template(
        f"calculators/{slug}/{name}.html", lang=lang, game=found, form=filled, answer=answer,
        args=request.args, rows=filled.rows or calculator_forms.MAX_ROWS.get(f"{slug}/{name}", 0),
        max_rows=calculator_forms.MAX_ROWS.get(f"{slug}/{name}", 0),
        share_url=_share_url() if answer is not None else None, **calculator_forms.context(f"{slug}/{name}", request.args),
        image_url=web_previews.game_image_url(lang, slug) if public_base() else None,
    )


def _share_url() -> str | None:
    """The address of this result (its whole input is in the query), for the "link to this result"
    field; without a public address (a static export) there is no link."""
    base = public_base()
    if base is None:
        return None
    # Empty fields mean the same as absent ones: left out, the link stays short enough to share.
    query = urlencode([(k, v) for k, v in request.args.items(multi=True) if k != "rows" and v.strip()])
    return f"{base}{request.path}?{query}"


@bp.get("/<lang>/<slug>/coverage")
@site_version.conditional
def coverage(lang: str, slug: str):
    """Which FAQ entries, mistakes and engine checks cover each section of the rules summary."""
    _check_lang(lang)
    found = _game_or_404(slug)
    return render_template("coverage.html", lang=lang, game=found, coverage=game_coverage(found))


@bp.get("/<lang>/engine")
@site_version.conditional
def engine(lang: str):
    """What the rules engine is, what its checks mean, and what it cannot know."""
    _check_lang(lang)
    return render_template("engine.html", lang=lang)


@bp.get("/<lang>/<slug>/faq/<faq_id>/history")
def faq_history(lang: str, slug: str, faq_id: str):
    """Every accepted change of an entry: who, when, what changed (as a word diff), from which report."""
    _check_lang(lang)
    found = _game_or_404(slug)
    entry = found.faq_entry(faq_id)
    if entry is None:
        abort(404)
    return _history(lang, found, "faq", faq_id, entry.text(lang).question, present.permalink(lang, slug, faq_id),
                    web_previews.image_url(lang, slug, faq_id) if public_base() else None)


@bp.get("/<lang>/<slug>/rules/<section_id>/history")
def section_history(lang: str, slug: str, section_id: str):
    """Every accepted change of a rules section, as an entry's history shows them."""
    _check_lang(lang)
    found = _game_or_404(slug)
    section = found.section(section_id)
    if section is None:
        abort(404)
    return _history(lang, found, "section", section_id, section.title(lang), present.entry_url("section", lang, slug, section_id),
                    web_previews.game_image_url(lang, slug) if public_base() else None)


def _history(lang: str, game: Game, kind: str, target: str, title: str, back: str, image_url: str | None):
    availability.require()  # the page is the database's rows: 503 while it cannot be used
    items = history.entry_history(db_session(), changes.history(db_session(), game.slug, kind, target), lang,
                                  changes.content_repo(content_dir()))
    return render_template("history.html", lang=lang, game=game, title=title, back=back, items=items,
                           language_names=present.LANGUAGE_NAMES, image_url=image_url)


@bp.get("/<lang>/offline-search")
def offline_search(lang: str):
    """The search that runs in the browser from a prebuilt index: the static export's search page,
    and on the live site what the service worker shows for a search made without a network."""
    from .installable import search_data_url

    _check_lang(lang)
    export = current_app.config.get("STATIC_EXPORT")
    data = url_for("static", filename="search-index.js") if export else search_data_url()
    response = make_response(render_template("offline_search.html", lang=lang, games=present.games_by_title(library(), lang), search_data=data))
    if not export:
        response.headers["X-Robots-Tag"] = "noindex"  # the server's search page is the one to find
    return response
