"""Hostile input on the reader pages and forms: never a 5xx; errors are pages in the reader's language.

How many examples, and whether they are the same every run, is the Hypothesis profile's
(tests/conftest.py, ``make fuzz``).
"""
from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formtools_shared import csrf_token

pytestmark = pytest.mark.slow  # make test-all: fuzzing

ANY_TEXT = st.text(st.characters(blacklist_categories=["Cs"]), max_size=300)
SEGMENT = st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="/?#"), min_size=1, max_size=40)
SETTINGS = settings(deadline=None, suppress_health_check=list(HealthCheck))
NOT_FOUND = {"de": "Seite nicht gefunden", "en": "Page not found", "it": "Pagina non trovata"}


@SETTINGS
@given(lang=st.sampled_from(["de", "en", "it"]), query=ANY_TEXT, game=st.one_of(st.none(), SEGMENT))
def test_search_page_takes_any_text(client, lang, query, game):
    params = {"q": query} | ({"game": game} if game else {})
    response = client.get(f"/{lang}/search", query_string=params)
    assert response.status_code == 200
    assert f'<html lang="{lang}">' in response.get_data(as_text=True)


@SETTINGS
@given(query=ANY_TEXT, lang=st.text(max_size=5), limit=st.text(max_size=6))
def test_search_api_takes_any_text(client, query, lang, limit):
    response = client.get("/api/v1/search", query_string={"q": query, "lang": lang, "limit": limit})
    assert response.status_code in (200, 400)
    body = response.get_json()
    assert ("hits" in body) if response.status_code == 200 else isinstance(body["error"], str)


@SETTINGS
@given(lang=st.sampled_from(["de", "en", "it"]), parts=st.lists(SEGMENT, min_size=1, max_size=4))
def test_unknown_paths_are_404_pages_in_the_readers_language(client, lang, parts):
    path = f"/{lang}/" + "/".join(quote(p, safe="") for p in parts)
    response = client.get(path)
    assert response.status_code < 500
    if response.status_code == 404:
        assert NOT_FOUND[lang] in response.get_data(as_text=True)


@SETTINGS
@given(message=ANY_TEXT, proposal=ANY_TEXT, page=st.text(max_size=12), email=st.text(max_size=40))
def test_correction_form_never_fails(site_client, message, proposal, page, email):
    client = site_client
    url = "/it/ohne-furcht-und-adel/faq/tie-break/correction"
    token = csrf_token(client.get(url).get_data(as_text=True))
    response = client.post(url, data={"csrf_token": token, "message": message, "proposed_answer": proposal, "page": page, "email": email})
    assert response.status_code in (303, 400)
    if response.status_code == 303:  # stored: on to the thanks page, in the reader's language
        assert "/it/corrections/" in response.headers["Location"]
    else:
        assert '<html lang="it">' in response.get_data(as_text=True)


@SETTINGS
@given(body=st.binary(max_size=2000))
def test_api_takes_any_bytes(site_client, body):
    response = site_client.post("/api/v1/corrections", data=body, content_type="application/json")
    assert response.status_code in (400, 404, 413)
    assert isinstance(response.get_json()["error"], str)
