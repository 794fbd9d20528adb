"""A worker idle since an accept answers its next request from the new version: under gunicorn
with several workers, the first requests after an accept (each worker's first since) all show it."""
from __future__ import annotations

import json
import time

import pytest

from apptools import make_app, real_library
from rules_index.corrections.db import session
from rules_index.corrections.editors import add_editor
from rules_index.corrections.tokens import issue_token
from servertools import server_env, serving

pytestmark = pytest.mark.slow

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"


def test_idle_workers_serve_the_new_version(tmp_path, follow="1"):
    """(With ``follow="0"``, no watcher, some of the 40 answers come from the old version.)"""
    import shutil

    from app import ROOT

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    setup = make_app(tmp_path / "setup", content, DATABASE_URL=url)
    with setup.app_context():
        add_editor(session(), "anna", "anna-long-editor-password")
        token = issue_token(session(), "anna")
    env = server_env(tmp_path / "instance", url, CONTENT_DIR=str(content), WORKERS="4", THREADS="2", FOLLOW_LINK_S=follow)
    answer = real_library().game(GAME).faq_entry(FAQ).en.answer.rstrip() + " (p. 2)"  # a page reference: live at once
    with serving(env, tmp_path) as server:
        path = f"/api/v1/games/{GAME}/faq/{FAQ}?lang=en"
        for _ in range(40):  # every worker has loaded the content once
            server.request("GET", path)
        version = json.loads(server.request("GET", path)[2])["version"]
        body = {"game": GAME, "kind": "faq", "id": FAQ, "base_version": version, "text": {"en": {"answer": answer}}}
        status, _, data = server.request("POST", "/api/v1/changes", json.dumps(body).encode(),
                                         {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
        assert status == 201, data
        time.sleep(4)  # idle: no request reaches the other workers meanwhile
        shown = [b"(p. 2)" in server.request("GET", path)[2] for _ in range(40)]
    assert all(shown), f"{shown.count(False)} of 40 answers after the accept came from the old version"
