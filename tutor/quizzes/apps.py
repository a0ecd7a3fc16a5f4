from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class QuizzesConfig(AppConfig):
    name = "tutor.quizzes"
    verbose_name = _("Quizzes")
