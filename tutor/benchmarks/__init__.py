"""Benchmarks that drive the site from outside, as a browser would.

``python -m tutor.benchmarks.web`` starts the site under gunicorn on 127.0.0.1 with
production settings, loads it with simulated learners and a teacher, prints
throughput and latency per endpoint, and checks afterwards that the database holds
exactly the answers the clients were told were saved. See ``docs/performance.md``.

Nothing here is imported by the site; only the standard library is used on the
client side (``http.client``), so the benchmark adds no dependency.
"""
