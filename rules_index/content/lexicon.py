"""Players' words (``content/lexicon.yaml``): what people say at the table, per language, and the
rulebooks' word for it ("futsch" -> "verloren", "nicked" -> "stolen", "esce" -> "torna libero").

A word of the language at large has no ``game``; one that means something in one game only names
it. Search adds the rulebooks' words to a question that uses a players' word, and never
"corrects" a players' word. The file is optional (a content folder without it has no players'
words); when present it is validated like every other content file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Iterable

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from .problems import Problem
from .schema import LANGS
from .yamlfile import read_yaml

LEXICON_FILE = "lexicon.yaml"
# One word as a player types it: letters (any script's), apostrophes and hyphens inside.
WORD = re.compile(r"^[^\W\d_]+(?:['’-][^\W\d_]+)*$")
Word = Annotated[str, StringConstraints(min_length=2, max_length=40, pattern=WORD.pattern)]


class PlayersWord(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    said: Annotated[list[Word], Field(min_length=1)]
    means: Annotated[str, StringConstraints(min_length=1, max_length=80, strip_whitespace=True)]
    game: str | None = None


class LexiconFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    de: list[PlayersWord] = []
    en: list[PlayersWord] = []
    it: list[PlayersWord] = []


@dataclass(frozen=True)
class Lexicon:
    """{lang: {word (lower case): (the rulebooks' words, game or None)}}."""

    words: dict[str, dict[str, tuple[str, str | None]]] = field(default_factory=dict)

    def means(self, lang: str, word: str) -> tuple[str, str | None] | None:
        return self.words.get(lang, {}).get(word.lower())

    def entries(self) -> Iterable[tuple[str, str, str, str | None]]:
        """(lang, word, rulebooks' words, game) of every players' word."""
        for lang, words in self.words.items():
            for word, (plain, game) in words.items():
                yield lang, word, plain, game

    def as_json(self) -> dict:
        return {lang: {w: [plain, game] for w, (plain, game) in words.items()} for lang, words in self.words.items()}


def load_lexicon(root: Path, games: Iterable[str], lines: bool = True) -> tuple[Lexicon, list[Problem]]:
    """The players' words of ``root/lexicon.yaml`` and every problem in it: schema, a word given
    twice in one language, a game that is not a folder of the content."""
    path = Path(root) / LEXICON_FILE
    if not path.exists():
        return Lexicon(), []
    display = str(Path(Path(root).name) / LEXICON_FILE)
    file, problems = read_yaml(path, display, lines)
    if file is None:
        return Lexicon(), problems
    try:
        parsed = LexiconFile.model_validate(file.data or {})
    except ValidationError as exc:
        for item in exc.errors():
            keys = tuple(item["loc"])
            message = "unknown field" if item["type"] == "extra_forbidden" else (
                "required field is missing" if item["type"] == "missing" else item["msg"])
            problems.append(Problem(display, file.line(*keys), f"{'.'.join(map(str, keys)) or 'file'}: {message}"))
        return Lexicon(), problems
    known_games = frozenset(games)
    words: dict[str, dict[str, tuple[str, str | None]]] = {}
    for lang in LANGS:
        found: dict[str, tuple[str, str | None]] = {}
        for index, entry in enumerate(getattr(parsed, lang)):
            if entry.game is not None and entry.game not in known_games:
                problems.append(Problem(display, file.line(lang, index, "game"), f"{lang}.{index}.game: no game '{entry.game}'"))
            for position, word in enumerate(entry.said):
                key = word.lower()
                if key in found:
                    problems.append(Problem(display, file.line(lang, index, "said", position),
                                            f"{lang}.{index}.said: '{word}' is given twice"))
                found[key] = (entry.means, entry.game)
        words[lang] = found
    return Lexicon(words), problems
