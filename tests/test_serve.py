"""``make serve``: its set-up steps, gunicorn.conf.py's settings, and that slow clients cannot block readers.

The server tests run gunicorn with gunicorn.conf.py and its defaults (as ``make serve`` does) on a
free loopback port, without RULES_PROXY_HOPS.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from app import ROOT
from servertools import HOST, flask, server_env, serving

SLOW_CLIENTS = 3
SLOW_BODY = b"name=abc"  # sent one byte per second
READER_DEADLINE = 2.0  # seconds a reader may wait while the slow clients trickle


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("serve")
    env = server_env(base / "instance", f"sqlite:///{base / 'corrections.sqlite3'}", SUBMISSION_RATE_LIMIT="3 per minute")
    with serving(env, base) as running:
        yield running


def test_make_serve_sets_up_like_make_run_then_starts_gunicorn_with_the_config():
    dry_run = subprocess.run(["make", "-n", "serve"], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60).stdout
    lines = dry_run.splitlines()
    index = next(i for i, line in enumerate(lines) if "index build --if-stale" in line)
    upgrade = next(i for i, line in enumerate(lines) if "db upgrade" in line)
    serve = next(i for i, line in enumerate(lines) if "gunicorn --config gunicorn.conf.py" in line)
    assert index < serve and upgrade < serve


def gunicorn_settings(**env: str) -> dict[str, str]:
    """The settings gunicorn reads from gunicorn.conf.py with these environment variables."""
    environ = {key: value for key, value in os.environ.items() if not key.startswith(("RULES_", "GUNICORN_"))}
    printed = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py", "--print-config"],
        cwd=ROOT, env={**environ, **env}, capture_output=True, text=True, check=True, timeout=60,
    ).stdout
    return {name.strip(): value.strip() for name, _, value in (line.partition("=") for line in printed.splitlines())}


def test_config_defaults_survive_slow_clients_and_trust_no_forwarded_headers():
    settings = gunicorn_settings()
    assert settings["worker_class"] == "gthread"
    assert int(settings["threads"]) >= 4 and int(settings["workers"]) >= 2
    assert settings["bind"] == "['127.0.0.1:8000']"
    assert settings["forwarded_allow_ips"] == "[]" and settings["secure_scheme_headers"] == "{}"
    assert settings["wsgi_app"] == "app:create_app()"


def test_config_reads_workers_threads_and_bind_from_the_environment():
    settings = gunicorn_settings(RULES_WORKERS="3", RULES_THREADS="5", RULES_BIND="127.0.0.1:9123")
    assert (settings["workers"], settings["threads"], settings["bind"]) == ("3", "5", "['127.0.0.1:9123']")


def test_config_runs_one_publisher_unless_told_otherwise():
    from rules_index.web.publisher import APP_PATH

    assert gunicorn_settings()["dirty_apps"] == f"['{APP_PATH}']"
    assert gunicorn_settings()["dirty_workers"] == "1"
    assert gunicorn_settings(RULES_PUBLISHER_WORKERS="0")["dirty_workers"] == "0"


@pytest.mark.slow  # a gunicorn server
def test_the_publisher_builds_accepted_changes_and_is_not_needed_to_publish_them(tmp_path):
    """Under gunicorn.conf.py an accepted change's index generation is built by the publisher, not
    in the accepting worker. With the publisher killed, accepts are still published (by the
    worker, until gunicorn has started a new publisher, which then publishes again)."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    env = server_env(tmp_path / "instance", f"sqlite:///{tmp_path / 'corrections.sqlite3'}", CONTENT_DIR=str(content))
    flask(env, "db", "upgrade")
    flask(env, "editors", "add", "publisher-test", "--password-stdin", stdin="publisher-test-password\n")
    token = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "editors", "token", "publisher-test"], cwd=ROOT,
                           env=env, capture_output=True, text=True, check=True, timeout=120).stdout.split()[-1]
    from rules_index.content import load_library

    game, faq = "ohne-furcht-und-adel", "tie-break"
    with serving(env, tmp_path) as server:
        log = tmp_path / f"error-{server.port}.log"

        def accept_and_find(word: str) -> None:
            answer = load_library(content).game(game).faq_entry(faq).en.answer.rstrip()
            change = {"game": game, "kind": "faq", "id": faq, "text": {"en": {"answer": f"{answer} {word}"}}}
            status, _, body = server.request("POST", "/api/v1/changes", json.dumps(change).encode(), {
                "Content-Type": "application/json", "Authorization": f"Bearer {token}"}, timeout=120)
            assert status == 201, body
            deadline = time.monotonic() + 10  # the other worker follows in the background
            while True:
                status, _, body = server.request("GET", f"/api/v1/search?q={word}&lang=en")
                if [hit["id"] for hit in json.loads(body)["hits"]][:1] == [faq]:
                    break
                assert time.monotonic() < deadline, f"{word} not found"
                time.sleep(0.05)

        def publishers() -> list[int]:
            return [int(pid) for pid in re.findall(r"Spawned dirty worker \(pid: (\d+)\)", log.read_text())]

        accept_and_find("zqfirst")
        text = log.read_text()
        assert f"publisher: published {game}/faq/{faq}" in text and "publishing in this process" not in text
        os.kill(publishers()[-1], signal.SIGKILL)
        accept_and_find("zqsecond")  # published whether or not gunicorn has a new publisher yet
        deadline = time.monotonic() + 60
        while len(publishers()) < 2 or "Initialized dirty app" not in log.read_text().split("Spawned dirty worker")[-1]:
            assert time.monotonic() < deadline, "gunicorn started no new publisher"
            time.sleep(0.2)
        published = log.read_text().count("publisher: published")
        accept_and_find("zqthird")
        assert log.read_text().count("publisher: published") == published + 1


def test_a_worker_leaves_what_it_loaded_out_of_the_collectors_full_passes():
    """``post_worker_init`` freezes the objects made while the app was loaded; objects made after it
    are collected as before (a cycle made afterwards is still found), the young ones less often."""
    script = (
        "import gc, runpy, app\n"
        "application = app.create_app()\n"
        "before = gc.get_freeze_count()\n"
        "runpy.run_path('gunicorn.conf.py')['post_worker_init'](None)\n"
        "frozen = gc.get_freeze_count()\n"
        "cycle = []; cycle.append(cycle); del cycle\n"
        "print(before, frozen, gc.collect(), gc.get_threshold()[0])\n"
    )
    environ = {key: value for key, value in os.environ.items() if not key.startswith("RULES_")}
    printed = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=environ, capture_output=True, text=True,
                             check=True, timeout=120).stdout.split()
    before, frozen, collected, young = map(int, printed)
    assert before == 0 and frozen > 50_000
    assert collected >= 1
    assert young >= 10_000  # the young generation collected less often than gc's default 700


class SlowClient(threading.Thread):
    """A raw connection that posts the login form, sending its body one byte per second."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.sock = socket.create_connection((HOST, port), timeout=30)
        self.answer = b""

    def run(self) -> None:
        head = (f"POST /editor/login HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                f"Content-Length: {len(SLOW_BODY)}\r\nConnection: close\r\n\r\n").encode()
        try:
            self.sock.sendall(head)
            for byte in SLOW_BODY:
                time.sleep(1)
                self.sock.sendall(bytes([byte]))
            self.answer = self.sock.recv(200)
        except OSError:
            pass
        finally:
            self.sock.close()


@pytest.mark.slow  # a gunicorn server
def test_slow_clients_do_not_block_readers(server):
    # Every worker has loaded the content before the slow clients come.
    threads = [threading.Thread(target=server.request, args=("GET", "/en/")) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    slow = [SlowClient(server.port) for _ in range(SLOW_CLIENTS)]
    for client in slow:
        client.start()
    time.sleep(1.5)  # every slow client is now in the middle of its body
    waits = []
    deadline = time.monotonic() + len(SLOW_BODY) - 3
    while time.monotonic() < deadline and len(waits) < 10:
        start = time.monotonic()
        try:
            status = server.request("GET", "/en/", timeout=READER_DEADLINE + 1)[0]
        except TimeoutError:
            status = None  # no answer at all: recorded as the time waited
        waits.append(time.monotonic() - start)
        assert status in (200, None)
        time.sleep(0.3)
    print("reader waits (s):", " ".join(f"{wait:.3f}" for wait in waits))
    assert all(client.is_alive() for client in slow)  # the readers were served while all three trickled
    for client in slow:
        client.join(timeout=len(SLOW_BODY) + 10)
    assert len(waits) >= 3
    assert max(waits) < READER_DEADLINE, waits
    # The slow requests were served too (400: they carry no CSRF token), not dropped.
    assert [client.answer.split(b" ", 2)[1] for client in slow] == [b"400"] * SLOW_CLIENTS


@pytest.mark.slow  # a gunicorn server
def test_without_proxy_hops_forwarded_headers_are_ignored(server):
    _status, headers, _body = server.request("GET", "/en/", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" not in headers
    payload = b'{"game": "ohne-furcht-und-adel", "faq": "tie-break", "lang": "de", "message": "Bitte pr\\u00fcfen"}'
    codes = [
        server.request("POST", "/api/v1/corrections", payload,
                       {"Content-Type": "application/json", "X-Forwarded-For": f"192.0.2.{i}"})[0]
        for i in range(1, 5)
    ]
    assert codes == [201, 201, 201, 429]  # one client: the addresses it claims do not count
