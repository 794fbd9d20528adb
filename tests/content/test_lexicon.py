"""The players' words (content/lexicon.yaml): validated like every content file, loaded with the library."""
import shutil
from pathlib import Path

import pytest

from rules_index.content import load
from rules_index.content.lexicon import load_lexicon

CONTENT = Path(__file__).parents[2] / "content"
GAMES = ["adel-verpflichtet", "kardinal-und-koenig", "keine-ehre-unter-dieben", "ohne-furcht-und-adel"]


def test_the_content_lexicon_is_valid_and_covers_every_language():
    lexicon, problems = load_lexicon(CONTENT, GAMES)
    assert problems == []
    assert lexicon.means("de", "futsch") == ("verloren", None)
    assert lexicon.means("it", "esce")[0] == "torna libero"
    assert lexicon.means("de", "lila") == ("violett", "ohne-furcht-und-adel")
    for lang in ("de", "en", "it"):
        assert len(lexicon.words[lang]) >= 15


def test_the_library_carries_the_lexicon():
    library, problems = load(CONTENT)
    assert problems == []
    assert library.lexicon.means("en", "nicked") == ("stolen", None)


@pytest.mark.parametrize("text,expected", [
    ("de:\n  - {said: [futsch], means: verloren}\n  - {said: [Futsch], means: kaputt}\n", "lexicon.yaml:3: de.1.said: 'Futsch' is given twice"),
    ("en:\n  - {said: [nicked], means: stolen, game: no-such-game}\n", "lexicon.yaml:2: en.0.game: no game 'no-such-game'"),
    ("it:\n  - {said: [fatto fuori], means: assassinato}\n", "lexicon.yaml:2: it.0.said.0: String should match pattern"),
    ("de:\n  - {said: [], means: verloren}\n", "lexicon.yaml:2: de.0.said: List should have at least 1 item"),
    ("de:\n  - {said: [futsch]}\n", "lexicon.yaml:2: de.0.means: required field is missing"),
    ("fr:\n  - {said: [foutu], means: perdu}\n", "lexicon.yaml:1: fr: unknown field"),
])
def test_a_bad_lexicon_is_refused_with_its_line(tmp_path, text, expected):
    (tmp_path / "lexicon.yaml").write_text(text, encoding="utf-8")
    _lexicon, problems = load_lexicon(tmp_path, GAMES)
    assert any(str(p).split("/", 1)[-1].startswith(expected) for p in problems), [str(p) for p in problems]


def test_a_bad_lexicon_fails_content_validation(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    (content / "lexicon.yaml").write_text("de:\n  - {said: [futsch], means: verloren, extra: 1}\n", encoding="utf-8")
    _library, problems = load(content)
    assert any("lexicon.yaml" in str(p) and "unknown field" in str(p) for p in problems)
