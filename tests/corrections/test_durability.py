"""Nothing acknowledged is lost: parallel submissions against a running server, and a SIGKILL mid-write.

Runs on SQLite always and on PostgreSQL when TEST_DATABASE_URL names a server (CI starts one).
"""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text

from app import ROOT
from apptools import BACKENDS, scratch_database
from servertools import control_socket

pytestmark = pytest.mark.slow  # make test-all: kills servers mid-write

PAYLOAD = {"game": "ohne-furcht-und-adel", "faq": "tie-break", "lang": "de", "message": "Bitte prüfen"}


@pytest.fixture(params=BACKENDS)
def database(request, tmp_path):
    with scratch_database(request.param, tmp_path, "rules_test") as url:
        yield url


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def running_server(tmp_path, database_url: str, workers: int = 2):
    env = {
        **os.environ,
        "RULES_INSTANCE_PATH": str(tmp_path / "instance"),
        "RULES_DATABASE_URL": database_url,
        "RULES_SECRET_KEY": "durability-test",
        "RULES_SUBMISSION_RATE_LIMIT": "1000000 per minute",
    }
    subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"], cwd=ROOT, env=env, check=True, capture_output=True)
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", str(workers), "-b", f"127.0.0.1:{port}", "--graceful-timeout", "2", *control_socket(), "app:create_app()"],
        cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(base + "/api/v1/games", timeout=2).read()
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("server did not start")
            time.sleep(0.2)
    try:
        yield proc, base
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


def submit(base: str, timeout: float = 10) -> tuple[int, str | None]:
    request = urllib.request.Request(
        base + "/api/v1/corrections", data=json.dumps(PAYLOAD).encode(), method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())["token"]
    except urllib.error.HTTPError as exc:
        return exc.code, None


def stored_tokens(database_url: str) -> set[str]:
    url = database_url.replace("postgresql://", "postgresql+psycopg://", 1)
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {row[0] for row in conn.execute(text("SELECT token FROM reports"))}
    finally:
        engine.dispose()


def test_parallel_submissions_are_all_stored(tmp_path, database):
    with running_server(tmp_path, database) as (_proc, base):
        with ThreadPoolExecutor(max_workers=24) as pool:
            results = list(pool.map(lambda _: submit(base), range(240)))
    assert [status for status, _ in results] == [201] * 240
    tokens = {token for _, token in results}
    assert len(tokens) == 240
    assert stored_tokens(database) == tokens


def test_sigkill_while_writing_loses_nothing_acknowledged(tmp_path, database):
    acknowledged: list[str] = []
    stop = threading.Event()

    def hammer(base: str) -> None:
        while not stop.is_set():
            try:
                status, token = submit(base, timeout=5)
            except (OSError, http.client.HTTPException, ValueError):
                continue  # the server died mid-answer: nothing was acknowledged
            if status == 201:
                acknowledged.append(token)

    with running_server(tmp_path, database) as (proc, base):
        threads = [threading.Thread(target=hammer, args=(base,)) for _ in range(8)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30
        while len(acknowledged) < 80 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)  # master and workers, in the middle of writing
        proc.wait(timeout=10)
        stop.set()
        for thread in threads:
            thread.join(timeout=15)
    assert len(acknowledged) >= 80
    if database.startswith("sqlite"):
        path = database.removeprefix("sqlite:///")
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    missing = set(acknowledged) - stored_tokens(database)
    assert missing == set()
