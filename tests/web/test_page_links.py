"""Every link from a game's page to a place on the same page leads to an element of that page,
in every language: a rules text linking "#scoring" where the section's anchor is "#rule-scoring"
was a link that went nowhere."""
from __future__ import annotations

import re

import pytest

from rules_index.content import LANGS

HREF = re.compile(r'href="#([^"]+)"')
ID = re.compile(r'\bid="([^"]+)"')


@pytest.mark.parametrize("lang", LANGS)
def test_in_page_links_lead_somewhere(site_client, lang):
    games = site_client.get(f"/api/v1/games?lang={lang}").get_json()["games"]
    assert len(games) >= 4
    for game in games:
        html = site_client.get(f"/{lang}/{game['slug']}/").get_data(as_text=True)
        ids = set(ID.findall(html))
        missing = sorted(set(HREF.findall(html)) - ids - {"top"})  # "#top" is the document's top (HTML)
        assert not missing, f"/{lang}/{game['slug']}/ links to {missing}, which the page lacks"
