from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import services
from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),  # never None in Django; the stubs allow it
        (_("Jass tutor"), {"fields": ("role", "deck", "must_set_password", "email_verified_at")}),
    )
    add_fieldsets = (*BaseUserAdmin.add_fieldsets, (_("Jass tutor"), {"fields": ("role",)}))
    list_display = ("username", "role", "email", "email_verified_at", "is_staff", "date_joined")
    list_filter = ("role", "is_staff", "is_superuser", "is_active")
    actions = ["approve_teachers"]

    @admin.action(description=_("Approve as teachers (sends each an e-mail)"))
    def approve_teachers(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        approved, skipped = services.approve_teachers(
            queryset.order_by("pk"), link=request.build_absolute_uri
        )
        if approved:
            self.message_user(
                request,
                ngettext(
                    "%(n)d teacher approved and told by e-mail.",
                    "%(n)d teachers approved and told by e-mail.",
                    len(approved),
                )
                % {"n": len(approved)},
                messages.SUCCESS,
            )
        if skipped:
            self.message_user(
                request,
                ngettext(
                    "%(n)d account left as it was: only teachers who confirmed their "
                    "e-mail address and wait for approval can be approved.",
                    "%(n)d accounts left as they were: only teachers who confirmed their "
                    "e-mail address and wait for approval can be approved.",
                    len(skipped),
                )
                % {"n": len(skipped)},
                messages.WARNING,
            )
