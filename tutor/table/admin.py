from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin

from .models import TableRound

if TYPE_CHECKING:
    # Django's ModelAdmin is generic only for the type checker (not subscriptable at
    # run time without django-stubs-ext's monkeypatch).
    _RoundAdmin = admin.ModelAdmin[TableRound]
else:
    _RoundAdmin = admin.ModelAdmin


@admin.register(TableRound)
class TableRoundAdmin(_RoundAdmin):
    list_display = ("id", "learner", "focus", "seed", "move_count", "created_at", "finished_at")
    list_filter = ("focus",)
    raw_id_fields = ("learner", "assignment")
    readonly_fields = ("moves", "scenario", "tally", "recorded", "move_count")
