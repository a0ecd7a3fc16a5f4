"""A learner's data: the overview, the two downloads, and deleting the account.

Thin views: who may see whose data is decided in :func:`privacy.access_to` (a 404
for anybody else), what may be deleted in :func:`privacy.deletion_refusal`. Every
page is personal, so none is cached anywhere (``never_cache``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from tutor.accounts import throttle
from tutor.accounts.http import AuthedRequest
from tutor.accounts.models import User
from tutor.accounts.permissions import learner_required

from . import privacy

DELETED_SESSION_KEY = "privacy_deleted"


class ConfirmDeletionForm(forms.Form):
    """Typing the username proves the right account is meant, not a slip of the mouse."""

    username = forms.CharField(
        label=gettext_lazy("Username of the account, to confirm"),
        max_length=150,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )

    def __init__(self, learner: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.learner = learner

    def clean_username(self) -> str:
        typed: str = self.cleaned_data["username"]
        if typed.casefold() != self.learner.username.casefold():
            raise forms.ValidationError(
                _("This is not the username of the account. Type %(name)s.")
                % {"name": self.learner.username},
                code="username_mismatch",
            )
        return typed


class ConfirmOwnDeletionForm(ConfirmDeletionForm):
    """The learner deletes their own account: their password too, as for any change
    somebody at an open computer should not make for them."""

    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.learner.check_password(password):
            raise forms.ValidationError(
                _("Your password was entered incorrectly. Please enter it again."),
                code="password_incorrect",
            )
        return password


def _overview(request: HttpRequest, access: privacy.Access) -> HttpResponse:
    return render(
        request,
        "privacy/overview.html",
        {
            "access": access,
            "learner": access.learner,
            "summary": privacy.summary(access.learner),
            "refusal": privacy.deletion_refusal(access),
            "cooloff_minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
        },
    )


@never_cache
@learner_required
def mine(request: AuthedRequest) -> HttpResponse:
    return _overview(request, privacy.access_to(request.user, request.user.pk))


@never_cache
@login_required
def overview(request: AuthedRequest, learner_id: int) -> HttpResponse:
    return _overview(request, privacy.access_to(request.user, learner_id))


def _download(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _export_refused(request: HttpRequest) -> HttpResponse | None:
    """The 429 page once the requester has exported ``JASS_EXPORT_LIMIT`` times in
    ``JASS_EXPORT_WINDOW``; None while below."""
    if throttle.allow(throttle.EXPORTS_PER_USER, f"user:{request.user.pk}"):
        return None
    minutes = int(settings.JASS_EXPORT_WINDOW.total_seconds() // 60)
    response = render(
        request,
        "privacy/export_throttled.html",
        {"minutes": minutes, "limit": settings.JASS_EXPORT_LIMIT},
        status=429,
    )
    response["Retry-After"] = str(minutes * 60)
    return response


@never_cache
@login_required
def export_json(request: AuthedRequest, learner_id: int) -> HttpResponse:
    access = privacy.access_to(request.user, learner_id)
    if (refused := _export_refused(request)) is not None:
        return refused
    export = privacy.collect(access)
    return _download(
        privacy.export_json(export),
        "application/json; charset=utf-8",
        privacy.export_filename(export, "json"),
    )


@never_cache
@login_required
def export_zip(request: AuthedRequest, learner_id: int) -> HttpResponse:
    access = privacy.access_to(request.user, learner_id)
    if (refused := _export_refused(request)) is not None:
        return refused
    export = privacy.collect(access)
    return _download(
        privacy.export_zip(export), "application/zip", privacy.export_filename(export, "zip")
    )


@never_cache
@login_required
def delete(request: AuthedRequest, learner_id: int) -> HttpResponse:
    """GET: what would be deleted, and the confirmation form. POST: delete."""
    access = privacy.access_to(request.user, learner_id)
    refusal = privacy.deletion_refusal(access)
    form_class = ConfirmOwnDeletionForm if access.is_self else ConfirmDeletionForm
    form = form_class(access.learner, request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if refusal is not None:
            status = 403
        elif access.is_self and throttle.password_check_locked(request, access.learner):
            return throttle.lockout_response(request)
        elif form.is_valid():
            return _delete(request, access)
        else:
            if form.has_error("password", "password_incorrect"):
                throttle.record_wrong_password(request, access.learner, sender=__name__)
            status = 400
    return render(
        request,
        "privacy/delete.html",
        {
            "access": access,
            "learner": access.learner,
            "summary": privacy.summary(access.learner),
            "refusal": refusal,
            "form": form,
        },
        status=status,
    )


def _delete(request: HttpRequest, access: privacy.Access) -> HttpResponse:
    try:
        privacy.delete_learner(access)
    except privacy.PrivacyError:  # refused between the check and now: show why
        return redirect("privacy:delete", learner_id=access.learner.pk)
    if access.is_self:
        # Its row is gone already; this drops the cookie's session and starts a new one.
        request.session.flush()
    request.session[DELETED_SESSION_KEY] = str(access.relation)
    return redirect("privacy:deleted")


@never_cache
def deleted(request: HttpRequest) -> HttpResponse:
    """Shown once, after a deletion; without one, there is nothing to say."""
    relation = request.session.pop(DELETED_SESSION_KEY, None)
    if relation is None:
        return redirect("home")
    return render(request, "privacy/deleted.html", {"relation": relation})
