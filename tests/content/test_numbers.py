"""Numbers stated by a text, per language (input -> numbers)."""
import pytest

from rules_index.content.numbers import numbers_in

CASES = [
    ("de", "Zu viert 2, zu fünft 1.", {2}),
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
