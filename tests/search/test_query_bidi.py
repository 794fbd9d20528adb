"""Bidirectional formatting characters never reach the analysis nor the echoed query."""
from __future__ import annotations

import pytest

from rules_index.search import clean_query

BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"]


def hits(result):
    return [(h.kind, h.game, h.entry, h.score) for h in result.hits]


def test_an_override_changes_neither_hits_nor_the_echo(index):
    plain = index.search("Dieb Meuchler bestehlen", "de")
    spoofed = index.search("\u202eDieb Meuch\u202eler\u202c bestehlen\u2066", "de")
    assert plain.hits and hits(spoofed) == hits(plain)
    assert spoofed.query == plain.query == "Dieb Meuchler bestehlen"


@pytest.mark.parametrize("char", BIDI, ids=[f"U+{ord(c):04X}" for c in BIDI])
def test_every_bidi_character_is_removed(char):
    cleaned = clean_query(f"{char}thief{char} rob {char}")
    assert cleaned == "thief rob"
    assert not set(cleaned) & set(BIDI)


def test_letters_of_right_to_left_scripts_stay():
    assert clean_query("\u202eשלום مرحبا\u202c") == "שלום مرحبا"


def test_api_echoes_the_cleaned_query(client):
    body = client.get("/api/v1/search", query_string={"q": "\u202ethief\u2069 assassin", "lang": "en"}).get_json()
    plain = client.get("/api/v1/search", query_string={"q": "thief assassin", "lang": "en"}).get_json()
    assert body["query"] == "thief assassin"
    assert body["hits"] == plain["hits"]


def test_api_refuses_a_query_of_bidi_characters_only(client):
    response = client.get("/api/v1/search", query_string={"q": "\u202e\u2066\u200f", "lang": "en"})
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("q:")


def test_search_page_echoes_the_cleaned_query(client):
    html = client.get("/en/search", query_string={"q": "\u202ethief\u202c assassin"}).get_data(as_text=True)
    assert 'value="thief assassin"' in html
    assert not set(html) & set(BIDI)
