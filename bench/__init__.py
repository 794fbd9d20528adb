"""Benchmark scripts: each prints its figures as ratios against a baseline measured in the same run."""
