"""The link that confirms a teacher's e-mail address.

Django's password-reset tokens, with their own salt and age limit: the token is an
HMAC of the account's id, address and verification state with a timestamp, so it
stops working once the address is confirmed (or changed) and after
``JASS_EMAIL_VERIFICATION_MAX_AGE`` seconds.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.utils.crypto import constant_time_compare
from django.utils.http import base36_to_int

from tutor.accounts.models import User


class EmailVerificationTokenGenerator(PasswordResetTokenGenerator):
    key_salt = "tutor.accounts.tokens.EmailVerificationTokenGenerator"

    def _make_hash_value(self, user: User, timestamp: int) -> str:
        verified = user.email_verified_at
        state = "" if verified is None else verified.replace(microsecond=0, tzinfo=None)
        return f"{user.pk}{user.email}{state}{user.is_active}{timestamp}"

    def check_token(self, user: User | None, token: str | None) -> bool:
        """Django's check, with this token's own age limit instead of the reset's."""
        if not (user and token):
            return False
        try:
            ts_b36, _hash = token.split("-")
            ts = base36_to_int(ts_b36)
        except ValueError:
            return False
        if not any(
            constant_time_compare(self._make_token_with_timestamp(user, ts, secret), token)
            for secret in [self.secret, *self.secret_fallbacks]
        ):
            return False
        age = self._num_seconds(self._now()) - ts
        return 0 <= age <= settings.JASS_EMAIL_VERIFICATION_MAX_AGE


email_verification_token = EmailVerificationTokenGenerator()
