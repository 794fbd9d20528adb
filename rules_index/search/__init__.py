"""Full-text search over the content (Whoosh, de/en/it). Nothing else opens the index."""
from .build import build, is_stale
from .query import clean_query
from .searcher import CacheSizes, Hit, IndexUnavailable, SearchIndex, SearchResult

__all__ = ["CacheSizes", "Hit", "IndexUnavailable", "SearchIndex", "SearchResult", "build", "clean_query", "is_stale"]
