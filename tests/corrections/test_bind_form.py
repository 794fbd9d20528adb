"""Binding a statement through the editor's form: pick a value the engine gives in one of the
entry's situations, name the fact, give its words; the form above is filled in (the fact in the
ruling, the words marked) and checked at once."""
from __future__ import annotations

import html as html_lib
import re

from rules_index.content.marks import bind_words

from formtools_shared import login

GAME, FAQ = "ohne-furcht-und-adel", "warlord-complete-city"
URL = f"/editor/entries/{GAME}/faq/{FAQ}"


def test_words_are_marked_once_and_never_inside_a_mark():
    text = "[Nein]{fact=a}. In einer Stadt mit 8 Bauwerken, in einer Stadt."
    assert bind_words(text, "Stadt mit 8 Bauwerken", "size") == "[Nein]{fact=a}. In einer [Stadt mit 8 Bauwerken]{fact=size}, in einer Stadt."
    assert bind_words(text, "Nein", "b") is None  # already marked
    assert bind_words(text, "Burg", "b") is None
    assert bind_words(text, "a]{x", "b") is None


def test_the_form_offers_the_engines_values_and_binds_one(site):
    client = site.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert login(client).status_code == 302
    page = client.get(URL).get_data(as_text=True)
    assert 'value="1|city_sizes.B"' in page and "Bind a statement to the engine" in page
    # Bound to words that do not say 8, the change is refused in plain words, before saving.
    bound = client.get(URL, query_string={"bind": "1", "pick": "1|city_sizes.B", "name": "city-eight",
                                          "words_en": "In a city", "words_de": "In einer Stadt", "words_it": "In una città"})
    html = html_lib.unescape(bound.get_data(as_text=True))
    assert bound.status_code == 200
    assert "name: city-eight" in html and "output: city_sizes.B" in html
    assert "[In a city]{fact=city-eight}" in html
    # In the editor's language: what the text says, what the engine says, and how to fix it.
    assert "English: “In a city” does not say 8, which the engine gives in situation 1 for the fact city-eight. Write 8 there" in html
    assert re.search(r'<button type="submit" name="action" value="save" disabled', html)


def test_a_value_the_engine_does_not_give_is_refused(site):
    client = site.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert login(client).status_code == 302
    html = client.get(URL, query_string={"bind": "1", "pick": "1|no.such.path", "name": "x"}).get_data(as_text=True)
    assert "Pick a situation and one of its values." in html
    for number in ("0", "-1"):  # no situation: checks count from 1 (-1 took the last one's value)
        html = client.get(URL, query_string={"bind": "1", "pick": f"{number}|city_sizes.B", "name": "x"}).get_data(as_text=True)
        assert "Pick a situation and one of its values." in html and "check: -1" not in html and "check: 0" not in html
    html = client.get(URL, query_string={"bind": "1", "pick": "1|city_sizes.B", "name": "Not A Name"}).get_data(as_text=True)
    assert "Give the fact a name" in html


def test_the_engines_yes_and_no_read_as_the_ruling_writes_them(site):
    # true/false, as in the ruling's YAML, not Python's True/False.
    client = site.test_client()
    assert login(client).status_code == 302
    page = client.get(URL).get_data(as_text=True)
    values = re.findall(r'<code>[^<]+</code> = <strong>([^<]*)</strong>', page)
    assert values and "True" not in values and "False" not in values
    assert "true" in values or "false" in values


def test_a_subject_in_other_digits_is_a_name_not_a_crash(site):
    """Only ASCII digits make a subject a number: "³", "①" or a number past int()'s digit limit
    stay as typed (the check then names what is wrong), never a server error."""
    client = site.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert login(client).status_code == 302
    for subject, kept in (("\u00b3", "subject: ³"), ("\u2460", "subject: ①"), ("9" * 4301, None), ("2", "subject: 2")):
        response = client.get(URL, query_string={"bind": "1", "pick": "1|city_sizes.B", "name": "city-eight",
                                                 "words_en": "In a city", "subject": subject})
        assert response.status_code == 200, subject[:5]
        if kept:
            assert kept in html_lib.unescape(response.get_data(as_text=True)), subject[:5]
