"""``make stress`` leaves the home folder alone: every gunicorn it starts keeps its control socket
in its own instance folder, not in gunicorn's default (~/.gunicorn/gunicorn.ctl, one per user,
shared by every server of that user)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app import ROOT

pytestmark = pytest.mark.slow  # a stress scenario: gunicorn servers, about a minute


def test_a_stress_run_creates_nothing_in_the_home_folder(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    # Without XDG_RUNTIME_DIR gunicorn's default control socket is in the home folder.
    env = {key: value for key, value in os.environ.items() if key != "XDG_RUNTIME_DIR"}
    env["HOME"] = str(home)
    run = subprocess.run([sys.executable, "-m", "stress.run", "hostile", "--quick", "--out", str(tmp_path / "results")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "6: ok" in run.stdout
    assert sorted(str(p.relative_to(home)) for p in home.rglob("*")) == []
