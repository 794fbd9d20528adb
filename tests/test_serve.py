"""``make serve``: its set-up steps, gunicorn.conf.py's settings, and that slow clients cannot block readers.

The server tests run gunicorn with gunicorn.conf.py and its defaults (as ``make serve`` does) on a
free loopback port, without RULES_PROXY_HOPS.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

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


def test_the_readme_shows_the_tested_nginx_configuration():
    """README, "Serving in production", shows deploy/nginx.conf (which tests/test_nginx.py and make
    stress serve) in full, as it is."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = readme.split("```nginx\n", 1)[1].split("```", 1)[0]
    assert shown == (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")


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


def test_a_worker_keeps_what_it_loaded_with_the_app_out_of_the_collectors_passes(tmp_path):
    """gunicorn calls ``post_worker_init`` once a worker has loaded the app: what the worker holds
    then is frozen, so that the collector's full passes (one after each accept) do not walk it
    (bench/RESULTS.md, "A worker's collector")."""
    code = ("import gc, runpy\n"
            "config = runpy.run_path('gunicorn.conf.py')\n"
            "from app import create_app\n"
            "create_app()\n"
            "before = gc.get_freeze_count()\n"
            "config['post_worker_init'](None)\n"
            "print(before, gc.get_freeze_count(), len(gc.get_objects()))\n")
    environ = {key: value for key, value in os.environ.items() if not key.startswith(("RULES_", "GUNICORN_"))}
    printed = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**environ, "RULES_INSTANCE_PATH": str(tmp_path)},
                             capture_output=True, text=True, check=True, timeout=120).stdout
    before, frozen, left = map(int, printed.split())
    assert before == 0 and frozen > 50_000 and left < frozen / 20


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


def processes_in_group(group: int) -> list[int]:
    """Pids of the live processes whose process group is ``group`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


@pytest.mark.slow  # 20 gunicorn servers
def test_a_stop_right_after_a_start_leaves_nothing_behind(tmp_path):
    """20 rounds of start, then SIGTERM to the master as soon as it answers: no process of the
    server is left and its port is free again. Its control socket is the instance's own."""
    env = server_env(tmp_path / "instance", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    flask(env, "db", "upgrade")
    flask(env, "index", "build")  # as make serve does before it starts gunicorn
    for _ in range(20):
        with serving(env, tmp_path, migrate=False) as server:
            group, port = server.proc.pid, server.port
            assert (tmp_path / "instance" / "gunicorn.ctl").is_socket()
        assert processes_in_group(group) == []
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((HOST, port))  # raises if a process still holds it


@pytest.mark.parametrize("name,value", [("RULES_WORKERS", "0"), ("RULES_WORKERS", "two"), ("RULES_THREADS", "-1")])
def test_a_worker_or_thread_count_gunicorn_cannot_use_stops_the_start_named(monkeypatch, name, value):
    """RULES_WORKERS=0 made gunicorn say "Listening" and never answer."""
    import runpy

    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stopped:
        runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert name in str(stopped.value) and repr(value) in str(stopped.value)
