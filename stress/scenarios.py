"""The scenarios of ``make stress``; each returns table rows with the checks it made."""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from rules_index.search.build import PRUNE_GRACE_S

from .load import Catalog, LoadResult, Mix, RandomWords, run_load
from .server import HOST, ROOT, Sandbox, Server


@dataclass
class Options:
    requests: int = 20_000          # scenario 1: planned requests
    connections: int = 32
    mixed_max_s: float = 210.0      # scenario 1: wall-clock bound
    rebuilds: int = 5               # scenario 2
    rebuild_min_s: float = 30.0     # scenario 2: reads run at least this long
    rebuild_max_s: float = 170.0    # scenario 2: and at most this long
    build_kills: tuple[str, ...] = ("created", "index-open", "writing-postings")  # scenario 3: see BUILD_STAGES
    kill_rounds: int = 2            # scenario 4
    kill_after_acks: int = 300      # scenario 4: SIGKILL once this many submissions were acknowledged
    memory_searches: int = 30_000   # scenario 5: searches of random words
    memory_connections: int = 8
    memory_max_s: float = 900.0     # scenario 5: wall-clock bound of the searches
    memory_bound_mb: float = 100.0  # scenario 5: the most a worker may grow (MB, 10^6 bytes)
    baseline: Path | None = None    # scenario 5 also runs on this checkout (e.g. the parent commit's worktree)
    steady_s: float = 30.0          # scenarios 7, 8: readers alone (steady state) ...
    attack_s: float = 30.0          # ... then while the attack runs
    reader_connections: int = 8     # scenarios 7, 8: readers' connections, each pausing between requests
    reader_pause: float = 0.05      # mean seconds
    reader_timeout: float = 10.0
    p99_bar: float = 3.0            # readers' p99 during an attack / steady state, at most
    slow_connections: int = 400     # scenario 7: slow request heads at once
    slow_interval: float = 1.0      # seconds between their bytes
    direct_s: float = 15.0          # scenario 7: the same attack on gunicorn alone, this long
    flood_connections: int = 16     # scenario 8: guessers, each from its own address,
    flood_rate: float = 200.0       # posting this many wrong passwords a second in all
    keep: bool = False


@dataclass
class Row:
    id: str
    name: str
    requests: int | None = None
    errors: int | None = None
    unexpected: int | None = None
    p50_ms: float | None = None
    p99_ms: float | None = None
    rss_before_mib: float | None = None
    rss_after_mib: float | None = None
    acknowledged: int | None = None
    stored: int | None = None
    checks: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    details: dict = field(default_factory=dict)

    def check(self, name: str, ok: bool, detail: str = "", severity: str = "fail") -> bool:
        """A property the scenario verified; ``severity="warn"`` marks a known minor defect
        that is reported but does not fail the run."""
        self.checks.append({"check": name, "ok": bool(ok), "detail": detail, "severity": severity})
        return ok

    @property
    def passed(self) -> bool:
        return all(c["ok"] for c in self.checks if c["severity"] == "fail")

    @property
    def warned(self) -> bool:
        return any(not c["ok"] for c in self.checks if c["severity"] == "warn")

    def take_load(self, summary: dict) -> None:
        self.requests = summary["requests"]
        self.errors = summary["errors"]
        self.unexpected = summary["unexpected_status"]
        self.p50_ms = summary["p50_ms"]
        self.p99_ms = summary["p99_ms"]

    def as_json(self) -> dict:
        return {**{k: v for k, v in self.__dict__.items()}, "passed": self.passed, "warned": self.warned}


# -- helpers -------------------------------------------------------------------------------

def get_json(base: str, path: str, timeout: float = 30) -> tuple[int, dict | None]:
    try:
        with urllib.request.urlopen(base + path, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, None


def post_json(base: str, path: str, payload: dict, timeout: float = 30) -> tuple[int, dict | None]:
    request = urllib.request.Request(base + path, data=json.dumps(payload).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, None


class MemorySampler:
    """RSS of the workers every few seconds while a load runs (to see whether it levels off)."""

    def __init__(self, server: Server, every: float = 5.0):
        self.server = server
        self.every = every
        self.samples: list[dict] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._t0 = time.monotonic()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            mem = self.server.memory()
            self.samples.append({"t_s": round(time.monotonic() - self._t0, 1), "total_mib": mem["total_mib"],
                                 "max_mib": mem["max_mib"], "fds": mem["fds"], "deleted_fds": mem["deleted_fds"]})

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


def warm_up(server: Server, mix: Mix, requests: int = 400) -> LoadResult:
    """Enough requests that every worker has loaded the content, the index and the templates."""
    return run_load(server.port, mix, connections=8, total=requests, max_seconds=90, seed=1)


def search_hits(base: str, query: str, lang: str) -> list[tuple[str, str]]:
    status, body = get_json(base, "/api/v1/search?" + urllib.parse.urlencode({"q": query, "lang": lang}))
    if status != 200 or body is None:
        return []
    return [(h["game"], h["id"]) for h in body["hits"]]


SEARCH_PROBES = [("de", "Dieb Meuchler bestehlen"), ("en", "warlord destroy district cost"), ("it", "limite consiglieri")]


def serves(server: Server, mix: Mix, requests: int = 300) -> tuple[dict, bool, str]:
    """A short read load plus known questions that must find answers: does this server serve?"""
    load = run_load(server.port, mix, connections=8, total=requests, max_seconds=60, seed=11)
    summary = load.summary()
    found = {f"{lang}:{q}": len(search_hits(server.base, q, lang)) for lang, q in SEARCH_PROBES}
    ok = summary["errors"] == 0 and summary["unexpected_status"] == 0 and summary["requests"] == requests and all(found.values())
    detail = f"{summary['requests']} requests, {summary['errors']} errors, {summary['unexpected_status']} unexpected; hits per probe {found}"
    return summary, ok, detail


class ContentMarker:
    """Puts a made-up word into one FAQ answer of the sandbox's content copy (makes the index stale)."""

    FILE = "ohne-furcht-und-adel/faq.yaml"

    def __init__(self, sandbox: Sandbox, word: str):
        self.sandbox = sandbox
        self.word = word
        path = sandbox.content / self.FILE
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        entry = lang = None
        for i, line in enumerate(lines):
            if m := re.match(r"^- id: (\S+)", line):
                entry = m.group(1)
            elif m := re.match(r"^  (de|en|it):\s*$", line):
                lang = m.group(1)
            elif entry and lang and re.match(r"^    answer: \|", line) and i + 1 < len(lines):
                # An editorial aside at the answer's end: new words the content's checks let through
                # (a bare sentence would be a statement bound to no fact).
                end = i + 1
                while end < len(lines) and (not lines[end].strip() or lines[end].startswith("      ")):
                    end += 1
                while not lines[end - 1].strip():
                    end -= 1
                lines[end:end] = ["\n", f"      [{word}.]{{.editorial}}\n"]
                break
        else:
            raise RuntimeError(f"no answer block found in {path}")
        self.slug = "ohne-furcht-und-adel"
        self.entry, self.lang = entry, lang
        path.write_text("".join(lines), encoding="utf-8")

    def in_answer(self, base: str) -> bool:
        status, body = get_json(base, f"/api/v1/games/{self.slug}/faq/{self.entry}?lang={self.lang}")
        return status == 200 and self.word in body["answer_html"]

    def searchable(self, base: str) -> bool:
        return (self.slug, self.entry) in search_hits(base, self.word, self.lang)

    def followed(self, base: str, within: float = 10.0, answers: int = 12) -> bool:
        """Whether the server shows the word in ``answers`` answers in a row and in search within
        ``within`` seconds: each worker switches to the new snapshot in the background once a
        request finds the link moved, and serves the one it holds meanwhile."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if all(self.in_answer(base) for _ in range(answers)) and self.searchable(base):
                return True
            time.sleep(0.2)
        return False


# Where a build can be killed, as seen from its new generation directory (a build of the real content
# spends ~2 s adding documents in memory after "index-open", then ~0.5 s writing postings, then a few
# ms assembling the segment, then writes BUILD.json and switches the link).
BUILD_STAGES = {
    "created": lambda files: True,  # the directory exists, nothing in it yet
    "index-open": lambda files: "_MAIN_0.toc" in files,  # Whoosh index created, documents being added
    "writing-postings": lambda files: any(n.endswith(".pst") and size > 0 for n, size in files.items()),  # commit under way
}


def wait_for_new_generation(sandbox: Sandbox, before: set[Path], proc: subprocess.Popen, timeout: float = 90) -> Path | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        new = set(sandbox.generation_dirs()) - before
        if new:
            return max(new)
        if proc.poll() is not None:
            return None
        time.sleep(0.001)
    return None


def kill_build_at(sandbox: Sandbox, stage: str, also=None) -> dict:
    """Start `index build`, SIGKILL it (and ``also()``) when its new generation reaches ``stage``."""
    existing = set(sandbox.generation_dirs())
    proc = sandbox.start_build()
    partial = wait_for_new_generation(sandbox, existing, proc)
    reached = False
    deadline = time.monotonic() + 90
    while partial is not None and proc.poll() is None and time.monotonic() < deadline:
        files = dir_listing(partial)
        if "BUILD.json" in files:
            break
        if BUILD_STAGES[stage](files):
            reached = True
            break
        time.sleep(0.001)
    files = dir_listing(partial) if partial else {}
    mid_build = reached and proc.poll() is None and "BUILD.json" not in files
    kill_group(proc)
    if also is not None:
        also()
    proc.communicate(timeout=30)
    return {"stage": stage, "killed_mid_build": mid_build, "partial": partial.name if partial else None,
            "files_at_kill": files, "exit": proc.returncode}


def kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def dir_listing(path: Path) -> dict[str, int]:
    try:
        return {p.name: p.stat().st_size for p in sorted(path.iterdir())}
    except OSError:
        return {}


# -- 1. mixed load -------------------------------------------------------------------------

def mixed_load(opts: Options) -> list[Row]:
    row = Row("1", f"Mixed load: 4 workers, {opts.connections} connections, reads + submissions")
    sandbox = Sandbox("mixed", opts.keep)
    try:
        sandbox.prepare()
        server = sandbox.server(4, "mixed").start()
        catalog = Catalog.from_server(server.base)
        mix = Mix(catalog, Mix.WITH_WRITES)
        warm = warm_up(server, mix)
        pids_before = server.worker_pids()
        before = server.memory()
        with MemorySampler(server, every=10) as sampler:
            load = run_load(server.port, mix, connections=opts.connections, total=opts.requests,
                            max_seconds=opts.mixed_max_s, seed=2)
        after = server.memory()
        summary = load.summary()
        row.take_load(summary)
        row.rss_before_mib, row.rss_after_mib = before["total_mib"], after["total_mib"]
        acknowledged = set(load.acknowledged)
        stored = sandbox.stored_tokens()
        row.acknowledged, row.stored = len(acknowledged), len(acknowledged & stored)
        row.check("no 5xx or connection errors", summary["errors"] == 0, json.dumps(summary["problems"]))
        row.check("no unexpected status (4xx, missing token)", summary["unexpected_status"] == 0, json.dumps(summary["problems"]))
        row.check("every acknowledged submission is stored", acknowledged <= stored, f"{len(acknowledged - stored)} missing")
        row.check("SQLite integrity_check", (integrity := sandbox.integrity()) == "ok", integrity)
        row.check("no worker died or was replaced", server.worker_pids() == pids_before, f"{pids_before} -> {server.worker_pids()}")
        row.check("no traceback or worker timeout in the server log", not server.log_problems(), json.dumps(server.log_problems()))
        if summary["requests"] < opts.requests:
            row.notes.append(f"stopped by the {opts.mixed_max_s:.0f} s bound after {summary['requests']} of {opts.requests} requests")
        row.notes.append(f"{summary['rps']} req/s over {summary['duration_s']} s; RSS per worker max "
                         f"{before['max_mib']} -> {after['max_mib']} MiB")
        if len(sampler.samples) >= 4:
            half = sampler.samples[len(sampler.samples) // 2]
            row.notes.append(f"RSS (all workers) {before['total_mib']} MiB after warm-up, {half['total_mib']} MiB at "
                             f"{half['t_s']:.0f} s, {after['total_mib']} MiB at the end: +{half['total_mib'] - before['total_mib']:.1f} MiB "
                             f"in the first half of the run, +{after['total_mib'] - half['total_mib']:.1f} MiB in the second")
        row.details = {"load": summary, "warm_up": warm.summary(), "memory_before": before, "memory_after": after,
                       "memory_samples": sampler.samples, "rows_in_database": len(stored)}
    finally:
        sandbox.close()
    return [row]


# -- 2. index rebuilds under load ----------------------------------------------------------

def rebuild_under_load(opts: Options) -> list[Row]:
    row = Row("2", f"Index rebuilt {opts.rebuilds}x while {opts.connections} connections read")
    sandbox = Sandbox("rebuild", opts.keep)
    try:
        sandbox.prepare()
        server = sandbox.server(4, "rebuild").start()
        catalog = Catalog.from_server(server.base)
        mix = Mix(catalog, Mix.READS)
        warm_up(server, mix, 300)
        pids_before = server.worker_pids()
        before = server.memory()
        first_generation = sandbox.current_generation()
        stop = threading.Event()
        result = LoadResult()
        reader = threading.Thread(target=run_load, args=(server.port, mix), kwargs={
            "connections": opts.connections, "total": 1_000_000, "max_seconds": opts.rebuild_max_s,
            "stop": stop, "seed": 3, "result": result})
        builds: list[dict] = []
        windows: list[tuple[float, float]] = []
        switches: list[float] = []  # perf_counter moments the index link changed
        watching = threading.Event()

        def watch_link() -> None:
            seen = os.path.realpath(sandbox.index_link)
            while not watching.wait(0.005):
                now = os.path.realpath(sandbox.index_link)
                if now != seen:
                    switches.append(time.perf_counter())
                    seen = now

        watcher = threading.Thread(target=watch_link, daemon=True)
        watcher.start()
        marker = None
        t0 = time.monotonic()
        with MemorySampler(server, every=5) as sampler:
            reader.start()
            time.sleep(3)
            for i in range(opts.rebuilds):
                if time.monotonic() - t0 > opts.rebuild_max_s - 30:
                    row.notes.append(f"only {i} rebuilds fitted in the time bound")
                    break
                if i == opts.rebuilds - 1:
                    marker = ContentMarker(sandbox, "quxvortelix")  # the last build also changes the content
                start = time.monotonic()
                window_start = time.perf_counter()
                done = sandbox.flask("index", "build", check=False, timeout=120)
                windows.append((window_start, time.perf_counter()))
                builds.append({"build": i + 1, "exit": done.returncode, "seconds": round(time.monotonic() - start, 1),
                               "generation": sandbox.current_generation(), "stderr": done.stderr[-500:] if done.returncode else ""})
                time.sleep(1.0)
            # Workers follow the switch: each request on a fresh connection lands on some worker.
            followed = marker.followed(server.base, answers=24) if marker else None
            while time.monotonic() - t0 < max(opts.rebuild_min_s, 0) + 3:
                time.sleep(0.5)
            time.sleep(3)
            stop.set()
            reader.join(timeout=opts.rebuild_max_s + 60)
            watching.set()
            watcher.join(timeout=5)
        after = server.memory()
        summary = result.summary()
        row.take_load(summary)
        row.rss_before_mib, row.rss_after_mib = before["total_mib"], after["total_mib"]
        gens = sandbox.generation_dirs()
        row.check("no 5xx or connection errors while rebuilding", summary["errors"] == 0, json.dumps(summary["problems"]))
        row.check("no unexpected status", summary["unexpected_status"] == 0, json.dumps(summary["problems"]))
        row.check(f"{opts.rebuilds} builds succeeded", len(builds) == opts.rebuilds and all(b["exit"] == 0 for b in builds),
                  json.dumps([(b["exit"], b["seconds"]) for b in builds]))
        row.check("the link moved to the last build", bool(builds) and sandbox.current_generation() == builds[-1]["generation"] != first_generation)
        retired = sum(1 for g in gens if (Path(g) / "RETIRED").exists() and time.time() - (Path(g) / "RETIRED").stat().st_mtime < PRUNE_GRACE_S)
        row.check(f"old generations pruned (at most 3 kept, besides those left less than {PRUNE_GRACE_S:.0f} s ago)",
                  len(gens) <= 3 + retired, f"{len(gens)} directories, {retired} left recently")
        row.check("reads ran at least the minimum time", summary["duration_s"] >= opts.rebuild_min_s, f"{summary['duration_s']} s")
        if marker:
            row.check("every worker follows the last generation within 10 s: its text in 24 answers in a row and in search", followed)
        row.check("no worker died or was replaced", server.worker_pids() == pids_before, f"{pids_before} -> {server.worker_pids()}")
        row.check("no traceback or worker timeout in the server log", not server.log_problems(), json.dumps(server.log_problems()))
        row.check("no deleted index files held open after pruning",
                  after["deleted_fds"] <= before["deleted_fds"], f"deleted fds {before['deleted_fds']} -> {after['deleted_fds']}")
        # The generator is closed-loop: while the workers stall, few new requests are sent. So reads are
        # grouped by what they lived through: a switch (in flight at it, or sent within 1 s after it),
        # else a build running, else neither.
        def around_switch(r) -> bool:
            return any(r.start <= s + 1.0 and r.end >= s for s in switches)

        def building(r) -> bool:
            return not around_switch(r) and any(a <= r.start < b for a, b in windows)

        switched = result.summary(select=around_switch)
        during = result.summary(select=building)
        outside = result.summary(select=lambda r: not around_switch(r) and not building(r))
        row.notes.append(f"{summary['requests']} reads over {summary['duration_s']} s; builds took "
                         + ", ".join(f"{b['seconds']} s" for b in builds) + f"; the link switched {len(switches)} times")
        row.notes.append("latency p50/p99 of reads in flight at a switch (or sent up to 1 s after): "
                         f"{switched['p50_ms']}/{switched['p99_ms']} ms ({switched['requests']} reads); other reads while a "
                         f"build ran: {during['p50_ms']}/{during['p99_ms']} ms ({during['requests']}); the rest: "
                         f"{outside['p50_ms']}/{outside['p99_ms']} ms ({outside['requests']})")
        row.details = {"load": summary, "around_switch": switched, "during_builds": during, "outside_builds": outside,
                       "builds": builds, "memory_before": before, "memory_after": after,
                       "memory_samples": sampler.samples, "generations_left": [g.name for g in gens]}
    finally:
        sandbox.close()
    return [row]


# -- 3. SIGKILL during an index build ------------------------------------------------------

def kill_during_rebuild(opts: Options) -> list[Row]:
    rows = []
    sandbox = Sandbox("killbuild", opts.keep)
    try:
        sandbox.prepare()
        server = sandbox.server(4, "killbuild-a").start()
        catalog = Catalog.from_server(server.base)
        reads = Mix(catalog, Mix.READS)
        warm_up(server, reads, 200)

        # 3a: the build process is killed, the server keeps running.
        row = Row("3a", f"SIGKILL of `index build` ({len(opts.build_kills)}x), server keeps running")
        rows.append(row)
        before = server.memory()
        generation = sandbox.current_generation()
        marker = ContentMarker(sandbox, "zimbrantopel")  # content changed: the index is now stale
        kills = [kill_build_at(sandbox, stage) for stage in opts.build_kills]
        summary, serving, detail = serves(server, reads)
        row.take_load(summary)
        row.check("every kill hit a build in progress (stages: " + ", ".join(opts.build_kills) + ")",
                  all(k["killed_mid_build"] for k in kills),
                  json.dumps([(k["stage"], k["killed_mid_build"], len(k["files_at_kill"])) for k in kills]))
        # A worker's first request brings a stale index in line (recovery), so a generation built by
        # the server may have replaced the previous one; a killed build's never may.
        current = sandbox.current_generation()
        row.check("the link points at a whole generation (the previous one, or one the server built), never a half-written one",
                  (sandbox.generations / current / "BUILD.json").exists(), f"{'previous' if current == generation else 'rebuilt'}: {current}")
        row.check("the previous index still serves (reads + searches with hits)", serving, detail)
        partials = [g.name for g in sandbox.generation_dirs() if not (g / "BUILD.json").exists()]
        previous = sandbox.generations / generation
        stale = sandbox.flask("index", "build", "--if-stale", check=False)
        row.check("`index build --if-stale` leaves the index up to date (built now, or by the server)",
                  stale.returncode == 0 and ("index built" in stale.stdout or "up to date" in stale.stdout),
                  (stale.stdout + stale.stderr).strip()[-300:])
        row.check("the server follows within 10 s: new text in answers and search", marker.followed(server.base))
        again = sandbox.flask("index", "build", "--if-stale", check=False)
        row.check("a second `--if-stale` finds it up to date", again.returncode == 0 and "up to date" in again.stdout, again.stdout.strip())
        row.check("no traceback in the server log", not server.log_problems(), json.dumps(server.log_problems()))
        left = [g.name for g in sandbox.generation_dirs() if not (g / "BUILD.json").exists()]
        row.check("the recovery build keeps the previous good generation (prune ignores half-written ones)",
                  previous.is_dir(), f"pruned {generation}, kept half-written {left}", severity="warn")
        row.rss_before_mib, row.rss_after_mib = before["total_mib"], server.memory()["total_mib"]
        row.notes.append(f"{len(partials)} half-written generation(s) left by the kills; after the recovery build "
                         f"{len(left)} remain (never opened; removed by later builds)")
        row.details = {"kills": kills, "serving": summary, "partial_generations": partials,
                       "partial_after_recovery": left,
                       "generations_after_recovery": {g.name: (g / "BUILD.json").exists() for g in sandbox.generation_dirs()}}

        # 3b: the whole gunicorn (master + workers) is killed while a build runs; the build finishes.
        row = Row("3b", "SIGKILL of gunicorn's process group during a build; restart")
        rows.append(row)
        row.rss_before_mib = server.memory()["total_mib"]
        generation = sandbox.current_generation()
        existing = set(sandbox.generation_dirs())
        proc = sandbox.start_build()
        partial = wait_for_new_generation(sandbox, existing, proc)
        deadline = time.monotonic() + 90
        while (partial is not None and proc.poll() is None and time.monotonic() < deadline
               and not BUILD_STAGES["index-open"](dir_listing(partial))):
            time.sleep(0.001)
        mid_build = partial is not None and proc.poll() is None and not (partial / "BUILD.json").exists()
        server.kill()
        out, err = proc.communicate(timeout=120)
        row.check("the server was killed while the build ran", mid_build)
        row.check("the build finished on its own", proc.returncode == 0, (out + err).strip()[-300:])
        server = sandbox.server(4, "killbuild-b").start()
        summary, serving, detail = serves(server, reads)
        row.take_load(summary)
        row.rss_after_mib = server.memory()["total_mib"]
        row.check("the restarted server serves the new generation", serving and sandbox.current_generation() != generation, detail)
        row.check("no traceback in the server log", not server.log_problems(), json.dumps(server.log_problems()))

        # 3c: gunicorn and the build are killed together (as in a crash of the machine's services).
        row = Row("3c", "SIGKILL of gunicorn and of the build together; restart")
        rows.append(row)
        row.rss_before_mib = server.memory()["total_mib"]
        generation = sandbox.current_generation()
        marker = ContentMarker(sandbox, "wofsterbagun")
        killed = kill_build_at(sandbox, "writing-postings", also=server.kill)
        row.check("both were killed mid-build (while the build wrote postings)", killed["killed_mid_build"],
                  json.dumps(killed["files_at_kill"]))
        server = sandbox.server(4, "killbuild-c").start()
        summary, serving, detail = serves(server, reads)
        row.take_load(summary)
        # The restarted server brings a stale index in line at its first request (or serves the
        # previous generation until `--if-stale` does): never the half-written one.
        current = sandbox.current_generation()
        row.check("the restarted server serves a whole generation, never the half-written one",
                  serving and (sandbox.generations / current / "BUILD.json").exists(), f"{detail}; serving {current}")
        stale = sandbox.flask("index", "build", "--if-stale", check=False)
        row.check("`index build --if-stale` leaves the index up to date (built now, or by the restarted server)",
                  stale.returncode == 0 and ("index built" in stale.stdout or "up to date" in stale.stdout),
                  (stale.stdout + stale.stderr).strip()[-300:])
        row.check("the server follows within 10 s: new text in answers and search", marker.followed(server.base))
        row.rss_after_mib = server.memory()["total_mib"]
        row.check("no traceback in the server log", not server.log_problems(), json.dumps(server.log_problems()))
        gens = sandbox.generation_dirs()
        row.details = {"generations_left": {g.name: (g / "BUILD.json").exists() for g in gens}}
    finally:
        sandbox.close()
    return rows


# -- 4. SIGKILL during submissions ---------------------------------------------------------

def kill_during_submissions(opts: Options) -> list[Row]:
    row = Row("4", f"SIGKILL of gunicorn mid-submissions ({opts.kill_rounds} rounds), restart")
    sandbox = Sandbox("killsubmit", opts.keep)
    acknowledged: set[str] = set()
    rounds = []
    try:
        sandbox.prepare()
        server = sandbox.server(4, "killsubmit-0").start()
        catalog = Catalog.from_server(server.base)
        submits = Mix(catalog, {"submit": 1})
        row.rss_before_mib = server.memory()["total_mib"]
        counted: list[dict] = []
        for n in range(opts.kill_rounds):
            stop = threading.Event()
            result = LoadResult()
            hammer = threading.Thread(target=run_load, args=(server.port, submits), kwargs={
                "connections": 16, "total": 1_000_000, "max_seconds": 60, "stop": stop,
                "seed": 40 + n, "timeout": 5, "result": result})
            hammer.start()
            deadline = time.monotonic() + 40
            while len(result.acknowledged) < opts.kill_after_acks and time.monotonic() < deadline:
                time.sleep(0.02)
            memory = server.memory()
            killed_at = time.perf_counter()
            server.kill()  # master and workers, in the middle of writing
            stop.set()
            hammer.join(timeout=30)
            summary = result.summary(until=killed_at)
            counted.append(summary)
            cut = sum(1 for r in result.records if r.start < killed_at < r.end and r.status is None)
            acknowledged |= set(result.acknowledged)
            rounds.append({"round": n + 1, "acknowledged": len(result.acknowledged), "cut_by_kill": cut,
                           "errors_before_kill": summary["errors"], "integrity": sandbox.integrity()})
            server = sandbox.server(4, f"killsubmit-{n + 1}").start()
        # After the last restart: the database takes writes again.
        after_restart = [post_json(server.base, "/api/v1/corrections", {
            "game": catalog.games[0], "faq": catalog.faq[catalog.games[0]][0], "lang": "en", "message": "after the restart"})
            for _ in range(20)]
        stored = sandbox.stored_tokens()
        row.requests = sum(s["requests"] for s in counted)
        row.errors = sum(s["errors"] for s in counted)
        row.unexpected = sum(s["unexpected_status"] for s in counted)
        latencies = [s for s in counted if s["p50_ms"] is not None]
        row.p50_ms = max((s["p50_ms"] for s in latencies), default=None)
        row.p99_ms = max((s["p99_ms"] for s in latencies), default=None)
        row.acknowledged, row.stored = len(acknowledged), len(acknowledged & stored)
        row.rss_after_mib = memory["total_mib"]  # just before the last kill
        row.check("every acknowledged submission is stored", acknowledged <= stored, f"{len(acknowledged - stored)} missing")
        row.check("PRAGMA integrity_check after each kill", all(r["integrity"] == "ok" for r in rounds),
                  json.dumps([r["integrity"] for r in rounds]))
        row.check("no errors before the kill", row.errors == 0 and row.unexpected == 0)
        row.check("enough acknowledged before each kill", all(r["acknowledged"] >= opts.kill_after_acks for r in rounds),
                  json.dumps([r["acknowledged"] for r in rounds]))
        row.check("after the restart submissions are stored again",
                  all(s == 201 for s, _ in after_restart) and {b["token"] for _, b in after_restart} <= sandbox.stored_tokens())
        row.notes.append("requests/errors/latency: submissions that ended before each kill; "
                         f"{sum(r['cut_by_kill'] for r in rounds)} in flight were cut by the kills (never acknowledged)")
        row.details = {"rounds": rounds, "rows_in_database": len(stored), "before_kill": counted}
    finally:
        sandbox.close()
    return [row]


# -- 5. memory under searches of random words ----------------------------------------------

def checkout_commit(path: Path) -> str:
    """The short commit of a checkout, marked ``+changes`` if its tracked files differ from it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=path, capture_output=True, text=True, check=False).stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    return commit + ("+changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def memory_growth(opts: Options) -> list[Row]:
    rows = []
    if opts.baseline is not None:
        rows.append(_memory_growth(opts, opts.baseline, "5-before", "before this change (the baseline checkout)"))
    rows.append(_memory_growth(opts, ROOT, "5", None))
    return rows


def _memory_growth(opts: Options, code: Path, row_id: str, label: str | None) -> Row:
    """RSS of each of 2 workers after a warm-up and after ``memory_searches`` searches of mostly
    new words: whatever the process keeps per word must stay within a bound."""
    name = f"Memory: {opts.memory_searches} searches of random words, 2 workers"
    row = Row(row_id, f"{name}, {label}" if label else name)
    # The baseline is there to be compared with: its figures are reported, its bound is not enforced.
    severity = "warn" if label else "fail"
    sandbox = Sandbox("memory", opts.keep, code=code)
    try:
        sandbox.prepare()
        server = sandbox.server(2, "memory").start()
        catalog = Catalog.from_server(server.base)
        warm_up(server, Mix(catalog, Mix.READS))
        pids_before = server.worker_pids()
        before = server.memory()
        with MemorySampler(server, every=10) as sampler:
            words = RandomWords(catalog)
            load = run_load(server.port, words, connections=opts.memory_connections,
                            total=opts.memory_searches, max_seconds=opts.memory_max_s, seed=5)
        after = server.memory()
        summary = load.summary()
        row.take_load(summary)
        row.rss_before_mib, row.rss_after_mib = before["total_mib"], after["total_mib"]
        growth = {pid: (after["rss_kib"].get(pid, 0) - before["rss_kib"][pid]) / 1024 for pid in pids_before}
        bound_mib = opts.memory_bound_mb * 1e6 / 2**20
        worst = max(growth.values(), default=0.0)
        per_worker = ", ".join(f"{before['rss_kib'][pid] / 1024:.1f} -> {after['rss_kib'].get(pid, 0) / 1024:.1f} MiB"
                               for pid in pids_before)
        row.check("no 5xx or connection errors", summary["errors"] == 0, json.dumps(summary["problems"]))
        row.check("no unexpected status", summary["unexpected_status"] == 0, json.dumps(summary["problems"]))
        row.check("every planned search was sent", summary["requests"] == opts.memory_searches,
                  f"{summary['requests']} of {opts.memory_searches}")
        row.check("no worker died or was replaced", server.worker_pids() == pids_before, f"{pids_before} -> {server.worker_pids()}")
        row.check(f"each worker grew less than {opts.memory_bound_mb:.0f} MB ({bound_mib:.1f} MiB)", worst < bound_mib,
                  f"most: +{worst:.1f} MiB", severity=severity)
        row.check("no traceback or worker timeout in the server log", not server.log_problems(), json.dumps(server.log_problems()))
        row.notes.append(f"{summary['requests']} searches ({summary['by_kind'].get('api_search', {}).get('requests', 0)} API, "
                         f"{summary['by_kind'].get('page_search', {}).get('requests', 0)} search pages) over "
                         f"{summary['duration_s']} s at {opts.memory_connections} connections; 1 to {words.most_words} words "
                         f"a query, {words.made_up_share:.0%} of them made up, the others the content's own")
        row.notes.append(f"RSS per worker after warm-up -> after the searches: {per_worker}; growth "
                         + ", ".join(f"+{g:.1f} MiB" for g in growth.values()))
        commit = checkout_commit(code)
        if label:
            row.notes.append(f"served from {code} (commit {commit}); its bound is reported as a warning, not enforced")
        else:
            row.notes.append(f"served from this checkout (commit {commit})")
        if len(sampler.samples) >= 4:
            half = sampler.samples[len(sampler.samples) // 2]
            row.notes.append(f"RSS (both workers) {before['total_mib']} MiB after warm-up, {half['total_mib']} MiB at "
                             f"{half['t_s']:.0f} s, {after['total_mib']} MiB at the end")
        row.details = {"load": summary, "memory_before": before, "memory_after": after, "growth_mib": list(growth.values()),
                       "bound_mib": round(bound_mib, 1), "memory_samples": sampler.samples, "code": str(code),
                       "commit": commit}
    finally:
        sandbox.close()
    return row


SCENARIOS = {
    "1": mixed_load,
    "2": rebuild_under_load,
    "3": kill_during_rebuild,
    "4": kill_during_submissions,
    "5": memory_growth,
}
# Names for the command line (``python -m stress.run memory``).
NAMES = {"mixed": "1", "rebuild": "2", "kill-build": "3", "kill-submissions": "4", "memory": "5"}


# -- 6. hostile input against a live server -----------------------------------------------------

HOSTILE_NAMES = ("lang", "slug", "faq_id", "section_id", "name", "token", "q", "game", "next", "limit",
                 "_method", "_external", "_anchor", "_scheme")
HOSTILE_VALUES = ("", "POST", "1\u202e\u0000../", "\u00b3")
ODD_HOSTS = (b"a" * 300, b"exa mple.com", b"host:99999", b"[::1", b"..", b"ho;st", b"h\xc3\xb6st\x00")
DEEP = 100_000


def _raw(port: int, request: bytes, timeout: float = 30) -> int:
    """Send ``request`` as it is on a new connection; the answer's status (0: no answer)."""
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        sock.sendall(request)
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    parts = answer.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def hostile_requests(catalog: Catalog) -> list[tuple[str, bytes]]:
    """(what, raw request) for every kind of hostile input the site must answer without a 5xx."""
    game = catalog.games[0]
    faq = catalog.faq[game][0]
    gets = ["/de/", f"/de/{game}/", f"/en/{game}/faq/{faq}", "/it/search", f"/de/{game}/coverage", f"/de/{game}/faq/{faq}/history",
            f"/de/{game}/faq/{faq}/correction", "/api/v1/games", f"/api/v1/games/{game}", f"/api/v1/games/{game}/faq/{faq}",
            "/api/v1/search", "/sitemap.xml", "/robots.txt", "/opensearch.xml", "/editor/login", "/editor/", "/nowhere"]
    gets += [f"/de/{slug}/calculators/{name}" for slug, name in (("ohne-furcht-und-adel", "score"),
             ("kardinal-und-koenig", "monastery-score"), ("adel-verpflichtet", "exhibition"))]
    out = []
    for path in gets:
        for name in HOSTILE_NAMES:
            for value in HOSTILE_VALUES:
                query = urllib.parse.urlencode({name: value, "q": "dieb"} if name != "q" else {name: value})
                out.append((f"GET {path}?{name}", f"GET {path}?{query} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode()))
    for field_name, rest in (("yellow0", "name0=Ada&submit=1"), ("count0", "name0=Ada&submit=1")):
        page = "/de/ohne-furcht-und-adel/calculators/score" if field_name == "yellow0" else "/de/kardinal-und-koenig/calculators/monastery-score"
        for digit in ("\u00b3", "\u0663", "\uff15", "\u2464"):
            query = f"{rest}&{field_name}={urllib.parse.quote(digit)}"
            out.append((f"digits {page}", f"GET {page}?{query} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode()))
    deep = ("[" * DEEP + "]" * DEEP).encode()
    posts = ["/api/v1/corrections", f"/api/v1/games/{game}/score", "/api/v1/games/ohne-furcht-und-adel/score",
             "/api/v1/changes", "/editor/login", f"/de/{game}/faq/{faq}/correction"]
    for path in posts:
        head = (f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(deep)}\r\nConnection: close\r\n\r\n").encode()
        out.append((f"deep JSON {path}", head + deep))
    for host in ODD_HOSTS:
        for path in ("/de/", f"/de/{game}/faq/{faq}", "/api/v1/games", "/sitemap.xml"):
            out.append((f"Host {host[:12]!r} {path}", f"GET {path} HTTP/1.1\r\n".encode() + b"Host: " + host + b"\r\nConnection: close\r\n\r\n"))
    return out


def hostile_input(opts: Options) -> list[Row]:
    row = Row("6", "Hostile input: every page with odd parameters, 100,000-deep JSON, odd Host headers, non-ASCII digits")
    sandbox = Sandbox("hostile", opts.keep)
    try:
        sandbox.prepare()
        server = sandbox.server(2, "hostile").start()
        requests = hostile_requests(Catalog.from_server(server.base))
        statuses: dict[int, int] = {}
        server_errors = []
        started = time.monotonic()
        for what, raw in requests:
            status = _raw(server.port, raw)
            statuses[status] = statuses.get(status, 0) + 1
            if status >= 500 or status == 0:
                server_errors.append(f"{what}: {status}")
        row.requests, row.errors = len(requests), len(server_errors)
        row.check("no answer of 500 or more, none missing", not server_errors, json.dumps(server_errors[:20]))
        row.check("no traceback or worker timeout in the server log", not server.log_problems(), json.dumps(server.log_problems()))
        row.notes.append(f"{len(requests)} requests in {time.monotonic() - started:.1f} s; statuses "
                         + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())))
        row.details = {"statuses": statuses, "server_errors": server_errors}
    finally:
        sandbox.close()
    return [row]


SCENARIOS["6"] = hostile_input
NAMES["hostile"] = "6"
