"""``make bench`` prints the learner cycle against /health/ (issue 24's goal) also as
two factors of the same run: the cycle against the logged-in floor, and the floor
against /health/ (docs/performance.md, session 16). The factors must multiply back to
the goal's ratio, or the line would explain a figure it does not print."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench import web

ms = st.floats(min_value=0.05, max_value=100.0, allow_nan=False, allow_infinity=False)


@given(card=ms, answer=ms, floor=ms, health=ms)
def test_the_two_factors_multiply_to_the_cycle_against_health(card, answer, floor, health):
    factors = web.CycleFactors(card=card, answer=answer, floor=floor, health=health)
    assert factors.vs_floor * factors.floor_vs_health == pytest.approx(factors.vs_health)
    assert factors.vs_health == pytest.approx((card + answer) / health)


def test_the_line_gives_both_factors_of_a_run():
    # Session 16's PostgreSQL capacity run: card 3.03, answer 4.70, floor 2.75, /health/ 0.63.
    line = web.CycleFactors(card=3.03, answer=4.70, floor=2.75, health=0.63).line()
    assert line == "    (that is 2.81x the logged-in floor of 2.75 ms, which is 4.37x /health/)"


def test_the_docstring_example_holds():
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(
        web.CycleFactors, "CycleFactors", globs={"CycleFactors": web.CycleFactors}
    ):
        runner.run(test)
    assert runner.failures == 0
    assert runner.tries >= 1
