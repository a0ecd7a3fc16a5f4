"""Mastery per skill (Bayesian knowledge tracing) and when to review it (FSRS).

Knowledge tracing keeps, per learner and skill, the probability that the learner
knows the skill, updated after every answer (Corbett & Anderson, 1995). A right
answer can be a lucky guess and a wrong one a slip, so one answer never swings the
estimate all the way.

>>> round(update(P_INIT, True), 3), round(update(P_INIT, False), 3)
(0.614, 0.186)
>>> [round(m, 2) for m in _run([True] * 4)]
[0.61, 0.87, 0.97, 0.99]

When a skill is due again is decided by FSRS (the scheduler behind Anki, the
``fsrs`` library): each learner's skill is one FSRS card and every counted answer
is one review of it. The answer is rated by :func:`rating`:

- wrong: **Again**;
- right in under ``EASY_SECONDS`` (15 s) from the question being shown: **Easy**;
- right and slower, or when the time is unknown (the table trainer, a question
  whose showing was not recorded): **Good**;
- right in under ``GUESS_SECONDS`` (2 s): **Good**, not Easy: nobody reads a
  question that fast, so it says nothing about ease (a click-through or a guess).

>>> [rating(c, s).name for c, s in ((False, 5), (True, None), (True, 40), (True, 8), (True, 1))]
['Again', 'Good', 'Good', 'Easy', 'Good']

A new skill answered wrong comes back after one minute, answered right after ten
(FSRS's learning steps), answered right and fast after days; a skill in review that
is answered wrong comes back after ten minutes:

>>> t = datetime(2026, 1, 5, 9, tzinfo=UTC)
>>> [str(review(None, c, s, t).due_at - t) for c, s in ((False, 9), (True, 30), (True, 9))]
['0:01:00', '0:10:00', '8 days, 0:00:00']

The mastery estimate stays BKT's: FSRS only says *when* to look again, and practice
still puts weak skills first (:func:`priority`), so a lucky fast guess that pushes a
review out does not hide a skill the learner does not know.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from fsrs import Card, Rating, Scheduler
from fsrs.card import CardDict

P_INIT = 0.25  # before any answer
P_LEARN = 0.15  # chance to learn the skill from one question and its explanation
P_SLIP = 0.10  # knows it, answers wrong
P_GUESS = 0.25  # does not know it, guesses right (about one in four choices)
MASTERED = 0.85

EASY_SECONDS = 15.0  # a right answer faster than this is rated Easy ...
GUESS_SECONDS = 2.0  # ... unless it is faster than anybody reads the question

# FSRS's own default and Anki's: nine in ten reviews should find the skill still
# known. At exactly 0.9 an FSRS interval in days equals the card's stability, which
# the migration of the older schedule relies on (quizzes/migrations/0004).
DESIRED_RETENTION = 0.9
# A school term: every skill comes back at least once a term, however well known.
MAX_INTERVAL_DAYS = 90

# Fuzzing (a random day or two added to long intervals, so that cards learnt together
# spread out) is off: the same answers must give the same schedule, so that tests,
# the demo class and a replay agree, and with six skills per learner there is no
# review pile-up to spread.
SCHEDULER = Scheduler(
    desired_retention=DESIRED_RETENTION,
    learning_steps=(timedelta(minutes=1), timedelta(minutes=10)),
    relearning_steps=(timedelta(minutes=10),),
    maximum_interval=MAX_INTERVAL_DAYS,
    enable_fuzzing=False,
)


class Scheduled(NamedTuple):
    """A skill's FSRS card after one review (JSON-able, for ``SkillState.fsrs_card``)
    and when the skill is due again."""

    card: CardDict
    due_at: datetime


def update(p_known: float, correct: bool) -> float:
    """The probability the skill is known after one answer."""
    if correct:
        evidence = p_known * (1 - P_SLIP)
        posterior = evidence / (evidence + (1 - p_known) * P_GUESS)
    else:
        evidence = p_known * P_SLIP
        posterior = evidence / (evidence + (1 - p_known) * (1 - P_GUESS))
    return posterior + (1 - posterior) * P_LEARN


def rating(correct: bool, seconds: float | None) -> Rating:
    """The FSRS rating of one answer that took ``seconds`` (None: not known)."""
    if not correct:
        return Rating.Again
    if seconds is not None and GUESS_SECONDS <= seconds < EASY_SECONDS:
        return Rating.Easy
    return Rating.Good


def review(
    card: CardDict | None, correct: bool, seconds: float | None, when: datetime
) -> Scheduled:
    """Review the skill whose FSRS card is ``card`` (None: never reviewed) with one
    answer given at ``when`` (timezone-aware) that took ``seconds``.

    An answer counted late (an assignment that releases correctness after its due
    date) may be older than the card's last review; it counts as given at that last
    review, since FSRS cannot go back in time.

    >>> t = datetime(2026, 1, 5, 9, tzinfo=UTC)
    >>> first = review(None, True, None, t)
    >>> later = review(first.card, True, None, t + timedelta(minutes=10))
    >>> later.card["state"], str(later.due_at - t)
    (2, '2 days, 0:10:00')
    """
    if when.tzinfo is None:
        raise ValueError("The review time must be timezone-aware.")
    when = when.astimezone(UTC)
    if card is None:
        # The id only ties review logs to a card; the first review's time keeps it
        # deterministic (fsrs's default reads the clock and sleeps a millisecond).
        current = Card(card_id=int(when.timestamp() * 1000), due=when)
    else:
        current = Card.from_dict(card)
        if current.last_review is not None and current.last_review > when:
            when = current.last_review.astimezone(UTC)
    reviewed, _log = SCHEDULER.review_card(current, rating(correct, seconds), when)
    return Scheduled(reviewed.to_dict(), reviewed.due)


def priority(mastery: float, due_at: datetime | None, now: datetime) -> float:
    """Higher first: weak skills, then skills overdue for review, then the rest.

    >>> now = datetime(2026, 1, 10, tzinfo=UTC)
    >>> weak = priority(0.3, None, now)
    >>> overdue = priority(0.9, datetime(2026, 1, 1, tzinfo=UTC), now)
    >>> fresh = priority(0.9, datetime(2026, 1, 20, tzinfo=UTC), now)
    >>> weak > overdue > fresh
    True
    """
    weakness = 1 - mastery
    overdue_days = 0.0 if due_at is None else (now - due_at).total_seconds() / 86400
    due = min(max(overdue_days, 0.0), 30.0) / 30.0 * 0.5 + (0.2 if overdue_days >= 0 else 0.0)
    return weakness + due


def _run(answers: list[bool]) -> list[float]:
    p, out = P_INIT, []
    for correct in answers:
        p = update(p, correct)
        out.append(p)
    return out
