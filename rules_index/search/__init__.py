"""Full-text search over the content (Whoosh, de/en/it). Nothing else opens the index."""
from .build import build, built_fingerprint, built_version, is_stale, stored_game
from .link import IndexLink
from .query import MAX_QUERY_CHARS, clean_query
from .searcher import Hit, IndexUnavailable, SearchIndex, SearchResult

__all__ = ["Hit", "IndexLink", "IndexUnavailable", "SearchIndex", "SearchResult", "build", "built_fingerprint", "built_version",
           "MAX_QUERY_CHARS", "clean_query", "is_stale", "stored_game"]
