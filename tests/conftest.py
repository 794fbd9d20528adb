"""Shared fixtures: the app on the real content, its test client, and the tiny fixture game.

Hypothesis runs under a profile chosen by ``HYPOTHESIS_PROFILE``:

- ``repeatable`` (the default, ``make test``): every run draws the same examples, derived from
  each test's own code, so a failure seen once is seen again;
- ``explore`` (``make fuzz``): new examples from ``--hypothesis-seed``, 200 per test (or
  ``FUZZ_EXAMPLES``).

Tests that set ``max_examples`` themselves keep it; the fuzz tests take the profile's.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

# Before the app is imported: editor passwords hashed at argon2's cheapest cost (about 1 s less per
# login on the project's machine); servers the tests start inherit it.
os.environ.setdefault("RULES_PASSWORD_HASH_PROFILE", "CHEAPEST")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from apptools import make_app  # noqa: E402
from app import ROOT  # noqa: E402
from rules_index.web.state import served  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"

# The first text a process draws builds Hypothesis's table of characters: seconds on a fresh clone
# under load, which its too_slow health check takes for slow generation of whichever test is first.
SLOW_MACHINE = [HealthCheck.too_slow]
settings.register_profile("repeatable", derandomize=True, database=None, max_examples=50, suppress_health_check=SLOW_MACHINE)
settings.register_profile("explore", derandomize=False, database=None, max_examples=int(os.environ.get("FUZZ_EXAMPLES", "200")),
                          suppress_health_check=SLOW_MACHINE)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture(scope="session")
def app(tmp_path_factory):
    instance = tmp_path_factory.mktemp("instance")
    application = make_app(instance, ROOT / "content")
    with application.app_context():
        served().current()  # builds the index once for the session
    return application


def _service_commits(since: str) -> str:
    """Commits the service made (its committer address) in the checkout's branches since then."""
    import subprocess

    from rules_index.content.repo import SERVICE

    done = subprocess.run(["git", "log", "--branches", f"--since={since}", f"--committer={SERVICE[1]}", "--format=%H"],
                          cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else ""


@pytest.fixture(scope="session", autouse=True)
def checkout_untouched():
    """No test commits into the developer's own checkout: no commit of the service appears in
    its branches while the tests run (commits people make meanwhile are theirs)."""
    import time

    since = time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(time.time() - 1))
    yield
    assert _service_commits(since) == "", "a test accepted a change into the checkout: accept on copies of the content"


@pytest.fixture(scope="session")
def index(app):
    """The session's search index on the real content."""
    with app.app_context():
        served().current()
        return served().index


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture()
def runner(app):
    return app.test_cli_runner()


@pytest.fixture()
def tiny_content(tmp_path) -> Path:
    """A writable copy of the valid fixture content (one small game)."""
    target = tmp_path / "content"
    shutil.copytree(FIXTURES / "content", target)
    return target


@pytest.fixture(scope="session")
def site_client(tmp_path_factory):
    """A client of an app with its own database (real content, read only): for submissions."""
    application = make_app(tmp_path_factory.mktemp("site"), ROOT / "content")
    return application.test_client()


BROWSER_TESTS = Path(__file__).parent / "browser"


def pytest_collection_modifyitems(config, items):
    """Every browser test is slow (a Chromium per session, real page loads): make test-all."""
    for item in items:
        if BROWSER_TESTS in Path(item.fspath).parents:
            item.add_marker(pytest.mark.slow)


def _whole_module_is_slow(path: Path) -> bool:
    if BROWSER_TESTS in path.parents:
        return True
    return path.suffix == ".py" and "\npytestmark = pytest.mark.slow" in path.read_text(encoding="utf-8")


def pytest_ignore_collect(collection_path, config):
    """Under ``-m "not slow"`` (make test) a module that is slow as a whole is not even imported:
    some do real work at import (test_fuzz_api builds an app and reads its OpenAPI document)."""
    if config.option.markexpr.replace(" ", "") == "notslow" and collection_path.is_file():
        return True if _whole_module_is_slow(collection_path) else None
    return None
