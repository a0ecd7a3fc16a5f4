from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*BaseUserAdmin.fieldsets, (_("Jass tutor"), {"fields": ("role", "deck")}))
    add_fieldsets = (*BaseUserAdmin.add_fieldsets, (_("Jass tutor"), {"fields": ("role",)}))
    list_display = ("username", "role", "deck", "is_staff", "date_joined")
    list_filter = ("role", "is_staff", "is_superuser")
