"""The two ways of drawing the same 36 cards (R1.1): a person's preference."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Deck(models.TextChoices):
    """How cards are drawn and named; the cards themselves are the same (R1.1)."""

    SWISS = "swiss", _("Swiss-German deck")
    FRENCH = "french", _("French deck")
