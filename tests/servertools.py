"""The service under gunicorn with the repository's gunicorn.conf.py, on a free loopback port.

The server runs in its own process group and is always ended (SIGTERM, then SIGKILL) when the
``serving`` block is left. Its access log records the worker pid of every request.
"""
from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from app import ROOT
from apptools import process_folder

HOST = "127.0.0.1"
ACCESS_LOG_FORMAT = "%(p)s %(m)s %(U)s %(s)s"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def control_socket() -> list[str]:
    """For gunicorn started without gunicorn.conf.py (which keeps it per instance): the arguments
    for its control socket in a new folder under the temporary folder,
    removed when the test process ends (gunicorn's default is ~/.gunicorn/gunicorn.ctl); not under
    a test's tmp_path, as a Unix socket's path must stay short."""
    return ["--control-socket", str(process_folder("gunicorn-") / "gunicorn.ctl")]


def flask(env: dict, *args: str, stdin: str | None = None) -> None:
    subprocess.run([sys.executable, "-m", "flask", "--app", "app", *args], cwd=ROOT, env=env, input=stdin,
                   text=True, check=True, capture_output=True, timeout=120)


@dataclass
class Server:
    port: int
    access_log: Path
    proc: subprocess.Popen

    # A worker's first page loads the content and its index: seconds when the machine is loaded,
    # so the default wait is generous; tests of how long something takes pass their own.
    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                timeout: float = 30) -> tuple[int, http.client.HTTPMessage, bytes]:
        connection = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.headers, response.read()
        finally:
            connection.close()

    def logged_requests(self) -> int:
        return len(self.access_log.read_text().splitlines())

    def worker_pids(self, method: str, path: str, after: int = 0) -> set[int]:
        """Pids of the workers that answered requests with this method and path (from the access log),
        counting from the request number ``after``."""
        pids = set()
        for line in self.access_log.read_text().splitlines()[after:]:
            pid, logged_method, logged_path, _status = line.split(" ", 3)
            if (logged_method, logged_path) == (method, path):
                pids.add(int(pid.strip("<>")))  # gunicorn logs the pid as <1234>
        return pids


def server_env(instance: Path, database_url: str, **settings: str) -> dict:
    """The environment of a server on its own instance folder and database, with RULES_* settings."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("RULES_", "GUNICORN_"))}
    env.update({
        "RULES_INSTANCE_PATH": str(instance),
        "RULES_DATABASE_URL": database_url,
        "RULES_SECRET_KEY": "serve-test",
    })
    env.update({f"RULES_{key}": value for key, value in settings.items()})
    return env


@contextmanager
def serving(env: dict, log_dir: Path, start_timeout: float = 120, migrate: bool = True):
    """gunicorn with gunicorn.conf.py and ``env`` (migrated first, unless told not to); yields a :class:`Server`."""
    if migrate:
        flask(env, "db", "upgrade")
    port = free_port()
    access_log = log_dir / f"access-{port}.log"
    error_log = open(log_dir / f"error-{port}.log", "ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py"), "--bind", f"{HOST}:{port}",
         "--access-logfile", str(access_log), "--access-logformat", ACCESS_LOG_FORMAT],
        cwd=ROOT, env=env, start_new_session=True, stdout=error_log, stderr=error_log,
    )
    try:
        server = Server(port, access_log, proc)
        deadline = time.monotonic() + start_timeout
        while True:
            try:
                if server.request("GET", "/api/v1/games", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"gunicorn did not start; see {log_dir}")
            time.sleep(0.2)
        yield server
    finally:
        stop(proc)
        error_log.close()


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM to the server's process group, SIGKILL if it is still there after 10 s."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    except ProcessLookupError:
        pass
