"""After an accepted change: reload the content and switch the search index to a generation of it.

``changed`` names the entries the change wrote ((game slug, "faq" | "section", entry id)): the
new generation is then made from the current one, with only their documents and checks done
again (``rules_index.search.build``). Under ``make serve`` the publisher process builds it
(``publisher``) and this process follows it as the other workers do, in its background switch
(joined, not done twice, when a request of this process has set it off already); without a
publisher, or when it does not answer, this process builds it. Without ``changed``, everything
is indexed and checked here. Each step waits for a gap between this process's other requests
(``readers_first``). The accept answers once this process has the new content and generation.
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
        # The publisher has switched the link. This process follows it as every worker does, so
        # that it loads the content and opens the generation once, warm, even when one of its
        # requests has started following already; its next search sees its own change.
        state.catch_up()
        search_index().catch_up()
        return
    step_aside()
    library = state.reload()
    index = search_index()
    step_aside()
    build(library, index.link, state.root, changed=changed)
    index.catch_up()  # this process's next search sees its own change
    state.mark_published()
