from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WeisToolConfig(AppConfig):
    name = "tutor.weistool"
    verbose_name = _("Weis tool")
