"""People's names (a pupil on a class list, a teacher signing up) and the user names
made from them.

A name is stored as Django's first and last name. It is checked like a class name
(no invisible characters, something visible; validators.py) and must have a letter
and at most :data:`PERSON_NAME_MAX_LENGTH` characters.

A user name made from a name is ASCII: German umlauts become two letters, as Swiss
schools write them in e-mail addresses (Jürg -> juerg), other accents are dropped
(Zoë -> zoe). Uniqueness and look-alikes are the caller's (classroom/roster.py).
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .validators import clean_display_name

PERSON_NAME_MAX_LENGTH = 100
# The first name's part of a generated user name; the rest of a long name is dropped.
USERNAME_HEAD_LENGTH = 24
# When a name has no Latin letter to make a user name from (e.g. written in Cyrillic).
FALLBACK_USERNAME = "pupil"

_FOLD = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l"}
_FOLD.update({"đ": "d", "ð": "d", "þ": "th", "ı": "i"})


def clean_person_name(text: str) -> str:
    """A person's name as stored: like a class name, with a letter, not too long.

    >>> clean_person_name("  Anna\\u200b  Meier ")
    'Anna Meier'
    >>> try:
    ...     clean_person_name("---")
    ... except ValidationError as error:
    ...     print(error.code)
    name_letters
    """
    name = clean_display_name(text)
    if not any(unicodedata.category(ch).startswith("L") for ch in name):
        raise ValidationError(_("A name needs at least one letter."), code="name_letters")
    if len(name) > PERSON_NAME_MAX_LENGTH:
        raise ValidationError(
            _("A name has at most %(max)d characters.") % {"max": PERSON_NAME_MAX_LENGTH},
            code="name_length",
        )
    return name


def split_name(name: str) -> tuple[str, str]:
    """(first name, last name) of a cleaned name: "Last, First" with a comma, else the
    last word is the last name.

    >>> split_name("Anna Maria Meier"), split_name("Meier, Anna"), split_name("Anna")
    (('Anna Maria', 'Meier'), ('Anna', 'Meier'), ('Anna', ''))
    """
    if "," in name:
        last, _comma, first = name.partition(",")
        first, last = first.strip(), last.strip()
        return (first, last) if first and last else (first or last, "")
    words = name.split(" ")
    if len(words) == 1:
        return name, ""
    return " ".join(words[:-1]), words[-1]


def ascii_fold(text: str) -> str:
    """Lower-case ASCII letters and digits of ``text``; everything else as it is.

    >>> ascii_fold("Jürg Zoë ÆSØP François Straße")
    'juerg zoe aesop francois strasse'
    """
    out = []
    for ch in unicodedata.normalize("NFC", text).casefold():
        if ch in _FOLD:
            out.append(_FOLD[ch])
        elif ch.isascii():
            out.append(ch)
        else:
            base = unicodedata.normalize("NFKD", ch)
            out.append("".join(c for c in base if c.isascii()) or ch)
    return "".join(out)


def username_base(first_name: str, last_name: str) -> str:
    """The readable part of a generated user name: first name, a dot, the last name's
    initial ("anna.m"); the caller adds a number when that is taken.

    >>> username_base("Anna-Lena", "Müller"), username_base("Jürg", ""), username_base("Анна", "Ли")
    ('anna-lena.m', 'juerg', 'pupil')
    """
    words = first_name.split()
    head = ascii_fold(words[0]) if words else ""
    head = re.sub(r"[^a-z0-9]+", "-", head).strip("-")[:USERNAME_HEAD_LENGTH].strip("-")
    if not head:
        return FALLBACK_USERNAME
    initial = next((ch for ch in ascii_fold(last_name) if ch.isascii() and ch.isalnum()), "")
    return f"{head}.{initial}" if initial else head
