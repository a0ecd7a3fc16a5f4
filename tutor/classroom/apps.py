from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import pre_delete
from django.utils.translation import gettext_lazy as _


class ClassroomConfig(AppConfig):
    name = "tutor.classroom"
    verbose_name = _("Classes")

    def ready(self) -> None:
        from . import privacy

        # However an account is deleted (the privacy pages, the admin, a script), its
        # sessions and login records go with it (docs/data-protection.md).
        pre_delete.connect(
            privacy.forget_on_delete,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="classroom.privacy.forget_traces",
        )
