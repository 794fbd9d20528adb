"""No answer mixes two versions of the content: while another process commits and publishes
changes (writing the next one's files while the readers' process still switches to the last),
every page and every search a reader gets is of one commit, the one its ETag begins with and its
X-Content-Version names."""
from __future__ import annotations

import random
import shutil
import subprocess
import threading
import time
from pathlib import Path

from apptools import change_answer, make_app
from rules_index.web.publishing import publish

ROOT = Path(__file__).resolve().parents[2]
GAME, FAQ = "ohne-furcht-und-adel", "tie-break"
WORDS = ["flumph", "glimmerwick", "quorblax", "zindlebop", "wobbitine", "snarflegust"]
GIT = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid"]


def commit(content: Path, message: str) -> str:
    subprocess.run([*GIT, "-C", str(content), "commit", "-qam", message], check=True)
    return subprocess.run(["git", "-C", str(content), "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()


def test_every_answer_is_of_one_commit_while_changes_are_published(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    subprocess.run(["git", "init", "-q", str(content)], check=True)
    subprocess.run([*GIT, "-C", str(content), "add", "-A"], check=True)
    first = commit(content, "content")
    # Another process publishes (the writer); the readers' process never waits for a switch (the
    # served default): it answers from the snapshot it holds while it makes the next one.
    index = str(tmp_path / "instance" / "index")
    writer = make_app(tmp_path / "instance", content, INDEX_DIR=index)
    app = make_app(tmp_path / "instance", content, INDEX_DIR=index, SWITCH_WAIT_MS=0)
    words_of = {first: 0}  # commit -> how many of WORDS its answer holds
    seen, problems, stop, go = [], [], threading.Event(), threading.Event()

    def read(seed: int) -> None:
        client, rng = app.test_client(), random.Random(seed)
        while not stop.is_set():
            if not go.wait(0.1):
                continue
            page = client.get(f"/en/{GAME}/faq/{FAQ}")
            word = rng.choice(WORDS)
            found = client.get(f"/api/v1/search?q={word}&lang=en")
            for response in (page, found):
                if response.status_code != 200:
                    problems.append((response.status_code, response.request.path))
            version, search_version = page.headers["X-Content-Version"], found.headers["X-Content-Version"]
            html = page.get_data(as_text=True)
            seen.append((version, [w for w in WORDS if w in html], page.headers["ETag"]))
            hit = any(h["id"] == FAQ for h in found.get_json()["hits"] if h["type"] == "faq")
            seen.append((search_version, word, hit))
            stop.wait(0.02)  # readers pause between requests, as people do

    with writer.app_context():
        publish()  # the first generation, named by the first commit
    # The readers' process starts first: its start-up recovery sweeps temp files of cut-off
    # writes under the content lock, which this test's writes do not take.
    assert app.test_client().get(f"/en/{GAME}/faq/{FAQ}").status_code == 200
    readers = [threading.Thread(target=read, args=(n,)) for n in range(3)]
    for reader in readers:
        reader.start()
    go.set()
    change_answer(content, GAME, FAQ, WORDS[0])
    try:
        for number, word in enumerate(WORDS, 1):
            words_of[commit(content, f"change {number}")] = number
            go.clear()
            time.sleep(0.1)  # the requests under way end
            with writer.app_context():
                publish(changed=[(GAME, "faq", FAQ)])
            if number < len(WORDS):  # the next change is written, not yet committed nor published
                change_answer(content, GAME, FAQ, WORDS[number])
            go.set()  # readers notice the published change only now, and switch to it
            time.sleep(0.5)
    finally:
        stop.set()
        for reader in readers:
            reader.join()
    assert problems == []
    pages = [s for s in seen if isinstance(s[1], list)]
    searches = [s for s in seen if not isinstance(s[1], list)]
    assert len({version for version, *_ in pages}) >= 3  # readers saw several versions
    for version, shown, tag in pages:
        assert version in words_of, version
        assert shown == WORDS[:words_of[version]], (version, shown)  # exactly that commit's text
        assert tag.strip('"').startswith(version[:12])
    for version, word, hit in searches:
        assert hit == (WORDS.index(word) < words_of[version]), (version, word, hit)  # that commit's index
