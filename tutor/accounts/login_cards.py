"""Login cards: what a pupil needs on paper to log in the first time.

The QR code is drawn here, on the server, as inline SVG (segno, pure Python): no
image request, no third party, and it prints sharp at any size. It holds the login
URL with the user name filled in (``?u=``), so a pupil with a tablet scans it and
types only the one-time password.
"""

from __future__ import annotations

import base64
import json
import secrets
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

import segno
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from .services import LinkBuilder


@dataclass(frozen=True)
class LoginCard:
    name: str
    username: str
    password: str
    login_url: str  # with the user name filled in, for the QR code
    host: str  # what a pupil types: the host, then the login page's path
    path: str

    @property
    def site(self) -> str:
        return self.host + self.path

    @property
    def qr_svg(self) -> SafeString:
        return qr_svg(self.login_url)


def login_card(link: LinkBuilder, *, name: str, username: str, password: str) -> LoginCard:
    login = reverse("login")
    url = link(login + "?" + urlencode({"u": username}))
    parts = urlsplit(url)
    return LoginCard(
        name=name,
        username=username,
        password=password,
        login_url=url,
        host=parts.netloc,
        path=login,
    )


def qr_svg(url: str) -> SafeString:
    """The QR code of ``url`` as an inline ``<svg>`` (sized by CSS, class ``qr``).

    It is hidden from screen readers: the card prints the address beside it.

    >>> svg = qr_svg("https://jass.example.ch/accounts/login/?u=anna.m")
    >>> svg.startswith('<svg aria-hidden="true" focusable="false" viewBox="0 0 41 41" class="qr">')
    True
    """
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(scale=1, border=4, omitsize=True, svgclass="qr", lineclass=None)
    # segno writes only the code's path; the values are ours, so the markup is safe.
    return mark_safe(svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1))  # noqa: S308


# --- from the post that makes the passwords to the cards page ----------------------------
#
# The one-time passwords must not rest in clear anywhere, not even in the teacher's
# session row (a database backup would hold them for the session's two weeks). The post
# that makes them seals them with a one-time pad: the session (in the database) gets the
# passwords XOR a random key as long as them, the teacher's browser gets the key, in a
# signed cookie that expires after ``CARD_KEY_MAX_AGE`` seconds. Either half alone says
# nothing about the passwords (a one-time pad), and once the cookie is gone the sealed
# half in the session is noise. The cards page joins the two, once, and drops both.

CARD_KEY_MAX_AGE = 5 * 60


@dataclass(frozen=True)
class Sealed:
    """Passwords sealed with a one-time pad: ``box`` for the session, ``key`` for the
    teacher's browser (both URL-safe base64 text)."""

    box: str
    key: str


def seal(passwords: list[str]) -> Sealed:
    """Seal ``passwords`` with a fresh random key as long as them.

    >>> sealed = seal(["bbvtz-2p43y", "k7mwq-x9a2c"])
    >>> unseal(sealed.box, sealed.key)
    ['bbvtz-2p43y', 'k7mwq-x9a2c']
    >>> "bbvtz" in sealed.box + sealed.key
    False
    """
    plain = json.dumps(passwords).encode("utf-8")
    key = secrets.token_bytes(len(plain))
    box = bytes(p ^ k for p, k in zip(plain, key, strict=True))
    return Sealed(box=_text(box), key=_text(key))


def unseal(box: str, key: str) -> list[str] | None:
    """The passwords again, or None when ``box`` and ``key`` do not belong together."""
    try:
        sealed, pad = base64.urlsafe_b64decode(box), base64.urlsafe_b64decode(key)
        if len(sealed) != len(pad):
            return None
        passwords = json.loads(bytes(s ^ k for s, k in zip(sealed, pad, strict=True)))
    except (ValueError, TypeError):  # bad base64, bad UTF-8 or JSON: not a pair
        return None
    if not isinstance(passwords, list) or not all(isinstance(p, str) for p in passwords):
        return None
    return passwords


def _text(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii")
