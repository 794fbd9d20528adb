"""Apps for the corrections tests: each on its own copy of the content, database and index."""
from __future__ import annotations

import shutil

import pytest

from app import ROOT
from apptools import make_app
from rules_index.corrections.db import session
from rules_index.corrections.editors import add_editor

from formtools_shared import EDITOR, PASSWORD


@pytest.fixture()
def site(tmp_path):
    """An app whose content may be changed, with one editor."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    app = make_app(tmp_path / "instance", content)
    with app.app_context():
        add_editor(session(), EDITOR, PASSWORD)
    app.content_dir = content
    return app


