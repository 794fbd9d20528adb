"""After an accepted change: reload the content and switch the search index to a generation of it.

``changed`` names the entries the change wrote ((game slug, "faq" | "section", entry id)): the
new generation is then made from the current one, with only their documents and checks done
again (``rules_index.search.build``); without it, everything is indexed and checked. The other
processes follow the new generation in the background. The accept answers once this process
has the new content and generation.
"""
from __future__ import annotations

from typing import Iterable

from rules_index.search import build

from .search_state import search_index
from .state import content_state


def publish(changed: Iterable[tuple[str, str, str]] | None = None) -> None:
    state = content_state()
    library = state.reload()
    index = search_index()
    build(library, index.link, state.root, changed=None if changed is None else list(changed))
    index.catch_up()  # this process's next search sees its own change
    state.mark_published()
