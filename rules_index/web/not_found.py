"""What a missing page offers instead: the words of its address and the closest entries for them."""
from __future__ import annotations

import re
from dataclasses import dataclass

from flask import current_app, url_for

from rules_index.content import LANGS
from rules_index.present import entry_url
from rules_index.search.query import fold

from .state import library, search_results

LIMIT = 5
MAX_WORDS = 200  # the search fields' maxlength
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")
_SEPARATORS = re.compile(r"[-_.+~\s]+")
_NOT_WORD = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class Match:
    kind: str
    title: str
    game_title: str
    url: str


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
        result = search_results(words, lang, limit=LIMIT)
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
        return [(game.title(lang), url_for("pages.game", lang=lang, slug=game.slug)) for game in library()]
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
