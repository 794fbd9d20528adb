"""The exhibitions ranking asks what the cards show: the oldest object's age or the year it was
made. Years rank the other way round from ages, and the page speaks in the reader's terms."""
from __future__ import annotations

import html
import re

import pytest

RANKING = "/{lang}/adel-verpflichtet/calculators/exhibitions-ranking"


def ranked(page: str) -> list[str]:
    return re.findall(r'<li value="\d+"><span class="who">([^<]+)</span>', page)


def test_years_rank_the_older_object_first(client):
    query = "name0=Anna&cards0=ABC&age0=1500&name1=Ben&cards1=DEF&age1=1200&dating=year&submit=1"
    page = client.get(RANKING.format(lang="en") + "?" + query).get_data(as_text=True)
    assert ranked(page) == ["Ben", "Anna"]
    assert "the oldest object decides: made in 1500 against 1200 for Ben." in html.unescape(page)
    assert "dating=year" in re.search(r'<input id="link" type="text" readonly value="([^"]+)"', page).group(1)
    assert 'id="dating-year" checked' in page and "Oldest object: year made" in page


def test_ages_rank_the_greater_number_first(client):
    query = "name0=Anna&cards0=ABC&age0=1500&name1=Ben&cards1=DEF&age1=1200&dating=age&submit=1"
    page = client.get(RANKING.format(lang="en") + "?" + query).get_data(as_text=True)
    assert ranked(page) == ["Anna", "Ben"]
    assert "the oldest object decides: 1200 against 1500 for Anna." in html.unescape(page)
    # Without a choice the numbers are ages, as before.
    plain = client.get(RANKING.format(lang="en") + "?" + query.replace("&dating=age", "")).get_data(as_text=True)
    assert ranked(plain) == ["Anna", "Ben"] and 'id="dating-age" checked' in plain


@pytest.mark.parametrize("lang,message", [
    ("de", "Das Jahr ist eine ganze Zahl bis 3000."), ("en", "The year is a whole number up to 3000."),
    ("it", "L'anno è un numero intero fino a 3000."),
])
def test_a_year_beyond_the_reference_is_refused_in_the_readers_language(client, lang, message):
    page = client.get(RANKING.format(lang=lang) + "?name0=A&cards0=ABC&age0=3001&dating=year&submit=1").get_data(as_text=True)
    assert message in html.unescape(page)
    assert ranked(page) == []


def test_the_choice_is_a_labelled_radio_group(client):
    page = client.get(RANKING.format(lang="de")).get_data(as_text=True)
    group = re.search(r'<fieldset class="dating">(.*?)</fieldset>', page, re.S).group(1)
    assert "<legend>Ältestes Objekt: Was zeigen eure Karten?</legend>" in group
    assert re.findall(r'type="radio" name="dating" value="(\w+)"', group) == ["age", "year"]
