"""What players ask about a game before they play it -- how long, from what age, who made it --
is answered by the game's facts: what the source gives, and where it is silent, that it is."""
from __future__ import annotations

import pytest


def plain(snippet: str) -> str:
    return snippet.replace("<mark>", "").replace("</mark>", "")


@pytest.mark.parametrize("lang,question,says", [
    ("de", "wer hat ohne furcht und adel erfunden", "Autor: Bruno Faidutti."),
    ("en", "who designed citadels", "Designed by Bruno Faidutti."),
    ("it", "chi ha ideato cittadelle", "Autore: Bruno Faidutti."),
    ("en", "kardinal und könig publisher", "Published by Goldsieber Spiele, Rio Grande Games."),
    # Its source names nobody: the answer says so, as the game page does.
    ("it", "chi ha inventato hoity toity", "La fonte non indica autore, editore né anno."),
])
def test_who_made_a_game_is_its_answer_card(index, lang, question, says):
    best = [h for h in index.search(question, lang).hits if h.best]
    assert [(h.kind, h.entry) for h in best] == [("fact", "credits")]
    assert says in plain(best[0].snippet)


@pytest.mark.parametrize("lang,question,says", [
    ("de", "wie lange dauert kardinal und könig", "Spieldauer: 50 bis 60 Minuten."),
    ("it", "quanto dura una partita di cittadelle", "Durata: da 20 a 60 minuti."),
    ("de", "wie lange dauert keine ehre unter dieben", "Eine Spieldauer nennt die Quelle nicht."),
    ("en", "keine ehre unter dieben how old", "The source gives no minimum age."),
])
def test_how_long_and_from_what_age_lead_to_the_facts(index, lang, question, says):
    hits = index.search(question, lang).hits
    assert (hits[0].kind, hits[0].entry) == ("fact", "facts")
    assert says in plain(hits[0].snippet)


@pytest.mark.parametrize("lang,question,game", [
    ("de", "für wie viele spieler ist ohne furcht und adel", "ohne-furcht-und-adel"),
    ("it", "per quanti giocatori è web of power", "kardinal-und-koenig"),
    # As it is asked most: "how many are needed", and Italian's "in quanti si gioca".
    ("de", "Wie viele Spieler braucht man für Kardinal & König?", "kardinal-und-koenig"),
    ("it", "Quanti giocatori servono per Kardinal & König?", "kardinal-und-koenig"),
    ("it", "In quanti si gioca a Cittadelle?", "ohne-furcht-und-adel"),
    ("it", "in quanti si gioca a keine ehre unter dieben", "keine-ehre-unter-dieben"),
])
def test_how_many_players_is_the_facts_card(index, lang, question, game):
    """The facts are asked about as players ask (``documents.FACT_WORDS``): "for how many players"
    is the facts' question, ahead of the entry on what changes with few or many players."""
    best = [(h.game, h.kind, h.entry) for h in index.search(question, lang).hits if h.best]
    assert best == [(game, "fact", "facts")]


@pytest.mark.parametrize("lang,question,game", [
    ("de", "Kardinal: wann endet das Spiel?", "kardinal-und-koenig"),
    ("en", "keine ehre when does the game end", "keine-ehre-unter-dieben"),
    ("de", "Ohne Furcht – wann ist das Spiel vorbei?", "ohne-furcht-und-adel"),
])
def test_a_short_title_picks_its_game(index, lang, question, game):
    """Players shorten a title ("Kardinal"): the question is about that game, as with its full name."""
    result = index.search(question, lang)
    assert result.game == game
    assert {h.game for h in result.hits} == {game}


@pytest.mark.parametrize("lang,question,game", [
    ("en", "citadels", "ohne-furcht-und-adel"), ("it", "Cittadelle", "ohne-furcht-und-adel"),
    ("de", "Kardinal & König", "kardinal-und-koenig"), ("en", "hoity toity", "adel-verpflichtet"),
    ("de", "Keine Ehre", "keine-ehre-unter-dieben"),
])
def test_a_games_name_alone_is_answered_by_its_facts(index, lang, question, game):
    """A newcomer types only the game's name: what the game is (players, time, age) is the card,
    its credits and components follow; nothing of another game."""
    result = index.search(question, lang)
    assert result.game == game
    assert [(h.kind, h.entry, h.best) for h in result.hits][0] == ("fact", "facts", True)
    assert {h.game for h in result.hits} == {game}


@pytest.mark.parametrize("lang,question", [
    ("de", "was passiert wenn der könig ermodet wird"), ("en", "what does the king do"),
    ("it", "il re assassinato prende la corona"),
])
def test_a_word_of_a_title_names_no_game(index, lang, question):
    """"König" is a word of "Kardinal & König", not that game: a question about the King of
    Ohne Furcht und Adel is not answered with Kardinal & König's facts."""
    hits = index.search(question, lang).hits
    put_forward = [h for h in hits if h.best or h.close] or [h for h in hits if h.kind in ("faq", "fact")][:1]
    assert put_forward and all(h.game == "ohne-furcht-und-adel" for h in put_forward), [(h.game, h.entry) for h in put_forward]


@pytest.mark.parametrize("lang,question,game", [
    ("it", "Cittadelle: cosa c'è nella scatola?", "ohne-furcht-und-adel"),
    ("de", "was ist bei Kardinal und König in der Schachtel", "kardinal-und-koenig"),
    ("en", "What's in the box of Hoity Toity?", "adel-verpflichtet"),  # not the cash box, a term of the game
])
def test_the_box_is_its_components(index, lang, question, game):
    """"Scatola" and "Schachtel" are how players ask for the components: the Italian found none."""
    hits = index.search(question, lang, limit=10).hits
    answers = [(h.game, h.entry) for h in hits if h.kind in ("faq", "fact")]
    assert (game, "components") in answers[:3], answers
    assert (hits[0].kind, hits[0].entry) == ("fact", "components"), [(h.kind, h.entry) for h in hits[:3]]
