"""After an accepted change: reload the content and switch the search index to a generation of it.

``changed`` names the entries the change wrote ((game slug, "faq" | "section", entry id)): the
new generation is then made from the current one, with only their documents and checks done
again (``rules_index.search.build``). Under ``make serve`` the publisher process builds it
(``publisher``) and this process follows it; without a publisher, or when it does not answer,
this process builds it. Without ``changed``, everything is indexed and checked here. Each step
waits for a gap between this process's other requests (``readers_first``).
"""
from __future__ import annotations

from typing import Iterable

from rules_index.readers_first import step_aside
from rules_index.search import build

from .publisher import published_elsewhere
from .search_state import search_index
from .state import content_state


def publish(changed: Iterable[tuple[str, str, str]] | None = None) -> None:
    state = content_state()
    changed = None if changed is None else list(changed)
    if changed and published_elsewhere(changed):
        step_aside()
        state.reload()
        step_aside()
        search_index().follow_now()  # this process's next search sees its own change
        state.mark_published()
        return
    step_aside()
    library = state.reload()
    index = search_index()
    step_aside()
    build(library, index.link, state.root, changed=changed)
    step_aside()
    index.follow_now()  # this process's next search sees its own change
    state.mark_published()
