"""After an accepted change: reload the content and switch the search index to a fresh build."""
from __future__ import annotations

from rules_index.search import build

from .search_state import search_index
from .state import content_state


def publish() -> None:
    state = content_state()
    library = state.reload()
    build(library, search_index().link, state.root)
    state.mark_published()
