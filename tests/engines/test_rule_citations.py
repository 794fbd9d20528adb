"""Every rule an engine refuses under is either the source's, cited by the source's own label, or a
reading of the engine where the source is silent ("Quelle schweigt · …"); a reading is named as the
open question of the game's rules summary that says the source leaves it open, so no refusal the
sources do not back stays out of the readers' sight."""
from __future__ import annotations

import importlib
import pkgutil

import pytest

from apptools import real_library
from rules_index.engines import Rule, engine_module

READING = "Quelle schweigt · "
GAMES = sorted(real_library().games)


def engine_rules(slug: str) -> list[Rule]:
    package = engine_module(slug)
    modules = [package] + [importlib.import_module(f"{package.__name__}.{info.name}")
                           for info in pkgutil.iter_modules(package.__path__)]
    return list({id(value): value for module in modules for value in vars(module).values() if isinstance(value, Rule)}.values())


def open_questions(slug: str) -> str:
    return real_library().game(slug).section("open-questions").body("de")


@pytest.mark.parametrize("slug", [slug for slug in GAMES if engine_module(slug) is not None])
def test_a_rule_is_the_sources_or_a_reading_the_summary_lists_as_open(slug):
    game = real_library().game(slug)
    labels = tuple(f"{source.label.de} " for source in game.info.sources)
    rules = engine_rules(slug)
    assert rules, slug
    for rule in rules:
        if "Quelle schweigt" in rule.citation:
            assert rule.citation.startswith(READING), rule
            assert f"**{rule.name}:**" in open_questions(slug), f"{rule} is a reading no open question of {slug} names"
        else:
            assert rule.citation.startswith(labels), f"{rule} cites none of {slug}'s sources {labels}"
