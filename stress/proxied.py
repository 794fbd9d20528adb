"""Scenarios 7 and 8 of ``make stress``: attacks on the site as it is served in production.

gunicorn runs as ``make serve`` runs it (gunicorn.conf.py: threaded workers, 2 of them, with
RULES_PROXY_HOPS=1) behind nginx with the repository's deploy/nginx.conf (stress/proxy.py). Readers
(``Mix.READS`` over a few kept-alive connections, each pausing between requests) read through nginx
alone (steady state), then while an attacker process (stress/attacks.py) runs, then alone again:

7. slowloris: hundreds of connections sending request heads a byte a second, bounded in count and
   time; then the same against gunicorn alone, without nginx (reported, not enforced: it shows
   what nginx is there for);
8. login flood: guessers from many addresses posting wrong passwords without pause.

The bar: readers' p99 during the attack at most ``p99_bar`` (3) times their p99 in steady state
of the same run, the lower of the windows before and after the attack (the first window also
meets searches no cache has seen yet: on its own it would flatter the ratio). Skipped, with a row saying so, when nginx is not installed.
"""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time

from .load import Catalog, Mix, run_load
from .proxy import Nginx, nginx_binary
from .scenarios import NAMES, SCENARIOS, MemorySampler, Options, Row
from .server import ROOT, Sandbox, Server


HEADER_TIMEOUT_S = 10  # client_header_timeout of deploy/nginx.conf


class Attacker:
    """``python -m stress.attacks ...`` in a process of its own, started and ended here; ``seconds``
    bounds it in case this process cannot end it."""

    def __init__(self, attack: str, port: int, connections: int, seconds: float, *extra: str):
        self.seconds = seconds
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "stress.attacks", attack, "--port", str(port), "--connections", str(connections),
             "--seconds", str(seconds), *extra],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        )
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self._lines.put(line.strip())
        self._lines.put("")

    def ready(self, timeout: float = 60) -> bool:
        """Waits until the attack is in full force (the attacker says ``ready``)."""
        try:
            return self._lines.get(timeout=timeout) == "ready"
        except queue.Empty:
            return False

    def stop(self) -> None:
        """SIGTERM (the attacker stops and reports), SIGKILL if it does not end."""
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def finish(self) -> dict:
        """Ends the attack and returns its summary."""
        self.stop()
        lines = []
        while (line := self._lines.get(timeout=10)) != "":
            lines.append(line)
        stderr = self.proc.stderr.read()
        self.proc.stdout.close()
        self.proc.stderr.close()
        try:
            return json.loads(lines[-1])
        except (IndexError, ValueError):
            return {"error": f"no summary from the attacker (exit {self.proc.returncode}): {stderr[-500:]}"}


def readers(port: int, mix: Mix, opts: Options, seconds: float, seed: int) -> dict:
    return run_load(port, mix, connections=opts.reader_connections, total=1_000_000, max_seconds=seconds,
                    seed=seed, timeout=opts.reader_timeout, pause=opts.reader_pause).summary()


def ratio(during: dict, steady: dict) -> float | None:
    if not during["p99_ms"] or not steady["p99_ms"]:
        return None
    return round(during["p99_ms"] / steady["p99_ms"], 2)


def judge_readers(row: Row, windows: list[dict], during: dict, bar: float, severity: str = "fail") -> None:
    """The readers' checks and figures of an attack row; ``windows``: steady state before (and after)."""
    row.take_load(during)
    steady = min(windows, key=lambda w: w["p99_ms"] if w["p99_ms"] is not None else float("inf"))
    times = ratio(during, steady)
    row.check(f"readers' p99 during the attack at most {bar:g}x steady state", times is not None and times <= bar,
              f"{during['p99_ms']} ms against {steady['p99_ms']} ms: {times}x", severity)
    row.check("no reader got a 5xx, a connection error or a timeout", during["errors"] == 0 and during["unexpected_status"] == 0,
              json.dumps(during["problems"]), severity)
    row.notes.append("readers: steady p50/p99 " + " and ".join(
                         f"{w['p50_ms']}/{w['p99_ms']} ms ({w['requests']} requests in {w['duration_s']} s{', before' if i == 0 else ', after'})"
                         for i, w in enumerate(windows)) + f"; during the attack {during['p50_ms']}/{during['p99_ms']} ms "
                     f"({during['requests']} requests in {during['duration_s']} s): p99 ratio {times}")
    row.details.update({"steady": steady, "steady_windows": windows, "during": during, "p99_ratio": times})


def server_checks(row: Row, server: Server, pids_before: list[int]) -> None:
    row.check("no worker died or was replaced", server.worker_pids() == pids_before, f"{pids_before} -> {server.worker_pids()}")
    row.check("no traceback or worker timeout in the server log", not server.log_problems(), json.dumps(server.log_problems()))


def no_nginx(row: Row) -> list[Row]:
    print(f"  scenario {row.id} skipped: nginx is not installed (apt-get install nginx)", flush=True)
    row.check("nginx is installed (apt-get install nginx)", False, "skipped: no nginx on PATH or in /usr/sbin", severity="warn")
    row.notes.append("skipped: nginx is not installed, so the site cannot be served as in production")
    return [row]


class BehindNginx:
    """A sandbox, gunicorn as ``make serve`` runs it (2 workers, RULES_PROXY_HOPS=1) and nginx in
    front, warmed up through nginx; leaving the block ends the attackers, nginx and gunicorn."""

    def __init__(self, opts: Options, name: str):
        self.name = name
        self.sandbox = Sandbox(name, opts.keep)
        self.nginx: Nginx | None = None
        self.attackers: list[Attacker] = []

    def __enter__(self) -> BehindNginx:
        try:
            self.sandbox.prepare()
            self.server = self.sandbox.server(2, self.name, PROXY_HOPS="1").start()
            self.nginx = Nginx(self.sandbox.dir / "nginx", self.server.port)
            self.nginx.start()
            self.mix = Mix(Catalog.from_server(self.nginx.base), Mix.READS)
            run_load(self.nginx.port, self.mix, connections=8, total=400, max_seconds=90, seed=1)
        except BaseException:
            self.close()
            raise
        return self

    def attacker(self, *args) -> Attacker:
        self.attackers.append(Attacker(*args))
        return self.attackers[-1]

    def close(self) -> None:
        for attacker in self.attackers:
            attacker.stop()
        if self.nginx is not None:
            self.nginx.stop()
        self.sandbox.close()

    def __exit__(self, *_exc) -> None:
        self.close()


# -- 7. slowloris --------------------------------------------------------------------------

def slowloris(opts: Options) -> list[Row]:
    row = Row("7", f"Slowloris behind nginx: {opts.slow_connections} slow request heads for {opts.attack_s:.0f} s")
    if nginx_binary() is None:
        return no_nginx(row)
    direct = Row("7-direct", f"Slowloris against gunicorn alone (no nginx): {opts.slow_connections} slow heads for {opts.direct_s:.0f} s")
    with BehindNginx(opts, "slowloris") as site:
        server, nginx, mix = site.server, site.nginx, site.mix
        pids_before = server.worker_pids()
        steady = readers(nginx.port, mix, opts, opts.steady_s, seed=71)
        attacker = site.attacker("slowloris", nginx.port, opts.slow_connections, opts.attack_s + 60, "--interval", str(opts.slow_interval))
        ready = attacker.ready()
        attack_started = time.monotonic()
        during = readers(nginx.port, mix, opts, opts.attack_s, seed=72)
        # nginx's drops are seen only once a client_header_timeout (10 s) has passed.
        time.sleep(max(0.0, HEADER_TIMEOUT_S + 3 - (time.monotonic() - attack_started)))
        attack = attacker.finish()
        after = readers(nginx.port, mix, opts, opts.steady_s, seed=75)
        judge_readers(row, [steady, after], during, opts.p99_bar)
        row.check("the attacker held its connections open at once", ready and attack.get("max_open", 0) >= opts.slow_connections,
                  json.dumps(attack))
        dropped = attack.get("dropped_after_s", {})
        row.check(f"nginx dropped every slow head after client_header_timeout ({HEADER_TIMEOUT_S} s), none held longer than "
                  f"{HEADER_TIMEOUT_S + 2} s", attack.get("dropped_by_server", 0) > 0 and (attack.get("longest_held_s") or 99) <= HEADER_TIMEOUT_S + 2,
                  f"dropped {attack.get('dropped_by_server')}, after p50 {dropped.get('p50')} s, longest held {attack.get('longest_held_s')} s")
        slow_logged = server.log_path.read_text(errors="replace").count('"slowloris"')  # the access log's user agent
        row.check("no slow request reached gunicorn (its access log)", slow_logged == 0, f"{slow_logged} logged")
        server_checks(row, server, pids_before)
        row.notes.append(f"attacker: {attack.get('opened')} connections opened, at most {attack.get('max_open')} at once, "
                         f"{attack.get('dropped_by_server')} dropped by nginx (after {dropped.get('p50')} s at the median), "
                         f"{attack.get('connect_failures')} refused; one byte a second each")
        row.details["attack"] = attack

        # The same attack on gunicorn's own port: what the readers would meet without nginx.
        steady_direct = readers(server.port, mix, opts, opts.direct_s, seed=73)
        attacker = site.attacker("slowloris", server.port, opts.slow_connections, opts.direct_s + 60, "--interval", str(opts.slow_interval))
        attacker.ready()
        during_direct = readers(server.port, mix, opts, opts.direct_s, seed=74)
        attack_direct = attacker.finish()
        judge_readers(direct, [steady_direct], during_direct, opts.p99_bar, severity="warn")
        direct.notes.append(f"attacker: at most {attack_direct.get('max_open')} connections at once, "
                            f"{attack_direct.get('dropped_by_server')} dropped by gunicorn, longest held {attack_direct.get('longest_held_s')} s; "
                            f"readers' timeout {opts.reader_timeout:.0f} s. Reported, not enforced: this is the set-up the README advises against")
        direct.details["attack"] = attack_direct
    return [row, direct] if direct.checks else [row]


# -- 8. login flood ------------------------------------------------------------------------

def login_flood(opts: Options) -> list[Row]:
    row = Row("8", f"Login flood behind nginx: {opts.flood_rate:.0f} wrong passwords a second from {opts.flood_connections} addresses "
                   f"for {opts.attack_s:.0f} s")
    if nginx_binary() is None:
        return no_nginx(row)
    with BehindNginx(opts, "loginflood") as site:
        server, nginx, mix = site.server, site.nginx, site.mix
        pids_before = server.worker_pids()
        steady = readers(nginx.port, mix, opts, opts.steady_s, seed=81)
        before = server.memory()
        with MemorySampler(server, every=2) as sampler:
            attacker = site.attacker("login-flood", nginx.port, opts.flood_connections, opts.attack_s + 60, "--rate", str(opts.flood_rate))
            attacker.ready()
            during = readers(nginx.port, mix, opts, opts.attack_s, seed=82)
            attack = attacker.finish()
        after = readers(nginx.port, mix, opts, opts.steady_s, seed=83)
        judge_readers(row, [steady, after], during, opts.p99_bar)
        statuses = attack.get("statuses", {})
        checked = statuses.get("401", 0)
        row.check("the guesses were answered: 401 (checked), 429 (limited) or 503 (no free check slot), nothing else",
                  set(statuses) <= {"401", "429", "503"} and attack.get("posts", 0) > 0, json.dumps(statuses))
        row.check("some guesses reached the password check (the flood was real)", checked > 0, f"{checked} checked")
        reached = server.log_path.read_text(errors="replace").count('"POST /editor/login ')  # gunicorn's access log
        peak = max((s["max_mib"] for s in sampler.samples), default=before["max_mib"])
        row.rss_before_mib, row.rss_after_mib = before["total_mib"], server.memory()["total_mib"]
        server_checks(row, server, pids_before)
        row.notes.append(f"attacker: {attack.get('posts')} wrong-password posts ({attack.get('per_second')}/s) from "
                         f"{attack.get('addresses')} addresses: " + ", ".join(f"{n}x {s}" for s, n in statuses.items())
                         + f"; {reached} of them reached gunicorn, nginx answered the others; "
                         f"their p50/p99 {attack.get('p50_ms')}/{attack.get('p99_ms')} ms")
        row.notes.append(f"largest worker: {before['max_mib']} MiB before the flood, at most {peak} MiB during it")
        row.details.update({"attack": attack, "posts_at_gunicorn": reached, "memory_samples": sampler.samples})
    return [row]


SCENARIOS["7"] = slowloris
SCENARIOS["8"] = login_flood
NAMES["slowloris"] = "7"
NAMES["login-flood"] = "8"
