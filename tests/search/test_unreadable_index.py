"""An index generation damaged on disk (a file cut short) opened and then failed every search with
a 500, while `make index` said "index is up to date": the build command now reads the generation
whole and builds it again when it cannot."""
from __future__ import annotations

from pathlib import Path

import pytest

from app import create_app
from rules_index.search.build import current_generation, readable


def test_a_generation_cut_short_on_disk_is_built_again(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance")})
    cli = app.test_cli_runner()
    link = Path(app.config["INDEX_DIR"])
    assert cli.invoke(args=["index", "build"]).exit_code == 0
    assert readable(link)
    assert "up to date" in cli.invoke(args=["index", "build", "--if-stale"]).output
    target, _info = current_generation(link)
    _cut_short(link)
    assert not readable(link)
    result = cli.invoke(args=["index", "build", "--if-stale"])
    assert result.exit_code == 0 and "cannot be read whole" in result.output, result.output
    assert readable(link) and current_generation(link)[0] != target


def _cut_short(link: Path) -> None:
    """A file of the generation cut to a third, as a full disk or a bad copy leaves it."""
    target, _info = current_generation(link)
    largest = max((p for p in Path(target).rglob("*") if p.is_file()), key=lambda p: p.stat().st_size)
    largest.write_bytes(largest.read_bytes()[: largest.stat().st_size // 3])


# Whoosh leaves the files of a reader it failed to make to the collector, which closes them.
@pytest.mark.filterwarnings("ignore::ResourceWarning", "ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_search_the_index_fails_to_read_is_a_503_not_a_500(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance")})
    assert app.test_cli_runner().invoke(args=["index", "build"]).exit_code == 0
    _cut_short(Path(app.config["INDEX_DIR"]))  # before the app opens it
    client = app.test_client()
    api = client.get("/api/v1/search", query_string={"q": "Meuchler Dieb Baumeister", "lang": "de"})
    assert api.status_code == 503 and api.get_json()["error"].startswith("search:") and api.headers["Retry-After"]
    page = client.get("/de/search", query_string={"q": "Meuchler"})
    assert page.status_code == 503 and "Die Suche ist gerade nicht verfügbar" in page.get_data(as_text=True)
    assert client.get("/de/").status_code == 200  # the pages still answer
    health = client.get("/api/v1/health")
    assert health.status_code == 503 and health.get_json()["error"].startswith("search:")


def test_a_fault_of_the_code_in_search_is_not_blamed_on_the_index(tmp_path, monkeypatch):
    """Only an index that cannot be read whole makes "search unavailable": a bug is a 500, logged
    as what it is, and no operator is sent to rebuild a sound index."""
    from rules_index.search import SearchIndex

    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance")})
    client = app.test_client()
    assert client.get("/api/v1/health").get_json()["status"] == "ok"

    def faulty(*args, **kwargs):
        raise KeyError("a fault of the code")

    monkeypatch.setattr(SearchIndex, "search", faulty)
    api = client.get("/api/v1/search", query_string={"q": "Meuchler", "lang": "de"})
    assert api.status_code == 500 and "search" not in api.get_json()["error"]
    monkeypatch.undo()
    assert client.get("/api/v1/search", query_string={"q": "Meuchler", "lang": "de"}).status_code == 200
