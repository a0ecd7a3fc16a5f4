from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import pre_delete
from django.utils.translation import gettext_lazy as _


class LtiConfig(AppConfig):
    name = "tutor.lti"
    label = "lti"
    verbose_name = _("LTI (school platforms)")

    def ready(self) -> None:
        from . import services

        # However an account is deleted, what the platform sent about the person
        # (django-lti's LtiUser: names, e-mail, platform id) goes with it.
        pre_delete.connect(
            services.forget_platform_user,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="lti.forget_platform_user",
        )
        # Grades back to the platform (AGS) when work is handed in or a round ends.
        from tutor.classroom.signals import work_submitted
        from tutor.table.signals import round_finished

        from .grades import on_round_finished, on_work_submitted

        work_submitted.connect(on_work_submitted, dispatch_uid="lti.grades")
        # The learner's data export shows what the platform sent and the grades sent.
        from tutor.classroom.privacy import EXTRA_SECTIONS

        from .privacy import EXPORTS

        EXTRA_SECTIONS.extend(e for e in EXPORTS if e not in EXTRA_SECTIONS)
        # The teacher's results page says how the scores reached the platform.
        from tutor.classroom.results_views import ASSIGNMENT_NOTES

        from .grades import assignment_notes

        if assignment_notes not in ASSIGNMENT_NOTES:
            ASSIGNMENT_NOTES.append(assignment_notes)
        round_finished.connect(on_round_finished, dispatch_uid="lti.round_grades")
