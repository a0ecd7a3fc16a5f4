from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.debug import sensitive_variables

from tutor.core.decks import Deck
from tutor.core.middleware import after_response

from .models import User
from .names import PERSON_NAME_MAX_LENGTH, clean_person_name
from .services import password_chosen
from .validators import validate_new_password, validate_new_username


class LoginForm(AuthenticationForm):
    """Django's login form, with the name's length checked on the server too.

    ``AuthenticationForm`` sets the name field's ``max_length`` after the field is built,
    so only the browser enforces it: a longer name went on to ``authenticate()``, and
    django-axes then wrote it into its 255-character column (a 500 on PostgreSQL). Such
    a name cannot belong to an account; it is refused as a field error instead."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The name field is Django's UsernameField, a CharField; `fields` says Field.
        field = cast(forms.CharField, self.fields["username"])
        field.validators.append(MaxLengthValidator(field.max_length))


class SignupForm(UserCreationForm):
    """A learner's own account (the class app adds the join code)."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = _(
            "Letters, digits and . - _ (not at the start or end); at most 150 characters."
        )

    def clean_username(self) -> str:
        """Django's checks (NFKC, no name differing only in case), then ours: the
        character profile and no look-alike of an existing name (validators.py)."""
        username = super().clean_username()
        if username:
            # QuerySet.iterator() is a generator (closed below); the stubs say Iterator.
            existing = cast(
                Generator[str, None, None],
                User.objects.values_list("username", flat=True).iterator(),
            )
            try:
                validate_new_username(username, existing)
            finally:
                # A look-alike stops the loop early; on PostgreSQL the server-side
                # cursor must be closed now, while its transaction is alive: closed
                # at garbage collection, after a savepoint's rollback, the CLOSE
                # fails and aborts the request's transaction.
                existing.close()
        return username


class TeacherSignupForm(SignupForm):
    """A teacher's own account: a name and an e-mail address that gets the
    verification link (services.signup_teacher)."""

    name = forms.CharField(
        label=_("Your name"),
        max_length=PERSON_NAME_MAX_LENGTH + 20,  # blanks around it are dropped
        help_text=_("As your pupils and the site's administrator know you."),
    )
    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        help_text=_("We send a link to it that confirms the address."),
    )

    field_order = ["name", "username", "email", "password1", "password2"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The form starts with the name, so the cursor does too (Django puts it on the
        # user name).
        self.fields["username"].widget.attrs.pop("autofocus", None)
        self.fields["name"].widget.attrs["autofocus"] = True

    def clean_name(self) -> str:
        return clean_person_name(self.cleaned_data["name"])

    def clean_email(self) -> str:
        return User.objects.normalize_email(self.cleaned_data["email"])


if TYPE_CHECKING:
    # The mixin goes before SetPasswordForm or PasswordChangeForm (a SetPasswordForm);
    # the type checker sees that base, the running code a plain mixin.
    _PasswordFormBase = SetPasswordForm[User]
else:
    _PasswordFormBase = object


class NewPasswordMixin(_PasswordFormBase):
    """A new password must differ from the current one (``validate_new_password``);
    saving it is :func:`~tutor.accounts.services.password_chosen`."""

    def save(self, commit: bool = True) -> User:
        password: str = self.cleaned_data["new_password1"]
        return password_chosen(self.user, password, commit=commit)

    @sensitive_variables("password")
    def validate_password_for_user(
        self, user: User, password_field_name: str = "new_password2"
    ) -> None:
        super().validate_password_for_user(user, password_field_name)
        password = self.cleaned_data.get(password_field_name)
        if password and not self.has_error(password_field_name):
            try:
                validate_new_password(password, user)
            except ValidationError as error:
                self.add_error(password_field_name, error)


class FirstPasswordForm(NewPasswordMixin, SetPasswordForm):
    """A password of one's own instead of a one-time password, or after a reset by
    e-mail: no old password asked (the one-time password or the link proved it)."""


class OwnPasswordChangeForm(NewPasswordMixin, PasswordChangeForm):
    """Django's change form (the current password asked), saved like the others."""


class ResetForm(PasswordResetForm):
    """Django's reset form, but the mail leaves after the response: the request then
    costs the same whether or not the address has an account, so its timing does not
    tell (with a real SMTP server, sending takes a while)."""

    def send_mail(self, *args: Any, **kwargs: Any) -> None:
        language = translation.get_language()
        parent = super().send_mail

        def send() -> None:
            with translation.override(language):
                parent(*args, **kwargs)

        after_response(send)


class DeckForm(forms.Form):
    deck = forms.ChoiceField(label=_("Deck"), choices=Deck.choices)
    next = forms.CharField(required=False, max_length=2000)
