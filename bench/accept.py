"""Accept-to-visible: how long after an accepted change a serving process shows it.

    python -m bench.accept [--changes 20] [--skip-30k] [--cache DIR]
    python -m bench.accept --served-only [--served-rounds 5]
                                             (the served reads alone; prints, writes nothing)

For each change: one FAQ answer (English) gets a new, unique word in a copy of the content
(``plan_faq_change`` + ``materialize``, as the editor's accept writes it), then the service's
``publish(changed=[...])`` runs in this process (a Flask app on that content). A second process,
a warm serving process (a ``Served`` snapshot owner, as a worker holds it), polls every
``POLL_S`` until both its search and its library show the new word; the time from the call of
``publish`` (the accept's files written) to that moment is the change's latency (the time of the
write itself, ``write_p50_s``, is reported apart). p50 over the changes, on the real content and on a
synthetic content of 30,000 FAQ entries (600 games of 50 entries, texts from ``bench.synthetic``;
written once into the cache directory with its first full index, both reused by later runs).

On another host, ``visible_other_host_p50_s``: two servers, each a clone of one content remote,
an accept on one and the time until the other shows it (``bench.two_hosts``).

Reads while changes are published (real content), ``switch_p99_ratio``: gunicorn as ``make
serve`` runs it (``gunicorn.conf.py``: threaded workers, ``SERVED_WORKERS`` of them) on the working copy; wrk sends ``/api/v1/search`` requests over ``SERVED_CONNECTIONS``
connections, each waiting a random pause (exponential, mean ``THINK_MS``) before each request, as
readers do, so that the load (about a third of what the server answers without pauses) does not
depend on how fast it answers; every query is a new one. The p99 of these requests while an
editor's change is accepted through the editors' API every ``ACCEPT_EVERY_S`` (the gate, the write
and the build in a worker, every worker following the switch: as in production), over
their p99 while nothing is, in ``SERVED_ROUNDS`` rounds of both (the switching rounds' mean p99
over the steady rounds'). ``switch_p99_ratio_served_published_apart``: the same with each change
written and published by this process, so that following the switch is the server's only work.

Searches in one process, ``switch_p99_ratio_in_process``: threads of the serving process search
without pause (the result cache cleared before each search) while this process publishes a change
every half second, each a switch to a new generation; their p99 over the p99 of the same searches
while nothing is published (two threads; ``..._one_reader`` with one, ``..._30k`` at 30,000
entries). Threads that never pause keep the process's interpreter busy all the time: any work
beside them, however it is spread, comes out of their time, and how the interpreter lock passes
between them decides much of their tail. It is a measure of that process under saturation, not of
reads served by a server, and is reported beside the served one (each run also gives the mean,
p99.9, the longest search and how many searches each thread made). Writes ``publish`` into
``bench/results.json`` (merged).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from . import two_hosts

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).with_name("results.json")
DEFAULT_CACHE = ROOT / "instance" / "bench-cache"
POLL_S = 0.01
TODAY = dt.date(2026, 12, 1)
REAL_GAME, REAL_FAQ = "ohne-furcht-und-adel", "tie-break"
SYNTH_GAMES, SYNTH_ENTRIES = 600, 50
TIMEOUT_S = 120.0
# A round's p99 varies by about a fifth either way (steady ones as much as those while switching),
# so the ratio of a run of 3 rounds moved by up to a third from one run to the next; the mean over
# 5 rounds of each varies about a quarter less.
SERVED_WORKERS, SERVED_CONNECTIONS, THINK_MS, SERVED_ROUNDS, SERVED_SECONDS = 2, 4, 20, 3, 30.0
# Served reads while changes are accepted: one accept every ACCEPT_EVERY_S, a busy day's rate many
# times over (the real site accepts a few a day).
ACCEPT_EVERY_S = 10.0
TARGETS = {"visible_p50_s": 1.0, "visible_other_host_p50_s": 3.0, "visible_p50_s_30k": 3.0, "switch_p99_ratio": 3.0}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def unique_word(i: int) -> str:
    letters = "bcdfghjklmnpqrstvwxz"
    n, word = i + 1234, ""
    while n:
        n, r = divmod(n, len(letters))
        word += letters[r] + "aeiou"[r % 5]
    return f"zq{word}"


# -- the synthetic 30k content ---------------------------------------------------------------
def _yaml_text(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def plain_sentence(chain, rng: random.Random, lang: str, max_words: int = 40) -> str:
    """A sentence of ``chain`` that states no number, names no page and opens with no yes/no word
    (each would be a claim the entry's ruling and citation must carry)."""
    from rules_index.content.claims import PAGE, verdict_word
    from rules_index.content.numbers import stated_numbers

    while True:
        sentence = chain.sentence(rng, max_words)
        if not stated_numbers(sentence, lang) and verdict_word(sentence, lang) is None and not PAGE.search(sentence):
            return sentence


def plain_answer(chain, rng: random.Random, lang: str) -> str:
    """Two to five plain sentences whose joins name no page either ("… p." then "1 …")."""
    from rules_index.content.claims import PAGE

    while True:
        answer = " ".join(plain_sentence(chain, rng, lang) for _ in range(rng.randint(2, 5)))
        if not PAGE.search(answer):
            return answer


def write_synthetic_content(target: Path, games: int = SYNTH_GAMES, entries: int = SYNTH_ENTRIES, seed: int = 3) -> None:
    """``games`` games of ``entries`` FAQ entries each, after the fixture game's files, with
    editorial answers (no rule checks) walked from the real content's words (``bench.synthetic``)."""
    from rules_index.content import LANGS, load_library

    from .synthetic import Generator

    fixture = ROOT / "tests" / "fixtures" / "content" / "tiny-game"
    generator = Generator(load_library(ROOT / "content"))
    rng = random.Random(seed)
    target.mkdir(parents=True)
    for g in range(games):
        slug = f"synth-{g:04d}"
        folder = target / slug
        shutil.copytree(fixture, folder)
        name = generator.game_name(rng)
        game_yaml = (fixture / "game.yaml").read_text(encoding="utf-8")
        game_yaml = game_yaml.replace("slug: tiny-game", f"slug: {slug}").replace(
            "title: {de: Kleines Spiel, en: Tiny Game, it: Piccolo gioco}", f"title: {{de: {name}, en: {name}, it: {name}}}"
        ).replace("  de: [Tiny Game]\n  en: [Kleines Spiel]\n", "  de: []\n  en: []\n")
        (folder / "game.yaml").write_text(game_yaml, encoding="utf-8")
        (folder / "mistakes.yaml").write_text("[]\n", encoding="utf-8")
        lines = []
        for e in range(entries):
            texts = {lang: (plain_sentence(generator.questions[lang], rng, lang, 24), plain_answer(generator.prose[lang], rng, lang))
                     for lang in LANGS}
            keywords = {lang: rng.sample(generator.keywords[lang], k=min(6, len(generator.keywords[lang]))) for lang in LANGS}
            lines.append(f"- id: entry-{e:03d}")
            lines.append("  editions: [test-2020]")
            lines.append("  section: scoring")
            lines.append("  citation: {source: review, section: {de: Wertung, en: Scoring, it: Punteggio}}")
            lines.append("  basis: editorial")
            lines.append("  keywords:")
            for lang in LANGS:
                lines.append(f"    {lang}: [{', '.join(_yaml_text(k) for k in keywords[lang])}]")
            for lang in LANGS:
                lines.append(f"  {lang}:")
                lines.append(f"    question: {_yaml_text(texts[lang][0])}")
                lines.append(f"    answer: {_yaml_text(texts[lang][1])}")
            lines.append("  ruling: {verdict: none}")
        (folder / "faq.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (target / "faq-catalog.yaml").write_text("{}\n", encoding="utf-8")


def cached_synthetic(cache: Path) -> tuple[Path, Path]:
    """The synthetic content and its index link in ``cache``, written on first use; the index built
    then and again whenever it is stale (of an older schema: every change would rebuild it whole)."""
    from rules_index.search import build, is_stale
    from rules_index.content.snapshot import read_content

    content, link = cache / "content-30k", cache / "index-30k"
    if not (content / "faq-catalog.yaml").exists():
        shutil.rmtree(content, ignore_errors=True)
        log(f"writing the synthetic content into {content} (once)")
        tmp = cache / "content-30k.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        write_synthetic_content(tmp)
        os.replace(tmp, content)
    if not os.path.lexists(link) or is_stale(link, content):
        log("building its index (once per schema; minutes)")
        start = time.perf_counter()
        library, _ = read_content(content)
        build(library, link, content)
        log(f"  full build at 30k: {time.perf_counter() - start:.0f} s")
    return content, link


def working_copy(content: Path, link: Path | None, into: Path) -> tuple[Path, Path]:
    """A copy of ``content`` (and of the generation ``link`` points at, hard-linked: index files
    are never written in place) that the changes may alter."""
    work_content, work_link = into / "content", into / "index"
    shutil.copytree(content, work_content)
    if link is not None:
        generation = Path(os.path.realpath(link))
        gens = into / "index.generations"
        gens.mkdir()
        copy = gens / generation.name
        copy.mkdir()
        for item in generation.iterdir():
            if item.name.startswith(("MAIN_", "_MAIN_")) and not item.name.endswith("WRITELOCK"):
                os.link(item, copy / item.name)
            elif item.is_dir():  # the games a generation made for a change keeps
                shutil.copytree(item, copy / item.name)
            else:
                shutil.copy2(item, copy / item.name)
        # The copy's files hash the same: the generation is current for the copied content.
        os.symlink(os.path.relpath(copy, into), work_link)
    return work_content, work_link


def working_app(tmp: Path, content: Path, link: Path):
    """The accepting process's Flask app on a working copy (its instance folder in ``tmp``)."""
    from app import create_app

    return create_app({"INSTANCE_PATH": str(tmp / "instance"), "CONTENT_DIR": str(content), "INDEX_DIR": str(link),
                       "SECRET_KEY": "bench", "TESTING": True})


# -- the serving process ---------------------------------------------------------------------
def serve(content: Path, link: Path, game: str, faq: str, query_games: list[str]) -> None:
    """A warm serving process (a ``Served`` snapshot owner as a worker holds it),
    driven by lines on stdin:

    - a word: answers ``seen <time>`` once both its search and its library show the word in the
      entry (polling every ``POLL_S``), with the wall-clock time;
    - ``search <seconds> <threads>``: answers ``warm`` once it has searched each query on the
      current generation, then that many threads search without pause for that long (each
      search also looks at the library, as a request does); answers with the JSON list of each
      thread's search durations (s).
    """
    from rules_index.search import IndexLink, SearchIndex
    from rules_index.search.documents import game_documents
    from rules_index.web.state import Served

    from .queries import make_queries

    # As a served worker holds them (SWITCH_WAIT_MS's default: readers never wait for a switch).
    shared = IndexLink(link)
    state = Served(content, shared, SearchIndex(shared), 0)
    index = state.index
    library = state.current().library
    queries = make_queries([d for slug in query_games for d in game_documents(library.game(slug))], 400, seed=5)
    for lang, text in queries:
        index.search(text, lang, gen=state.current().search)
    print("ready", flush=True)
    for line in sys.stdin:
        command = line.split()
        if command[0] == "search":
            for lang, text in queries:  # warm on the current generation (the last change's)
                index.search(text, lang, gen=state.current().search)
            print("warm", flush=True)
            print(json.dumps(search_for(state, index, queries, float(command[1]), int(command[2]))), flush=True)
            continue
        word = command[0]
        deadline = time.time() + TIMEOUT_S
        while time.time() < deadline:
            snapshot = state.current()  # library, checks and search of one generation
            found = any(h.entry == faq for h in index.search(word, "en", gen=snapshot.search).hits)
            if found and word in snapshot.library.game(game).faq_entry(faq).en.answer:
                print(f"seen {time.time()}", flush=True)
                break
            time.sleep(POLL_S)
        else:
            print("timeout", flush=True)


def search_for(state, index, queries: list, seconds: float, threads: int) -> list[list[float]]:
    """Durations of searches by ``threads`` threads without pause for ``seconds``, per thread (the
    result cache cleared before each, so every search is computed)."""
    stop, times = threading.Event(), [[] for _ in range(threads)]

    def run(seed: int) -> None:
        rng, mine = random.Random(seed), times[seed]
        while not stop.is_set():
            lang, text = rng.choice(queries)
            index.results.clear()
            start = time.perf_counter()
            index.search(text, lang, gen=state.current().search)
            mine.append(time.perf_counter() - start)

    workers = [threading.Thread(target=run, args=(n,)) for n in range(threads)]
    for w in workers:
        w.start()
    time.sleep(seconds)
    stop.set()
    for w in workers:
        w.join()
    return times


def distribution(per_thread: list[list[float]]) -> dict:
    """p50, mean, p99, p99.9 and longest (ms) of searches, and each thread's number of them. With
    threads searching without pause, the mean is set by throughput (Little's law: threads /
    searches per second); a p50 far below it means some searches waited long for the others."""
    times = sorted(t for mine in per_thread for t in mine)
    return {"p50_ms": percentile(times, 0.5) * 1000, "mean_ms": statistics.fmean(times) * 1000,
            "p99_ms": percentile(times, 0.99) * 1000, "p999_ms": percentile(times, 0.999) * 1000,
            "max_ms": times[-1] * 1000, "searches": len(times), "per_thread": [len(mine) for mine in per_thread]}


def _answer_with(library, game: str, faq: str, word: str) -> str:
    """The entry's English answer in ``library`` with ``word`` as an editorial aside at its end, in
    place of the previous change's (the ``zq`` words of ``unique_word``)."""
    answer = library.game(game).faq_entry(faq).en.answer.rstrip().rsplit("\n\n[zq", 1)[0]
    return f"{answer}\n\n[{word}.]{{.editorial}}"  # an aside: new words the gate lets through


def _change(content: Path, game: str, faq: str, word: str) -> None:
    """The entry's English answer with ``word`` at its end (the previous change's word replaced),
    written as an accept writes it."""
    from rules_index.content.writer import materialize, plan_faq_change
    from rules_index.web.state import library

    answer = _answer_with(library(), game, faq, word)
    materialize(plan_faq_change(content, game, faq, {"en": {"answer": answer}}, TODAY), content)


def _commit_by_hand(content: Path, faq: str) -> None:
    """Commit what ``_change`` wrote, as an editor working in git would: the served runs mix it
    with accepts, and an accept refuses files that hold edits not committed."""
    from rules_index.content.repo import ContentRepo

    repo = ContentRepo(content)
    repo.ensure()
    repo.git("add", "--all", "--", str(content.absolute()))
    repo.git("commit", "--quiet", "-m", f"{faq}: changed by hand", env={
        "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@localhost",
        "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@localhost"})


def accept_latencies(server, content: Path, game: str, faq: str, changes: int) -> dict:
    """Latency (s) from each change's write until the serving process shows it."""
    from rules_index.web.publishing import publish

    latencies, publish_s, write_s = [], [], []
    for i in range(changes):
        word = unique_word(i)
        server.stdin.write(word + "\n")
        server.stdin.flush()
        time.sleep(0.3)  # the server is polling the old state
        written = time.time()
        _change(content, game, faq, word)
        start = time.time()
        publish(changed=[(game, "faq", faq)])
        publish_s.append(time.time() - start)
        write_s.append(start - written)
        reply = server.stdout.readline().split()
        if not reply or reply[0] != "seen":
            raise RuntimeError(f"change {i} not seen: {reply}")
        latencies.append(float(reply[1]) - start)
    return {"p50_s": statistics.median(latencies), "max_s": max(latencies), "publish_p50_s": statistics.median(publish_s),
            "write_p50_s": statistics.median(write_s), "changes": changes}


def switch_ratio(server, content: Path, game: str, faq: str, threads: int, seconds: float = 10.0) -> dict:
    """p99 of the serving process's searches (``threads`` threads) while this process publishes a
    change every half second (each a switch to a new generation), over their p99 while nothing
    is published; with both runs' distributions."""
    from rules_index.web.publishing import publish

    def searches(publishing: bool) -> dict:
        server.stdin.write(f"search {seconds} {threads}\n")
        server.stdin.flush()
        if server.stdout.readline().strip() != "warm":
            raise RuntimeError("the serving process did not answer")
        end, i = time.time() + seconds, 0
        while publishing and time.time() < end - 0.5:
            _change(content, game, faq, unique_word(500 + i))
            publish(changed=[(game, "faq", faq)])
            i += 1
            time.sleep(0.5)
        return distribution(json.loads(server.stdout.readline()))

    steady, switching = searches(False), searches(True)
    return {"threads": threads, "ratio": switching["p99_ms"] / steady["p99_ms"], "steady": steady, "switching": switching}


def measure(content: Path, link: Path | None, game: str, faq: str, changes: int, query_games: tuple[str, ...],
            one_reader: bool = False, served: bool = False) -> dict:
    """Both measures on a working copy of ``content`` (and of its index, if given): this process
    accepts and publishes, another one serves; ``one_reader``: the switches once more with one
    searching thread; ``served``: and with gunicorn serving search requests."""
    from rules_index.web.publishing import publish
    from rules_index.web.state import library

    with tempfile.TemporaryDirectory(prefix="bench-accept-") as tmp:
        work_content, work_link = working_copy(content, link, Path(tmp))
        with working_app(Path(tmp), work_content, work_link).app_context():
            library()  # the accepting process is warm too
            if link is None:
                publish()
            server = subprocess.Popen(
                [sys.executable, "-m", "bench.accept", "serve", str(work_content), str(work_link), game, faq, *query_games],
                cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            try:
                if server.stdout.readline().strip() != "ready":
                    raise RuntimeError("the serving process did not start")
                log("  accept-to-visible")
                figures = {"accept": accept_latencies(server, work_content, game, faq, changes)}
                log(f"    {figures['accept']}")
                log("  searches while switching")
                figures["switch"] = switch_ratio(server, work_content, game, faq, threads=2)
                log(f"    {figures['switch']}")
                if one_reader:
                    log("  searches while switching, one thread")
                    figures["switch_one_reader"] = switch_ratio(server, work_content, game, faq, threads=1)
                    log(f"    {figures['switch_one_reader']}")
            finally:
                server.stdin.close()
                server.wait(timeout=60)
            if served:
                log("  served searches while switching (gunicorn, paced wrk)")
                figures["switch_served"] = served_switch_ratio(work_content, work_link, Path(tmp) / "instance", game, faq, query_games)
                log(f"    {figures['switch_served']}")
    return figures


# -- served reads ----------------------------------------------------------------------------
def served_only(rounds: int = SERVED_ROUNDS) -> dict:
    """``served_switch_ratio`` on a working copy of the real content, alone (``rounds`` rounds of
    each way: single runs vary by a third, more rounds narrow that)."""
    from rules_index.web.publishing import publish

    with tempfile.TemporaryDirectory(prefix="bench-accept-") as tmp:
        work_content, work_link = working_copy(ROOT / "content", None, Path(tmp))
        with working_app(Path(tmp), work_content, work_link).app_context():
            publish()
            return served_switch_ratio(work_content, work_link, Path(tmp) / "instance", REAL_GAME, REAL_FAQ,
                                       (REAL_GAME, "adel-verpflichtet"), rounds)


def _start_wrk(wrk: str, base: str, paths_file: Path, seconds: float) -> subprocess.Popen:
    """wrk sending ``paths_file``'s requests from paced connections (``cycle.lua``), running."""
    return subprocess.Popen(
        [wrk, "-t1", f"-c{SERVED_CONNECTIONS}", f"-d{seconds:g}s", "--timeout", "10s", "-s", str(ROOT / "bench" / "wrk" / "cycle.lua"),
         base, "--", str(paths_file), "1", str(THINK_MS)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _read_percentiles(run: subprocess.Popen) -> dict:
    """The ``percentiles`` line of ``cycle.lua`` (microseconds) as milliseconds, and the number of
    requests; failed or non-2xx requests are an error (the figures would not be of searches)."""
    out, err = run.communicate(timeout=120)
    line = next((l.split() for l in out.splitlines() if l.startswith("percentiles ")), None)
    if run.returncode != 0 or line is None or "Non-2xx" in out or "Socket errors" in out:
        raise RuntimeError(f"wrk failed:\n{out}\n{err}")
    p50, p99, p999, longest, requests = map(int, line[1:])
    return {"p50_ms": p50 / 1000, "p99_ms": p99 / 1000, "p999_ms": p999 / 1000, "max_ms": longest / 1000, "requests": requests}


def _post(base: str, path: str, token: str, body: dict | None = None) -> tuple[int, dict]:
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status, json.loads(response.read() or b"{}")


def _accept(base: str, tokens: tuple[str, str], game: str, faq: str, answer: str) -> None:
    """An editor's change of the entry's English answer through the editors' API, confirmed by a
    second editor (its new words are held for one): the gate and the write and the build in a
    worker of the server."""
    import urllib.request

    with urllib.request.urlopen(f"{base}/api/v1/games/{game}/faq/{faq}", timeout=60) as response:
        version = json.loads(response.read())["version"]
    status, held = _post(base, "/api/v1/changes", tokens[0], {"game": game, "kind": "faq", "id": faq, "base_version": version,
                                                              "text": {"en": {"answer": answer}}})
    if status == 202:
        status, held = _post(base, f"/api/v1/changes/{held['held']}/confirm", tokens[1])
    if status != 201:
        raise RuntimeError(f"the change was not accepted: {status} {held}")


def served_switch_ratio(content: Path, link: Path, instance: Path, game: str, faq: str, query_games: tuple[str, ...],
                        rounds: int = SERVED_ROUNDS) -> dict:
    """p99 of search requests to gunicorn (``gunicorn.conf.py``) from paced connections while a
    change is published every ``ACCEPT_EVERY_S``, over their p99 while nothing is (``rounds``
    rounds of each, every request a query not asked before); the changes published two ways:
    ``"accepted"``, an editor's change accepted through the server's API (the gate and the write
    and the build in one of the workers, as in production); ``"published_apart"``,
    written and published by this process, so that only following the switch is the workers'
    work."""
    from rules_index.search.documents import game_documents
    from rules_index.web.publishing import publish
    from rules_index.web.state import library as served_library

    from .http import ensure_wrk, free_port, instance_env, search_paths, stop_group, wait_ready
    from .queries import make_queries

    wrk = ensure_wrk()
    library = served_library()
    modes = ("accepted", "published_apart")
    count = 1 + 2 * rounds * len(modes)
    per_window = int(SERVED_SECONDS * 1000 / THINK_MS * SERVED_CONNECTIONS * 1.2)
    queries = make_queries([d for slug in query_games for d in game_documents(library.game(slug))], per_window * count, seed=13)
    if len(queries) < per_window * count:
        raise RuntimeError("not enough distinct queries for the served runs")
    port = free_port()
    env = instance_env(instance)
    env.update(RULES_CONTENT_DIR=str(content), RULES_INDEX_DIR=str(link), RULES_SECRET_KEY="bench",
               RULES_BIND=f"127.0.0.1:{port}", RULES_WORKERS=str(SERVED_WORKERS))
    bin_dir = Path(sys.executable).parent
    flask = [str(bin_dir / "flask"), "--app", "app"]
    subprocess.run([*flask, "db", "upgrade"], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    tokens = []
    for name in ("bench", "bench-second"):  # new words are confirmed by a second editor
        subprocess.run([*flask, "editors", "add", name, "--password-stdin"], cwd=ROOT, env=env, check=True, input="bench-password-1234\n",
                       text=True, stdout=subprocess.DEVNULL, timeout=120)
        tokens.append(subprocess.run([*flask, "editors", "token", name], cwd=ROOT, env=env, check=True, capture_output=True, text=True,
                                     timeout=120).stdout.strip().splitlines()[-1])
    server = subprocess.Popen([str(bin_dir / "gunicorn"), "--config", "gunicorn.conf.py"], cwd=ROOT, env=env,
                              start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    windows = iter(range(count))
    by_mode: dict[str, list] = {mode: [] for mode in modes}

    def change(mode: str, word: str) -> None:
        if mode == "accepted":  # the answer as served at the start: no parse here beside the server's work
            _accept(base, tuple(tokens), game, faq, _answer_with(library, game, faq, word))
        else:
            _change(content, game, faq, word)
            _commit_by_hand(content, faq)
            publish(changed=[(game, "faq", faq)])

    def run(mode: str | None, seconds: float = SERVED_SECONDS) -> dict:
        window = next(windows)
        listing = instance / f"served-{window}.paths"
        listing.write_text("\n".join(search_paths(queries[window * per_window:(window + 1) * per_window])) + "\n", encoding="utf-8")
        wrk_run, end, took = _start_wrk(wrk, base, listing, seconds), time.time() + seconds, []
        while mode is not None and time.time() < end - 0.5:
            started = time.time()
            change(mode, unique_word(2000 + 100 * window + len(took)))
            took.append(time.time() - started)
            time.sleep(max(0.0, min(ACCEPT_EVERY_S - took[-1], end - 0.5 - time.time())))
        return {**_read_percentiles(wrk_run), "changes": len(took), "change_p50_s": statistics.median(took) if took else None}

    try:
        wait_ready(base + "/api/v1/games?lang=en", server)
        run(None, 5.0)  # warm-up
        for _ in range(rounds):
            for mode in modes:
                by_mode[mode].append({"steady": run(None), "switching": run(mode)})
    finally:
        stop_group(server, grace=30.0)
    figures: dict = {"server": f"gunicorn.conf.py, {SERVED_WORKERS} workers",
                     "client": f"wrk, {SERVED_CONNECTIONS} connections, pause {THINK_MS} ms mean before each request, {SERVED_SECONDS:g} s a run"}
    for mode, runs in by_mode.items():
        steady = statistics.fmean(r["steady"]["p99_ms"] for r in runs)
        switching = statistics.fmean(r["switching"]["p99_ms"] for r in runs)
        figures[mode] = {"ratio": switching / steady, "steady_p99_ms": steady, "switching_p99_ms": switching, "rounds": runs}
    return figures


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:
        serve(Path(argv[1]), Path(argv[2]), argv[3], argv[4], argv[5:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--skip-30k", action="store_true")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--served-only", action="store_true")
    parser.add_argument("--served-rounds", type=int, default=SERVED_ROUNDS, help="with --served-only: rounds of each way")
    args = parser.parse_args(argv)
    if args.served_only:
        if args.served_rounds < 1:
            parser.error("--served-rounds must be at least 1")
        print(json.dumps(served_only(args.served_rounds), indent=2))
        return
    figures: dict = {}
    log("real content")
    real = measure(ROOT / "content", None, REAL_GAME, REAL_FAQ, args.changes, (REAL_GAME, "adel-verpflichtet"),
                   one_reader=True, served=True)
    figures.update(visible_p50_s=real["accept"]["p50_s"], switch_p99_ratio=real["switch_served"]["accepted"]["ratio"],
                   switch_p99_ratio_served_published_apart=real["switch_served"]["published_apart"]["ratio"],
                   switch_p99_ratio_in_process=real["switch"]["ratio"],
                   switch_p99_ratio_in_process_one_reader=real["switch_one_reader"]["ratio"], real=real)
    log("two hosts")
    hosts = two_hosts.measure(max(4, args.changes // 2), log=log)
    figures.update(visible_other_host_p50_s=hosts["visible_other_host_p50_s"], two_hosts=hosts)
    if not args.skip_30k:
        args.cache.mkdir(parents=True, exist_ok=True)
        content, link = cached_synthetic(args.cache)
        log("30k entries")
        big = measure(content, link, "synth-0000", "entry-000", args.changes, ("synth-0000", "synth-0001", "synth-0002"))
        figures.update(visible_p50_s_30k=big["accept"]["p50_s"], switch_p99_ratio_in_process_30k=big["switch"]["ratio"],
                       entries_30k=big)
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results["publish"] = figures
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    for key, bound in TARGETS.items():
        if key in figures:
            verdict = "ok" if figures[key] <= bound else "MISSED"
            print(f"{key:<22} {figures[key]:8.3f}   target <= {bound}   {verdict}")


if __name__ == "__main__":
    main()
