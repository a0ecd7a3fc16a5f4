"""Type aliases for what the public functions accept (like python-chess's ``Square``).

The engine is friendly: a card may be a :class:`Card` or a code or name
(``"H7"``, ``"Rosen Ass"``), a contract a :class:`Contract` or a code, a hand a
string of cards or a collection of cards. These aliases name those inputs, so a
signature says what it takes instead of ``Any``:

- ``CardLike``: a :class:`Card`, or a string naming one card.
- ``CardsLike``: a string of cards (``"H6 H7, Rosen Ass"``), or a sequence or set of
  ``CardLike`` (a tuple or list of cards, a :class:`~rules_core.CardSet`). A generator
  is not accepted (it cannot be read twice).
- ``HandsLike``: four hands by seat (seat 0 = forehand first), a sequence of four
  ``CardsLike``, or one string with the four hands separated by ``/``.
- ``ContractLike``: a :class:`Contract`, or a code or name (``"H"``, ``"Rosen"``,
  ``"obenabe"``).
- ``RulesLike``: a :class:`RuleSet`, or a preset name (``"w-en"``).
- ``Seat``: 0..3 in playing order from forehand (R2.1); ``Team``: 0 (seats 0 and 2)
  or 1 (seats 1 and 3). The engine counts from 0; people count from 1, so screens
  add 1 at their edge.
- ``Mask``: a 36-bit hand mask, bit ``card.index`` set for each card
  (``card.index`` = suit index * 9 + rank index; see :class:`~rules_core.CardSet`).
- ``PlayLike``: one play, ``(seat, card)``; ``PlaysLike``: the plays in order.
- ``ClaimsLike``: four announced Weis values by seat (R5.4a), each an int or None
  for a player who announced nothing (``[20, 50, None, None]``).

Already-typed input (a tuple of :class:`Card`, a :class:`Contract`) takes the
fast path of :func:`~rules_core.legal_cards`, :func:`~rules_core.trick_winner`
and :func:`~rules_core.card_points`; strings are read first.

>>> from rules_core import CardsLike, legal_cards, parse_cards
>>> hand: CardsLike = parse_cards("S7 H6 HA")
>>> legal_cards(hand, "SK HQ", "H") == legal_cards("S7 H6 HA", ("SK", "HQ"), "H")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import TypeAlias

from .cards import Card
from .contracts import Contract
from .rules import RuleSet

__all__ = [
    "CardLike",
    "CardsLike",
    "ClaimsLike",
    "ContractLike",
    "HandsLike",
    "Mask",
    "PlayLike",
    "PlaysLike",
    "RulesLike",
    "Seat",
    "Team",
]

Seat: TypeAlias = int
"""A seat, 0..3 in playing order from forehand (R2.1)."""

Team: TypeAlias = int
"""A team: 0 (seats 0 and 2) or 1 (seats 1 and 3) (R2.1)."""

Mask: TypeAlias = int
"""A 36-bit set of cards: bit ``card.index`` for each card (see CardSet)."""

CardLike: TypeAlias = Card | str
"""A card, or a string naming one (``"H7"``, ``"Rosen Ass"``, ``"queen of hearts"``)."""

CardsLike: TypeAlias = str | Sequence[CardLike] | AbstractSet[CardLike]
"""Several cards: a string of cards, or a sequence or set of CardLike."""

HandsLike: TypeAlias = str | Sequence[CardsLike]
"""Four hands by seat, or one string ``"hand0 / hand1 / hand2 / hand3"``."""

ContractLike: TypeAlias = Contract | str
"""A contract, or its code or name (``"H"``, ``"Trumpf Rosen"``, ``"obenabe"``)."""

RulesLike: TypeAlias = RuleSet | str
"""A rule set, or a preset name (``"default"``, ``"w-en"``, ...)."""

PlayLike: TypeAlias = tuple[Seat, CardLike]
"""One play: ``(seat, card)``."""

PlaysLike: TypeAlias = Sequence[PlayLike]
"""Plays in the order played."""

ClaimsLike: TypeAlias = Sequence[int | None]
"""Four announced Weis values by seat (R5.4a), None for a player who announced nothing."""
