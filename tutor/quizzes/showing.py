"""When a learner was shown a question: a signed note in its answer form.

How long an answer took rates a right one *Easy* or *Good* (FSRS, ``teaching.mastery``;
``selectors.answer_seconds``), and a teacher's results show it. The time is counted
from the showing the answer was given on: the card or page that drew the form puts
the moment it was drawn in the form (:func:`note`), signed with the site's key and
bound to the quiz and position, and the answer stores it as the question's
``shown_at`` with the answer, in the answer's own write. Showing a question writes
nothing: under load a page that writes costs a commit (on PostgreSQL a round trip and
a WAL flush per card, issue 24), and under SQLite's write lock it could not write at all
and the answer's time was lost.

What it means for the learner: a reload draws the form again, so the time counts from
the reload (the question is in front of the learner from then on). A note that does
not verify (edited, another question's, none with a form posted without it) gives no
time, which rates a right answer *Good*, as for an answer whose time is unknown.

A live question in class is different: it is shown when the teacher asks it, to every
phone at once, and that moment is stored then (``services.mark_shown``).

>>> from datetime import UTC, datetime
>>> from django.conf import settings
>>> settings.configure(SECRET_KEY="doctest") if not settings.configured else None
>>> when = datetime(2026, 12, 6, 9, 30, 15, 250000, tzinfo=UTC)
>>> token = note(7, 2, when)
>>> token.startswith("7.2.1796549415250:")
True
>>> shown_at(token, 7, 2, when.replace(second=40)) == when
True
>>> shown_at(token, 7, 3, when) is None  # another question's note
True
>>> shown_at(token.replace("7.2.", "7.2.1"), 7, 2, when) is None  # edited
True
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import NamedTuple

from django.core import signing

# Its own salt: a note signed for this can be taken for nothing else the key signs.
_SALT = "tutor.quizzes.showing"
# A note is about 60 characters; anything much longer is not one (and is not hashed).
_LONGEST = 200


def _signer() -> signing.Signer:
    # Made per call: the key is read from the settings, which tests may change.
    return signing.Signer(salt=_SALT)


def note(quiz_id: int, position: int, when: datetime) -> str:
    """The signed note that the question at ``position`` of quiz ``quiz_id`` was shown
    at ``when`` (an aware datetime), for its answer form's ``shown`` field."""
    milliseconds = round(when.timestamp() * 1000)
    return _signer().sign(f"{quiz_id}.{position}.{milliseconds}")


def shown_at(token: str, quiz_id: int, position: int, now: datetime) -> datetime | None:
    """When the note ``token`` says this question was shown, or None when it does not
    verify or is another question's. A time after ``now`` (another server's clock
    ahead of this one's) is taken as ``now``."""
    if not token or len(token) > _LONGEST:
        return None
    try:
        value = _signer().unsign(token)
    except signing.BadSignature:
        return None
    quiz, _sep, rest = value.partition(".")
    place, _sep, milliseconds = rest.partition(".")
    if quiz != str(quiz_id) or place != str(position) or not milliseconds.isdigit():
        return None
    try:
        when = datetime.fromtimestamp(int(milliseconds) / 1000, tz=UTC)
    except (OverflowError, ValueError, OSError):
        return None
    return min(when, now)


class Posted(NamedTuple):
    """What an answer's form brought: its ``note`` ("" when it does not verify, so a
    form drawn again gets a new one) and the time it says (None: unknown)."""

    note: str
    at: datetime | None


def posted(data: Mapping[str, str], quiz_id: int, position: int, now: datetime) -> Posted:
    """The note in a posted answer form (its ``shown`` field), read for this question."""
    note = data.get("shown", "")
    at = shown_at(note, quiz_id, position, now)
    return Posted(note if at is not None else "", at)
