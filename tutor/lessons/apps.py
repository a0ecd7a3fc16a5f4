from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LessonsConfig(AppConfig):
    name = "tutor.lessons"
    verbose_name = _("Lessons")

    def ready(self) -> None:
        # Quiz feedback (jinja_templates/quizzes/kinds.jinja) links each rule to where a
        # lesson teaches it through this helper: the apps below lessons, quizzes and
        # core, import nothing of lessons.
        from tutor.core.jinja import APP_HELPERS

        from .selectors import lessons_for

        APP_HELPERS["lesson_links"] = lessons_for
