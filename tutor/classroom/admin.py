from django.contrib import admin

from .models import Membership, SchoolClass


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("learner",)


@admin.register(SchoolClass)
class SchoolClassAdmin(admin.ModelAdmin):
    list_display = ("name", "teacher", "join_code", "created_at")
    search_fields = ("name", "join_code", "teacher__username")
    inlines = [MembershipInline]
