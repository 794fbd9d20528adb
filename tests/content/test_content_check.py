"""``flask content check OLD..NEW``: the editors' gate on commits made by hand (a pull request,
a push): a wrong statement fails it, a right edit passes, an edit the engine cannot judge is listed
for the reviewer."""
from __future__ import annotations

import re
import shutil

import pytest

from app import ROOT
from apptools import answer_with_aside, make_app
from rules_index.content.repo import ContentRepo

GAME = "ohne-furcht-und-adel"
BOUND_NUMBER = re.compile(r"\[(\d+)([^\]]*)\]\{fact=")


@pytest.fixture()
def repo(tmp_path):
    """A repository laid out as the project's: the content in content/."""
    import subprocess

    content = tmp_path / "work" / "content"
    shutil.copytree(ROOT / "content", content)
    for args in (["init", "--quiet"], ["add", "content"], ["-c", "user.name=Seed", "-c", "user.email=seed@noreply.invalid", "commit", "-qm", "Content"]):
        subprocess.run(["git", *args], cwd=content.parent, check=True, capture_output=True)
    return ContentRepo(content)


def commit_by_hand(repo: ContentRepo, old: str, new: str, file: str = "faq.yaml") -> tuple[str, str]:
    path = repo.content / GAME / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    before = repo.head()
    repo.git("-c", "user.name=Hand", "-c", "user.email=hand@noreply.invalid", "commit", "-qam", "by hand")
    return before, repo.head()


def check(tmp_path, repo: ContentRepo, revisions: str):
    app = make_app(tmp_path / "instance", repo.content)
    return app.test_cli_runner().invoke(args=["content", "check", revisions])


def test_a_wrong_number_in_a_bound_statement_fails_the_check(tmp_path, repo):
    text = (repo.content / GAME / "faq.yaml").read_text(encoding="utf-8")
    match = BOUND_NUMBER.search(text)
    wrong = str(int(match.group(1)) + 1)
    old, new = commit_by_hand(repo, match.group(0), match.group(0).replace(match.group(1), wrong, 1))
    result = check(tmp_path, repo, f"{old}..{new}")
    assert result.exit_code == 1, result.output
    assert f'"{wrong}" does not state {match.group(1)}' in result.output


def test_a_bound_statement_turned_into_its_opposite_fails_the_check(tmp_path, repo):
    """The same player still named, but losing the crown he keeps: the value stands, the claim is
    turned round (reversals.py)."""
    old, new = commit_by_hand(repo, "[the previous King keeps the crown]", "[the previous King loses the crown]")
    result = check(tmp_path, repo, f"{old}..{new}")
    assert result.exit_code == 1, result.output
    assert "says \"loses\" where the checked text says \"keeps\"" in result.output


def test_an_aside_passes_and_is_listed_for_the_reviewer(tmp_path, repo):
    from apptools import real_library

    entry = real_library().game(GAME).faq_entry("tie-break")
    answer = entry.text("en").answer
    text = (repo.content / GAME / "faq.yaml").read_text(encoding="utf-8")
    last_line = answer.rstrip().splitlines()[-1]
    assert last_line in text and answer_with_aside(GAME, "tie-break", "en", "x")
    old, new = commit_by_hand(repo, last_line, last_line + " [That is all.]{.editorial}")
    result = check(tmp_path, repo, f"{old}..{new}")
    assert result.exit_code == 0, result.output
    assert "review: ohne-furcht-und-adel/tie-break" in result.output and "0 problem(s)" in result.output


def test_a_rules_section_reworded_is_listed_for_the_reviewer(tmp_path, repo):
    # A section binds nothing to the engine: what its words now say is for a person to read.
    old, new = commit_by_hand(repo, "Verboten sind der Meuchler selbst", "Erlaubt sind auch der Meuchler selbst", "rules.de.md")
    result = check(tmp_path, repo, f"{old}..{new}")
    assert result.exit_code == 0, result.output
    assert "review: ohne-furcht-und-adel/characters: body (de)" in result.output
    old, new = commit_by_hand(repo, "Wählt eine von 2 Möglichkeiten", "Wählt eine von zwei Möglichkeiten", "rules.de.md")
    assert "review:" not in check(tmp_path, repo, f"{old}..{new}").output  # the same words


def test_content_that_does_not_load_fails_and_a_bad_range_is_explained(tmp_path, repo):
    old, new = commit_by_hand(repo, "- id: tie-break", "- id: tie break")
    result = check(tmp_path, repo, f"{old}..{new}")
    assert result.exit_code == 1 and "content problem(s)" in result.output
    assert check(tmp_path, repo, "HEAD").exit_code == 2
    assert check(tmp_path, repo, "nosuchcommit..HEAD").exit_code == 1


def test_a_fix_of_content_that_did_not_validate_is_read_as_the_change_it_is(tmp_path, repo):
    """OLD itself fails validation (a commit pushed past the gate): its mend is compared with what
    of OLD loads, not listed as every entry of the game being new."""
    _, broken = commit_by_hand(repo, "[the previous King keeps the crown]", "[the previous King keeps the crown]{fact=nothing-such}")
    _, mended = commit_by_hand(repo, "[the previous King keeps the crown]{fact=nothing-such}", "[the previous King keeps the crown]")
    result = check(tmp_path, repo, f"{broken}..{mended}")
    assert result.exit_code == 0, result.output
    assert "content problem(s) there already" in result.output
    assert "1 changed FAQ entry" in result.output and "a new entry" not in result.output, result.output


def test_the_remotes_pre_receive_hook_refuses_what_the_gate_refuses(tmp_path, repo):
    """The hook of the README, on a bare remote: a push of a wrong number is refused (the remote
    keeps its head), a push of an aside is taken."""
    import os
    import subprocess
    import sys

    remote = tmp_path / "remote.git"
    repo.git("clone", "--quiet", "--bare", str(repo.top), str(remote))
    repo.git("remote", "add", "origin", str(remote))
    branch = repo.branch
    hook = remote / "hooks" / "pre-receive"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    script = readme[readme.index("#!/bin/sh", readme.index("hooks/pre-receive")):]
    script = script[:script.index("```")].replace("refs/heads/main", f"refs/heads/{branch}")
    script = script.replace("/srv/rules-index", str(ROOT)).replace(".venv/bin/flask", f"{sys.executable} -m flask")
    hook.write_text("\n".join(line[2:] if line.startswith("  ") else line for line in script.splitlines()) + "\n")
    hook.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULES_")}
    env["RULES_INSTANCE_PATH"] = str(tmp_path / "hook-instance")

    def push() -> subprocess.CompletedProcess:
        return subprocess.run(["git", "push", "origin", f"HEAD:refs/heads/{branch}"], cwd=repo.top, env=env,
                              capture_output=True, text=True, timeout=300)

    text = (repo.content / GAME / "faq.yaml").read_text(encoding="utf-8")
    match = BOUND_NUMBER.search(text)
    wrong = match.group(0).replace(match.group(1), str(int(match.group(1)) + 1), 1)
    commit_by_hand(repo, match.group(0), wrong)
    refused = push()
    assert refused.returncode != 0 and "does not state" in refused.stderr, refused.stderr[-2000:]
    assert subprocess.run(["git", "rev-parse", branch], cwd=remote, capture_output=True, text=True).stdout.strip() != repo.head()
    commit_by_hand(repo, wrong, match.group(0))  # put right again, then an aside on top
    answer = __import__("apptools").real_library().game(GAME).faq_entry("tie-break").text("en").answer
    last_line = answer.rstrip().splitlines()[-1]
    commit_by_hand(repo, last_line, last_line + " [That is all.]{.editorial}")
    taken = push()
    assert taken.returncode == 0, taken.stderr[-2000:]
