"""Analyzer behaviour as input -> tokens tables, per language."""
import pytest

from rules_index.search.analysis import german_vocabulary, language_analyzer

VOCAB = german_vocabulary(["Bauwerk Karten Kloster Ketten Söldner Stadt Spiel Ende Runde"])


def tokens(lang, text, vocabulary=()):
    return [t.text for t in language_analyzer(lang, vocabulary)(text)]


@pytest.mark.parametrize("lang,text,expected", [
    ("de", "Söldner", ["soldn"]),
    ("de", "Soeldner", ["soldn"]),
    ("de", "Soldner", ["soldn"]),
    ("de", "Klöster", ["klost"]),
    ("de", "Darf der Söldner?", ["soldn"]),
    ("it", "città", ["citt"]),
    ("it", "citta", ["citt"]),
    ("it", "l'assassino", ["assassin"]),
    ("it", "d’aste", ["aste"]),
    ("en", "can the thief steal from the assassin", ["thief", "steal", "assassin"]),
    ("en", "monasteries monastery", ["monasteri", "monasteri"]),
], ids=lambda v: v if isinstance(v, str) else None)
def test_tokens(lang, text, expected):
    assert tokens(lang, text) == expected


def test_italian_singular_and_plural_share_a_stem():
    assert set(tokens("it", "quartiere")) & set(tokens("it", "quartieri"))


@pytest.mark.parametrize("compound,parts", [
    ("Bauwerkkarten", {"bauwerk", "kart"}),
    ("Klosterkette", {"klost", "kett"}),
    ("Söldnerstadt", {"soldn", "stadt"}),
    # The whole word's stem would hide these parts if the splitter saw it after stemming.
    ("Spielende", {"spiel", "end"}),
    ("Rundenende", {"rund", "end"}),
])
def test_german_compounds_add_their_parts(compound, parts):
    found = set(tokens("de", compound, VOCAB))
    assert parts <= found
    assert len(found) == len(parts) + 1  # the whole word stays too


def test_unknown_parts_do_not_split():
    assert tokens("de", "Zauberwürfel", VOCAB) == ["zauberwurfel"]
