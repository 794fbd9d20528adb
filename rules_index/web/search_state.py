"""The process's search index, opened once and kept warm; built on first use if missing."""
from __future__ import annotations

import threading

from flask import Flask, current_app

from rules_index.search import CacheSizes, SearchIndex, build

from .state import content_state, index_link, switch_wait

KEY = "rules_index.search"
_build_lock = threading.Lock()


def init_app(app: Flask) -> None:
    app.extensions[KEY] = SearchIndex(index_link(app), CacheSizes.from_config(app.config), switch_wait=switch_wait(app.config))


def search_index() -> SearchIndex:
    index: SearchIndex = current_app.extensions[KEY]
    if not index.link.exists():
        with _build_lock:
            if not index.link.exists():
                state = content_state()
                build(state.library, index.link, state.root)
                state.mark_published()  # the content answering is that of the index built
    return index


def related_faq(game, entry, lang: str, limit: int = 6) -> list:
    """The entry's own related ids first, then the index's most similar entries of the game."""
    ids = [*entry.related, *search_index().related("faq", game.slug, entry.id, lang)]
    found = [game.faq_entry(i) for i in dict.fromkeys(ids) if i != entry.id]
    return [f for f in found if f is not None][:limit]
