"""Form fields that take database ids from a request.

Django's model choice fields pass whatever digits arrive straight into a query, and a
number of 2^63 or more cannot be bound by SQLite (OverflowError) nor compared with
PostgreSQL's bigint (DataError): a 500 instead of the form's own message. These
fields refuse such a value first, with the field's ``invalid_pk_value`` message.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from .converters import is_id

__all__ = ["IdMultipleChoiceField"]


class IdMultipleChoiceField(forms.ModelMultipleChoiceField):
    """A ``ModelMultipleChoiceField`` whose values must be ids a database can hold."""

    def _check_values(self, value: Iterable[Any]) -> Any:
        for pk in value:
            if not is_id(pk):
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        # A private method of Django's (the one that looks the ids up); django-stubs
        # does not declare it.
        return super()._check_values(value)  # type: ignore[misc]
