"""Store the mastery that answers released by their due date bring (run it daily).

Pages never write it: they count released answers in memory
(``tutor.quizzes.selectors.skill_states``), and a learner's next answer stores them.
This stores them for learners who do not come back, so the stored states, the data
export's ``counted_for_mastery_at`` and the database agree.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tutor.accounts.models import User
from tutor.quizzes.services import settle_released_answers


class Command(BaseCommand):
    help = "Let answers whose explanations were released since move their learners' mastery."

    def handle(self, *args: Any, **options: Any) -> None:
        learners = User.objects.filter(
            quizzes__questions__answered_at__isnull=False,
            quizzes__questions__skill_recorded_at__isnull=True,
        ).distinct()
        applied = settle_released_answers(learners.values_list("pk", flat=True))
        self.stdout.write(f"{applied} released answers counted.")
