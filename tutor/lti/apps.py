from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LtiConfig(AppConfig):
    name = "tutor.lti"
    label = "lti"
    verbose_name = _("LTI (school platforms)")
