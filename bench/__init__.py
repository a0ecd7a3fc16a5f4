"""Benchmarks of the checkout, not shipped with the site (see docs/performance.md).

- ``python -m bench.engine``: the rules engine (calls per second, against jass-kit).
- ``python -m bench.quizzes``: how long question generation takes.
- ``python -m bench.web`` (``make bench``): the site under gunicorn with simulated
  learners and a teacher, faults included, and the reconciliation of every answer;
  its table-round phase (issue 14) is ``tablerounds.py``.
- ``python -m bench.inprocess``: CPU per request in one process, to compare versions.

Nothing here is imported by the site; the web client uses only the standard library.
"""
