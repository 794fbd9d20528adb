"""nginx in front of a gunicorn on loopback, with the repository's deploy/nginx.conf.

The site file is served as it stands but for the lines that must differ on loopback: the listen
addresses (a free port instead of 443 and 80), the certificate lines (no TLS here) and the
upstream's address (the gunicorn under test). Each of those lines must be found as written, so a
change of the file's shape stops the run instead of testing something else. nginx runs in the
foreground in its own process group, with its pid file, logs and temp folders in a folder of its
own; ``stop`` ends that process group only.
"""
from __future__ import annotations

import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "deploy" / "nginx.conf"
HOST = "127.0.0.1"

# (pattern, replacement, times it must match) for the lines swapped on loopback.
SWAPS = (
    (r"^(\s*)server 127\.0\.0\.1:8000;", r"\1server 127.0.0.1:{upstream};", 1),
    (r"^(\s*)listen 443 ssl;", r"\1listen 127.0.0.1:{port};", 1),
    (r"^(\s*)listen 80;", r"\1listen 127.0.0.1:{redirect_port};", 1),
    (r"^\s*listen \[::\]:(443 ssl|80);.*\n", "", 2),
    (r"^\s*ssl_certificate(_key)?\s.*\n", "", 2),
)

# The main file around the site file: Debian's nginx.conf in what matters here (worker_processes
# auto; worker_connections raised from its 768 for the slow clients of the stress scenarios).
MAIN = """{user}worker_processes auto;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
daemon off;
events {{ worker_connections 2048; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    include {dir}/site.conf;
}}
"""


def nginx_binary() -> str | None:
    """The nginx to run, or None when it is not installed (the callers skip)."""
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


def nginx_version() -> str | None:
    """"nginx 1.22.1", say (``nginx -v`` writes it to stderr), or None."""
    binary = nginx_binary()
    if binary is None:
        return None
    printed = subprocess.run([binary, "-v"], capture_output=True, text=True, timeout=30, check=False).stderr
    match = re.search(r"nginx/(\S+)", printed)
    return f"nginx {match.group(1)}" if match else "nginx"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def loopback_site(text: str, port: int, upstream: int, redirect_port: int) -> str:
    """deploy/nginx.conf with the loopback lines swapped in (ValueError if one is not there)."""
    for pattern, replacement, times in SWAPS:
        text, found = re.subn(pattern, replacement.format(port=port, upstream=upstream, redirect_port=redirect_port),
                              text, flags=re.MULTILINE)
        if found != times:
            raise ValueError(f"{CONFIG.name}: {pattern!r} matched {found} time(s), not {times}: the file changed shape")
    return text


class Nginx:
    """nginx on ``port`` (and ``redirect_port`` for its http server) passing on to ``upstream``."""

    def __init__(self, folder: Path, upstream: int, config: Path = CONFIG):
        self.dir = Path(folder)
        self.upstream = upstream
        self.config = config
        self.port = free_port()
        self.redirect_port = free_port()
        self.proc: subprocess.Popen | None = None
        self._stderr = None

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def error_log(self) -> Path:
        return self.dir / "error.log"

    def write_config(self) -> Path:
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "site.conf").write_text(loopback_site(self.config.read_text(), self.port, self.upstream, self.redirect_port))
        # Started as root, nginx's workers would become "nobody", who cannot use the temp folders here.
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
        main = self.dir / "nginx.conf"
        main.write_text(MAIN.format(dir=self.dir, user=user))
        return main

    def start(self, timeout: float = 30) -> Nginx:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed")
        main = self.write_config()
        command = [binary, "-p", str(self.dir), "-c", str(main), "-e", str(self.error_log)]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30, check=False)
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t refused the configuration: {checked.stderr.strip()}")
        self._stderr = open(self.dir / "stderr.log", "ab")
        self.proc = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=self._stderr)
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.base + "/api/v1/games", timeout=5) as response:
                    if response.status == 200:
                        return self
            except OSError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                raise RuntimeError(f"nginx did not answer through to gunicorn; see {self.error_log}")
            time.sleep(0.2)

    def stop(self) -> None:
        """SIGTERM to nginx's process group (a fast shutdown), SIGKILL if it lingers."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
            except ProcessLookupError:
                pass
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def __enter__(self) -> Nginx:
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()
