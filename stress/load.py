"""A small load generator: threads, each with its own http.client connection, a weighted mix.

Every run is bounded twice: a total request count and a wall-clock deadline (and a stop event
for the scenarios that end it themselves). Each thread records what it saw; nothing is shared
but a request counter, so the generator adds little contention of its own.

The service runs with the repository's gunicorn.conf.py (stress/server.py): threaded workers,
which keep a connection open 5 s for the next request, so http.client reuses it; where the server
closed it, the next request opens a new one and its latency includes the TCP connect.
"""
from __future__ import annotations

import http.client
import itertools
import json
import random
import threading
import time
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import ClassVar

from rules_index.search.evaluate import load_cases

from .server import HOST, ROOT

LANGS = ("de", "en", "it")


@dataclass
class Catalog:
    """What there is to ask for, read from the running service's own API."""

    games: list[str]
    faq: dict[str, list[str]]
    questions: list[tuple[str, str]]
    eval_queries: list[tuple[str, str]]

    @classmethod
    def from_server(cls, base: str) -> Catalog:
        def get(path: str) -> dict:
            with urllib.request.urlopen(base + path, timeout=30) as response:
                return json.loads(response.read())

        games = [g["slug"] for g in get("/api/v1/games?lang=de")["games"]]
        faq: dict[str, list[str]] = {}
        questions = []
        for slug in games:
            for lang in LANGS:
                body = get(f"/api/v1/games/{slug}?lang={lang}")
                faq[slug] = [f["id"] for f in body["faq"]]
                questions.extend((lang, f["question"]) for f in body["faq"])
        eval_queries = [(c.lang, c.query) for c in load_cases(ROOT / "eval" / "search-queries.yaml")]
        return cls(games, faq, questions, eval_queries)

    def queries(self, rng: random.Random, count: int) -> list[tuple[str, str]]:
        """The relevance set plus questions made from the content's own FAQ titles, some misspelt."""
        out = list(self.eval_queries)
        while len(out) < count:
            lang, title = rng.choice(self.questions)
            words = [w.strip("?.,!¿«»\"'") for w in title.split() if len(w) > 3]
            picked = rng.sample(words, k=min(len(words), rng.randint(1, 4))) if words else [title]
            if rng.random() < 0.2 and picked and len(picked[0]) > 4:
                word = picked[0]
                i = rng.randrange(1, len(word) - 1)
                picked[0] = word[:i] + word[i + 1] + word[i] + word[i + 2:]  # a typo: two letters swapped
            out.append((lang, " ".join(picked)))
        return out


@dataclass(frozen=True)
class Request:
    kind: str
    method: str
    path: str
    body: bytes | None = None
    expect: int = 200


class Mix:
    """A weighted choice of requests; ``submit`` POSTs a correction, ``status`` reads one back."""

    READS: ClassVar[dict[str, int]] = {
        "api_search": 30, "page_search": 8, "page_home": 4, "page_game": 6, "page_faq": 14,
        "api_faq": 20, "api_game": 3,
    }
    WITH_WRITES: ClassVar[dict[str, int]] = {**READS, "submit": 8, "status": 3}

    def __init__(self, catalog: Catalog, weights: dict[str, int], seed: int = 1):
        self.catalog = catalog
        self.kinds = list(weights)
        self.weights = [weights[k] for k in self.kinds]
        self.query_pool = catalog.queries(random.Random(seed), 4000)
        self.pairs = [(slug, faq_id) for slug, ids in catalog.faq.items() for faq_id in ids]

    def next(self, rng: random.Random, tokens: list[str]) -> Request:
        kind = rng.choices(self.kinds, self.weights)[0]
        lang = rng.choice(LANGS)
        slug, faq_id = rng.choice(self.pairs)
        if kind == "api_search":
            qlang, q = rng.choice(self.query_pool)
            params = {"q": q, "lang": rng.choice((qlang, qlang, lang))}
            if rng.random() < 0.15:
                params["game"] = slug
            if rng.random() < 0.15:
                params["limit"] = str(rng.choice((3, 20, 50)))
            return Request(kind, "GET", "/api/v1/search?" + urllib.parse.urlencode(params))
        if kind == "page_search":
            qlang, q = rng.choice(self.query_pool)
            return Request(kind, "GET", f"/{qlang}/search?" + urllib.parse.urlencode({"q": q}))
        if kind == "page_home":
            return Request(kind, "GET", f"/{lang}/")
        if kind == "page_game":
            return Request(kind, "GET", f"/{lang}/{slug}/")
        if kind == "page_faq":
            return Request(kind, "GET", f"/{lang}/{slug}/faq/{faq_id}")
        if kind == "api_faq":
            return Request(kind, "GET", f"/api/v1/games/{slug}/faq/{faq_id}?lang={lang}")
        if kind == "api_game":
            return Request(kind, "GET", f"/api/v1/games/{slug}?lang={lang}")
        if kind == "status" and tokens:
            return Request(kind, "GET", f"/api/v1/corrections/{rng.choice(tokens)}")
        # submit (and status before anything was acknowledged)
        body = json.dumps({
            "game": slug, "faq": faq_id, "lang": lang,
            "message": f"stress test {uuid.UUID(int=rng.getrandbits(128))}: please check the answer",
        }).encode()
        return Request("submit", "POST", "/api/v1/corrections", body, 201)


class RandomWords:
    """Searches of words the service has mostly never seen: made-up letter strings mixed with the
    content's own words (seeded), so that every query brings new terms to analyse and look up."""

    LETTERS = "abcdefghijklmnopqrstuvwxyzäöüßàèéìòù"

    def __init__(self, catalog: Catalog, made_up_share: float = 0.7, page_share: float = 0.2, most_words: int = 4):
        self.words = sorted({w.strip("?.,!¿«»\"'():;").lower() for _, q in catalog.questions for w in q.split()} - {""})
        self.made_up_share = made_up_share
        self.page_share = page_share
        self.most_words = most_words

    def word(self, rng: random.Random) -> str:
        if rng.random() < self.made_up_share:
            return "".join(rng.choice(self.LETTERS) for _ in range(rng.randint(4, 12)))
        return rng.choice(self.words)

    def next(self, rng: random.Random, _tokens: list[str]) -> Request:
        query = " ".join(self.word(rng) for _ in range(rng.randint(1, self.most_words)))
        lang = rng.choice(LANGS)
        if rng.random() < self.page_share:
            return Request("page_search", "GET", f"/{lang}/search?" + urllib.parse.urlencode({"q": query}))
        return Request("api_search", "GET", "/api/v1/search?" + urllib.parse.urlencode({"q": query, "lang": lang}))


def submit_only(catalog: Catalog) -> Mix:
    return Mix(catalog, {"submit": 1})


@dataclass
class Record:
    kind: str
    start: float  # perf_counter at send
    end: float
    status: int | None  # None: connection error or timeout
    error: str | None = None


@dataclass
class LoadResult:
    records: list[Record] = field(default_factory=list)
    acknowledged: list[str] = field(default_factory=list)  # tokens of 201 answers
    started: float = 0.0
    finished: float = 0.0

    def summary(self, until: float | None = None, select=None) -> dict:
        """Counts and latencies; with ``until``, only requests that ended before that moment;
        with ``select``, only the records it returns true for."""
        records = [r for r in self.records if (until is None or r.end <= until) and (select is None or select(r))]
        latencies = sorted((r.end - r.start) * 1000 for r in records if r.status is not None)
        errors = [r for r in records if r.status is None or r.status >= 500]
        expected = {"submit": 201}
        unexpected = [r for r in records if r.status is not None and r.status < 500 and r.status != expected.get(r.kind, 200)]
        by_kind: dict[str, dict] = {}
        for kind in sorted({r.kind for r in records}):
            lat = sorted((r.end - r.start) * 1000 for r in records if r.kind == kind and r.status is not None)
            by_kind[kind] = {
                "requests": sum(1 for r in records if r.kind == kind),
                "errors": sum(1 for r in errors if r.kind == kind),
                "p50_ms": _pct(lat, 0.50), "p99_ms": _pct(lat, 0.99),
            }
        duration = (until or self.finished) - self.started
        samples = {}
        for r in errors + unexpected:
            samples.setdefault(f"{r.kind} {r.status} {r.error or ''}".strip(), 0)
            samples[f"{r.kind} {r.status} {r.error or ''}".strip()] += 1
        return {
            "requests": len(records), "errors": len(errors), "unexpected_status": len(unexpected),
            "p50_ms": _pct(latencies, 0.50), "p99_ms": _pct(latencies, 0.99), "max_ms": round(latencies[-1], 1) if latencies else None,
            "duration_s": round(duration, 1), "rps": round(len(records) / duration, 1) if duration > 0 else None,
            "by_kind": by_kind, "problems": dict(sorted(samples.items(), key=lambda kv: -kv[1])[:10]),
        }


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    return round(values[min(len(values) - 1, round(q * (len(values) - 1)))], 1)


def run_load(
    port: int, mix: Mix, *, connections: int, total: int, max_seconds: float,
    stop: threading.Event | None = None, seed: int = 7, timeout: float = 30.0, result: LoadResult | None = None,
    pause: float = 0.0,
) -> LoadResult:
    """Send up to ``total`` requests over ``connections`` threads; ends early on ``stop`` or the deadline.

    Pass ``result`` to watch ``result.acknowledged`` grow while it runs (from another thread).
    With ``pause``, each thread waits that long on average (exponentially distributed) after
    each answer: readers who read, instead of a load that fills every worker all the time.
    """
    stop = stop or threading.Event()
    counter = itertools.count()
    result = result or LoadResult()
    deadline = time.monotonic() + max_seconds
    per_thread: list[list[Record]] = []

    def worker(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        records: list[Record] = []
        per_thread.append(records)
        conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
        try:
            while not stop.is_set() and time.monotonic() < deadline and next(counter) < total:
                req = mix.next(rng, result.acknowledged)
                headers = {"Accept-Language": "de"}
                if req.body is not None:
                    headers["Content-Type"] = "application/json"
                start = time.perf_counter()
                try:
                    conn.request(req.method, req.path, body=req.body, headers=headers)
                    response = conn.getresponse()
                    data = response.read()
                    end = time.perf_counter()
                    status = response.status
                except (OSError, http.client.HTTPException) as exc:
                    end = time.perf_counter()
                    conn.close()
                    records.append(Record(req.kind, start, end, None, type(exc).__name__))
                    continue
                if req.kind == "submit" and status == 201:
                    try:
                        token = json.loads(data)["token"]
                    except (ValueError, KeyError):
                        records.append(Record(req.kind, start, end, 500, "201 without a token"))
                        continue
                    result.acknowledged.append(token)  # list.append is atomic
                records.append(Record(req.kind, start, end, status))
                if pause:
                    stop.wait(rng.expovariate(1 / pause))
        finally:
            conn.close()

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(connections)]
    result.started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max_seconds + timeout + 10)
    result.finished = time.perf_counter()
    for records in per_thread:
        result.records.extend(records)
    return result
