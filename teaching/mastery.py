"""Mastery per skill: Bayesian knowledge tracing plus spaced review.

Knowledge tracing keeps, per learner and skill, the probability that the learner
knows the skill, updated after every answer (Corbett & Anderson, 1995). A right
answer can be a lucky guess and a wrong one a slip, so one answer never swings the
estimate all the way. Review is spaced: the more answers in a row were right, the
longer until the skill is due again.

>>> round(update(P_INIT, True), 3), round(update(P_INIT, False), 3)
(0.614, 0.186)
>>> [round(m, 2) for m in _run([True] * 4)]
[0.61, 0.87, 0.97, 0.99]
"""

from __future__ import annotations

from datetime import datetime, timedelta

P_INIT = 0.25  # before any answer
P_LEARN = 0.15  # chance to learn the skill from one question and its explanation
P_SLIP = 0.10  # knows it, answers wrong
P_GUESS = 0.25  # does not know it, guesses right (about one in four choices)
MASTERED = 0.85

# Days until a skill is due again, by the number of right answers in a row.
REVIEW_DAYS = (0, 1, 3, 7, 14, 30)


def update(p_known: float, correct: bool) -> float:
    """The probability the skill is known after one answer."""
    if correct:
        evidence = p_known * (1 - P_SLIP)
        posterior = evidence / (evidence + (1 - p_known) * P_GUESS)
    else:
        evidence = p_known * P_SLIP
        posterior = evidence / (evidence + (1 - p_known) * (1 - P_GUESS))
    return posterior + (1 - posterior) * P_LEARN


def next_due(answered_at: datetime, streak: int) -> datetime:
    days = REVIEW_DAYS[min(streak, len(REVIEW_DAYS) - 1)]
    return answered_at + timedelta(days=days)


def priority(mastery: float, due_at: datetime | None, now: datetime) -> float:
    """Higher first: weak skills, then skills overdue for review, then the rest.

    >>> from datetime import datetime, timezone
    >>> now = datetime(2026, 1, 10, tzinfo=timezone.utc)
    >>> weak = priority(0.3, None, now)
    >>> overdue = priority(0.9, datetime(2026, 1, 1, tzinfo=timezone.utc), now)
    >>> fresh = priority(0.9, datetime(2026, 1, 20, tzinfo=timezone.utc), now)
    >>> weak > overdue > fresh
    True
    """
    weakness = 1 - mastery
    overdue_days = 0.0 if due_at is None else (now - due_at).total_seconds() / 86400
    review = min(max(overdue_days, 0.0), 30.0) / 30.0 * 0.5 + (0.2 if overdue_days >= 0 else 0.0)
    return weakness + review


def _run(answers: list[bool]) -> list[float]:
    p, out = P_INIT, []
    for correct in answers:
        p = update(p, correct)
        out.append(p)
    return out
