"""Broken content never reaches readers: the service keeps the last good content and index."""
from __future__ import annotations

import os
import shutil

from app import ROOT
from apptools import make_app
from rules_index.search.build import switch_link
from rules_index.web.state import served

GAME = "ohne-furcht-und-adel"


def test_broken_content_does_not_replace_the_served_content(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    app = make_app(tmp_path / "instance", content)
    client = app.test_client()
    with app.app_context():
        link = served().index.link
    assert client.get(f"/de/{GAME}/faq/tie-break").status_code == 200
    generation = os.path.realpath(link)

    # A file breaks on disk (a bad edit by hand) ...
    faq = content / GAME / "faq.yaml"
    faq.write_text(faq.read_text(encoding="utf-8").replace("- id: tie-break", "- id: [tie-break", 1), encoding="utf-8")
    # ... the index build keeps the last good build and says so, without failing (make serve must
    # still start), and the link stays where it was ...
    result = app.test_cli_runner().invoke(args=["index", "build"])
    assert result.exit_code == 0 and "keeps its last good build" in result.output
    assert os.path.realpath(link) == generation
    # ... and even when the index generation switches, readers keep the last good content.
    copy = tmp_path / "instance" / "index.generations" / "copy"
    shutil.copytree(generation, copy)
    switch_link(link, copy)
    assert client.get(f"/de/{GAME}/faq/tie-break").status_code == 200
    assert client.get(f"/api/v1/games/{GAME}/faq/tie-break").get_json()["id"] == "tie-break"
    assert client.get("/api/v1/search?q=Gleichstand&lang=de").status_code == 200


def test_a_first_start_on_a_file_that_does_not_parse_serves_the_rest(tmp_path):
    """Broken content committed, no index kept (the instance folder lost): the first snapshot read
    the content again with the strict loader and every page answered 500; then a game page whose
    common mistakes link to entries that did not load."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    faq = content / GAME / "faq.yaml"
    faq.write_text(faq.read_text(encoding="utf-8").replace("- id: tie-break", "- id: tie-break: [", 1), encoding="utf-8")
    client = make_app(tmp_path / "instance", content).test_client()
    for lang in ("de", "en", "it"):
        assert client.get(f"/{lang}/").status_code == 200
        assert client.get(f"/{lang}/{GAME}/").status_code == 200
        assert client.get(f"/{lang}/kardinal-und-koenig/faq/council-limit").status_code == 200
    assert client.get("/api/v1/search?q=Kloster&lang=de").status_code == 200


def test_validate_names_the_broken_file_and_line(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (content / GAME / "mistakes.yaml").write_text("- id: x\n  faq: [unclosed\n", encoding="utf-8")
    app = make_app(tmp_path / "instance", content)
    result = app.test_cli_runner().invoke(args=["content", "validate"])
    assert result.exit_code == 1
    assert f"content/{GAME}/mistakes.yaml:2: YAML syntax error" in result.output or f"content/{GAME}/mistakes.yaml:3: YAML syntax error" in result.output
