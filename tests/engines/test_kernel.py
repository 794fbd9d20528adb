"""The engine kernel (rules_index/engines/base.py) over every game's engine: one hypothesis state
machine (legal actions never raise, refused actions change nothing), seeded random games, the
generic probe, and the README's toy game, executed so that it cannot drift from the kernel."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from apptools import real_library
from rules_index.content.yaml12 import load_text
from rules_index.engines import probes_for, state_class
from rules_index.engines.base import GENERIC, ProbeRegistry, Rule, RuleViolation, State
from rules_index.verification import compare

# Every game of the content, found by folder; each must have its engine (found by slug).
GAMES = [game.slug for game in real_library()]
README = Path(__file__).resolve().parents[2] / "rules_index" / "engines" / "README.md"


def machine_for(slug: str) -> type[RuleBasedStateMachine]:
    cls = state_class(slug)

    class EngineMachine(RuleBasedStateMachine):
        """Plays a seeded game with actions hypothesis picks; actions once legal are tried again later,
        when most of them are illegal."""

        def __init__(self) -> None:
            super().__init__()
            self.state: State = cls.new_game(0)
            self.seen: list = []

        @initialize(seed=st.integers(0, 10**6))
        def start(self, seed: int) -> None:
            self.state = cls.new_game(seed)

        @precondition(lambda self: not self.state.is_terminal())
        @rule(data=st.data())
        def legal_action(self, data) -> None:
            actions = self.state.legal_actions()
            assert actions, "a running game offers no action"
            action = data.draw(st.sampled_from(actions))
            self.seen = (self.seen + [action])[-200:]
            assert self.state.attempt(action) is self.state

        @precondition(lambda self: self.seen)
        @rule(data=st.data())
        def earlier_action(self, data) -> None:
            action = data.draw(st.sampled_from(self.seen))
            legal = action in self.state.legal_actions()
            outcome = self.state.attempt(action)  # asserts that a refusal changed nothing
            assert isinstance(outcome, RuleViolation) is not legal
            if not legal:
                assert outcome.rule.name and outcome.rule.citation and outcome.message

    EngineMachine.__name__ = f"Machine_{slug.replace('-', '_')}"
    return EngineMachine


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_has_an_engine(slug):
    assert state_class(slug) is not None and probes_for(slug) is not None, f"rules_index/engines/{slug.replace('-', '_')}/"


@pytest.mark.parametrize("slug", GAMES)
def test_state_machine(slug):
    machine = machine_for(slug)
    machine.TestCase.settings = settings(max_examples=15, stateful_step_count=80, deadline=None)
    machine.TestCase().runTest()


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("seed", [0, 1])
def test_play_random_ends_and_replays(slug, seed):
    cls = state_class(slug)
    game = cls.play_random(seed)
    assert game.is_terminal() and set(game.returns()) == {str(p) for p in game.returns()}
    assert all(isinstance(p, str) for p in game.returns())
    assert cls.play_random(seed).trace() == game.trace()


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_has_the_generic_probe(slug):
    assert probes_for(slug).get(GENERIC) is not None


# ------------------------------------------------------------------ the README's toy game
def readme_game() -> dict:
    code = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S).group(1)
    assert len(code.splitlines()) < 150
    namespace: dict = {}
    exec(compile(code, str(README), "exec"), namespace)
    return namespace


def test_readme_game_plays_and_refuses():
    toy = readme_game()
    CountState, Add = toy["CountState"], toy["Add"]
    game = CountState.play_random(3)
    assert game.is_terminal() and sorted(game.returns().values()) == [0, 1]
    assert CountState.play_random(3).trace() == game.trace()
    state = CountState.from_scenario({"count": 8})
    refusal = state.attempt(Add(4))
    assert isinstance(refusal, RuleViolation) and refusal.rule.name == "Add 1 to 3" and state.count == 8
    assert state.attempt(Add(2)) is state and state.returns() == {"A": 1, "B": 0}
    assert isinstance(state.attempt(Add(1)), RuleViolation)


def test_readme_check_passes_through_the_generic_probe():
    probes: ProbeRegistry = readme_game()["PROBES"]
    text = re.search(r"```yaml\n(.*?)```", README.read_text(encoding="utf-8"), re.S).group(1)
    check = load_text(text)[0]
    assert check["probe"] == GENERIC
    out = probes.run(check["probe"], check["given"])
    assert out == {"legal": [False, True], "rules": ["Add 1 to 3", None], "count": 10, "returns": {"A": 1, "B": 0}}
    assert compare(check["expect"], out) == []


def test_attempt_catches_a_check_that_changes_the_state():
    toy = readme_game()

    class Careless(toy["CountState"]):
        def check(self, action):
            self.count += 1  # a rule check must change nothing
            return RuleViolation(Rule("Never", "nowhere"), "No.")

    with pytest.raises(AssertionError, match="changed the state"):
        Careless().attempt(toy["Add"](1))
