"""What the offline search (``static/offline-search.js``: the static export's search page, and the
live site's when there is no network) takes from the server's search, as data, so that it reads
a question as the server does without a copy of any list in JavaScript:

- ``stop``: the stop words of every language (folded too) and Italian elisions: the server drops
  them from every question (``query.content_words``), so they never score.
- ``players``: players' words (``content/lexicon.yaml``), folded, with the rulebooks' words the
  server adds for them; offline there is no game filter, so a word of one game counts everywhere
  (as on the server when no game is picked).
- ``games``: every game's names (all editions) as the server compares them (``query.GameNames``):
  folded words without the connecting ones (``connectors``), longest names first. A name in a
  question picks its game, and its words leave the question.
- ``compounds``: the German compounds of the content and the parts the server's splitter
  (``analysis.DecompoundFilter``, with the vocabulary of a full index build) indexes with them.
- ``weights``, ``order`` and ``term_lead``: the server's field weights, its reader's-language and
  correction weights, the order in which result kinds are shown, and how far a glossary term
  must outscore every answer to be shown first (``searcher.term_asked``).

Only the folding itself (``folding.fold_german``, a few lines) is written again in JavaScript;
a browser test holds it against Python's on every word of the content.
"""
from __future__ import annotations

import json

from rules_index.content import LANGS, Library
from rules_index.folding import CONNECTORS, TOKEN_PATTERN, fold, fold_german
from rules_index.present import entry_url

from .analysis import ITALIAN_ELISIONS, DecompoundFilter, german_vocabulary, stopwords
from .build import german_texts
from .documents import Document, game_names, library_documents
from .query import GameNames, all_stopwords
from .searcher import CORRECTED_WEIGHT, PREFIX_WEIGHT, READER_LANG_BONUS, SHOWN_ORDER, TERM_LEAD, TITLE_FACTS, WEIGHTS


def players_words(library: Library) -> dict[str, list[str]]:
    """{folded players' word: the rulebooks' words for it, in every language it is given}."""
    found: dict[str, list[str]] = {}
    for _lang, word, plain, _game in library.lexicon.entries():
        means = found.setdefault(fold(word), [])
        if plain not in means:
            means.append(plain)
    return found


def compound_parts(library: Library, docs: list[Document]) -> dict[str, list[str]]:
    """{folded German word of the documents: its parts}, for the words the server's splitter splits."""
    splitter = DecompoundFilter(german_vocabulary(german_texts(library)))
    stops = stopwords("de")
    found: dict[str, list[str]] = {}
    for doc in docs:
        if doc.lang != "de":
            continue
        for word in TOKEN_PATTERN.findall(" ".join((doc.title, *doc.keywords, doc.body)).lower()):
            if len(word) < 2 or word in stops:
                continue
            folded = fold_german(word)
            if folded not in found:
                found[folded] = splitter.split(folded) or []
    return {word: parts for word, parts in sorted(found.items()) if parts}


def offline_words(library: Library, docs: list[Document]) -> dict:
    """The data of the offline search besides the documents (see the module's docstring)."""
    return {
        "stop": sorted(all_stopwords() | ITALIAN_ELISIONS),
        "players": players_words(library),
        "games": GameNames({game.slug: game_names(game) for game in library}).names,
        "connectors": sorted(CONNECTORS),
        "compounds": compound_parts(library, docs),
        "weights": {**WEIGHTS, "prefix": PREFIX_WEIGHT, "corrected": CORRECTED_WEIGHT, "reader": READER_LANG_BONUS},
        "order": SHOWN_ORDER,
        "term_lead": TERM_LEAD,
        "title_facts": list(TITLE_FACTS),
    }


def search_data_js(library: Library, url) -> str:
    """Every document (all kinds, all languages) for the offline search page, and the server's
    words and weights it reads a question with (``offline_words``); ``url(path)`` is the address
    of a hit's page (the static export's file, or the live site's page).

    A script, not JSON: a page opened from ``file://`` cannot fetch a file. The page indexes
    ``title``, ``k`` keywords and ``s`` text, and shows a passage of ``s`` as the snippet.
    """
    entries = list(library_documents(library))
    docs = [{
        "lang": doc.lang, "kind": doc.kind, "game": doc.game, "entry": doc.entry, "title": doc.title,
        "url": url(entry_url(doc.kind, doc.lang, doc.game, doc.entry)),
        "k": " ".join(doc.keywords), "s": doc.body,
    } for doc in entries]
    games = {g.slug: {lang: g.title(lang) for lang in LANGS} for g in library}
    data = {"docs": docs, "games": games, "words": offline_words(library, entries)}
    return "window.RULES_INDEX = " + json.dumps(data, ensure_ascii=False) + ";\n"
