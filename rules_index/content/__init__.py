"""The content package: the only code that reads (and, for accepted corrections, writes) ``content/``.

``load(root)`` returns the Library and every problem; ``load_library(root)`` raises ContentError;
``load_served(root)`` serves what loads and logs the problems.
"""
from .loader import load, load_library, load_served
from .model import Game, Library, RuleSection
from .problems import ContentError, Problem
from .schema import DEFAULT_LANG, LANGS

__all__ = ["ContentError", "DEFAULT_LANG", "Game", "LANGS", "Library", "Problem", "RuleSection", "load", "load_library", "load_served"]
