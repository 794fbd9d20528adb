"""Answering queries from the index: the only code that opens it.

One ``SearchIndex`` per process keeps the opened index of the current generation and a warm
searcher per thread; it follows the link to a new generation when a rebuild switched it.
"""
from __future__ import annotations

import json
import os
import re
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from whoosh import highlight, index as whoosh_index
from whoosh.analysis import Token
from whoosh.query import And, Or, Term

from . import schema as f
from .analysis import LANGS, TOKEN_PATTERN
from .build import MARKER

MAX_QUERY_CHARS = 200
MAX_QUERY_WORDS = 16
MAX_LIMIT = 50
# Field weights: the question outranks players' words, which outrank the answer.
WEIGHTS = {"title": 4.0, "keywords": 2.5, "body": 1.0}
PREFIX_WEIGHT = 0.6
CORRECTED_WEIGHT = 0.8
READER_LANG_BONUS = 1.15
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class IndexUnavailable(Exception):
    """No built index at the configured place."""


@dataclass(frozen=True)
class Hit:
    kind: str
    game: str
    entry: str
    title: str
    snippet: str
    score: float


@dataclass
class SearchResult:
    query: str
    lang: str
    hits: list[Hit] = field(default_factory=list)
    suggestion: str | None = None


def clean_query(text: str) -> str:
    """Control characters out, white space folded, length capped (before any analysis)."""
    text = unicodedata.normalize("NFC", _CONTROL.sub(" ", text or ""))
    text = " ".join(text.split())[:MAX_QUERY_CHARS]
    words = text.split(" ")
    return " ".join(words[:MAX_QUERY_WORDS])


class _CachedTokens:
    """An analyzer for the highlighter that tokenizes each stored text once per generation."""

    def __init__(self, analyzer, size: int = 8192):
        self._spans = lru_cache(maxsize=size)(self._analyze)
        self._analyzer = analyzer

    def _analyze(self, text: str) -> tuple[tuple[str, int, int], ...]:
        return tuple((t.text, t.startchar, t.endchar) for t in self._analyzer(text, chars=True, mode="query", removestops=False))

    def __call__(self, text: str, **_ignored):
        for word, start, end in self._spans(text):
            yield Token(chars=True, text=word, startchar=start, endchar=end, boost=1.0)


class _Generation:
    def __init__(self, path: str):
        if not os.path.exists(os.path.join(path, MARKER)):
            raise IndexUnavailable(f"{path} is not an index built by this service")
        self.path = path
        self.index = whoosh_index.open_dir(path)
        self.schema = self.index.schema
        self.info = json.loads(Path(path, MARKER).read_text())
        self._local = threading.local()
        self.highlight_tokens = {lang: _CachedTokens(self.schema[f.body_field(lang)].analyzer) for lang in LANGS}

    def searcher(self):
        searcher = getattr(self._local, "searcher", None)
        if searcher is None:
            searcher = self.index.searcher()
            self._local.searcher = searcher
        return searcher

    def analyze(self, field_name: str, text: str) -> list[str]:
        return list(dict.fromkeys(t.text for t in self.schema[field_name].analyzer(text)))


class SearchIndex:
    def __init__(self, link: Path, cache_size: int = 512):
        self.link = Path(link)
        self._generation: _Generation | None = None
        self._lock = threading.Lock()
        self._cache: OrderedDict = OrderedDict()
        self._cache_size = cache_size

    def generation(self) -> _Generation:
        real = os.path.realpath(self.link)
        current = self._generation
        if current is not None and current.path == real:
            return current
        with self._lock:
            if self._generation is None or self._generation.path != real:
                if not os.path.isdir(real):
                    raise IndexUnavailable(f"no index at {self.link}")
                self._generation = _Generation(real)
                self._cache.clear()
            return self._generation

    # -- queries -------------------------------------------------------------------------
    def _terms_query(self, gen: _Generation, text: str) -> Or | None:
        parts = []
        for lang in LANGS:
            for kind, weight in WEIGHTS.items():
                name = f"{kind}_{lang}"
                parts.extend(Term(name, token, boost=weight) for token in gen.analyze(name, text))
        parts.extend(Term(f.PREFIXES, p, boost=PREFIX_WEIGHT) for p in gen.analyze(f.PREFIXES, text))
        return Or(parts, scale=0.3) if parts else None

    def _unknown_words(self, gen: _Generation, text: str) -> list[str]:
        reader = gen.searcher().reader()
        return [w for w in TOKEN_PATTERN.findall(text.lower()) if len(w) >= 3 and (f.WORDS, w) not in reader]

    def _suggest(self, gen: _Generation, text: str) -> str | None:
        searcher = gen.searcher()
        words = TOKEN_PATTERN.findall(text)
        unknown = set(self._unknown_words(gen, text))
        if not unknown:
            return None
        changed = False
        out = []
        for word in words:
            if word.lower() in unknown:
                maxdist = 2 if len(word) >= 8 else 1
                found = searcher.suggest(f.WORDS, word.lower(), limit=1, maxdist=maxdist, prefix=1)
                if found:
                    out.append(found[0])
                    changed = True
                    continue
            out.append(word)
        return " ".join(out) if changed else None

    def _run(self, gen: _Generation, query, game: str | None, limit: int):
        searcher = gen.searcher()
        filt = Term(f.GAME, game) if game else None
        return searcher.search(query, limit=limit * 6 + 12, filter=filt)

    def _collapse(self, results, lang: str) -> "OrderedDict[tuple, float]":
        best: OrderedDict[tuple, float] = OrderedDict()
        for hit in results:
            fields = hit.fields()
            key = (fields[f.KIND], fields[f.GAME], fields[f.ENTRY])
            score = hit.score * (READER_LANG_BONUS if fields[f.LANG] == lang else 1.0)
            if score > best.get(key, 0.0):
                best[key] = score
        return OrderedDict(sorted(best.items(), key=lambda kv: -kv[1]))

    def _snippet(self, gen: _Generation, text: str, query: str, lang: str) -> str:
        name = f.body_field(lang)
        terms = set(gen.analyze(name, query))
        if not text:
            return ""
        if terms:
            fragment = highlight.highlight(
                text, terms, gen.highlight_tokens[lang], highlight.ContextFragmenter(maxchars=220, surround=60),
                highlight.HtmlFormatter(tagname="mark", between=" … "), top=2,
            )
            if fragment:
                return fragment
        from markupsafe import escape
        return str(escape(text[:200] + ("…" if len(text) > 200 else "")))

    def search(self, text: str, lang: str, game: str | None = None, limit: int = 10, kinds: tuple[str, ...] | None = None) -> SearchResult:
        gen = self.generation()
        query_text = clean_query(text)
        limit = max(1, min(limit, MAX_LIMIT))
        cache_key = (gen.path, query_text, lang, game, limit, kinds)
        cached = self._cache.get(cache_key)
        if cached is not None:
            self._cache.move_to_end(cache_key)
            return cached
        result = SearchResult(query=query_text, lang=lang)
        query = self._terms_query(gen, query_text)
        collapsed: OrderedDict = OrderedDict()
        if query is not None:
            collapsed = self._collapse(self._run(gen, query, game, limit), lang)
        if query_text:
            result.suggestion = self._suggest(gen, query_text)
        if result.suggestion and len(collapsed) < 3:
            # Typo tolerance only where exact matching found little: search the corrected words too.
            corrected = self._terms_query(gen, result.suggestion)
            if corrected is not None:
                for key, score in self._collapse(self._run(gen, corrected, game, limit), lang).items():
                    collapsed.setdefault(key, score * CORRECTED_WEIGHT)
        searcher = gen.searcher()
        for (kind, game_slug, entry), score in collapsed.items():
            if kinds and kind not in kinds:
                continue
            doc = searcher.document(**{f.KEY: f"{kind}:{game_slug}:{entry}:{lang}"})
            if doc is None:
                continue
            result.hits.append(Hit(kind, game_slug, entry, doc[f.TITLE_TEXT], self._snippet(gen, doc[f.BODY_TEXT], query_text, lang), round(score, 4)))
            if len(result.hits) >= limit:
                break
        self._cache[cache_key] = result
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return result

    def related(self, kind: str, game: str, entry: str, lang: str, limit: int = 4) -> list[str]:
        """Entries of the same kind and game most like this one (more-like-this on its text)."""
        gen = self.generation()
        searcher = gen.searcher()
        docnum = searcher.document_number(**{f.KEY: f"{kind}:{game}:{entry}:{lang}"})
        if docnum is None:
            return []
        stored = searcher.stored_fields(docnum)
        text = f"{stored[f.TITLE_TEXT]} {stored[f.TITLE_TEXT]} {stored[f.BODY_TEXT]}"
        name = f.body_field(lang)
        filt = And([Term(f.GAME, game), Term(f.KIND, kind), Term(f.LANG, lang)])
        hits = searcher.more_like(docnum, name, text=text, top=limit + 1, numterms=12, filter=filt)
        return [h[f.ENTRY] for h in hits if h[f.ENTRY] != entry][:limit]
