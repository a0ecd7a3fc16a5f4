from django.contrib import admin

from .models import Lesson, LessonText


class LessonTextInline(admin.StackedInline):
    model = LessonText
    extra = 0
    readonly_fields = ("source_file",)


@admin.register(Lesson)
class LessonAdmin(admin.ModelAdmin):
    list_display = ("position", "slug", "updated_at")
    inlines = [LessonTextInline]
