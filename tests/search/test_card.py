"""The answer card: shown only when the first answer clearly leads, else the close answers side by side."""
from rules_index.search.searcher import CARD_MARGIN, answer_confidence

A, B, C = ("faq", "g", "a"), ("faq", "g", "b"), ("faq", "g", "c")


def test_a_clear_lead_is_the_card():
    assert answer_confidence([(A, 100.0), (B, 100.0 * CARD_MARGIN - 0.1)]) == (A, frozenset())
    assert answer_confidence([(A, 10.0)]) == (A, frozenset())
    assert answer_confidence([]) == (None, frozenset())


def test_close_answers_are_listed_and_none_is_the_card():
    best, close = answer_confidence([(A, 100.0), (B, 99.0), (C, 95.0), (("faq", "g", "d"), 94.0)])
    assert best is None and close == {A, B, C}  # three at most
    best, close = answer_confidence([(A, 100.0), (B, 99.0), (C, 10.0)])
    assert best is None and close == {A, B}


def test_a_lead_under_the_margin_is_no_card():
    assert answer_confidence([(A, 100.0), (B, 100.0 * CARD_MARGIN + 0.1)]) == (None, frozenset({A, B}))


def test_the_same_question_of_another_game_leaves_the_game_open():
    other = ("faq", "other-game", "a")
    best, close = answer_confidence([(A, 100.0), (B, 60.0), (other, 75.0)])
    assert best is None and close == {A, other}


def test_search_shows_the_close_answers_first(index):
    result = index.search("game end", "en", limit=10)
    close = [h for h in result.hits if h.close]
    assert not any(h.best for h in result.hits) and len(close) >= 2
    assert result.hits[:len(close)] == close and {h.entry for h in close} == {"game-end"}
    assert len({h.game for h in close}) == len(close)
