"""Rendered Markdown is kept per process within a bound in bytes."""
from __future__ import annotations

from rules_index import render


def test_rendered_markdown_stays_within_its_bytes(monkeypatch):
    # The parser itself is not under test here: a pass-through renders 20 MB in a moment.
    monkeypatch.setattr(render, "_parse", lambda _parser, text: render._Parsed(f"<p>{text}</p>", None))
    paragraph = "Der Dieb bestiehlt eine Figur. " * 250  # about 7.5 kB per text
    for i in range(2000):  # about 15 MB of HTML offered to an 8 MiB cache
        render.markdown_html(f"memory test {i}: {paragraph}")
    info = render.markdown_html.cache_info()
    assert info.currsize <= render.CACHE_BYTES == info.maxsize
    assert info.currsize > render.CACHE_BYTES // 2
    last = render.markdown_html(f"memory test 1999: {paragraph}")
    assert render.markdown_html.cache_info().hits == info.hits + 1  # the latest is still a hit
    assert last.startswith("<p>memory test 1999")
