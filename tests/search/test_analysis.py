"""Analyzer behaviour as input -> tokens tables, per language."""
import pytest

from rules_index.folding import TOKEN_PATTERN
from rules_index.search.analysis import german_vocabulary, language_analyzer, separable_verbs

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


VERBS = german_vocabulary(["Aufbau vorbereiten Ausstellung ausstellen zurückgeben Anfang bauen"])


def verb_tokens(text, verbs=VERBS):
    return [t.text for t in language_analyzer("de", verbs=verbs)(text)]


@pytest.mark.parametrize("text,expected", [
    ("Wie baut man das Spiel auf?", ["aufbau", "spiel"]),
    ("Wie bereitet man eine Partie vor?", ["vorbereit", "parti"]),
    ("Ich stelle drei Karten aus.", ["ausstell", "drei", "kart"]),  # the verb's stem, not the longer noun
    ("Wer fängt an?", ["anfang"]),  # folded: "fängt" meets "Anfang"
    # Clause by clause; "und" does not count as the clause's first word.
    ("Ich leihe mir Gold, und ich gebe es zurück.", ["leih", "gold", "zuruckgeb", "zuruck"]),
    # The particle must end the clause, the verb be its first or second word.
    ("Wie baut man auf dem Feld?", ["baut", "feld"]),
    ("Baut man auf, wenn wir Zeit haben?", ["aufbau", "zeit"]),
    ("Wer hat gestern die Stadt schnell gebaut und auf", ["gest", "stadt", "schnell", "gebaut"]),
], ids=lambda v: v if isinstance(v, str) else None)
def test_a_split_verb_is_joined_where_the_content_has_the_joined_word(text, expected):
    assert verb_tokens(text) == expected


def test_no_split_verb_is_joined_without_the_joined_word():
    assert verb_tokens("Wie baut man das Spiel auf?", german_vocabulary(["bauen Spiel"])) == ["baut", "spiel"]
    assert tokens("de", "Wie baut man das Spiel auf?") == ["baut", "spiel"]  # no verbs vocabulary: as before


@pytest.mark.parametrize("text", [
    "Wie baut man das Spiel auf?", "Darf mein Nachbar leihen, und ich gebe es zurück?", "Wer fängt an? Ich stelle aus.",
])
def test_a_text_joined_before_analysis_word_by_word_gives_the_same_terms(text):
    """The searcher analyses a question word by word (each word's terms cached): joined first
    (``rejoined``), it meets what the index joined over the whole text."""
    analyzer = language_analyzer("de", verbs=VERBS)
    verbs = separable_verbs(analyzer)
    by_word = [t.text for word in TOKEN_PATTERN.findall(verbs.rejoined(text)) for t in analyzer(word)]
    assert by_word == [t.text for t in analyzer(text)]
