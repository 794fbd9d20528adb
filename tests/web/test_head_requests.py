"""A HEAD request is answered as the GET of the same address would be, without the body: link
checkers and chat apps probe pages with HEAD, and a report form answered HEAD with 400 (a HEAD was
read as a form sent)."""
from __future__ import annotations

import pytest

PAGES = [
    "/de/", "/en/search?q=dieb", "/it/ohne-furcht-und-adel/",
    "/de/ohne-furcht-und-adel/faq/thief-forbidden-targets",
    "/en/ohne-furcht-und-adel/faq/thief-forbidden-targets/correction",
    "/it/ohne-furcht-und-adel/rules/setup/correction",
    "/de/ohne-furcht-und-adel/faq/thief-forbidden-targets/history",
    "/editor/login", "/editor/", "/api/v1/games?lang=en", "/api/v1/health",
    "/de/no-such-game/", "/sitemap.xml",
]


@pytest.mark.parametrize("path", PAGES)
def test_head_answers_as_get(site_client, path):
    got, head = site_client.get(path), site_client.head(path)
    assert head.status_code == got.status_code, (path, got.status_code, head.status_code)
    assert head.get_data() == b""
    assert head.headers.get("Content-Type") == got.headers.get("Content-Type")
