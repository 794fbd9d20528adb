"""A rulebook page as players write it: "2", "S. 2", "p. 2", "pag. 2", "Seite 2", "pp. 5-6",
"5–6". The one rule for readers' page fields: the report form, the API's parser and its JSON
Schema all take it from here.

``PATTERN`` is written in the part of regular-expression syntax that Python and ECMA-262 (JSON
Schema) read alike; ``normalize`` gives the page as the site stores it: "2" or "5-6".
"""
from __future__ import annotations

import re

# Page words of the three languages, with or without their full stop, any case of the first letter.
_WORDS = "[Ss](?:eiten?)?|[Pp](?:p|ages?|ag(?:g|ina|ine)?)?"
_GAP = "[ \u00a0]*"
# A page is 1 or more (a rulebook has no page 0), with up to two leading zeros ("02").
_PAGE = "0{0,2}[1-9][0-9]{0,2}"
PATTERN = f"(?:(?:{_WORDS})\\.?{_GAP})?{_PAGE}(?:{_GAP}[-–]{_GAP}{_PAGE})?"
_WHOLE = re.compile(f"^(?:{PATTERN})$")
_NUMBERS = re.compile("[0-9]+")
HINT = "a page like 2, S. 2 or p. 2, or a range like 5-6"


def normalize(text: str) -> str:
    """``text`` (without blanks around it) as "2" or "5-6"; ValueError unless it is a page."""
    if not _WHOLE.match(text):
        raise ValueError(f"must be {HINT}")
    # A range written high to low ("6-5") means the same pages.
    numbers = sorted(int(n) for n in _NUMBERS.findall(text))
    return "-".join(str(n) for n in numbers)
