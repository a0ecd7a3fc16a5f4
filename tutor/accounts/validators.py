"""What a user name, a password and a class or assignment name may look like.

User names (sign-up and ``createteacher``) are normalised with Unicode NFKC, as Django
does, and then must satisfy a restricted profile in the sense of Unicode TR39: Latin
letters (with accents, as in "Jürg" or "Zoë"), the digits 0-9, and ``.``, ``-``, ``_``
between them. That alone refuses the Cyrillic "аnna", full-width letters, invisible
characters and "anna.". Within what is left, :func:`lookalike_keys` is a TR39-style
skeleton: two names look alike when they differ only in case, accents, separators, or
characters Unicode's confusables data calls confusable (``0``/``O``, ``1``/``l``/``I``,
``rn``/``m``, ``vv``/``w``, ``cl``/``d``); the Greek and Cyrillic letters that
confusables data maps to Latin ones are folded too, for names made before this rule.

Passwords must have at least eight visible characters and more visible than blank ones.

Class and assignment names lose invisible characters (zero-width, bidi controls) and
surrounding blanks; a name with nothing visible left is refused.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from django.contrib.auth.hashers import check_password, is_password_usable
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# --- visible and invisible characters -------------------------------------------------

# Letters and symbols that render as blank space although Unicode does not call them
# spaces: Hangul fillers, the Braille blank, the Khmer inherent vowels.
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
# Format characters that stay inside a name: they join letters (emoji sequences, Indic
# and Persian text). Every other format character (zero-width space, bidi overrides,
# soft hyphen, word joiner, byte-order mark) is removed.
_JOINERS = frozenset("\u200c\u200d")


def is_blank(ch: str) -> bool:
    """Renders as nothing or as white space (spaces, controls, format characters)."""
    return ch.isspace() or ch in _BLANK_LOOKING or unicodedata.category(ch)[0] in "CZ"


def visible_count(text: str) -> int:
    """How many characters show something (combining marks need a base, so not them).

    >>> visible_count(" \\u200b\\u200b a\\u0301 \\u3164")
    1
    """
    return sum(
        1 for ch in text if not is_blank(ch) and unicodedata.category(ch) not in ("Mn", "Me")
    )


def clean_display_name(text: str) -> str:
    """A class or assignment name as it is stored: no invisible characters, no blank
    ends, blank runs inside as one space. Raises ``ValidationError`` when nothing
    visible is left.

    >>> clean_display_name("  Klasse\\u200b 4a\\u202e \\u00a0")
    'Klasse 4a'
    """
    kept = []
    for ch in unicodedata.normalize("NFC", text):
        if unicodedata.category(ch) == "Cf" and ch not in _JOINERS:
            continue  # invisible: gone
        kept.append(" " if is_blank(ch) and ch not in _JOINERS else ch)
    cleaned = " ".join("".join(kept).split()).strip(" " + "".join(_JOINERS))
    if visible_count(cleaned) == 0:
        raise ValidationError(
            _("Enter a name with visible letters, digits or symbols, not only blank space."),
            code="blank",
        )
    return cleaned


# --- passwords ------------------------------------------------------------------------


class VisiblePasswordValidator:
    """Refuse blank and mostly blank passwords (eight spaces are eight characters).

    At least ``min_visible`` characters must be visible, and more than are blank.
    """

    def __init__(self, min_visible: int = 8) -> None:
        self.min_visible = min_visible

    def validate(self, password: str, user: object = None) -> None:
        visible = visible_count(password)
        if visible < self.min_visible or visible <= len(password) - visible:
            raise ValidationError(self.get_help_text(), code="password_mostly_blank")

    def get_help_text(self) -> str:
        return ngettext(
            "Your password needs at least %(min)d visible character, more than it has "
            "spaces or other blank characters.",
            "Your password needs at least %(min)d visible characters, more than it has "
            "spaces or other blank characters.",
            self.min_visible,
        ) % {"min": self.min_visible}


def validate_new_password(password: str, user: object) -> None:
    """Refuse, as a new password, the one the account has now.

    A pupil's first password replaces the one-time password printed on the login card,
    which the teacher (and whoever saw the card) knows: keeping it would make the account
    look like any other while somebody else still holds its password. The same holds for
    a change and a reset. A user without a usable password is not checked. The check
    costs one password hash, like the login it replaces. (A password equal to the user
    name is refused by Django's UserAttributeSimilarityValidator, in settings.)
    """
    encoded = getattr(user, "password", None)
    if not encoded or not is_password_usable(encoded):
        return
    # hashers.check_password, not user.check_password: no setter, so checking a
    # candidate can never re-hash and save the stored password.
    if check_password(password, encoded):
        raise ValidationError(
            _("Choose a new password: this is the password the account has now."),
            code="password_unchanged",
        )


# --- user names -----------------------------------------------------------------------

SEPARATORS = "._-"
# Latin letters without a decomposition into an ASCII letter and accents.
_OTHER_LATIN = frozenset("ßæœøłđÆŒØŁĐ")
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _is_latin_letter(ch: str) -> bool:
    if ch in _ASCII_LETTERS or ch in _OTHER_LATIN:
        return True
    parts = unicodedata.normalize("NFD", ch)
    return (
        len(parts) > 1
        and parts[0] in _ASCII_LETTERS
        and all(unicodedata.category(mark) == "Mn" for mark in parts[1:])
    )


def _allowed(ch: str) -> bool:
    return _is_latin_letter(ch) or ch in "0123456789" or ch in SEPARATORS


def normalise_username(name: str) -> str:
    return unicodedata.normalize("NFKC", name)


def validate_username_profile(name: str) -> None:
    """Latin letters, digits, and ``.-_`` between them (after NFKC).

    >>> validate_username_profile("jürg_meier-2")
    >>> for name in ("\\u0430nna", "anna.", "an..na", "anna@home"):
    ...     try:
    ...         validate_username_profile(name)
    ...     except ValidationError as error:
    ...         print(error.code)
    username_characters
    username_separators
    username_separators
    username_characters
    """
    name = normalise_username(name)
    if not all(_allowed(ch) for ch in name):
        raise ValidationError(
            _(
                "Use only letters (a to z, also with accents such as ä or é), digits and "
                ". - _ in a user name."
            ),
            code="username_characters",
        )
    if (
        name[:1] in SEPARATORS
        or name[-1:] in SEPARATORS
        or any(a in SEPARATORS and b in SEPARATORS for a, b in zip(name, name[1:], strict=False))
    ):
        raise ValidationError(
            _(
                "A user name starts and ends with a letter or digit, and has no two of "
                ". - _ in a row."
            ),
            code="username_separators",
        )


# Confusable with Latin letters according to Unicode's confusables data (TR39), applied
# before case folding because some look alike only as capitals (Cyrillic В, Н, М).
_TO_LATIN = str.maketrans(
    {
        **dict(zip("АВЕЗКМНОРСТУХЅЈЬӔҮѴ", "ABE3KMHOPCTYXSJbÆYV", strict=True)),
        **dict(zip("аеорсухѕіјһԁԛԝүҽѵѡӕбг", "aeopcyxsijhdqwyevwæ6r", strict=True)),
        **dict(zip("ΑΒΕΖΗΚΜΝΟΡΤΥΧϒϺϹϜ", "ABEZHKMNOPTYXYMCF", strict=True)),
        **dict(zip("αγιοσρϱυνϲϳ", "ayiooppuvcj", strict=True)),
        # Capital i and what looks like it; see lookalike_keys for why "I" stays here.
        **dict.fromkeys("ΙІӀ|", "I"),
        "ӏ": "i",
        "0": "O",
        "1": "I",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
    }
)
_SEQUENCES = (("rn", "m"), ("vv", "w"), ("cl", "d"))


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFD", text.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch) and ch not in SEPARATORS)
    for sequence, single in _SEQUENCES:
        text = text.replace(sequence, single)
    return text


@functools.lru_cache(maxsize=65536)
def lookalike_keys(name: str) -> frozenset[str]:
    """Skeletons of a name: two names look alike when their keys overlap.

    A capital I reads as a lower-case l in many fonts, but "Iris" must still clash with
    "iris": so a name with an I has two keys, one reading it as l, one as i.

    >>> sorted(lookalike_keys("Ian"))
    ['ian', 'lan']
    >>> lookalike_keys("\\u0430nna") == lookalike_keys("anna") == lookalike_keys("An.na")
    True
    >>> lookalike_keys("Bern") & lookalike_keys("bem")
    frozenset({'bem'})
    """
    text = normalise_username(name).translate(_TO_LATIN)
    return frozenset({_fold(text.replace("I", "l")), _fold(text)})


def find_lookalike(name: str, existing: Iterable[str]) -> str | None:
    """The first of ``existing`` that looks like ``name`` (``None`` when none does)."""
    keys = lookalike_keys(name)
    for other in existing:
        if keys & lookalike_keys(other):
            return other
    return None


def validate_new_username(name: str, existing: Iterable[str]) -> None:
    """The profile, then no look-alike of an existing name (``existing``: all names).

    The comparison reads every user name: per 10,000 accounts about 35 ms the first
    time in a worker process, a few ms later (the keys are cached), next to the
    0.3-0.5 s that the new account's password hash costs anyway.
    """
    validate_username_profile(name)
    if find_lookalike(name, existing) is not None:
        raise ValidationError(
            _(
                "This user name looks too much like one that exists already. Choose a "
                "clearly different name, for example with your surname or a number."
            ),
            code="username_lookalike",
        )
