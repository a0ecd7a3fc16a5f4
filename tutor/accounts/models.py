from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tutor.core.decks import Deck


class Role(models.TextChoices):
    LEARNER = "learner", _("Learner")
    TEACHER = "teacher", _("Teacher")
    # Signed up as a teacher and not (yet) approved: neither a learner nor a teacher,
    # so every page of either role is closed (see middleware.py for what they see).
    PENDING_TEACHER = "pending_teacher", _("Teacher, awaiting approval")


class User(AbstractUser):
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.LEARNER)
    # Empty: the deck of the language the person reads (the French deck in French, the
    # Swiss-German one otherwise; tutor.core.context_processors.current_deck) until they
    # choose one. Accounts made before French kept the Swiss deck they had.
    deck = models.CharField(_("deck"), max_length=16, choices=Deck.choices, default="", blank=True)
    # Accounts a teacher made (login cards) and passwords a teacher reset: the password
    # is a one-time password the teacher has seen, so the owner must choose their own
    # before anything else (middleware.py).
    must_set_password = models.BooleanField(_("must choose a password"), default=False)
    # Teachers who signed up themselves: when they confirmed their e-mail address.
    email_verified_at = models.DateTimeField(_("e-mail address verified"), null=True, blank=True)

    @property
    def is_teacher(self) -> bool:
        return self.role == Role.TEACHER

    @property
    def is_learner(self) -> bool:
        return self.role == Role.LEARNER

    @property
    def is_pending_teacher(self) -> bool:
        return self.role == Role.PENDING_TEACHER

    @property
    def display_name(self) -> str:
        """The person's name when one is stored, else the user name."""
        return self.get_full_name() or self.username

    @property
    def shown_name(self) -> str:
        """What pages and exports call the person: the user name they log in with; for
        an account a school platform made (no password, a user name nobody chose, see
        tutor.lti) the person's name."""
        return self.username if self.has_usable_password() else self.display_name

    @property
    def name_and_username(self) -> str:
        """ "Anna Meier (anna.m)", or the user name alone when no name is stored."""
        full = self.get_full_name()
        return f"{full} ({self.username})" if full else self.username


class RateEvent(models.Model):
    """One counted request of a throttled kind (throttle.py): a password-reset request
    or a teacher sign-up. In the database, not a per-process cache, so that every
    worker counts the same events. ``key`` is a hash, never an address or e-mail in
    clear."""

    scope = models.CharField(max_length=32)
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["scope", "key", "created_at"], name="rate_event_lookup")]

    def __str__(self) -> str:
        return f"{self.scope} {self.created_at:%Y-%m-%d %H:%M}"


class UserSession(AbstractBaseSession):
    """A database session with the id of the user logged in with it (or null).

    Django's own session table holds the user only inside the encoded data, so finding
    one person's sessions (the privacy pages, deleting an account) meant decoding every
    row, and anybody could add rows. The id is written whenever the session is saved
    (``tutor.accounts.sessions.SessionStore``). It is a relation for the ORM only (the
    session and its user are read in one query, issue 24) and no constraint in the
    database, so a session saved just after its user was deleted cannot fail, and
    deleting a user removes their rows explicitly (``classroom.privacy.forget_traces``).
    """

    user = models.ForeignKey(
        "accounts.User",
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )

    class Meta(AbstractBaseSession.Meta):
        db_table = "accounts_session"

    @classmethod
    def get_session_store_class(cls) -> type[SessionBase]:
        from .sessions import SessionStore

        return SessionStore
