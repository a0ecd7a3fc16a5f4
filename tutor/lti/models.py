"""What a platform's course and activity are on this site.

django-lti (``lti_tool``) keeps the platform's side: registrations, deployments, users,
courses (``LtiContext``) and activities (``LtiResourceLink``). These two models link
them to the site's own: a course to the class it became, an activity to the
assignment it opens, with the AGS line item a grade passback posts to.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from lti_tool.models import LtiContext, LtiResourceLink

from tutor.classroom.models import Assignment, SchoolClass


class LtiClass(models.Model):
    """A platform's course and the class it became at its first instructor launch."""

    context = models.OneToOneField(
        LtiContext, on_delete=models.CASCADE, related_name="tutor_class", verbose_name=_("course")
    )
    # Deleting the class on this site forgets the link; the next instructor launch
    # makes a new class.
    school_class = models.OneToOneField(
        SchoolClass, on_delete=models.CASCADE, related_name="lti_class", verbose_name=_("class")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("LTI course")
        verbose_name_plural = _("LTI courses")

    def __str__(self) -> str:
        return f"{self.context} → {self.school_class}"


class LtiAssignmentLink(models.Model):
    """A platform's activity and the assignment it opens; ``lineitem_url`` is the
    gradebook column of the activity when the platform offers AGS (grades go there)."""

    resource_link = models.OneToOneField(
        LtiResourceLink,
        on_delete=models.CASCADE,
        related_name="tutor_assignment",
        verbose_name=_("activity"),
    )
    assignment = models.ForeignKey(
        Assignment,
        on_delete=models.CASCADE,
        related_name="lti_links",
        verbose_name=_("assignment"),
    )
    lineitem_url = models.URLField(_("line item URL"), max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("LTI activity")
        verbose_name_plural = _("LTI activities")

    def __str__(self) -> str:
        return f"{self.resource_link} → {self.assignment}"
