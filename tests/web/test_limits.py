"""Login limits hold exactly with 4 gunicorn workers, per account and address, per account, per
address, behind a proxy.

One server (gunicorn.conf.py, 4 workers, RULES_PROXY_HOPS=1) per database: SQLite always,
PostgreSQL when TEST_DATABASE_URL names a server. Clients are told apart by X-Forwarded-For, as
nginx would send it; each test uses its own accounts and addresses.
"""
from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import pytest

from apptools import BACKENDS, scratch_database
from formtools_shared import EDITOR, PASSWORD, csrf_token
from servertools import flask, server_env, serving

pytestmark = pytest.mark.slow  # make test-all: rate limits across gunicorn workers

LIMIT = 5
ATTEMPTS = 12
WORKERS = 4


@pytest.fixture(scope="module", params=BACKENDS)
def database(request, tmp_path_factory):
    with scratch_database(request.param, tmp_path_factory.mktemp("limits-db"), "rules_limits") as url:
        yield url


@pytest.fixture(scope="module")
def server(database, tmp_path_factory):
    base = tmp_path_factory.mktemp("limits-server")
    # Logins wait for a password-check slot however long it takes: this module counts limits, and
    # a burst of real argon2 checks would otherwise answer some with 503 (test_login_limits.py).
    env = server_env(base / "instance", database, LOGIN_RATE_LIMIT=f"{LIMIT} per minute",
                     LOGIN_ACCOUNT_RATE_LIMIT=f"{LIMIT} per minute", LOGIN_ADDRESS_RATE_LIMIT=f"{LIMIT} per minute",
                     LOGIN_GLOBAL_RATE_LIMIT="1000 per minute",
                     LOGIN_CHECK_WAIT="60", PROXY_HOPS="1", WORKERS=str(WORKERS), THREADS="4")
    flask(env, "db", "upgrade")
    flask(env, "editors", "add", EDITOR, "--password-stdin", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    with serving(env, base) as running:
        yield running


class Browser:
    """One client (a cookie and a CSRF token) that can post the login form from any address."""

    def __init__(self, server, address: str):
        self.server = server
        status, headers, body = server.request("GET", "/editor/login", headers={"X-Forwarded-For": address})
        assert status == 200
        self.cookie = headers["Set-Cookie"].split(";", 1)[0]
        self.token = csrf_token(body.decode())

    def login(self, name: str, address: str, password: str = "wrong-password-123") -> int:
        form = urlencode({"csrf_token": self.token, "name": name, "password": password, "next": "/editor/"})
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": self.cookie, "X-Forwarded-For": address}
        return self.server.request("POST", "/editor/login", form.encode(), headers)[0]


def attempt_all(browser: Browser, attempts: list[tuple[str, str]]) -> list[int]:
    """All attempts (name, address) at once: they reach different workers at the same moment."""
    with ThreadPoolExecutor(max_workers=len(attempts)) as pool:
        return list(pool.map(lambda attempt: browser.login(*attempt), attempts))


def test_one_account_from_one_address_gets_exactly_the_limit_over_all_workers(server):
    # Which worker takes a request is the kernel's choice: on a busy machine one worker may take
    # a whole burst. Each round is exact on its own (a fresh account and address); rounds go on
    # until bursts were answered by more than one worker.
    workers: set[int] = set()
    for round_ in range(6):
        address = f"198.51.100.{10 + round_}"
        browser = Browser(server, address)
        before = server.logged_requests()
        codes = attempt_all(browser, [(f"erika{round_}", address)] * ATTEMPTS)
        assert sorted(codes) == [401] * LIMIT + [429] * (ATTEMPTS - LIMIT)
        workers |= server.worker_pids("POST", "/editor/login", after=before)
        if len(workers) >= 2:
            break
    assert len(workers) >= 2  # answered by several workers


def test_one_account_from_many_addresses_gets_exactly_the_limit(server):
    browser = Browser(server, "198.51.100.2")
    # Another address each time, and the name in other cases and with spaces: still one account.
    names = ["Bruno", "bruno", "BRUNO", " bruno "]
    attempts = [(names[i % len(names)], f"192.0.2.{i + 1}") for i in range(ATTEMPTS)]
    codes = attempt_all(browser, attempts)
    assert sorted(codes) == [401] * LIMIT + [429] * (ATTEMPTS - LIMIT)


def test_one_address_trying_many_accounts_gets_exactly_the_limit(server):
    browser = Browser(server, "203.0.113.7")
    attempts = [(f"guess-{i}", "203.0.113.7") for i in range(ATTEMPTS)]
    codes = attempt_all(browser, attempts)
    assert sorted(codes) == [401] * LIMIT + [429] * (ATTEMPTS - LIMIT)


def test_behind_the_proxy_a_blocked_address_does_not_block_others(server):
    browser = Browser(server, "203.0.113.20")
    codes = attempt_all(browser, [(f"spray-{i}", "203.0.113.20") for i in range(ATTEMPTS)])
    assert codes.count(429) == ATTEMPTS - LIMIT
    # The proxy connects from 127.0.0.1 every time; the editor's own address is not blocked.
    assert browser.login(EDITOR, "203.0.113.21", password=PASSWORD) == 302


def test_behind_a_tls_proxy_hsts_is_sent(server):
    _status, headers, _body = server.request("GET", "/en/", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.200"})
    assert headers["Strict-Transport-Security"].startswith("max-age=")
    _status, headers, _body = server.request("GET", "/en/", headers={"X-Forwarded-For": "192.0.2.200"})
    assert "Strict-Transport-Security" not in headers


def test_counters_are_rows_in_the_database(server, database):
    from sqlalchemy import create_engine, text

    assert Browser(server, "198.51.100.9").login("Zelda", "198.51.100.9") == 401
    engine = create_engine(database.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as connection:
            keys = [row[0] for row in connection.execute(text("SELECT key FROM rate_limits"))]
    finally:
        engine.dispose()
    assert any("198.51.100.9" in key for key in keys)
    accounts = [key for key in keys if "account:" in key]
    assert accounts and not any(re.search("zelda", key, re.I) for key in accounts)  # names are hashed
