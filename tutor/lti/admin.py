"""The admin: django-lti registers its registrations (with their deployments) and keys
itself; the links to this site's classes and assignments are read here."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from lti_tool.models import Key, LtiDeployment

from .models import GradePost, LtiAssignmentLink, LtiClass


@admin.register(LtiClass)
class LtiClassAdmin(admin.ModelAdmin):
    list_display = ["context", "school_class", "created_at"]
    raw_id_fields = ["context", "school_class"]


@admin.register(LtiAssignmentLink)
class LtiAssignmentLinkAdmin(admin.ModelAdmin):
    list_display = ["resource_link", "assignment", "lineitem_url", "created_at"]
    raw_id_fields = ["resource_link", "assignment"]


@admin.register(LtiDeployment)
class LtiDeploymentAdmin(admin.ModelAdmin):
    """Deployments a platform used before an administrator approved them are listed
    inactive here (django-lti records them at the launch); "Approve" switches them on."""

    list_display = ["deployment_id", "registration", "is_active", "datetime_created"]
    list_filter = ["is_active", "registration"]
    actions = ["approve"]

    @admin.action(description=_("Approve the selected deployments"))
    def approve(self, request: HttpRequest, queryset: QuerySet[LtiDeployment]) -> None:
        queryset.update(is_active=True)


@admin.register(Key)
class KeyAdmin(admin.ModelAdmin):
    """The tool's signing keys (``manage.py rotate_keys`` adds one); the private half
    is never shown."""

    list_display = ["__str__", "is_active", "datetime_created"]
    fields = ["public_key", "is_active", "datetime_created"]
    readonly_fields = ["public_key", "datetime_created"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(GradePost)
class GradePostAdmin(admin.ModelAdmin):
    """Scores on their way to a platform's gradebook: an administrator sees what waits,
    what was given up on and why (``last_error``); ``lti_send_grades`` sends."""

    list_display = ("learner", "link", "score", "state", "tries", "next_try_at", "sent_at")
    list_filter = ("state",)
    readonly_fields = [f.name for f in GradePost._meta.fields]
    search_fields = ("learner__username", "user_sub")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
