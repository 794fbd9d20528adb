"""Templates compiled by one app are loaded, not compiled again, by the next app started on the
same template cache folder (a worker starting after another)."""
from __future__ import annotations

from pathlib import Path

from apptools import make_app

ROOT = Path(__file__).resolve().parents[2]
PAGE = "/en/ohne-furcht-und-adel/faq/tie-break"


def compiled_while_rendering(app) -> list[str]:
    names: list[str] = []
    compile_source = app.jinja_env.compile

    def counting(source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return compile_source(source, name, filename, raw, defer_init)

    app.jinja_env.compile = counting
    assert app.test_client().get(PAGE).status_code == 200
    return names


def test_a_second_app_on_the_same_folder_compiles_nothing(tmp_path):
    folder = tmp_path / "compiled"
    first = make_app(tmp_path / "one", ROOT / "content", TEMPLATE_CACHE_DIR=str(folder))
    assert "faq.html" in compiled_while_rendering(first)
    assert any(folder.iterdir())
    second = make_app(tmp_path / "two", ROOT / "content", TEMPLATE_CACHE_DIR=str(folder))
    assert compiled_while_rendering(second) == []


def test_by_default_the_instance_folder_keeps_them(tmp_path):
    app = make_app(tmp_path / "instance", ROOT / "content", TEMPLATE_CACHE_DIR=None)
    compiled_while_rendering(app)
    assert any((tmp_path / "instance" / "compiled-templates").iterdir())
