"""Corrections: readers' reports, editors, reviews, and accepted changes landing in the content."""
