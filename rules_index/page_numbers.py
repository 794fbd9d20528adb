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
PATTERN = f"(?:(?:{_WORDS})\\.?{_GAP})?[0-9]{{1,3}}(?:{_GAP}[-–]{_GAP}[0-9]{{1,3}})?"
_WHOLE = re.compile(f"^(?:{PATTERN})$")
_NUMBERS = re.compile("[0-9]+")
HINT = "a page like 2, S. 2 or p. 2, or a range like 5-6"


def normalize(text: str) -> str:
    """``text`` (without blanks around it) as "2" or "5-6"; ValueError unless it is a page."""
    if not _WHOLE.match(text):
        raise ValueError(f"must be {HINT}")
    numbers = _NUMBERS.findall(text)
    return "-".join(str(int(n)) for n in numbers)
