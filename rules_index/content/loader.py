"""Loading ``content/``: parse each file, validate it against its schema, then across files.

Every problem is collected (nothing stops at the first) and reported with file and line.
"""
from __future__ import annotations

import dataclasses
import logging
import threading
from pathlib import Path
from typing import Any, Callable, TypeVar

from cachetools import LRUCache
from pydantic import BaseModel, ValidationError

from . import checks
from .filehashes import content_fingerprint
from .lexicon import load_lexicon
from .model import Game, Library, RuleSection
from .problems import ContentError, Problem
from .rules_markdown import split_sections
from .schema import LANGS, Faq, GameFile, GlossaryEntry, Mistake, Note, Section
from .yamlfile import YamlFile, read_yaml

CATALOG_FILE = "faq-catalog.yaml"
LIST_FILES: dict[str, type[BaseModel]] = {
    "sections.yaml": Section,
    "faq.yaml": Faq,
    "mistakes.yaml": Mistake,
    "glossary.yaml": GlossaryEntry,
    "notes.yaml": Note,
}
M = TypeVar("M", bound=BaseModel)
log = logging.getLogger(__name__)


def _display(path: Path, root: Path) -> str:
    try:
        return str(Path(root.name) / path.relative_to(root))
    except ValueError:
        return str(path)


def schema_words(item: dict, where: str) -> tuple:
    """What says a schema refusal in words: its kind, where in the entry, pydantic's message and
    the refusal's own values (``expected``, a custom error's context)."""
    context = {key: str(value) for key, value in (item.get("ctx") or {}).items() if isinstance(value, (str, int))}
    return (("type", item["type"]), ("where", where), ("message", item["msg"]), *sorted(context.items()))


def _schema_problems(error: ValidationError, file: YamlFile, prefix: tuple[Any, ...]) -> list[Problem]:
    problems = []
    for item in error.errors():
        loc = tuple(item["loc"])
        # pydantic names union branches ("Check", "list[Check]") in loc: keep only real keys.
        keys = tuple(k for k in loc if isinstance(k, int) or not (isinstance(k, str) and ("[" in k or k[:1].isupper())))
        where = ".".join(str(k) for k in (*prefix, *keys)) or "file"
        message = item["msg"]
        if item["type"] == "missing":
            message = "required field is missing"
        elif item["type"] == "extra_forbidden":
            message = "unknown field"
        schema = schema_words(item, ".".join(str(k) for k in keys) or "entry")
        problems.append(Problem(file.display, file.line(*prefix, *keys), f"{where}: {message}", schema))
    return problems


def _validate(model: type[M], data: Any, file: YamlFile, prefix: tuple[Any, ...]) -> tuple[M | None, list[Problem]]:
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, _schema_problems(exc, file, prefix)


def _load_list(folder: Path, root: Path, name: str, model: type[M], lines: bool) -> tuple[list[M], YamlFile | None, list[Problem]]:
    path = folder / name
    file, problems = read_yaml(path, _display(path, root), lines)
    if file is None:
        return [], None, problems
    data = [] if file.data is None else file.data
    if not isinstance(data, list):
        return [], file, [Problem(file.display, 1, "expected a list of entries")]
    items: list[M] = []
    for index, raw in enumerate(data):
        item, item_problems = _validate(model, raw, file, (index,))
        problems += item_problems
        if item is not None:
            items.append(item)
    return items, file, problems


def _load_sections(folder: Path, root: Path, metas: list[Section]) -> tuple[list[RuleSection], list[Problem]]:
    problems: list[Problem] = []
    texts: dict[str, dict] = {}
    for lang in LANGS:
        path = folder / f"rules.{lang}.md"
        display = _display(path, root)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            problems.append(Problem(display, 1, "file is missing"))
            continue
        parsed, parse_problems = split_sections(text, display)
        problems += parse_problems
        wanted = [m.id for m in metas]
        found = [s.id for s in parsed]
        for section in parsed:
            if section.id not in wanted:
                problems.append(Problem(display, section.line, f"section '{section.id}' is not in sections.yaml"))
        missing = [i for i in wanted if i not in found]
        for section_id in missing:
            problems.append(Problem(display, 1, f"section '{section_id}' of sections.yaml has no heading here"))
        duplicates = {i for i in found if found.count(i) > 1}
        for section_id in sorted(duplicates):
            problems.append(Problem(display, 1, f"section '{section_id}' appears more than once"))
        if not missing and not duplicates and [i for i in found if i in wanted] != wanted:
            problems.append(Problem(display, 1, "sections are not in the order of sections.yaml"))
        texts[lang] = {s.id: s for s in parsed}
    sections = []
    for meta in metas:
        if all(meta.id in texts.get(lang, {}) for lang in LANGS):
            sections.append(RuleSection(meta, {lang: texts[lang][meta.id] for lang in LANGS}))
    return sections, problems


# Games read without line numbers, by the bytes of their folder: a process reads and checks the
# same bytes once, however many content folders hold them (a reload, the gate's copy). Models are
# frozen; each caller gets its own Game and lists. New bytes of a folder replace what was kept of
# its older ones, so that old versions are not left for the garbage collector to walk.
_read: LRUCache = LRUCache(maxsize=32)
_read_lock = threading.Lock()


def _folder_key(folder: Path, root: Path) -> tuple[str, str, str]:
    return root.name, folder.name, content_fingerprint(folder)


def _remembered(key: tuple, folder: Path, read):
    """``read()``, or what it gave for the same key before; kept only if no file of ``folder``
    changed while it ran, so that the key names the bytes read."""
    with _read_lock:
        found = _read.get(key)
    if found is None:
        found = read()
        if content_fingerprint(folder) == key[2]:
            with _read_lock:
                for older in [k for k in _read if k[:2] == key[:2] and k[2] != key[2]]:
                    del _read[older]
                _read[key] = found
    return found


def _own(game: Game | None, folder: Path) -> Game | None:
    if game is None:
        return None
    return dataclasses.replace(
        game, folder=folder, sections=list(game.sections), faq=list(game.faq),
        mistakes=list(game.mistakes), glossary=list(game.glossary), notes=list(game.notes),
    )


def load_game(folder: Path, root: Path, lines: bool = True) -> tuple[Game | None, dict[str, YamlFile], list[Problem]]:
    """One game's folder: the Game (None if game.yaml is unusable), its parsed files, problems.

    With ``lines=False`` a folder whose bytes were read before in this process is not parsed again.
    """
    if lines:
        return _read_game(folder, root, lines)
    key = _folder_key(folder, root)
    game, files, problems = _remembered(key, folder, lambda: _read_game(folder, root, False))
    files = {name: dataclasses.replace(file, path=folder / name) for name, file in files.items()}
    return _own(game, folder), files, list(problems)


def load_checked_game(
    folder: Path, root: Path, catalog_ids: list[str] | None, rulings: bool = True
) -> tuple[Game | None, list[Problem]]:
    """``load_game`` without line numbers plus the checks across its files (``checks.check_game``),
    remembered like the read. Problems found this way name line 1: read again with lines for them."""
    key = (*_folder_key(folder, root), None if catalog_ids is None else tuple(catalog_ids), rulings)

    def read():
        game, files, problems = _read_game(folder, root, False)
        if game is not None:
            problems = problems + checks.check_game(game, files, catalog_ids, rulings=rulings)
        return game, problems

    game, problems = _remembered(key, folder, read)
    return _own(game, folder), list(problems)


def _read_game(folder: Path, root: Path, lines: bool) -> tuple[Game | None, dict[str, YamlFile], list[Problem]]:
    files: dict[str, YamlFile] = {}
    game_path = folder / "game.yaml"
    game_file, problems = read_yaml(game_path, _display(game_path, root), lines)
    info = None
    if game_file is not None:
        files["game.yaml"] = game_file
        info, more = _validate(GameFile, game_file.data, game_file, ())
        problems += more
    loaded: dict[str, list] = {}
    for name, model in LIST_FILES.items():
        items, file, more = _load_list(folder, root, name, model, lines)
        problems += more
        loaded[name] = items
        if file is not None:
            files[name] = file
    sections, more = _load_sections(folder, root, loaded["sections.yaml"])
    problems += more
    if info is None:
        return None, files, problems
    game = Game(
        info=info,
        folder=folder,
        sections=sections,
        faq=loaded["faq.yaml"],
        mistakes=loaded["mistakes.yaml"],
        glossary=loaded["glossary.yaml"],
        notes=loaded["notes.yaml"],
    )
    return game, files, problems


def load_catalog(root: Path, lines: bool = True) -> tuple[dict[str, list[str]], list[Problem]]:
    """The FAQ ids each game must carry (content/faq-catalog.yaml); optional for new games."""
    path = root / CATALOG_FILE
    if not path.exists():
        return {}, []
    file, problems = read_yaml(path, _display(path, root), lines)
    if file is None:
        return {}, problems
    catalog: dict[str, list[str]] = {}
    for slug, entry in (file.data or {}).items():
        faq = (entry or {}).get("faq") or {}
        catalog[str(slug)] = [str(i) for i in faq]
    return catalog, problems


def game_folders(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def load(root: Path) -> tuple[Library, list[Problem]]:
    """Load and validate everything under ``root``; returns what loaded and every problem, each
    with the line its file's node tree names."""
    root = Path(root)
    catalog, problems = load_catalog(root)
    games: dict[str, Game] = {}
    wheres = []
    for folder in game_folders(root):
        game, files, more = load_game(folder, root)
        problems += more
        if game is None:
            continue
        problems += checks.check_game(game, files, catalog.get(folder.name))
        games[game.slug] = game
        wheres.append((game, checks.game_where(game, files)))
    problems += checks.check_short_titles(wheres)
    for slug in catalog:
        if slug not in games and not (root / slug).is_dir():
            problems.append(Problem(_display(root / CATALOG_FILE, root), 1, f"catalog game '{slug}' has no folder"))
    lexicon, more = load_lexicon(root, [folder.name for folder in game_folders(root)])
    problems += more
    return Library(games=dict(sorted(games.items())), catalog=catalog, lexicon=lexicon), sorted(set(problems))


CheckedGame = Callable[[Path, Path, list[str] | None], tuple[Game | None, list[Problem]]]


def library_of_checked_games(root: Path, checked_game: CheckedGame = load_checked_game) -> Library | None:
    """The library from each game folder's ``checked_game(folder, root, catalog ids)`` (by
    default ``load_checked_game``: read and checked without line numbers, once per process);
    None at the first problem, for a full read that names each problem's line."""
    root = Path(root)
    catalog, problems = load_catalog(root, lines=False)
    if problems:
        return None
    games: dict[str, Game] = {}
    for folder in game_folders(root):
        game, problems = checked_game(folder, root, catalog.get(folder.name))
        if game is None or problems:
            return None
        games[game.slug] = game
    if any(slug not in games and not (root / slug).is_dir() for slug in catalog):
        return None
    lexicon, problems = load_lexicon(root, games, lines=False)
    if problems:
        return None
    return Library(games=dict(sorted(games.items())), catalog=catalog, lexicon=lexicon)


def load_library(root: Path) -> Library:
    """Load content that must be valid (the service's start); raises ContentError otherwise,
    naming every problem with its line."""
    library = library_of_checked_games(root)
    if library is None:
        library, problems = load(root)
        if problems:
            raise ContentError(problems)
    return library


def load_served(root: Path) -> Library:
    """Load content to serve, whatever the files hold: as ``load_library`` when it is valid;
    otherwise what loads, with each problem logged. An entry that fails its schema is left out; a
    text the site cannot show as Markdown is shown as plain text (``rules_index.render``). A
    process must start on any content: validation, CI and the editors' gate keep it valid."""
    library = library_of_checked_games(root)
    if library is None:
        library, problems = load(root)
        for problem in problems:
            log.warning("content problem, served as it loads: %s", problem)
    return library
