"""Account creation and passwords. Learners sign up themselves or get an account from
their teacher (classroom/roster.py); teachers sign up with a verified e-mail address
or are made by an administrator."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _

from . import mail
from .hashers import OneTimePasswordHasher
from .models import Role, User
from .names import split_name
from .throttle import forget_failures
from .tokens import email_verification_token
from .validators import normalise_username, validate_new_username

logger = logging.getLogger("tutor.accounts.security")

# No i, l, o, 0 or 1: a pupil copies the password from a paper card.
ONE_TIME_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
ONE_TIME_LENGTH = 10

# Builds an absolute URL of this site from a path (request.build_absolute_uri).
LinkBuilder = Callable[[str], str]


@transaction.atomic
def signup_learner(*, username: str, password: str) -> User:
    """Create a learner (the class app's sign-up also puts them in a class)."""
    user = User(username=username, role=Role.LEARNER)
    validate_password(password, user)
    user.set_password(password)
    user.save()
    return user


def create_teacher(*, username: str, password: str, email: str = "") -> User:
    """Make a teacher account under the sign-up rules for the name and the password.

    Raises ``ValidationError`` for a name outside the profile, a name that exists or
    looks like one that does, or a password the validators refuse.
    """
    username = normalise_username(username)
    existing = list(User.objects.values_list("username", flat=True))
    if username in existing:
        raise ValidationError(_("A user with that username already exists."), code="unique")
    validate_new_username(username, existing)
    user = User(username=username, email=email, role=Role.TEACHER)
    validate_password(password, user)
    user.set_password(password)
    user.save()
    return user


# --- one-time passwords (login cards) ----------------------------------------------------


def generate_one_time_password() -> str:
    """Ten characters from 31 that cannot be mistaken for each other (about 49 bits),
    in two groups of five for reading off a card: ``k7mpx-3ahru``."""
    raw = "".join(secrets.choice(ONE_TIME_ALPHABET) for _ in range(ONE_TIME_LENGTH))
    return f"{raw[:5]}-{raw[5:]}"


def give_one_time_password(user: User) -> str:
    """Give ``user`` a new one-time password (unsaved) and return it in clear: the only
    time it exists outside the hash. The owner must replace it at the next login."""
    password = generate_one_time_password()
    user.password = make_password(password, hasher=OneTimePasswordHasher())
    user.must_set_password = True
    return password


def new_pupil(*, username: str, first_name: str, last_name: str) -> tuple[User, str]:
    """An unsaved learner account without e-mail and its one-time password."""
    user = User(username=username, first_name=first_name, last_name=last_name, role=Role.LEARNER)
    return user, give_one_time_password(user)


def reset_by_teacher(user: User) -> str:
    """A new one-time password for a pupil (the teacher checked the class). The old
    password and every session of the pupil stop working; a lockout of the name from
    wrong guesses is lifted, since the pupil gets a password they can type."""
    password = give_one_time_password(user)
    user.save(update_fields=["password", "must_set_password"])
    forget_failures(user.get_username())
    logger.info("one-time password reset for user %s", user.pk)
    return password


def password_chosen(user: User, password: str, *, commit: bool = True) -> User:
    """The owner chose ``password`` (at the first login, a change, or a reset by mail):
    no one-time password is left, and guesses of the old password no longer count
    toward a lockout of the name, so the owner can log in at once. ``commit=False``
    (Django's form API) leaves saving to the caller."""
    user.set_password(password)
    user.must_set_password = False
    if commit:
        user.save()
        forget_failures(user.get_username())
    return user


# --- teachers who sign up themselves -------------------------------------------------------


@dataclass(frozen=True)
class TeacherSignup:
    name: str
    username: str
    email: str
    password: str


def _site(link: LinkBuilder) -> str:
    return urlsplit(link("/")).netloc


def _login_link(link: LinkBuilder, username: str) -> str:
    return link(reverse("login") + "?" + urlencode({"u": username}))


def _verification_link(link: LinkBuilder, user: User) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = email_verification_token.make_token(user)
    return link(reverse("verify_email", args=[uid, token]))


def _unverified() -> dict[str, object]:
    return {"role": Role.PENDING_TEACHER, "is_active": False, "email_verified_at": None}


def purge_unverified_teachers(now: datetime | None = None) -> int:
    """Delete sign-ups whose verification link has expired: their user names and
    addresses are free again, and nothing of them is kept."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.JASS_EMAIL_VERIFICATION_MAX_AGE)
    deleted, _rows = User.objects.filter(**_unverified(), date_joined__lt=limit).delete()
    return deleted


def signup_teacher(data: TeacherSignup, *, link: LinkBuilder) -> User | None:
    """Make an unverified teacher account and mail the verification link.

    When the address belongs to an account already, nothing is made: that address
    gets a mail naming the account (with a new verification link if it was never
    verified), and the caller shows the same "check your mail" page, so the form does
    not tell anyone which addresses have accounts. Raises ``ValidationError`` for a
    password the validators refuse or a name taken meanwhile, ``mail.MailError`` when
    the mail cannot be sent (then nothing is kept).
    """
    existing = list(User.objects.filter(email__iexact=data.email).order_by("pk"))
    if existing:
        _mail_existing_accounts(existing, data.email, link)
        return None
    first, last = split_name(data.name)
    user = User(
        username=data.username,
        first_name=first,
        last_name=last,
        email=data.email,
        role=Role.PENDING_TEACHER,
        is_active=False,
    )
    validate_password(data.password, user)
    user.set_password(data.password)
    try:
        with transaction.atomic():
            user.save()
            context = {
                "name": user.display_name,
                "username": user.username,
                "link": _verification_link(link, user),
                "days": settings.JASS_EMAIL_VERIFICATION_MAX_AGE // 86400,
                "site": _site(link),
            }
            mail.send("verify", context, [user.email])
    except IntegrityError:
        raise ValidationError(
            _("A user with that username already exists."), code="unique"
        ) from None
    logger.info("teacher sign-up: user %s, verification mail sent", user.pk)
    return user


def _mail_existing_accounts(users: list[User], email: str, link: LinkBuilder) -> None:
    unverified = [u for u in users if u.is_pending_teacher and u.email_verified_at is None]
    if unverified:
        # The new link lives as long as the account: purge counts from date_joined.
        User.objects.filter(pk=unverified[0].pk).update(date_joined=timezone.now())
    context = {
        "usernames": [u.username for u in users],
        "verify_link": _verification_link(link, unverified[0]) if unverified else "",
        "reset_link": link(reverse("password_reset")),
        "site": _site(link),
    }
    mail.send("already_registered", context, [email])
    logger.info("teacher sign-up with the address of user(s) %s", [u.pk for u in users])


def user_from_uid(uidb64: str) -> User | None:
    try:
        return User.objects.get(pk=int(force_str(urlsafe_base64_decode(uidb64))))
    except (ValueError, OverflowError, TypeError, User.DoesNotExist):
        return None


def verification_valid(user: User | None, token: str) -> bool:
    return (
        user is not None
        and user.is_pending_teacher
        and email_verification_token.check_token(user, token)
    )


@transaction.atomic
def verify_teacher_email(user: User, *, link: LinkBuilder) -> User:
    """Confirm the address (the caller checked the token): the account is active, and
    a teacher at once or after an administrator's approval (JASS_TEACHER_APPROVAL)."""
    user.email_verified_at = timezone.now()
    user.is_active = True
    if settings.JASS_TEACHER_APPROVAL == "auto":
        user.role = Role.TEACHER
    user.save(update_fields=["email_verified_at", "is_active", "role"])
    logger.info("teacher e-mail verified: user %s (%s)", user.pk, user.role)
    if user.is_pending_teacher:
        _tell_administrators(user, link)
    return user


def _tell_administrators(user: User, link: LinkBuilder) -> None:
    """Mail the administrators with an address that a teacher waits for approval. A
    failure is logged only: the teacher's verification stands, and the admin's list of
    pending teachers shows them anyway."""
    admins = list(
        User.objects.filter(is_superuser=True, is_active=True)
        .exclude(email="")
        .values_list("email", flat=True)
    )
    if not admins:
        return
    context = {
        "name": user.display_name,
        "username": user.username,
        "email": user.email,
        "admin_link": link(
            reverse("admin:accounts_user_changelist") + "?role__exact=" + Role.PENDING_TEACHER
        ),
        "site": _site(link),
    }
    try:
        mail.send("teacher_waiting", context, admins, every_language=True)
    except mail.MailError:
        logger.warning("administrators not told about pending teacher %s", user.pk)


def approve_teachers(users: Iterable[User], *, link: LinkBuilder) -> tuple[list[User], list[User]]:
    """Make verified pending teachers teachers and mail each of them. Returns (approved,
    skipped): accounts not waiting for approval (unverified, or not pending) are left as
    they are. A mail that fails is logged; the approval stands."""
    approved, skipped = [], []
    for user in users:
        if not user.is_pending_teacher or user.email_verified_at is None or not user.is_active:
            skipped.append(user)
            continue
        user.role = Role.TEACHER
        user.save(update_fields=["role"])
        approved.append(user)
        logger.info("teacher approved: user %s", user.pk)
        context = {
            "name": user.display_name,
            "username": user.username,
            "login_link": _login_link(link, user.username),
            "site": _site(link),
        }
        try:
            mail.send("approved", context, [user.email], every_language=True)
        except mail.MailError:
            logger.warning("approval mail to user %s failed", user.pk)
    return approved, skipped
