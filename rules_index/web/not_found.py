"""What a missing page offers instead: the words of its address and the closest entries for them."""
from __future__ import annotations

import re
from dataclasses import dataclass

from flask import current_app, url_for
from werkzeug.exceptions import HTTPException
from werkzeug.routing import MapAdapter, RoutingException

from rules_index import characters as chars
from rules_index.content import LANGS
from rules_index.corrections import reports
from rules_index.corrections.db import session
from rules_index.engines import calculators_for
from rules_index.folding import fold
from rules_index.present import entry_url, games_by_title

from .state import library, search_results

LIMIT = 5
MAX_WORDS = 200  # the search fields' maxlength
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")
_SEPARATORS = re.compile(r"[-_.+~\s]+")
_NOT_WORD = re.compile(r"[\W_]+")
# Every control character, tab and line breaks among them: no address of the site holds one.
_CONTROL = re.compile(f"[{chars.regex_class(chars.CONTROLS, chars.LINE_BREAKS)}]")


@dataclass(frozen=True)
class Match:
    kind: str
    title: str
    game_title: str
    url: str


def holds_control_character(path: str) -> bool:
    """Whether an address holds a control character (a line break or tab too): it is no page of
    the site, and no other address is made from it."""
    return _CONTROL.search(path) is not None


def words_in_path(path: str) -> str:
    """The last segment of a path as words: ``/en/thief-robs-king.html`` → ``thief robs king``."""
    segments = [segment for segment in path.split("/") if segment]
    if not segments:
        return ""
    printable = "".join(ch if ch.isprintable() else " " for ch in _EXTENSION.sub("", segments[-1]))
    words = _SEPARATORS.sub(" ", printable).strip()[:MAX_WORDS].strip()
    return "" if words in LANGS else words


def closest_matches(path: str, lang: str) -> tuple[str, list[Match]]:
    """The words of a missing page's path and up to five entries matching them. Never raises:
    a failing search must not turn a 404 into a 500."""
    words = words_in_path(path)
    if not words:
        return words, []
    try:
        # "/it/ohne-furcht-und-adel/faq/ladro": the thief of that game, not of another.
        segments = path.split("/")
        game = segments[2] if len(segments) > 3 and library().game(segments[2]) is not None else None
        result = search_results(words, lang, limit=LIMIT, game=game)
        games = library()
        return words, [
            Match(hit.kind, hit.title, games.game(hit.game).title(lang), entry_url(hit.kind, lang, hit.game, hit.entry))
            for hit in result.hits[:LIMIT]
        ]
    except Exception:
        current_app.logger.exception("no closest matches for a missing page")
        return words, []


def games_to_pick(lang: str) -> list[tuple[str, str]]:
    """(title in ``lang``, address) of every game, for the reader to pick one. Never raises."""
    try:
        return [(game.title(lang), url_for("pages.game", lang=lang, slug=game.slug)) for game in games_by_title(library(), lang)]
    except Exception:
        current_app.logger.exception("no games to offer on a missing page")
        return []


def _as_slug(name: str) -> str:
    """A name as an address segment is compared: folded, words joined by "-" ("Kardinal & König",
    "kardinal-konig" and "Kardinal-Koenig" all become "kardinal-konig")."""
    return _NOT_WORD.sub("-", fold(name)).strip("-")


def with_game_slug(path: str) -> str | None:
    """The address with the game's own slug where a name of the game stands ("/en/citadels/faq/…"
    → "/en/ohne-furcht-und-adel/faq/…": a reader types the name of the edition they own), or None
    when the segment after the language is no other name of a game. Never raises."""
    segments = path.split("/")
    if len(segments) < 3 or segments[1] not in LANGS or not segments[2]:
        return None
    wanted = _as_slug(segments[2])
    try:
        for game in library():
            if segments[2] != game.slug and wanted in {_as_slug(name) for name in (game.slug, *game.all_titles())}:
                return "/".join([*segments[:2], game.slug, *segments[3:]])
    except Exception:
        current_app.logger.exception("no game names for a missing page")
    return None


# Signs a link copied out of a sentence carries at its end ("…/warlord-complete-city."), and the
# space a chat app leaves in it ("…/warlord-complete-city%20").
_TRAILING_SIGNS = ".,;:!?)]}>»\"' "
# A game's list of answers, rules sections or calculators has no page of its own: its place is the
# game's page ("/en/ohne-furcht-und-adel/faq", an answer's address cut short).
_LISTING = re.compile(r"^(/[^/]+/[^/]+/)(?:faq|rules|calculators)/?$")


def meant_addresses(path: str, lang: str) -> list[str]:
    """The site's addresses a missing one may mean, nearest first: without the sign of a sentence
    or space at its end, in lower case (ids are), in the reader's language ``lang`` where it names
    none ("/citadels"), the language in lower case ("/EN/"), without or with a trailing slash,
    with the game's slug where another name of the game stands, and the game's page for its list
    of answers, sections or calculators. The caller keeps the first that
    is one of the site's. An address holding a control character means none."""
    if holds_control_character(path):
        return []
    trimmed = path.rstrip(_TRAILING_SIGNS) or "/"
    found = []
    for form in dict.fromkeys((trimmed, trimmed.lower())):
        first = form.split("/")[1] if form.count("/") >= 1 else ""
        if first.lower() in LANGS:
            form = f"/{first.lower()}{form[len(first) + 1:]}"
        elif first:
            form = f"/{lang}{form}"
        bare = form.rstrip("/") or "/"
        for base in (bare, bare + "/"):
            named = with_game_slug(base)
            found += [base, *((named.rstrip("/"), named.rstrip("/") + "/") if named else ())]
        found += [listing.group(1) for listing in map(_LISTING.match, found) if listing]
    return [address for address in dict.fromkeys(found) if address != path and address != "//"]


def is_real_page(args: dict) -> bool:
    """Whether a route's arguments name what the site has: a language of the site, a game, its
    FAQ entry, rules section or calculator (the page's or the API's), a report's token (a route matches "/en/nope/" too;
    the page would be missing). Capitals are only lowered where this holds for the lowered
    address: a token is mixed-case, so "/de/corrections/ABC" never leads to ".../abc"."""
    if "lang" in args and args["lang"] not in LANGS:
        return False
    if "token" in args and not _is_report(args["token"]):
        return False
    if "slug" not in args:
        return True
    try:
        game = library().game(args["slug"])
    except Exception:  # a missing page stays a 404, never a 500
        current_app.logger.exception("no games to check a missing page's address against")
        return False
    if game is None:
        return False
    if "faq_id" in args and game.faq_entry(args["faq_id"]) is None:
        return False
    calculator = args.get("name", args.get("calculator"))
    if calculator is not None and calculator not in calculators_for(game.slug):
        return False
    return "section_id" not in args or game.section(args["section_id"]) is not None


def _is_report(token: str) -> bool:
    try:
        return reports.by_token(session(), token) is not None
    except Exception:  # the database unusable: no address is offered, the page stays a 404
        current_app.logger.exception("no reports to check a missing page's address against")
        return False


def first_real_page(adapter: MapAdapter, addresses, endpoint: str | None = None) -> tuple[str, dict] | None:
    """(address, route arguments) of the first of ``addresses`` that is a page the site has (of
    ``endpoint``, if given), or None."""
    for address in addresses:
        try:
            found, args = adapter.match(address, method="GET")
        except (HTTPException, RoutingException):
            continue
        if (endpoint is None or found == endpoint) and is_real_page(args):
            return address, args
    return None


def names_nothing(adapter: MapAdapter, path: str, method: str) -> bool:
    """Whether ``path``, asked with ``method``, is a route of the site whose arguments name
    nothing it has (``is_real_page``)."""
    try:
        _endpoint, args = adapter.match(path, method=method)
    except (HTTPException, RoutingException):
        return False
    return not is_real_page(args)
