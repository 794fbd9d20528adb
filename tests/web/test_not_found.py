"""404 pages offer a search box with the words of the missing address and the closest matches."""
from __future__ import annotations

import re

import pytest

from rules_index.web import not_found

GAME = "ohne-furcht-und-adel"


@pytest.mark.parametrize("path,words", [
    ("/en/thief-robs-king/", "thief robs king"),
    (f"/de/{GAME}/faq/dieb_bestiehlt_meuchler", "dieb bestiehlt meuchler"),
    ("/it/re-assassinato.html", "re assassinato"),
    ("/en/", ""),
    ("/", ""),
    ("/x/" + "a-" * 300, ("a " * 100).strip()),
    ("/en/tab\tand\x7fdel", "tab and del"),
])
def test_words_in_path(path, words):
    assert not_found.words_in_path(path) == words


def test_missing_entry_offers_its_closest_matches(client):
    response = client.get(f"/en/{GAME}/faq/thief-robs-assassin")
    assert response.status_code == 404
    page = response.get_data(as_text=True)
    assert '<html lang="en">' in page and "Page not found" in page
    assert re.search(r'<form [^>]*role="search"[^>]*action="/en/search"', page)
    assert re.search(r'<input id="nf-q" name="q" type="search" value="thief robs assassin"', page)
    matches = re.findall(r'<section class="matches".*?</section>', page, re.S)
    assert len(matches) == 1
    links = re.findall(r'<a href="([^"]+)">', matches[0])
    assert 1 <= len(links) <= not_found.LIMIT
    assert f"/en/{GAME}/faq/thief-forbidden-targets" in links


@pytest.mark.parametrize("lang,heading", [("de", "Vielleicht suchst du"), ("it", "Forse cercavi")])
def test_matches_in_the_readers_language(client, lang, heading):
    page = client.get(f"/{lang}/nope/{GAME}-dieb").get_data(as_text=True)
    assert heading in page and f'action="/{lang}/search"' in page


def test_no_words_no_matches_but_a_search_box(client):
    page = client.get("/it/").get_data(as_text=True)
    assert "nf-q" not in page  # the home page exists
    page = client.get("/xx/").get_data(as_text=True)
    assert 'id="nf-q"' in page and 'class="matches"' not in page


def test_a_failing_search_still_gives_the_404_page(client, monkeypatch):
    def broken(*_args, **_kwargs):
        raise OSError("index unreadable")

    monkeypatch.setattr(not_found, "search_results", broken)
    response = client.get(f"/en/{GAME}/faq/thief-robs-assassin")
    assert response.status_code == 404
    page = response.get_data(as_text=True)
    assert 'value="thief robs assassin"' in page and 'class="matches"' not in page


@pytest.mark.parametrize("path", ["/api/v1/games/no-such-game", "/API/V1/SEARCH?q=thief", "/Api/v1/games"])
def test_api_404_stays_json(client, path):
    response = client.get(path)
    assert response.status_code == 404 and "error" in response.get_json()


@pytest.mark.parametrize("path,lang", [
    ("/de/corrections/Ab%0a", "de"),
    ("/it/corrections/X%0d%0aSet-Cookie:%20a=b/thanks", "it"),
    (f"/de/{GAME}/calculators/warlord-destroy-cost%0d%0aSet-Cookie:x=1", "de"),
    (f"/DE/{GAME}/calculators/score%0a", "de"),
    (f"/{GAME}/calculators/x%0a", "it"),  # no language in the address: the browser's
    (f"/en/{GAME.upper()}/faq/TIE-BREAK%09", "en"),
    (f"/en/{GAME}/faq/tie-break%0d", "en"),
])
def test_an_address_with_a_line_break_or_tab_is_a_missing_page_never_a_redirect(client, path, lang):
    # Lower case, a language added, a sign trimmed: none is offered for an address holding a
    # control character (line breaks included), which no page of the site has.
    response = client.get(path, headers={"Accept-Language": "it"})
    assert response.status_code == 404 and "Location" not in response.headers
    assert f'<html lang="{lang}">' in response.get_data(as_text=True)


def test_no_address_is_meant_by_one_with_a_control_character(app):
    with app.test_request_context():
        assert not_found.meant_addresses(f"/EN/{GAME}/faq/Tie-Break\n", "de") == []
        assert not_found.meant_addresses(f"/en/{GAME}/faq/tie-break\t.", "de") == []


def test_capitals_are_lowered_only_where_the_lowered_address_is_a_page(site_client):
    # A report's token is mixed-case: /de/corrections/ABC is not /de/corrections/abc.
    token = site_client.post("/api/v1/corrections", json={
        "game": GAME, "faq": "tie-break", "lang": "de", "message": "Bitte prüfen"}).get_json()["token"]
    assert token != token.lower()
    for missing in (f"/de/corrections/{token.upper()}", f"/de/corrections/{token.swapcase()}/thanks",
                    "/de/corrections/ABC", f"/de/{GAME}/calculators/NOPE"):
        response = site_client.get(missing)
        assert response.status_code == 404 and "Location" not in response.headers, missing
    # What does lead somewhere still does: a sign copied with the link, capitals of a calculator.
    leads = {
        f"/de/corrections/{token}.": f"/de/corrections/{token}",
        f"/EN/corrections/{token}/thanks": f"/en/corrections/{token}/thanks",
        f"/de/{GAME}/calculators/SCORE": f"/de/{GAME}/calculators/score",
    }
    for typed, page in leads.items():
        response = site_client.get(typed)
        assert response.status_code == 308 and response.headers["Location"] == page, typed
        assert site_client.get(page).status_code == 200, page


@pytest.mark.parametrize("path,to", [
    ("/en/ohne-furcht-und-adel/faq", "/en/ohne-furcht-und-adel/"),  # an answer's address cut short
    ("/de/ohne-furcht-und-adel/rules/", "/de/ohne-furcht-und-adel/"),
    ("/it/citadels/calculators", "/it/ohne-furcht-und-adel/"),
    ("/en/ohne-furcht-und-adel/faq/thief-forbidden-targets%20", "/en/ohne-furcht-und-adel/faq/thief-forbidden-targets"),
    ("/en/ohne-furcht-und-adel/faq/thief-forbidden-targets.%20", "/en/ohne-furcht-und-adel/faq/thief-forbidden-targets"),
])
def test_a_list_without_a_page_or_a_trailing_space_leads_to_the_page_meant(client, path, to):
    response = client.get(path)
    assert response.status_code == 308 and response.headers["Location"] == to


@pytest.mark.parametrize("path", ["/en/ohne-furcht-und-adel/faq/no-such-answer", "/en/no-such-game/faq"])
def test_a_missing_answer_or_game_stays_missing(client, path):
    assert client.get(path).status_code == 404


def test_the_page_meant_keeps_a_query_sent_as_raw_utf8_bytes(client):
    """PEP 3333 gives the query's bytes as latin-1 characters; read so and encoded again, "ü"
    came back as %C3%83%C2%BC."""
    environ = {"QUERY_STRING": "q=ü".encode("utf-8").decode("latin-1")}
    response = client.get("/en/ohne-furcht-und-adel/faq/thief-forbidden-targets.", environ_overrides=environ)
    assert response.status_code == 308
    assert response.headers["Location"] == "/en/ohne-furcht-und-adel/faq/thief-forbidden-targets?q=%C3%BC"


@pytest.mark.parametrize("path", ["/de/nothing-here", "/it/no-such-game"])
def test_a_missing_game_is_missing_at_once_not_after_a_slash_is_added(client, path):
    response = client.get(path)
    assert response.status_code == 404 and "Location" not in response.headers


def test_a_game_without_its_slash_still_gets_it(client):
    response = client.get(f"/de/{GAME}")
    assert response.status_code == 308 and response.headers["Location"].endswith(f"/de/{GAME}/")
    # Another name of the game leads to its page in one step, not through the slash first.
    response = client.get("/en/citadels")
    assert response.status_code == 308 and response.headers["Location"] == f"/en/{GAME}/"


@pytest.mark.parametrize("path", [f"/api/v1/games/{GAME}/no-such-calculator", "/api/v1/games/no-such-game/score"])
def test_an_unknown_calculator_of_the_api_is_missing_whatever_the_method(client, path):
    # "GET is not allowed here" would tell a program the address exists.
    response = client.get(path)
    assert response.status_code == 404 and "error" in response.get_json() and "Allow" not in response.headers


def test_a_calculator_of_the_api_says_which_method_it_takes(client):
    response = client.get(f"/api/v1/games/{GAME}/score")
    assert response.status_code == 405 and "POST" in response.headers["Allow"]
