from __future__ import annotations

import logging
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
)
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tutor.accounts.http import AuthedRequest
from tutor.core.context_processors import DECK_COOKIE_AGE, DECK_COOKIE_NAME
from tutor.core.middleware import no_lock_wait

from . import services, throttle
from .forms import (
    DeckForm,
    FirstPasswordForm,
    LoginForm,
    OwnPasswordChangeForm,
    ResetForm,
    TeacherSignupForm,
)
from .mail import MailError
from .models import User

logger = logging.getLogger("tutor.accounts.security")


def _safe_next(request: HttpRequest, target: str) -> str:
    """``target`` when it is a path of this site, else the home page. Only paths: a
    bare word such as "9999-12-31T23:59" would pass the host check and then be taken
    by ``redirect`` for the name of a view (NoReverseMatch, a 500)."""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return "/"


@require_POST
def set_deck(request: HttpRequest) -> HttpResponse:
    """Remember the deck on the account, or in a cookie for visitors (as Django's
    language switch does): a visitor's choice creates no session row in the database,
    so nobody can grow the session table by choosing decks (issue 22, item 2)."""
    form = DeckForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(_("Unknown deck. Choose the Swiss-German or French deck."))
    deck = form.cleaned_data["deck"]
    response = HttpResponseRedirect(_safe_next(request, form.cleaned_data["next"]))
    if request.user.is_authenticated:
        request.user.deck = deck
        # A preference is a write the site can do without while the database is locked:
        # refused at once with the 503 page ("try again"), so it never holds a worker
        # that reads need (issue 22, item 6).
        with no_lock_wait():
            request.user.save(update_fields=["deck"])
    else:
        response.set_cookie(
            DECK_COOKIE_NAME,
            deck,
            max_age=DECK_COOKIE_AGE,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


# --- logging in -------------------------------------------------------------------------


class LoginView(auth_views.LoginView):
    """Django's login; the name comes filled in from a login card's QR code (``?u=``),
    and the first page after it depends on the account's state."""

    redirect_authenticated_user = True
    authentication_form = LoginForm

    def get_initial(self) -> dict[str, str]:
        return {"username": self.request.GET.get("u", "")[:150]}

    def get_form(self, form_class: type[AuthenticationForm] | None = None) -> AuthenticationForm:
        form = super().get_form(form_class)
        if self.get_initial()["username"]:
            # The name is there already: the cursor waits in the password field.
            form.fields["username"].widget.attrs.pop("autofocus", None)
            form.fields["password"].widget.attrs["autofocus"] = True
        return form

    def get_default_redirect_url(self) -> str:
        # Asked after the login (or for a user logged in already), so not anonymous.
        user = cast(User, self.request.user)
        if user.must_set_password:
            return reverse("first_password")
        if user.is_pending_teacher:
            return reverse("teacher_pending")
        return super().get_default_redirect_url()


# --- passwords ------------------------------------------------------------------------------


@never_cache
@login_required
def first_password(request: AuthedRequest) -> HttpResponse:
    """Replace a one-time password (login card, teacher's reset) with one's own. The
    middleware sends such accounts here from every page until it is done."""
    if not request.user.must_set_password:
        return redirect("password_change")
    form = FirstPasswordForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        update_session_auth_hash(request, user)
        logger.info("own password chosen by user %s", user.pk)
        messages.success(request, _("Your password is set. Use it from now on."))
        return HttpResponseRedirect(_safe_next(request, request.POST.get("next", "")))
    return render(
        request,
        "accounts/first_password.html",
        {"form": form, "next": request.GET.get("next") or request.POST.get("next", "")},
    )


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change. A wrong current password counts as a failed login
    (throttle.py): the same limits, the same lockout page, the same log."""

    form_class = OwnPasswordChangeForm
    success_url = reverse_lazy("password_change_done")
    request: AuthedRequest  # Django's view is login_required

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if throttle.password_check_locked(request, self.request.user):
            return throttle.lockout_response(request)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: PasswordChangeForm) -> HttpResponse:
        if form.has_error("old_password", "password_incorrect"):
            throttle.record_wrong_password(self.request, self.request.user, sender=__name__)
        return super().form_invalid(form)

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        logger.info(
            "password changed by user %s from %s",
            self.request.user.pk,
            throttle.address_of(self.request),
        )
        return super().form_valid(form)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset by e-mail, for accounts with an address. Requests are counted
    per client address (over the limit: a 429 page) and per e-mail address (over it:
    no mail, but the same "sent" page, which never says whether an account exists)."""

    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    form_class = ResetForm

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        address = throttle.address_of(self.request)
        if not throttle.allow(throttle.RESET_PER_ADDRESS, address):
            logger.warning("password reset refused: too many requests from %s", address)
            return throttle.too_many_requests(self.request)
        email = form.cleaned_data["email"]
        if not throttle.allow(throttle.RESET_PER_EMAIL, email):
            logger.warning("password reset refused: too many for one address, from %s", address)
            return redirect(self.get_success_url())
        users = [user.pk for user in form.get_users(email)]
        logger.info("password reset requested from %s for user(s) %s", address, users)
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    form_class = FirstPasswordForm

    def form_valid(self, form: SetPasswordForm[User]) -> HttpResponse:
        # The form is shown only for a valid link, which set self.user.
        user = cast(User, self.user)
        logger.info("password reset by e-mail link for user %s", user.pk)
        return super().form_valid(form)


# --- teachers who sign up themselves ---------------------------------------------------------


def teacher_signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if request.method == "POST":
        # Before the form checks the name: an expired sign-up no longer holds it.
        services.purge_unverified_teachers()
    form = TeacherSignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        address = throttle.address_of(request)
        if not throttle.allow(throttle.SIGNUP_PER_ADDRESS, address):
            logger.warning("teacher sign-up refused: too many from %s", address)
            return throttle.too_many_requests(request)
        data = services.TeacherSignup(
            name=form.cleaned_data["name"],
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
        )
        try:
            services.signup_teacher(data, link=request.build_absolute_uri)
        except ValidationError as error:
            form.add_error("password2" if error.code != "unique" else "username", error)
        except MailError:
            form.add_error(
                None,
                _(
                    "The e-mail with your link could not be sent, so no account was made. "
                    "Please try again later."
                ),
            )
        else:
            request.session["signup_email"] = data.email
            return redirect("teacher_signup_sent")
    return render(
        request,
        "accounts/teacher_signup.html",
        {"form": form, "approval_by_admin": settings.JASS_TEACHER_APPROVAL == "admin"},
    )


def teacher_signup_sent(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "accounts/teacher_signup_sent.html",
        {
            "email": request.session.pop("signup_email", ""),
            "days": settings.JASS_EMAIL_VERIFICATION_MAX_AGE // 86400,
        },
    )


@never_cache
def verify_email(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """The link from the sign-up mail. Opening it shows a button; only the button's
    post confirms, so a mail scanner that opens links confirms nothing."""
    user = services.user_from_uid(uidb64)
    valid = services.verification_valid(user, token)
    if request.method == "POST" and valid and user is not None:  # valid: never None
        user = services.verify_teacher_email(user, link=request.build_absolute_uri)
        return render(request, "accounts/verify_email.html", {"done": True, "account": user})
    status = 200 if valid or request.method == "GET" else 400
    context = {"valid": valid, "account": user if valid else None}
    return render(request, "accounts/verify_email.html", context, status=status)


@login_required
def teacher_pending(request: AuthedRequest) -> HttpResponse:
    if not request.user.is_pending_teacher:
        return redirect("home")
    return render(request, "accounts/teacher_pending.html")
