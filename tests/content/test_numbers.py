"""Numbers stated by a text, per language (input -> numbers)."""
import pytest

from rules_index.content.numbers import numbers_in

CASES = [
    ("de", "Zu viert 2, zu fünft 1.", {4, 2, 5}),  # "zu viert": four together, a count
    ("de", "Zu zweit gibt es 2 Zellen", {2}),
    ("de", "das achte Bauwerk, drei Punkte", {8, 3}),
    ("de", "Ein Kloster und eine Karte", set()),
    ("en", "the third bell, four points", {3, 4}),
    ("en", "one card, 1 gold", set()),
    ("it", "il terzo giocatore riceve quattro punti", {3, 4}),
    ("it", "se sei il ladro, secondo le regole", set()),
    ("it", "l'ottavo quartiere e 6 monete", {8, 6}),
]


@pytest.mark.parametrize("lang,text,expected", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_numbers_in(lang, text, expected):
    assert numbers_in(text, lang) == expected


def test_an_ordinal_is_never_a_count_whatever_its_list_holds():
    from rules_index.content.numbers import is_ordinal, number_value

    # Italian has no unambiguous word for 6 ("sei" is also "you are"): "sesto" is still a place.
    assert is_ordinal("sesto", "it") and number_value("sesto", "it") == 6
    assert not is_ordinal("sette", "it") and is_ordinal("settimo", "it")
