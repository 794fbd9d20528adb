"""Logins cannot be turned against the site or an editor: guesses from one address do not lock
the editor out elsewhere, a looser per-account limit is logged, the whole site has a ceiling, and
a process runs at most two password checks at a time (503 with Retry-After beyond), at the lowest
CPU priority."""
from __future__ import annotations

import logging
import os
import sys
import threading

import pytest

from argon2 import PasswordHasher
from sqlalchemy import select

from apptools import make_editor_site
from rules_index.corrections.db import session
from rules_index.corrections import editors
from rules_index.corrections.editors import CONCURRENT_CHECKS
from rules_index.corrections.models import Editor

from formtools_shared import EDITOR, PASSWORD, csrf_token

WRONG = "wrong-password-123"


class Browser:
    """One client at one address."""

    def __init__(self, app, address: str):
        self.client = app.test_client()
        self.client.environ_base["REMOTE_ADDR"] = address
        self.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
        self.token = csrf_token(self.client.get("/editor/login").get_data(as_text=True))

    def login(self, name: str = EDITOR, password: str = WRONG):
        return self.client.post("/editor/login", data={"csrf_token": self.token, "name": name, "password": password,
                                                       "next": "/editor/"})


def site_with(tmp_path, **limits):
    defaults = {"LOGIN_RATE_LIMIT": "10 per minute", "LOGIN_ADDRESS_RATE_LIMIT": "30 per minute",
                "LOGIN_ACCOUNT_RATE_LIMIT": "30 per minute", "LOGIN_GLOBAL_RATE_LIMIT": "60 per minute"}
    return make_editor_site(tmp_path, **{**defaults, **limits})


def test_guesses_from_one_address_do_not_lock_the_editor_out_elsewhere(tmp_path):
    app = site_with(tmp_path)
    attacker = Browser(app, "203.0.113.5")
    codes = [attacker.login().status_code for _ in range(12)]
    assert codes == [401] * 10 + [429] * 2
    locked = attacker.login(password=PASSWORD)
    assert locked.status_code == 429  # locked out there, right password or not
    assert 0 < int(locked.headers["Retry-After"]) <= 60  # and told when to try again
    assert Browser(app, "198.51.100.7").login(password=PASSWORD).status_code == 302


def test_the_looser_per_account_limit_holds_over_addresses_and_is_logged_once(tmp_path, caplog):
    app = site_with(tmp_path, LOGIN_ACCOUNT_RATE_LIMIT="5 per minute")
    with caplog.at_level(logging.WARNING):
        codes = [Browser(app, f"192.0.2.{i}").login().status_code for i in range(1, 9)]
    assert codes == [401] * 5 + [429] * 3
    breaches = [r.getMessage() for r in caplog.records if "login limit" in r.getMessage()]
    assert len(breaches) == 1 and f"editor '{EDITOR}'" in breaches[0]


def test_an_unknown_name_is_not_written_to_the_log(tmp_path, caplog):
    app = site_with(tmp_path, LOGIN_ACCOUNT_RATE_LIMIT="2 per minute")
    typed = "maybe-a-password-typed-as-name"
    with caplog.at_level(logging.WARNING):
        codes = [Browser(app, f"192.0.2.{i}").login(name=typed).status_code for i in range(1, 5)]
    assert codes == [401, 401, 429, 429]
    assert typed not in caplog.text and "unknown name" in caplog.text


def test_one_address_guessing_many_accounts_is_limited(tmp_path):
    app = site_with(tmp_path, LOGIN_ADDRESS_RATE_LIMIT="4 per minute")
    sprayer = Browser(app, "203.0.113.9")
    assert [sprayer.login(name=f"guess-{i}").status_code for i in range(6)] == [401] * 4 + [429] * 2
    assert Browser(app, "198.51.100.7").login(password=PASSWORD).status_code == 302


def test_the_whole_site_has_a_login_ceiling(tmp_path, caplog):
    app = site_with(tmp_path, LOGIN_GLOBAL_RATE_LIMIT="4 per minute")
    with caplog.at_level(logging.WARNING):
        codes = [Browser(app, f"192.0.2.{i}").login(name=f"name-{i}").status_code for i in range(1, 7)]
    assert codes == [401] * 4 + [429] * 2
    assert caplog.text.count("logins over the whole site") == 1


def test_at_most_two_password_checks_run_at_a_time(tmp_path):
    """Six logins at once, each check taking about two seconds: two are checked, four are told to
    come back (503, Retry-After) at once instead of waiting with a thread and 64 MiB each."""
    app = make_editor_site(tmp_path, LOGIN_CHECK_WAIT=0)
    slow = PasswordHasher(time_cost=1000, memory_cost=1024, parallelism=1)  # a hash records its own cost
    with app.app_context():
        session().scalar(select(Editor).where(Editor.name == EDITOR)).password_hash = slow.hash(PASSWORD)
        session().commit()
    browsers = [Browser(app, f"192.0.2.{i}") for i in range(6)]
    start = threading.Barrier(len(browsers))
    responses = [None] * len(browsers)

    def attempt(i):
        start.wait()
        responses[i] = browsers[i].login(password=PASSWORD)

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(len(browsers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    codes = sorted(r.status_code for r in responses)
    assert codes == [302] * CONCURRENT_CHECKS + [503] * (len(browsers) - CONCURRENT_CHECKS)
    busy = [r for r in responses if r.status_code == 503]
    assert all(r.headers["Retry-After"] == "5" for r in busy)
    assert "Please try again in a few seconds" in busy[0].get_data(as_text=True)
    assert Browser(app, "192.0.2.99").login(password=PASSWORD).status_code == 302  # the slots are free again


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own nice value is Linux's")
def test_a_password_check_runs_at_the_lowest_cpu_priority(tmp_path, monkeypatch):
    """A burst of checks (0.2 s of CPU each) takes only the CPU the readers leave: the hash is
    verified on a thread at nice 19, the request's own thread keeps its priority."""
    app = make_editor_site(tmp_path)
    seen = []

    class Watched:
        def verify(self, hashed, password):
            seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
            return real.verify(hashed, password)

    real = editors._hasher
    monkeypatch.setattr(editors, "_hasher", Watched())
    own = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert Browser(app, "192.0.2.7").login().status_code == 401
    assert seen == [19] and os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == own
