"""Accept on one host, visible on the other: two servers as ``make serve`` runs them, one content remote.

    python -m bench.two_hosts [--changes 8]

A bare repository on this machine holds the real content; each host is a clone of it with its
own instance folder (index) and gunicorn (``gunicorn.conf.py``, 2 workers), and both share one
SQLite database, as hosts share PostgreSQL. Every ``ACCEPT_EVERY_S`` an editor's change of one
answer (new words: held) is sent to host A and confirmed there by a second editor; from the
confirm's answer, host A and then host B are polled (API, every ``POLL_S``) until their answer
shows the new words. ``visible_p50_s``: to A; ``visible_other_host_p50_s``: to B (which follows
the remote every ``FOLLOW_S``). Only 127.0.0.1 is used; both servers are stopped whatever happens.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from .http import free_port, instance_env, stop_group, wait_ready

ROOT = Path(__file__).resolve().parents[1]
GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
POLL_S = 0.05
FOLLOW_S = 1.0  # RULES_CONTENT_FOLLOW_S: how often a host asks the remote for its head
ACCEPT_EVERY_S = 10.0
TIMEOUT_S = 60.0


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


def remote_and_clones(folder: Path, hosts: int = 2) -> tuple[Path, list[Path]]:
    """A bare repository holding the real content (laid out as the project: content/), and one
    clone of it per host."""
    seed = folder / "seed"
    shutil.copytree(ROOT / "content", seed / "content")
    _git("init", "--quiet", "--initial-branch=main", cwd=seed)
    _git("add", "content", cwd=seed)
    _git("-c", "user.name=Seed", "-c", "user.email=seed@noreply.invalid", "commit", "--quiet", "-m", "Content", cwd=seed)
    remote = folder / "remote.git"
    _git("clone", "--quiet", "--bare", str(seed), str(remote), cwd=folder)
    clones = []
    for number in range(hosts):
        _git("clone", "--quiet", str(remote), str(folder / f"host{number}"), cwd=folder)
        clones.append(folder / f"host{number}")
    return remote, clones


def _call(base: str, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def _answer(base: str) -> dict:
    return _call(base, "GET", f"/api/v1/games/{GAME}/faq/{FAQ}?lang=de")[1]


def _visible_after(base: str, word: str, since: float) -> float:
    while word not in _answer(base).get("answer_html", ""):
        if time.monotonic() - since > TIMEOUT_S:
            raise RuntimeError(f"{base} never showed {word}")
        time.sleep(POLL_S)
    return time.monotonic() - since


def measure(changes: int = 8, log=print) -> dict:
    flask = [str(Path(sys.executable).parent / "flask"), "--app", "app"]
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    with tempfile.TemporaryDirectory(prefix="rules-bench-hosts-") as tmp:
        folder = Path(tmp)
        remote, clones = remote_and_clones(folder)
        database = f"sqlite:///{folder / 'shared.sqlite3'}"
        servers, bases, envs = [], [], []
        try:
            for clone in clones:
                instance = folder / f"instance-{clone.name}"
                instance.mkdir()
                port = free_port()
                env = instance_env(instance)
                env.update(RULES_CONTENT_REPO=str(clone), RULES_CONTENT_REMOTE=str(remote), RULES_CONTENT_FOLLOW_S=str(FOLLOW_S),
                           RULES_DATABASE_URL=database, RULES_SECRET_KEY="bench", RULES_BIND=f"127.0.0.1:{port}", RULES_WORKERS="2")
                subprocess.run([*flask, "db", "upgrade"], cwd=ROOT, env=env, check=True, capture_output=True, timeout=300)
                subprocess.run([*flask, "index", "build"], cwd=ROOT, env=env, check=True, capture_output=True, timeout=300)
                envs.append(env)
                bases.append(f"http://127.0.0.1:{port}")
            tokens = []
            for name in ("anna", "bert"):
                subprocess.run([*flask, "editors", "add", name, "--password-stdin"], cwd=ROOT, env=envs[0], check=True,
                               input=f"{name}-bench-password-1234\n", text=True, capture_output=True, timeout=120)
                tokens.append(subprocess.run([*flask, "editors", "token", name], cwd=ROOT, env=envs[0], check=True,
                                             capture_output=True, text=True, timeout=120).stdout.strip().splitlines()[-1])
            for env, base in zip(envs, bases):
                servers.append(subprocess.Popen([gunicorn, "--config", "gunicorn.conf.py"], cwd=ROOT, env=env,
                                                start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                wait_ready(base + "/api/v1/games?lang=de", servers[-1])
            answer = _answer(bases[0])
            original = _markdown(clones[0])
            same, other = [], []
            for number in range(changes):
                started = time.monotonic()
                word = f"Hostwort{number}x{int(time.time() * 1000) % 100000}"
                text = original.rstrip() + f"\n\n[{word}.]{{.editorial}}"
                status, held = _call(bases[0], "POST", "/api/v1/changes",
                                     {"game": GAME, "kind": "faq", "id": FAQ, "base_version": answer["version"],
                                      "text": {"de": {"answer": text}}}, tokens[0])
                if status != 202:
                    raise RuntimeError(f"the change was not held for a second editor: {status} {held}")
                status, done = _call(bases[0], "POST", f"/api/v1/changes/{held['held']}/confirm", token=tokens[1])
                if status != 201:
                    raise RuntimeError(f"the confirm was not accepted: {status} {done}")
                accepted = time.monotonic()
                same.append(_visible_after(bases[0], word, accepted))
                other.append(_visible_after(bases[1], word, accepted))
                # The version the accept wrote: a worker that has not switched yet would give the previous one.
                answer = {"version": done["version"]} if done.get("version") else _answer(bases[0])
                log(f"  change {number + 1}: on A after {same[-1]:.2f} s, on B after {other[-1]:.2f} s")
                time.sleep(max(0.0, ACCEPT_EVERY_S - (time.monotonic() - started)))
        finally:
            for server in servers:
                stop_group(server, grace=30.0)
    return {"changes": changes, "follow_s": FOLLOW_S, "visible_p50_s": statistics.median(same),
            "visible_other_host_p50_s": statistics.median(other), "visible_other_host_max_s": max(other),
            "same_host_s": same, "other_host_s": other}


def _markdown(clone: Path) -> str:
    """The entry's German answer as stored in ``clone``'s content."""
    from rules_index.content import load_library

    return load_library(clone / "content").game(GAME).faq_entry(FAQ).de.answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=8)
    args = parser.parse_args()
    figures = measure(args.changes)
    print(f"visible on the accepting host p50 {figures['visible_p50_s']:.2f} s; "
          f"on the other host p50 {figures['visible_other_host_p50_s']:.2f} s (max {figures['visible_other_host_max_s']:.2f} s)")


if __name__ == "__main__":
    main()
