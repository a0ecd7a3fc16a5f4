"""Benchmarks of the checkout (not shipped): ``python -m bench.engine`` times the rules engine.

The web benchmark stays with the site (``make bench``, docs/performance.md).
"""
