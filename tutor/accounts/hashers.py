"""Password hashing: Argon2id with Django's memory and time cost, in one lane."""

from __future__ import annotations

from django.contrib.auth.hashers import Argon2PasswordHasher


class Argon2idOneLaneHasher(Argon2PasswordHasher):
    """Django's Argon2id (100 MiB, two passes) computed in one lane instead of eight.

    Eight lanes run as eight threads and take every core of a small server for the
    duration of a hash, so while a class logs in every other request waits. One lane
    is the shape OWASP recommends (its minimum is 19 MiB, two passes); it keeps a
    login to one core. Measured on the 2-core benchmark machine with 50 learners
    logging in over 20 s: p95 of the lesson page 156-174 -> 116-127 ms, of starting an
    assignment 160-163 -> 118-119 ms; the login itself 338-452 -> 506-511 ms.

    The encoded form is standard (``argon2$argon2id$v=19$m=102400,t=2,p=1$...``);
    hashes made with other parameters still verify and are redone at the next login.

    >>> Argon2idOneLaneHasher().encode("x", "salt" * 4).split("$")[3]
    'm=102400,t=2,p=1'
    """

    parallelism = 1


class OneTimePasswordHasher(Argon2idOneLaneHasher):
    """For the generated one-time passwords of login cards only (never for a password
    a person chose): OWASP's minimum Argon2id, 19 MiB and two passes.

    A class list of 40 pupils needs 40 hashes in one request: at Django's cost that is
    about 25 s on the 2-core benchmark machine (0.63 s each), here about 2 s (0.05 s).
    The weaker hash is enough because these passwords are random (10 characters of 31,
    about 49 bits), not guessable words, and live only until the first login, where
    the owner must choose their own (hashed at the full cost). The encoded form says
    its parameters, so the site's default hasher verifies it.

    >>> OneTimePasswordHasher().encode("x", "salt" * 4).split("$")[3]
    'm=19456,t=2,p=1'
    """

    memory_cost = 19456
    time_cost = 2
