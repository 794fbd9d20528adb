"""Two hosts, one content remote: each a clone of the content with its own index and gunicorn (as
``make serve`` runs it), sharing the database and a bare repository on loopback.

- an accept on one host is seen on the other (page, API, search) within seconds;
- accepts from four editors across both hosts, several on the same entries: every 201 is one
  commit on the remote with its database row, every 409 a real conflict, no update lost.
"""
from __future__ import annotations

import json
import random
import statistics
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest

from apptools import answer_with_aside, make_app, seed_index
from rules_index.corrections.db import session
from rules_index.corrections.editors import add_editor
from rules_index.corrections.models import Change
from rules_index.corrections.tokens import issue_token
from bench.two_hosts import remote_and_clones
from servertools import server_env, serving

pytestmark = pytest.mark.slow

GAME = "ohne-furcht-und-adel"
ENTRIES = ["tie-break", "thief-forbidden-targets", "assassinated-king-crown"]
EDITORS = ["anna", "bert", "chiara", "dmitri"]


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def request(server, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    status, _, data = server.request(method, path, json.dumps(body).encode() if body is not None else None, headers, timeout=120)
    return status, json.loads(data or b"{}")


def entry(server, faq: str) -> dict:
    return request(server, "GET", f"/api/v1/games/{GAME}/faq/{faq}?lang=de")[1]


def shows(server, faq: str, word: str) -> bool:
    """The server's API, search and page all show ``word`` (each may come from another worker)."""
    if word not in entry(server, faq)["answer_html"]:
        return False
    if faq not in [hit["id"] for hit in request(server, "GET", f"/api/v1/search?q={word}&lang=de")[1]["hits"]]:
        return False
    status, _, page = server.request("GET", f"/de/{GAME}/faq/{faq}")
    return status == 200 and word in page.decode()


def accept(host, confirmer, token: str, second: str, faq: str, words: str, base: str) -> tuple[int, dict]:
    """Submit a change on ``host`` (held: an editorial sentence) and confirm it on ``confirmer``."""
    body = {"game": GAME, "kind": "faq", "id": faq, "base_version": base,
            "text": {"de": {"answer": answer_with_aside(GAME, faq, "de", words)}}}
    status, answer = request(host, "POST", "/api/v1/changes", body, token)
    if status != 202:
        return status, answer
    return request(confirmer, "POST", f"/api/v1/changes/{answer['held']}/confirm", token=second)


@pytest.fixture()
def hosts(tmp_path):
    remote, clones = remote_and_clones(tmp_path, 2)
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    # The database, editors and tokens, made once through an app on the first clone.
    setup = make_app(tmp_path / "setup", clones[0] / "content", DATABASE_URL=url)
    tokens = {}
    with setup.app_context():
        for name in EDITORS:
            add_editor(session(), name, f"{name}-long-editor-password")
            tokens[name] = issue_token(session(), name)
    servers = []
    try:
        for number, clone in enumerate(clones):
            instance = tmp_path / f"instance{number}"
            instance.mkdir()
            seed_index(instance, clone / "content")  # each host has its own index, from the same bytes
            env = server_env(instance, url, CONTENT_REPO=str(clone), CONTENT_REMOTE=str(remote),
                             CONTENT_FOLLOW_S="0.5", WORKERS="2", THREADS="4")
            context = serving(env, tmp_path, migrate=number == 0)
            servers.append((context, context.__enter__()))
        yield remote, [server for _, server in servers], tokens, setup
    finally:
        for context, _ in reversed(servers):
            context.__exit__(None, None, None)


def test_an_accept_on_one_host_is_seen_on_the_other_within_seconds(hosts):
    remote, (a, b), tokens, _ = hosts
    delays = []
    for round_number in range(6):
        host, other = (a, b) if round_number % 2 == 0 else (b, a)
        faq = ENTRIES[round_number % len(ENTRIES)]
        word = f"Sichtwort{uuid.uuid4().hex[:6]}"
        status, answer = accept(host, host, tokens["anna"], tokens["bert"], faq, f"{word}.", entry(host, faq)["version"])
        assert status == 201, answer
        done = time.monotonic()
        while not shows(other, faq, word):
            assert time.monotonic() - done < 30, "the other host never showed the change"
            time.sleep(0.05)
        delays.append(time.monotonic() - done)
    print(f"seen on the other host after {statistics.median(delays):.2f} s (median), {max(delays):.2f} s at most")
    assert statistics.median(delays) <= 3
    # Every accept is one commit on the remote, authored by the editor.
    authors = git("log", "--format=%ae", "main", cwd=remote).split()
    assert len([a for a in authors if a.startswith("editor-")]) == 6


def test_accepts_across_hosts_lose_nothing_and_conflicts_are_real(hosts):
    remote, servers, tokens, setup = hosts
    seed = random.SystemRandom().randrange(10**6)
    print(f"seed {seed}")
    results = []
    lock = threading.Lock()

    def editor(name: str, rng: random.Random) -> None:
        for number in range(13 if name in EDITORS[:2] else 12):
            faq = rng.choice(ENTRIES)
            host, confirmer = rng.choice(servers), rng.choice(servers)
            second = tokens[EDITORS[(EDITORS.index(name) + 1) % len(EDITORS)]]
            words = f"Wort{name}{number}x{uuid.uuid4().hex[:4]}"
            base = None
            try:
                status, answer = request(host, "GET", f"/api/v1/games/{GAME}/faq/{faq}?lang=de")
                if status == 200:
                    base = answer["version"]
                    status, answer = accept(host, confirmer, tokens[name], second, faq, f"{words}.", base)
            except Exception as exc:  # reported with the others: the test names what failed
                status, answer = 0, {"error": repr(exc)}
            with lock:
                results.append((name, faq, words, base, status, answer))

    threads = [threading.Thread(target=editor, args=(name, random.Random(seed + i))) for i, name in enumerate(EDITORS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 50
    statuses = [status for *_, status, _ in results]
    assert set(statuses) <= {201, 409}, [r for r in results if r[4] not in (201, 409)]
    accepted = [r for r in results if r[4] == 201]
    assert accepted, "no accept went through"
    # A 409 is a real conflict: the entry had another version than the one the change was made on.
    for *_, base, status, answer in results:
        if status == 409:
            assert answer["version"] and answer["version"] != base
    # Every 201 is exactly one commit on the remote, and one row, with the same key.
    keys = [line.split(": ", 1)[1] for line in git("log", "--format=%(trailers:key=Change-Key,unfold)", "main", cwd=remote).splitlines() if line]
    assert len(keys) == len(set(keys)) == len(accepted)
    with setup.app_context():
        rows = {c.key: c for c in session().query(Change)}
    assert set(rows) == set(keys)
    # Nothing lost: each entry holds the words of the newest accept committed for it, on the
    # remote and, once they followed it, on both hosts.
    newest = {}
    for record in git("log", "--format=%x1e%(trailers:only,unfold)", "main", cwd=remote).split("\x1e")[1:]:
        trailers = dict(line.split(": ", 1) for line in record.strip().splitlines())
        if "Change-Target" in trailers:  # not the seed's commit
            newest.setdefault(trailers["Change-Target"], trailers["Change-Key"])
    faq_yaml = git("show", f"main:content/{GAME}/faq.yaml", cwd=remote)
    for faq in {r[1] for r in accepted}:
        newest_yaml = git("show", f"{rows[newest[f'faq {GAME}/{faq}']].commit}:content/{GAME}/faq.yaml", cwd=remote)
        words = [r[2] for r in accepted if r[1] == faq and r[2] in newest_yaml]
        assert len(words) == 1 and words[0] in faq_yaml
        for server in servers:
            deadline = time.monotonic() + 30
            while words[0] not in entry(server, faq)["answer_html"]:
                assert time.monotonic() < deadline, f"a host never showed the newest text of {faq}"
                time.sleep(0.1)
    # … and each host ends serving the remote's head: the version its answers are of.
    head = git("rev-parse", "main", cwd=remote).strip()
    for server in servers:
        deadline = time.monotonic() + 30
        while server.request("GET", f"/api/v1/games/{GAME}/faq/{ENTRIES[0]}?lang=de")[1].get("X-Content-Version") != head:
            assert time.monotonic() < deadline, "a host never served the remote's head"
            time.sleep(0.1)
    print(f"{len(accepted)} accepted, {statuses.count(409)} conflicts, of {len(results)}")
