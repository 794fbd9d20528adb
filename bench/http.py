"""HTTP throughput on loopback: gunicorn (2 workers) serving the app, wrk cycling through URLs.

    python -m bench.http [--duration S] [--connections N]

Baseline: ``/bench/hello`` of the same app and server (``bench.hello``, registered by
``bench.wsgi`` only when ``RULES_BENCH_HELLO=1``), in short rounds beside the measured routes:
each round runs hello, the FAQ pages, the search API and hello again, and a route's ratio is
taken per round against that round's hello (the median of the rounds and their spread are
reported), so that other work on a shared machine lands on both sides. Measured: the FAQ permalink pages (every
entry in every language, in turn) and the search API with distinct queries from the content's
own words (three languages, a quarter with a typo; more queries than requests, so no response
cache answers one). Every run is preceded by a warm-up run on other URLs of the same kind.
Only 127.0.0.1 is used; the server is stopped (its process group) whatever happens.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
LUA = Path(__file__).with_name("wrk") / "cycle.lua"
WORKERS = 2
HOST = "127.0.0.1"


def ensure_wrk() -> str:
    """The wrk binary; installed from Debian (``apt-get install -y wrk``) when missing."""
    found = shutil.which("wrk")
    if found:
        return found
    if shutil.which("apt-get") is None:
        raise SystemExit("wrk is missing and apt-get is not available: install wrk")
    print("installing wrk (apt-get) ...", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, stdout=subprocess.DEVNULL, timeout=300)
    subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, env=env, stdout=subprocess.DEVNULL, timeout=300)
    found = shutil.which("wrk")
    if not found:
        raise SystemExit("apt-get install wrk did not provide a wrk binary")
    return found


def instance_env(instance: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULES_") and k != "DATABASE_URL"}
    env.update(RULES_INSTANCE_PATH=str(instance), RULES_BENCH_HELLO="1", PYTHONPATH=str(ROOT))
    return env


def prepare_instance(instance: Path) -> None:
    """A fresh instance folder with the migrated database and a prebuilt index (the flask CLI)."""
    env = instance_env(instance)
    flask = [str(BIN / "flask"), "--app", "app"]
    for command in (["db", "upgrade"], ["index", "build"]):
        subprocess.run(flask + command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, timeout=300)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def wait_ready(url: str, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer {url} within {timeout:.0f} s")


@contextlib.contextmanager
def gunicorn(instance: Path, log: Path):
    """gunicorn serving ``bench.wsgi:app`` on a free loopback port; yields the base URL."""
    port = free_port()
    command = [
        str(BIN / "gunicorn"), "--workers", str(WORKERS), "--bind", f"{HOST}:{port}",
        "--error-logfile", str(log), "--log-level", "warning", "--timeout", "60", "bench.wsgi:app",
    ]
    process = subprocess.Popen(command, cwd=ROOT, env=instance_env(instance), start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://{HOST}:{port}"
    try:
        wait_ready(base + "/bench/hello", process)
        yield base
    finally:
        stop_group(process)


def stop_group(process: subprocess.Popen, grace: float = 20.0) -> None:
    """Stop a server started in a session of its own: SIGTERM to its process group, SIGKILL
    after ``grace`` seconds."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


def _ms(value: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", value.strip())
    if not match:
        raise ValueError(f"unexpected wrk time {value!r}")
    return float(match.group(1)) * _UNITS[match.group(2)]


def parse_wrk(output: str) -> dict:
    rps = re.search(r"Requests/sec:\s+([\d.]+)", output)
    total = re.search(r"(\d+) requests in", output)
    if not rps or not total:
        raise RuntimeError(f"cannot read wrk output:\n{output}")
    latency = {int(p): _ms(v) for p, v in re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", output, re.M)}
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return {
        "rps": float(rps.group(1)),
        "requests": int(total.group(1)),
        "p50_ms": latency.get(50),
        "p99_ms": latency.get(99),
        "non_2xx": int(errors.group(1)) if errors else 0,
        "socket_errors": sum(map(int, socket_errors.groups())) if socket_errors else 0,
    }


def run_wrk(wrk: str, base: str, paths: list[str], workdir: Path, name: str, duration: float,
            connections: int, threads: int) -> dict:
    listing = workdir / f"{name}.paths"
    listing.write_text("\n".join(paths) + "\n", encoding="utf-8")
    command = [wrk, f"-t{threads}", f"-c{connections}", f"-d{duration:g}s", "--latency", "--timeout", "10s",
               "-s", str(LUA), base, "--", str(listing), str(threads)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=duration + 60, check=True)
    result = parse_wrk(done.stdout)
    result["paths"] = len(paths)
    return result


def faq_paths(library) -> list[str]:
    from rules_index.content import LANGS
    from rules_index.present import permalink

    return [permalink(lang, game.slug, faq.id) for game in library for faq in game.faq for lang in LANGS]


def search_paths(queries: list[tuple[str, str]]) -> list[str]:
    return [f"/api/v1/search?{urlencode({'q': text, 'lang': lang})}" for lang, text in queries]


# Warm-up seconds per run: every worker must have rendered every FAQ page once (the first
# rendering of a page fills per-process caches: related entries, Markdown, rule checks).
WARMUP = {"hello": 3.0, "faq_page": 8.0, "search": 5.0}


ROUNDS = 5


def _spread(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"median": statistics.median(ordered), "min": ordered[0], "max": ordered[-1], "rounds": ordered}


def measure(library, docs, instance: Path, workdir: Path, duration: float = 10.0, connections: int = 4,
            threads: int = 1, log=print, rounds: int = ROUNDS) -> dict:
    """The HTTP figures (``http`` of results.json); ``instance`` made by ``prepare_instance``.

    ``rounds`` short rounds, each hello, the FAQ pages, the search API and hello again (each run
    ``duration`` / ``rounds`` seconds): a route's ratio in a round is its requests per second over
    the mean of that round's two hello runs, so that the machine's other work, which comes and
    goes, lands on both sides. Reported: the median of the rounds' ratios and their spread."""
    from .queries import make_queries

    wrk = ensure_wrk()
    faq = faq_paths(library)
    # More distinct queries than the runs can send, so none is repeated (and no cache answers one).
    queries = make_queries(docs, 40_000, seed=11)
    warm_queries, queries = queries[:2_000], queries[2_000:]
    share = len(queries) // rounds
    run_s = max(1.0, duration / rounds)
    runs: dict[str, list[dict]] = {"hello": [], "faq_page": [], "search": []}
    ratios: dict[str, list[float]] = {"faq_page": [], "search": []}
    with gunicorn(instance, workdir / "gunicorn.log") as base:
        for name, warm_paths in (("hello", ["/bench/hello"]), ("faq_page", faq[::-1]), ("search", search_paths(warm_queries))):
            run_wrk(wrk, base, warm_paths, workdir, f"{name}-warm", WARMUP.get(name, 1.0), connections, threads)
        for number in range(rounds):
            mine = search_paths(queries[number * share:(number + 1) * share])
            plan = [("hello", ["/bench/hello"]), ("faq_page", faq), ("search", mine), ("hello", ["/bench/hello"])]
            got = {}
            for name, paths in plan:
                r = run_wrk(wrk, base, paths, workdir, name, run_s, connections, threads)
                if name == "search" and r["requests"] > len(paths):
                    raise RuntimeError("the search run repeated queries: generate more")
                runs[name].append(r)
                got.setdefault(name, []).append(r["rps"])
            hello = sum(got["hello"]) / 2
            for name in ratios:
                ratios[name].append(got[name][0] / hello)
            log(f"  round {number + 1}: hello {hello:>8.1f} req/s  faq page {got['faq_page'][0]:>8.1f} ({ratios['faq_page'][-1]:.2f}x)"
                f"  search {got['search'][0]:>8.1f} ({ratios['search'][-1]:.2f}x)")
    bad = [r for name in runs for r in runs[name] if r["non_2xx"] or r["socket_errors"]]
    if bad:
        raise RuntimeError(f"failed requests during the HTTP benchmark: {bad}")
    faq_ratio, search_ratio = _spread(ratios["faq_page"]), _spread(ratios["search"])

    def median_of(name: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[name])

    return {
        "server": f"gunicorn, {WORKERS} sync workers, {HOST}",
        "client": f"wrk -t{threads} -c{connections} -d{run_s:g}s --latency, {rounds} rounds of hello, FAQ pages, search, hello; after a warm-up run",
        "hello_rps": median_of("hello", "rps"),
        "faq_page_rps": median_of("faq_page", "rps"),
        "search_rps": median_of("search", "rps"),
        "hello_p99_ms": median_of("hello", "p99_ms"),
        "faq_page_p99_ms": median_of("faq_page", "p99_ms"),
        "search_p99_ms": median_of("search", "p99_ms"),
        "faq_page_ratio": faq_ratio["median"],
        "search_ratio": search_ratio["median"],
        "faq_page_ratio_spread": faq_ratio,
        "search_ratio_spread": search_ratio,
        "runs": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    from rules_index.content import load_library
    from rules_index.search.documents import library_documents

    library = load_library(ROOT / "content")
    with tempfile.TemporaryDirectory(prefix="rules-bench-http-") as tmp:
        workdir = Path(tmp)
        prepare_instance(workdir / "instance")
        result = measure(library, list(library_documents(library)), workdir / "instance", workdir, args.duration,
                         connections=args.connections, threads=args.threads)
    for name in ("faq_page", "search"):
        spread = result[f"{name}_ratio_spread"]
        print(f"{name} / hello: median {spread['median']:.2f} over {len(spread['rounds'])} rounds (min {spread['min']:.2f}, max {spread['max']:.2f})")


if __name__ == "__main__":
    main()
