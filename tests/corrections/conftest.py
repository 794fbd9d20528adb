"""Apps for the corrections tests: each on its own copy of the content, database and index."""
from __future__ import annotations

import pytest

from apptools import make_editor_site


@pytest.fixture()
def site(tmp_path):
    """An app whose content may be changed, with one editor."""
    return make_editor_site(tmp_path)
