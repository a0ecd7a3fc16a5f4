from django.contrib import admin

from .models import TableRound


@admin.register(TableRound)
class TableRoundAdmin(admin.ModelAdmin):
    list_display = ("id", "learner", "focus", "seed", "move_count", "created_at", "finished_at")
    list_filter = ("focus",)
    raw_id_fields = ("learner", "assignment")
    readonly_fields = ("moves", "scenario", "tally", "recorded", "move_count")
