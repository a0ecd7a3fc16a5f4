"""Errors raised by the rules core.

Every public function of :mod:`rules_core` raises :class:`RulesError` (a
:class:`ValueError`) for bad input, with a message a learner can read that says
what is wrong and where. Nothing else escapes.

>>> from rules_core import Card, RulesError
>>> try:
...     Card.parse("Rosen Zwölf")
... except RulesError as err:
...     print(err)  # doctest: +NORMALIZE_WHITESPACE
cannot read 'Rosen Zwölf' as a card: unknown rank 'Zwölf'
(write a code like H7 or a name like 'Rosen Ass')
"""

from __future__ import annotations

__all__ = ["CardParseError", "IllegalPlayError", "RulesError"]


class RulesError(ValueError):
    """Bad input for the rules core.

    ``rule`` names the rule (``"R3.1"``) the input breaks, when there is one.

    >>> err = RulesError("trick 1, seat 1 played H6 but must follow suit", rule="R3.1")
    >>> isinstance(err, ValueError), err.rule
    (True, 'R3.1')
    """

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


class CardParseError(RulesError):
    """A card, suit, rank or contract name could not be read."""


class IllegalPlayError(RulesError):
    """A play breaks a rule of trick play (R3.1, R3.2, R3.3, R3.4, R3.5) or the turn
    order (R2.1, R2.3, R3.6); ``rule`` names it."""
