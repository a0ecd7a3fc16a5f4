from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TableConfig(AppConfig):
    name = "tutor.table"
    verbose_name = _("At the table")
