from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClassroomConfig(AppConfig):
    name = "tutor.classroom"
    verbose_name = _("Classes")
