"""The rule values, once: every other module derives from these or from the engine.

Each table is read-only and indexed the way people read the rules: ranks in natural
order 6 7 8 9 10 J Q K A (R1.2), contracts by :class:`~rules_core.Contract`. The
hot paths use the same numbers through ``_tables`` (bitmask form); a test checks
both agree.

>>> SEQUENCE_POINTS[3], SEQUENCE_POINTS[9]
(20, 300)
>>> four_of_a_kind_points(Rank.UNDER), four_of_a_kind_points(Rank.SIX)
(200, 100)
>>> four_of_a_kind_points(Rank.SIX, "w-en")
0
>>> [card_points_of_rank(r, "H", trump=True) for r in (Rank.UNDER, Rank.NINE, Rank.ACE)]
[20, 14, 11]
>>> sum(card_points_of_rank(r, "undenufe") for r in Rank) * 4
152
>>> [str(r) for r in trick_order("C", trump=True)]
['J', '9', 'A', 'K', 'Q', '10', '8', '7', '6']
>>> [str(c) for c in stoeck_pair("H")], stoeck_pair("obenabe")
(['HK', 'HQ'], None)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from . import _tables as T
from ._coerce import coerce_contract, coerce_rules
from .aliases import ContractLike, RulesLike
from .cards import Card, Rank, Suit
from .contracts import Contract
from .rules import DEFAULT_RULES

__all__ = [
    "FOUR_OF_A_KIND_POINTS",
    "LOW_FOUR_OF_A_KIND_RANKS",
    "ROUND_PLAYS",
    "SEQUENCE_POINTS",
    "STOECK_POINTS",
    "card_points_of_rank",
    "four_of_a_kind_points",
    "stoeck_pair",
    "trick_order",
]

SEQUENCE_POINTS: Mapping[int, int] = MappingProxyType(dict(T.SEQ_VALUE))
"""A sequence's points by its length, 3 to 9 cards (R5.1)."""

FOUR_OF_A_KIND_POINTS: Mapping[Rank, int] = MappingProxyType(
    {rank: T.QUAD_VALUE[rank.index] for rank in Rank}
)
"""Four of a kind by rank in the default rule set (R5.2): Unders 200, 9s 150, others
100 (6s, 7s and 8s only with ``low_quads_score``)."""

LOW_FOUR_OF_A_KIND_RANKS: tuple[Rank, ...] = tuple(
    rank for rank in Rank if rank.index in T.LOW_QUAD_RANKS
)
"""The ranks whose four of a kind scores only with ``low_quads_score`` (R5.2)."""

ROUND_PLAYS = 36
"""The plays of a whole round: four players, nine cards each (R1.1, R2.2)."""

STOECK_POINTS = 20
"""Stöck before the factor (R6.1)."""


def four_of_a_kind_points(rank: Rank, rules: RulesLike = DEFAULT_RULES) -> int:
    """The points of four cards of ``rank`` under ``rules`` (R5.2); 0 for no meld."""
    rules_ = coerce_rules(rules)
    if rank in LOW_FOUR_OF_A_KIND_RANKS and not rules_.low_quads_score:
        return 0
    return FOUR_OF_A_KIND_POINTS[rank]


def card_points_of_rank(rank: Rank, contract: ContractLike, *, trump: bool = False) -> int:
    """A card's points by rank (R4.1 trump and other suits, R4.2 Obenabe, R4.3
    Undenufe); ``trump`` asks for the trump suit of a trump contract."""
    c = coerce_contract(contract)
    suit = c.trump if trump and c.trump is not None else _other_suit(c)
    return int(T.POINTS[c.index][Card(suit, rank).index])


def trick_order(contract: ContractLike, *, trump: bool = False) -> tuple[Rank, ...]:
    """Ranks from strongest to weakest in a trick (R3.6): the trump suit ``J 9 A K Q
    10 8 7 6``; other suits and Obenabe from the ace; Undenufe from the 6."""
    c = coerce_contract(contract)
    suit = c.trump if trump and c.trump is not None else _other_suit(c)
    strength = T.STRENGTH[c.index]
    return tuple(sorted(Rank, key=lambda r: -strength[Card(suit, r).index]))


def stoeck_pair(contract: ContractLike) -> tuple[Card, Card] | None:
    """King and Ober of trump (R6.1), or None in Obenabe and Undenufe."""
    c = coerce_contract(contract)
    if c.trump is None:
        return None
    return Card(c.trump, Rank.KING), Card(c.trump, Rank.OBER)


def _other_suit(contract: Contract) -> Suit:
    """A suit that is not trump (every non-trump suit scores alike)."""
    return next(s for s in Suit if s is not contract.trump)
