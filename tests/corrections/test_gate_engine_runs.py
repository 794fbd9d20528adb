"""The gate runs an entry's checks through the engine once while its checks and ruling stay the
same (edits of the text only), and again when they change; the kept runs are bounded."""
from __future__ import annotations

from app import ROOT
from rules_index.content import load_library
from rules_index.corrections import gate

GAME, FAQ = "ohne-furcht-und-adel", "tie-break"


def test_a_text_only_edit_reuses_the_engine_run(monkeypatch):
    runs = []
    real = gate.verify_entry

    def counting(game, kind, entry):
        runs.append(entry.id)
        return real(game, kind, entry)

    monkeypatch.setattr(gate, "verify_entry", counting)
    gate._engine_report.cache_clear()
    game = load_library(ROOT / "content").game(GAME)
    entry = game.faq_entry(FAQ)
    first = gate._engine_report(game, entry)
    edited = entry.model_copy(update={"en": entry.en.model_copy(update={"answer": entry.en.answer + " More words."})})
    assert gate._engine_report(game, edited) is first and runs == [FAQ]
    other = game.faq[1] if game.faq[0].id == FAQ else game.faq[0]
    gate._engine_report(game, other)
    assert runs == [FAQ, other.id]
    assert gate._engine_report.cache.maxsize == gate.ENGINE_RUNS_KEPT
