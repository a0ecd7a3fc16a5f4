"""The one path converter for numbers in URLs: ids and positions.

Django's ``int`` converter takes any number of digits, and an id of 2^63 or more
cannot be bound by SQLite (OverflowError, a 500) nor stored by PostgreSQL's bigint.
``<id:...>`` takes what a database id can be, 0 to 2^63 - 1, and anything larger
does not match the route at all: a 404, before any view or query runs.

It is registered once, in ``tutor/urls.py``, and every ``urls.py`` uses it for every
number (a test walks the resolver and refuses ``<int:...>``).
"""

from __future__ import annotations

import re
from typing import Any

MAX_ID = 2**63 - 1  # the largest BigAutoField value, and SQLite's largest INTEGER
ID_DIGITS = "[0-9]{1,19}"


def is_id(value: Any) -> bool:
    """Whether ``value`` (as text) is an id a database can hold: 0 to 2^63 - 1.

    >>> is_id("42"), is_id(str(MAX_ID)), is_id(str(MAX_ID + 1)), is_id("-1"), is_id("٣")
    (True, True, False, False, False)
    """
    text = str(value)
    return re.fullmatch(ID_DIGITS, text) is not None and int(text) <= MAX_ID


class IdConverter:
    regex = ID_DIGITS

    def to_python(self, value: str) -> int:
        if not is_id(value):
            raise ValueError(f"{value} is beyond the largest id")  # the route does not match
        return int(value)

    def to_url(self, value: int) -> str:
        number = int(value)
        if not 0 <= number <= MAX_ID:
            raise ValueError(f"{value} is not an id")
        return str(number)
