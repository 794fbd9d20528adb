"""A SIGKILL of `flask index build` in the middle of writing leaves the previous index serving.

The fast, in-suite version of scenario 3 of ``make stress`` (stress/scenarios.py).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from apptools import make_app
from app import ROOT
from rules_index.search import build
from rules_index.web.state import library

pytestmark = pytest.mark.slow  # make test-all: fault scenarios with servers

QUERY = "/api/v1/search?q=Dieb+Meuchler+bestehlen&lang=de"


def kill_build_mid_write(instance, generations) -> tuple[bool, set]:
    """Start `flask index build`, SIGKILL it as soon as its new generation directory exists."""
    env = {**os.environ, "RULES_INSTANCE_PATH": str(instance), "RULES_CONTENT_DIR": str(ROOT / "content"),
           "RULES_SECRET_KEY": "stress-test"}
    before = set(generations.iterdir())
    proc = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "app", "index", "build"], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        new: set = set()
        while not new and proc.poll() is None and time.monotonic() < deadline:
            new = set(generations.iterdir()) - before
            time.sleep(0.002)
        mid_build = bool(new) and proc.poll() is None and not any((p / "BUILD.json").exists() for p in new)
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    return mid_build, new


def test_killed_build_leaves_the_previous_index_serving(tmp_path):
    instance = tmp_path / "instance"
    app = make_app(instance, ROOT / "content")
    link = instance / "index"
    with app.app_context():
        first = build(library(), link, ROOT / "content")
    client = app.test_client()
    assert client.get(QUERY).get_json()["hits"]  # the running app has its searcher open

    for _attempt in range(3):  # a kill that came too late (build already done) is retried
        mid_build, partial = kill_build_mid_write(instance, first.parent)
        if mid_build:
            break
    assert mid_build, "the build finished before it could be killed"

    assert os.path.realpath(link) == str(first)
    assert partial and not any((p / "BUILD.json").exists() for p in partial)
    # The running app and a freshly started one both answer from the previous generation.
    for reader in (client, make_app(instance, ROOT / "content").test_client()):
        response = reader.get(QUERY)
        assert response.status_code == 200
        assert response.get_json()["hits"]
    result = app.test_cli_runner().invoke(args=["index", "build", "--if-stale"])
    assert result.exit_code == 0
    assert "up to date" in result.output
