"""Review scheduling by FSRS (teaching.mastery): how an answer is rated and when the
skill is due again, without Django."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from fsrs import Rating, State

from teaching import mastery
from teaching.mastery import EASY_SECONDS, GUESS_SECONDS, rating, review

T0 = datetime(2026, 3, 2, 8, 30, tzinfo=UTC)


def run(answers, start=T0, gap=None):
    """Review a new card with ``answers`` ((correct, seconds) pairs), each given when the
    previous one made the skill due (or ``gap`` after it); the reviews in order."""
    card, when, out = None, start, []
    for correct, seconds in answers:
        card, due = review(card, correct, seconds, when)
        out.append((card, due))
        when = when + gap if gap is not None else due
    return out


@pytest.mark.parametrize(
    ("correct", "seconds", "expected"),
    [
        (False, None, Rating.Again),
        (False, 5.0, Rating.Again),  # a fast wrong answer is still wrong
        (True, None, Rating.Good),  # time unknown (the table trainer)
        (True, EASY_SECONDS, Rating.Good),
        (True, EASY_SECONDS - 0.1, Rating.Easy),
        (True, GUESS_SECONDS, Rating.Easy),
        (True, GUESS_SECONDS - 0.1, Rating.Good),  # too fast to have read the question
        (True, 600.0, Rating.Good),
    ],
)
def test_rating_thresholds(correct, seconds, expected):
    assert rating(correct, seconds) == expected


def test_a_wrong_answer_brings_a_new_skill_due_sooner_than_a_right_one():
    _card, wrong = review(None, False, None, T0)
    _card, right = review(None, True, None, T0)
    assert T0 < wrong < right


def test_a_wrong_answer_brings_a_reviewed_skill_due_sooner_than_a_right_one():
    """After weeks of right answers, one wrong answer brings the skill back within the
    hour; a right one pushes it further out than the last interval."""
    history = run([(True, None)] * 4)
    card, last_due = history[-1]
    assert card["state"] == State.Review
    interval = last_due - datetime.fromisoformat(card["last_review"])
    _c, after_wrong = review(card, False, None, last_due)
    _c, after_right = review(card, True, None, last_due)
    assert after_wrong - last_due <= timedelta(hours=1)
    assert after_right - last_due > interval


def test_a_fast_right_answer_is_due_later_than_a_slow_one():
    _c, slow = review(None, True, 45.0, T0)
    _c, fast = review(None, True, 8.0, T0)
    assert fast > slow
    # And for a skill already in review.
    card, due = run([(True, None)] * 3)[-1]
    _c, slow = review(card, True, 45.0, due)
    _c, fast = review(card, True, 8.0, due)
    assert fast > slow


def test_the_schedule_is_deterministic():
    answers = [(True, 30.0), (False, None), (True, 9.0), (True, None), (False, 3.0)] * 3
    first, second = run(answers), run(answers)
    assert first == second
    # Long intervals are where fuzzing would add random days: none here.
    long_run = run([(True, 10.0)] * 6)
    assert long_run == run([(True, 10.0)] * 6)
    assert long_run[-1][1] - T0 > timedelta(days=30)


def test_the_card_survives_json_and_continues_the_same():
    card, due = run([(True, None), (True, None), (False, None)])[-1]
    stored = json.loads(json.dumps(card))
    assert review(stored, True, None, due) == review(card, True, None, due)


def test_the_due_date_is_the_one_in_the_card():
    card, due = run([(True, 20.0), (True, 8.0)])[-1]
    assert datetime.fromisoformat(card["due"]) == due


def test_cramming_the_same_day_does_not_push_a_skill_out_for_long():
    """Twenty right answers within an hour (the table trainer judges many moves) are
    not twenty spaced reviews: the skill still comes back within a few days."""
    card, due = run([(True, None)] * 20, gap=timedelta(minutes=3))[-1]
    assert due - T0 < timedelta(days=4)


def test_no_interval_is_longer_than_a_term():
    history = run([(True, 8.0)] * 8)
    for (_card, due), (_, prev_due) in zip(history[1:], history, strict=False):
        assert due - prev_due <= timedelta(days=mastery.MAX_INTERVAL_DAYS)
    assert history[-1][1] - history[-2][1] == timedelta(days=mastery.MAX_INTERVAL_DAYS)


def test_an_answer_counted_late_counts_at_the_last_review():
    """Answers released after the due date reach FSRS after newer ones; the card never
    goes back in time."""
    card, _due = review(None, True, None, T0)
    late, _due = review(card, False, None, T0 - timedelta(days=2))
    assert datetime.fromisoformat(late["last_review"]) == T0


def test_times_in_another_zone_are_the_same_instant():
    zurich = T0.astimezone(ZoneInfo("Europe/Zurich"))
    assert review(None, True, 9.0, zurich) == review(None, True, 9.0, T0)


def test_a_naive_time_is_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        review(None, True, None, datetime(2026, 3, 2, 8, 30))


def test_bkt_is_unchanged():
    """The mastery estimate is the same knowledge tracing as before FSRS."""
    assert mastery.update(mastery.P_INIT, True) == pytest.approx(0.61364, abs=1e-5)
    assert mastery.update(mastery.P_INIT, False) == pytest.approx(0.18617, abs=1e-5)
