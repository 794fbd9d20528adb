"""A traditional game in the public domain (``traditional: true``): its page says so where a
published game names designer, publisher and year, its pages' footer points to its own sources,
and a fixed player count shows as one number."""
from __future__ import annotations

import pytest

from apptools import make_app

GAME = "tiny-game"


def page_of(app, path: str) -> str:
    return app.test_client().get(path).get_data(as_text=True)


def edit(content, old: str, new: str) -> None:
    path = content / GAME / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture()
def traditional(tiny_content, tmp_path):
    edit(tiny_content, "players: {min: 2, max: 4}", "players: {min: 2, max: 2}\ntraditional: true")
    edit(tiny_content, "year: 2020\ndesigners: [Ada Beispiel]\npublishers: [Testverlag]", "year: null")
    edit(tiny_content, "kind: official-rulebook", "kind: encyclopedia")
    return make_app(tmp_path / "instance", tiny_content)


@pytest.mark.parametrize("lang,published,design,publisher,footer", [
    ("en", "a traditional game", "traditional, no known author", "none: in the public domain", "this game has no publisher's rulebook"),
    ("de", "überliefertes Spiel", "überliefert, ohne bekannten Autor", "keiner: gemeinfrei", "dieses Spiel hat kein Regelheft eines Verlags"),
    ("it", "gioco tradizionale", "tradizionale, senza autore noto", "nessuno: di pubblico dominio", "questo gioco non ha un regolamento"),
])
def test_a_traditional_game_says_so(traditional, lang, published, design, publisher, footer):
    page = page_of(traditional, f"/{lang}/{GAME}/")
    for said in (published, design, publisher):
        assert f"<dd>{said}</dd>" in page
    assert "<dd>2</dd>" in page and "2–2" not in page
    assert footer in page and footer in page_of(traditional, f"/{lang}/{GAME}/faq/coin-count")


@pytest.mark.parametrize("lang,footer", [
    ("en", "not the publisher's rulebook; where the two differ, the rulebook of your edition is authoritative"),
    ("de", "nicht dem Regelheft des Verlags; wo beide voneinander abweichen, gilt das Regelheft eurer Ausgabe"),
    ("it", "non il regolamento dell'editore; dove le due cose non coincidono, vale il regolamento della vostra edizione"),
])
def test_a_published_game_known_from_other_sources_keeps_its_publishers_rulebook(tiny_content, tmp_path, lang, footer):
    """A published game whose content follows a review said it "has no publisher's rulebook":
    it has one, the site follows other sources, and the rulebook of the reader's edition wins."""
    edit(tiny_content, "kind: official-rulebook", "kind: encyclopedia")
    app = make_app(tmp_path / "instance", tiny_content)
    page = page_of(app, f"/{lang}/{GAME}/")
    assert footer in page.replace("&#39;", "'") and "no publisher's rulebook" not in page


def test_a_published_game_keeps_its_facts_and_the_publishers_rulebook(tiny_content, tmp_path):
    app = make_app(tmp_path / "instance", tiny_content)
    page = page_of(app, f"/en/{GAME}/")
    assert "<dd>2–4</dd>" in page and "<dd>Ada Beispiel</dd>" in page and "traditional" not in page
    assert "the publisher's rulebook is authoritative" in page
    home = page_of(app, "/en/")  # no game of its own: the line for every game
    assert "where a game has a publisher's rulebook, that rulebook is authoritative" in home


@pytest.mark.parametrize("lang,label,missing", [
    ("en", "Not stated by the source", "Published, Design, Publisher"),
    ("de", "In der Quelle nicht angegeben", "Erschienen, Autor, Verlag"),
    ("it", "Non indicato dalla fonte", "Pubblicato, Autore, Editore"),
])
def test_the_facts_a_source_leaves_open_share_one_row(tiny_content, tmp_path, lang, label, missing):
    """A game whose source names no year, designer or publisher opened with a column of "not
    stated by the source": one row names what it leaves open, the stated facts keep theirs."""
    edit(tiny_content, "year: 2020\ndesigners: [Ada Beispiel]\npublishers: [Testverlag]", "year: null")
    page = page_of(make_app(tmp_path / "instance", tiny_content), f"/{lang}/{GAME}/")
    facts = page.split('<dl class="facts"')[1].split("</dl>")[0]
    assert f"<dt>{label}</dt><dd>{missing}</dd>" in facts
    assert facts.count("<dt>") == 5 and "<dd>2–4</dd>" in facts  # players, duration, age, the open ones, last checked
