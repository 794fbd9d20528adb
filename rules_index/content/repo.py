"""The content repository: the git repository the content folder lives in, through the git CLI.

An accepted change is one commit (``commit``): its objects are written and the branch is moved to
it with a compare-and-swap (``git update-ref NEW OLD``), without touching the work tree or the
user's index; the content files are written afterwards (``write_files``). The branch move is the
moment a change exists: before it nothing is left behind but unreferenced objects, after it the
commit says everything about the change (its trailers name it), so a process that dies later is
finished from the commit (``corrections.journal``).

With a remote (``RULES_CONTENT_REMOTE``) the push is that moment instead: a commit is made on the
remote's head and pushed (``push``); the local branch follows the remote (``follow``).

By default the repository is the one the content folder is in; a content folder in no repository
gets one of its own at first use (``ensure``), so a copy of the content never commits into the
checkout it was copied from. The git CLI rather than a library: every host has it, and it reads
the same repository, hooks and remote configuration as the people who edit the content by hand.
"""
from __future__ import annotations

import io
import logging
import os
import subprocess
import tarfile
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

SERVICE = ("Rules service", "service@noreply.invalid")
NOREPLY_DOMAIN = "noreply.invalid"


class GitError(Exception):
    """A git command failed (its message is git's)."""


class UncommittedEdits(GitError):
    """Content files an accept would change hold edits not committed (made by hand in the work
    tree): the accept would sweep them into an editor's commit, so it is refused."""

    def __init__(self, paths: list[str]):
        self.paths = paths
        super().__init__(f"content: {', '.join(paths)} holds edits not committed to the content repository; "
                         "commit or discard them, then accept again (nothing was changed)")


class PushRejected(GitError):
    """The remote's branch moved on: the commit was not made on its head."""


@dataclass(frozen=True)
class Author:
    name: str
    email: str


def editor_author(editor_id: int, display_name: str | None) -> Author:
    """The author of an editor's commit: the name the public history shows (their display name,
    else "Editorial team") and a no-reply address by their number: never the login name."""
    return Author(display_name or "Editorial team", f"editor-{editor_id}@{NOREPLY_DOMAIN}")


@dataclass(frozen=True)
class Commit:
    id: str
    trailers: dict[str, str]
    paths: tuple[str, ...]  # the content files it changed, relative to the content folder


def _git(args: list[str], cwd: Path, env: dict | None = None, input: str | None = None,
         text: bool = True) -> subprocess.CompletedProcess:
    """One git command, never prompting, in the C locale (messages are matched in English)."""
    full_env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", **(env or {})}
    return subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=cwd, env=full_env, input=input,
                          capture_output=True, text=text, **({"encoding": "utf-8"} if text else {}))


def _run(args: list[str], cwd: Path, env: dict | None = None, input: str | None = None, check: bool = True) -> str:
    done = _git(args, cwd, env, input)
    if check and done.returncode != 0:
        raise GitError(f"git {args[0]}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def format_message(title: str, trailers: dict[str, str]) -> str:
    lines = [title.strip().splitlines()[0] if title.strip() else "Change", ""]
    lines += [f"{key}: {value}" for key, value in trailers.items()]
    return "\n".join(lines) + "\n"


class ContentRepo:
    """The repository of the content folder ``content`` (``remote``: the git URL every host
    pushes to and follows)."""

    def __init__(self, content: Path, remote: str | None = None):
        self.content = Path(content)
        self.remote = remote or None
        self._branch: str | None = None
        self._top: Path | None = None
        self._lock = threading.Lock()

    @classmethod
    def at(cls, repository: Path) -> "ContentRepo":
        """A repository given by its own folder (a bare one too, as a pre-receive hook runs in),
        its content in ``content/``."""
        found = cls(Path(repository) / "content")
        found._top = Path(repository)
        return found

    # -- where things are ------------------------------------------------------------------

    def exists(self) -> bool:
        """Whether the content folder is in a repository (none is made)."""
        if self._top is None:
            found = _run(["rev-parse", "--show-toplevel"], self.content, check=False).strip()
            if found:
                self._top = Path(found)
        return self._top is not None

    def ensure(self) -> None:
        """The repository exists: the one the content folder is in, or a new one made in it."""
        if self.exists():
            return
        with self._lock:
            if not self.exists():
                _run(["init", "--quiet"], self.content)
                _run(["add", "--all", "."], self.content)
                _run(["commit", "--quiet", "--allow-empty", "-m", "Content as found"], self.content, env=_identity(Author(*SERVICE)))
                log.warning("%s was in no git repository: made one there", self.content)
                self._top = Path(_run(["rev-parse", "--show-toplevel"], self.content).strip())

    @property
    def top(self) -> Path:
        self.ensure()
        assert self._top is not None
        return self._top

    @property
    def prefix(self) -> str:
        """The content folder inside the repository ("" or "content/")."""
        rel = os.path.relpath(self.content.absolute(), self.top.absolute())
        return "" if rel == "." else rel.replace(os.sep, "/") + "/"

    @property
    def branch(self) -> str:
        if self._branch is None:
            ref = _run(["symbolic-ref", "--quiet", "HEAD"], self.top, check=False).strip()
            if not ref.startswith("refs/heads/"):
                raise GitError(f"{self.top}: HEAD is not on a branch; the service commits onto a branch")
            self._branch = ref.removeprefix("refs/heads/")
        return self._branch

    def git(self, *args: str, **kwargs) -> str:
        return _run(list(args), self.top, **kwargs)

    def head(self) -> str:
        return self.git("rev-parse", f"refs/heads/{self.branch}").strip()

    def format_patch(self, commit: str) -> str:
        """The commit as ``git format-patch`` writes it (author, date, message, diff): ``git am``
        applies it to another clone."""
        return self.git("format-patch", "-1", "--stdout", commit)

    def uncommitted(self, files: dict[str, str]) -> list[str]:
        """Those of ``files`` (content path → the work tree's text) whose text is not the head's."""
        head = self.head()
        return [path for path, text in files.items() if (self.show(head, path) or "") != text]

    def show(self, rev: str, path: str) -> str | None:
        """The text of the content file ``path`` at ``rev``, or None where it does not exist."""
        spec = f"{rev}:{self.prefix}{path}"
        if _git(["cat-file", "-e", spec], self.top).returncode != 0:
            return None
        return self.git("cat-file", "blob", spec)

    # -- making a commit --------------------------------------------------------------------

    def make_commit(self, parent: str, files: dict[str, str], author: Author, message: str) -> str:
        """A commit object on ``parent`` with ``files`` (content paths → text) changed; no ref moves."""
        with tempfile.TemporaryDirectory() as tmp:
            env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
            self.git("read-tree", parent, env=env)
            for path, text in files.items():
                blob = self.git("hash-object", "-w", "--stdin", input=text).strip()
                self.git("update-index", "--add", "--cacheinfo", f"100644,{blob},{self.prefix}{path}", env=env)
            tree = self.git("write-tree", env=env).strip()
        committer = {"GIT_COMMITTER_NAME": SERVICE[0], "GIT_COMMITTER_EMAIL": SERVICE[1]}
        return self.git("commit-tree", tree, "-p", parent, input=message, env={**_identity(author), **committer}).strip()

    def advance(self, new: str, old: str) -> None:
        """Move the branch from ``old`` to ``new``; fails if it is no longer at ``old``."""
        self.git("update-ref", "-m", "rules service: accept", f"refs/heads/{self.branch}", new, old)

    # -- the remote ------------------------------------------------------------------------

    def fetch(self) -> str:
        """Fetch the remote's branch; returns its head."""
        self.git("fetch", "--quiet", self.remote, f"+refs/heads/{self.branch}:refs/remotes/content/{self.branch}")
        return self.remote_head()

    def peek(self) -> str:
        """The remote branch's head as the remote says now, without fetching (no ref moves, so
        any process may ask at any time)."""
        out = self.git("ls-remote", "--heads", self.remote, f"refs/heads/{self.branch}")
        return out.split()[0] if out.strip() else ""

    def is_ancestor(self, old: str, new: str) -> bool:
        return _git(["merge-base", "--is-ancestor", old, new], self.top).returncode == 0

    def remote_head(self) -> str:
        return self.git("rev-parse", f"refs/remotes/content/{self.branch}").strip()

    def push(self, commit: str) -> None:
        done = _git(["push", "--porcelain", self.remote, f"{commit}:refs/heads/{self.branch}"], self.top)
        if done.returncode != 0:
            said = (done.stdout + done.stderr).strip()
            # Moved on: refused as not a fast-forward, or another push took the remote's ref first.
            moved = any(sign in said for sign in ("[rejected]", "non-fast-forward", "fetch first", "failed to update ref", "cannot lock ref"))
            raise (PushRejected if moved else GitError)(said)
        self.git("update-ref", f"refs/remotes/content/{self.branch}", commit)

    def export(self, rev: str, dest: Path) -> Path:
        """The content folder as it is at ``rev``, written under ``dest``; returns its path."""
        data = _git(["archive", "--format=tar", rev, "--", self.prefix or "."], self.top, text=False)
        if data.returncode != 0:
            raise GitError(f"git archive {rev}: {data.stderr.decode(errors='replace').strip()}")
        with tarfile.open(fileobj=io.BytesIO(data.stdout)) as archive:
            archive.extractall(dest, filter="data")
        return Path(dest) / self.prefix

    # -- the work tree ---------------------------------------------------------------------

    def changed_paths(self, old: str, new: str) -> list[str]:
        out = self.git("diff", "--name-only", "--no-renames", old, new, "--", self.prefix or ".")
        return [line.removeprefix(self.prefix) for line in out.splitlines() if line]

    def refresh_index(self, paths) -> None:
        """The user's index takes the work tree's text of ``paths`` (written to match the branch),
        so that ``git status`` in a checkout shows no change the service made. Best effort: a
        busy index (someone running git) only leaves ``git status`` out of date."""
        names = [self.prefix + p for p in paths]
        if names:
            self.git("update-index", "-q", "--", *names, check=False)

    # -- reading the journal ---------------------------------------------------------------

    def recent(self, limit: int = 100, key: str | None = "Change-Key", since: str | None = None) -> list[Commit]:
        """The latest ``limit`` commits of the branch (after ``since``) that carry the trailer
        ``key`` (any commit: None), newest first."""
        if not self.exists():
            return []
        span = f"{since}..refs/heads/{self.branch}" if since else f"refs/heads/{self.branch}"
        out = self.git("log", f"-n{limit}", "--no-renames", "--name-only", span,
                       "--format=%x1e%H%n%(trailers:only,unfold)%x1f")
        found = []
        for record in out.split("\x1e")[1:]:
            head, _, names = record.partition("\x1f")
            lines = head.strip("\n").splitlines()
            trailers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
            if key is None or key in trailers:
                paths = tuple(n.removeprefix(self.prefix) for n in names.split("\n") if n.startswith(self.prefix) and n)
                found.append(Commit(lines[0], trailers, paths))
        return found


def _identity(author: Author) -> dict[str, str]:
    return {"GIT_AUTHOR_NAME": author.name, "GIT_AUTHOR_EMAIL": author.email,
            "GIT_COMMITTER_NAME": author.name, "GIT_COMMITTER_EMAIL": author.email}


def content_version(content: Path, fingerprint: str) -> str:
    """What a published version of the content is known by (its pages' ETags, the API's
    ``X-Content-Version``): the branch's commit when the content folder holds exactly that
    commit's content, else ``content-`` and the content's fingerprint (edits not committed yet, a
    folder in no repository, a repository without a branch)."""
    repo = ContentRepo(content)
    try:
        if repo.exists():
            head = repo.head()
            if not repo.git("status", "--porcelain", "--untracked-files=all", "--", repo.prefix or ".").strip():
                return head
    except GitError:
        pass
    return f"content-{fingerprint[:20]}"
