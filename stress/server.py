"""The service under test: a temp instance folder, gunicorn on 127.0.0.1, index builds as subprocesses.

Every process started here runs in its own session (process group) so that a SIGKILL can hit the
whole gunicorn (master and workers) or just one build, and ``Sandbox.close`` ends whatever is
still running: only the process groups it started, by their ids.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def rss_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def open_fds(pid: int) -> tuple[int, int]:
    """(open file descriptors, of which point at deleted files) of a process."""
    total = deleted = 0
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return 0, 0
    for name in names:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{name}")
        except OSError:
            continue
        total += 1
        deleted += target.endswith("(deleted)")
    return total, deleted


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return sorted(int(p) for p in fh.read().split())
    except OSError:
        return []


class Sandbox:
    """A temp folder with a snapshot of the content, an instance folder and the env to run in.

    ``code`` is the checkout whose app is served and built (this one unless a scenario compares
    with another, e.g. a worktree of an earlier commit); the content always comes from this one.
    """

    def __init__(self, name: str, keep: bool = False, code: Path = ROOT):
        self.dir = Path(tempfile.mkdtemp(prefix=f"rules-stress-{name}-"))
        self.keep = keep
        self.code = Path(code)
        self.content = self.dir / "content"
        # A snapshot: others may be editing the repository's content while this runs,
        # and the fault scenarios change their copy on purpose.
        shutil.copytree(ROOT / "content", self.content)
        self.instance = self.dir / "instance"
        self.instance.mkdir()
        self.database = self.instance / "corrections.sqlite3"
        self.env = {
            **os.environ,
            "RULES_INSTANCE_PATH": str(self.instance),
            "RULES_CONTENT_DIR": str(self.content),
            "RULES_DATABASE_URL": f"sqlite:///{self.database}",
            "RULES_SECRET_KEY": "stress-test",
            "RULES_SUBMISSION_RATE_LIMIT": "100000000 per minute",
            "PYTHONUNBUFFERED": "1",
        }
        self.servers: list[Server] = []
        self.builds: list[subprocess.Popen] = []

    @property
    def index_link(self) -> Path:
        return self.instance / "index"

    @property
    def generations(self) -> Path:
        return self.instance / "index.generations"

    def flask(self, *args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess:
        result = subprocess.run(
            [sys.executable, "-m", "flask", "--app", "app", *args], cwd=self.code, env=self.env,
            capture_output=True, text=True, timeout=timeout, check=False,
        )
        if check and result.returncode != 0:
            raise RuntimeError(f"flask {' '.join(args)} failed ({result.returncode}): {result.stderr[-2000:]}")
        return result

    def prepare(self) -> None:
        self.flask("db", "upgrade")
        self.flask("index", "build")

    def start_build(self, *extra: str) -> subprocess.Popen:
        """``flask index build`` in its own process group (so that it can be killed alone)."""
        proc = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "app", "index", "build", *extra], cwd=self.code, env=self.env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        )
        self.builds.append(proc)
        return proc

    def generation_dirs(self) -> list[Path]:
        if not self.generations.is_dir():
            return []
        return sorted(p for p in self.generations.iterdir() if p.is_dir())

    def current_generation(self) -> str:
        return os.path.basename(os.path.realpath(self.index_link))

    def generation_info(self) -> dict:
        return json.loads((Path(os.path.realpath(self.index_link)) / "BUILD.json").read_text())

    def stored_tokens(self) -> set[str]:
        with sqlite3.connect(self.database, timeout=30) as conn:
            return {row[0] for row in conn.execute("SELECT token FROM reports")}

    def integrity(self) -> str:
        with sqlite3.connect(self.database, timeout=30) as conn:
            return conn.execute("PRAGMA integrity_check").fetchone()[0]

    def server(self, workers: int = 4, name: str = "server", **settings: str) -> Server:
        server = Server(self, workers, name, settings)
        self.servers.append(server)
        return server

    def close(self) -> None:
        for server in self.servers:
            server.stop()
        for proc in self.builds:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                proc.communicate(timeout=10)
            except (subprocess.TimeoutExpired, ValueError):
                pass
        if not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)


class Server:
    """gunicorn on a free loopback port, in its own process group, with the checkout's
    gunicorn.conf.py (threaded workers, as ``make serve`` runs it) but for what is given here: the
    number of workers, the address, a short graceful timeout, the control socket, and ``settings``
    as RULES_* variables.

    The control socket is named outright, in the instance folder: gunicorn's default is one per
    user, in the home folder, and a checkout without gunicorn.conf.py (a ``--baseline``) would get it.
    """

    def __init__(self, sandbox: Sandbox, workers: int, name: str, settings: dict | None = None):
        self.sandbox = sandbox
        self.workers = workers
        self.name = name
        self.settings = settings or {}
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.log_path = sandbox.dir / f"{name}-{self.port}.log"
        self._log = None

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self, timeout: float = 60) -> Server:
        self._log = open(self.log_path, "ab")
        config = self.sandbox.code / "gunicorn.conf.py"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", *(["--config", str(config)] if config.exists() else []),
             "-w", str(self.workers), "-b", f"{HOST}:{self.port}", "--graceful-timeout", "2",
             "--control-socket", str(self.sandbox.instance / "gunicorn.ctl"), "app:create_app()"],
            cwd=self.sandbox.code, env={**self.sandbox.env, **{f"RULES_{k}": v for k, v in self.settings.items()}},
            start_new_session=True, stdout=self._log, stderr=self._log,
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(self.base + "/api/v1/games", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.kill()
                    raise RuntimeError(f"gunicorn did not start; see {self.log_path}")
                time.sleep(0.2)
        # Wait until every worker has been forked.
        while len(self.worker_pids()) < self.workers and time.monotonic() < deadline:
            time.sleep(0.1)
        return self

    def worker_pids(self) -> list[int]:
        return children(self.proc.pid) if self.proc and self.proc.poll() is None else []

    def memory(self) -> dict:
        """RSS of each worker (KiB), their sum and max, and open files."""
        pids = self.worker_pids()
        rss = {pid: rss_kib(pid) or 0 for pid in pids}
        fds = {pid: open_fds(pid) for pid in pids}
        return {
            "pids": pids, "rss_kib": rss, "total_mib": round(sum(rss.values()) / 1024, 1),
            "max_mib": round(max(rss.values(), default=0) / 1024, 1),
            "fds": sum(f[0] for f in fds.values()), "deleted_fds": sum(f[1] for f in fds.values()),
        }

    def kill(self) -> None:
        """SIGKILL the master and every worker at once (the whole process group)."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=10)
        self._close_log()

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            self._close_log()
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        except ProcessLookupError:
            pass
        self._close_log()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_problems(self) -> dict:
        """What the server logged that should not be there: tracebacks, timeouts, worker deaths."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return {}
        counts = {
            "tracebacks": text.count("Traceback (most recent call last)"),
            "unhandled": text.count("unhandled error"),
            "worker_timeouts": text.count("WORKER TIMEOUT"),
            "worker_exits": text.count("was sent SIGKILL") + text.count("exited with code"),
        }
        return {k: v for k, v in counts.items() if v}

    def log_excerpt(self, chars: int = 3000) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        start = text.find("Traceback")
        return text[start:start + chars] if start >= 0 else ""
