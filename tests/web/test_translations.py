"""Every interface string is translated in German and Italian (English is the msgid)."""
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).parents[2] / "translations"


@pytest.mark.parametrize("lang", ["de", "it"])
def test_catalog_complete(lang):
    with (ROOT / "messages.pot").open("rb") as fh:
        template = read_po(fh)
    with (ROOT / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        catalog = read_po(fh)
    missing = []
    for message in template:
        if not message.id:
            continue
        translated = catalog.get(message.id)
        strings = translated.string if translated else None
        if not strings or (isinstance(strings, tuple) and not all(strings)):
            missing.append(message.id)
    assert missing == []
