from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from tutor.core.decks import Deck


class Role(models.TextChoices):
    LEARNER = "learner", _("Learner")
    TEACHER = "teacher", _("Teacher")


class User(AbstractUser):
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.LEARNER)
    deck = models.CharField(_("deck"), max_length=16, choices=Deck.choices, default=Deck.SWISS)

    @property
    def is_teacher(self) -> bool:
        return self.role == Role.TEACHER

    @property
    def is_learner(self) -> bool:
        return self.role == Role.LEARNER
