"""Texts read from the active language's catalogue found once per drawing (issue 24).

Django's ``gettext`` finds the active catalogue again on every call, through asgiref's
``Local`` (2-3 µs a call, about as much as the lookup in the catalogue ten times over);
drawing a question's feedback asks for some sixty texts and labels. Within
:func:`catalogue_bound`, which every Jinja2 template's ``render`` enters
(:class:`tutor.core.jinja.BoundTemplate`), the functions here read the catalogue found on
entry; outside it they are Django's own. The results are the same either way: the same
catalogue, read by the same rules as Django's functions (an empty message, a
``SafeData`` message, the context separator of ``pgettext``). Inside, the language must
not change: nothing that draws a card or a round switches it (``translation.override``
belongs around a drawing, not inside one).

>>> from django.utils import translation
>>> with translation.override("de"), catalogue_bound():
...     gettext("Right!"), get_language()
('Richtig!', 'de')
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import trans_real

# The catalogue found on entering catalogue_bound(); None outside it.
_BOUND: ContextVar[Any] = ContextVar("tutor_bound_catalogue", default=None)


@contextmanager
def catalogue_bound() -> Iterator[None]:
    """Within: :func:`gettext` and the others read the active language's catalogue,
    found once here. Nests; without translations (``USE_I18N`` off) it binds nothing."""
    if not settings.USE_I18N:
        yield
        return
    token = _BOUND.set(trans_real.catalog())
    try:
        yield
    finally:
        _BOUND.reset(token)


def gettext(message: str) -> str:
    """Django's :func:`~django.utils.translation.gettext`."""
    catalogue = _BOUND.get()
    if catalogue is None:
        return translation.gettext(message)
    text = message.replace("\r\n", "\n").replace("\r", "\n")
    # An empty message gives an empty text, not the catalogue's header (as Django).
    result: str = catalogue.gettext(text) if text else type(message)("")
    return mark_safe(result) if isinstance(message, SafeData) else result


def pgettext(context: str, message: str) -> str:
    """Django's :func:`~django.utils.translation.pgettext`."""
    if _BOUND.get() is None:
        return translation.pgettext(context, message)
    result = gettext(f"{context}{trans_real.CONTEXT_SEPARATOR}{message}")
    if trans_real.CONTEXT_SEPARATOR in result:  # not in the catalogue
        return message
    return mark_safe(result) if isinstance(message, SafeData) else result


def ngettext(singular: str, plural: str, number: int) -> str:
    """Django's :func:`~django.utils.translation.ngettext`."""
    catalogue = _BOUND.get()
    if catalogue is None:
        return translation.ngettext(singular, plural, number)
    result: str = catalogue.ngettext(singular, plural, number)
    return result


def get_language() -> str | None:
    """Django's :func:`~django.utils.translation.get_language`."""
    catalogue = _BOUND.get()
    if catalogue is None:
        return translation.get_language()
    try:
        language: str | None = catalogue.to_language()
    except AttributeError:  # not a translation of Django's (as Django)
        return str(settings.LANGUAGE_CODE)
    return language
