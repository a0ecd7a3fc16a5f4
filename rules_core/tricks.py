"""Trick play: which cards may be played, who wins a trick, card points
(RULES R3.1-R3.6, R4.1-R4.3).

S-EN's example, roses trumps: Player 4 (seat 0) leads the king of bells,
Player 3 (seat 1) has no bells and trumps with the 8 of roses; Player 1 (seat 2)
still has the 10 of bells "but he may trump anyway" and over-trumps with the
Puur; Player 2 follows with the 6 of bells. Trick to Player 1, 24 points:

>>> "HJ" in [c.code for c in legal_cards("D10 HJ S7", "DK H8", "H")]
True
>>> from rules_core import parse_cards
>>> trick = parse_cards("DK H8 HJ D6")
>>> trick_winner(trick, "H"), sum(card_points(c, "H") for c in trick)
(2, 24)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import _tables as T
from ._coerce import codes, coerce_card, coerce_cards, coerce_contract
from .cards import Card, Rank
from .contracts import Contract
from .errors import RulesError
from .trace import TraceEntry, trace_to_list

__all__ = [
    "LegalCards",
    "TrickWinner",
    "card_points",
    "explain_card_points",
    "explain_legal_cards",
    "explain_trick_winner",
    "legal_cards",
    "trick_winner",
]


def _hand_and_trick(hand: Any, trick: Any) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    cards = coerce_cards(hand, "hand", min_cards=1, max_cards=9)
    played = coerce_cards(trick, "trick", max_cards=3)
    both = sorted(set(cards) & set(played))
    if both:
        raise RulesError(f"{' '.join(c.code for c in both)} is both in the hand and in the trick")
    return cards, played


def _trick_state(trick: tuple[Card, ...], ci: int) -> tuple[int, int]:
    """(led suit or -1, index of the highest trump in the trick or -1)."""
    if not trick:
        return -1, -1
    strength = T.STRENGTH[ci]
    trump = T.TRUMP_SUIT[ci]
    high = -1
    for c in trick:
        if c.suit.value == trump and (high < 0 or strength[c.index] > strength[high]):
            high = c.index
    return trick[0].suit.value, high


def legal_cards(hand: Any, trick: Any, contract: Contract | str) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to ``trick`` (R3.1-R3.5), in hand order.

    ``trick`` is the cards already in the current trick, in order (empty when leading).

    R3.4, the Puur exception (trump led, the Puur is the only trump in hand):

    >>> [str(c) for c in legal_cards("HJ S6 C7", "H9", "H")]
    ['HJ', 'S6', 'C7']
    >>> [str(c) for c in legal_cards("HJ H6 C7", "H9", "H")]
    ['HJ', 'H6']

    R3.3, no under-trumping (H trump, S led, HQ in the trick; H6 is lower):

    >>> [str(c) for c in legal_cards("S7 H6 HA", "SK HQ", "H")]
    ['S7', 'HA']
    """
    c = coerce_contract(contract)
    cards, played = _hand_and_trick(hand, trick)
    ci = c.index
    mask = 0
    for card in cards:
        mask |= card.bit
    led, high = _trick_state(played, ci)
    legal = T.legal_mask(mask, led, high, ci)
    return tuple(card for card in cards if legal & card.bit)


def verdict(
    card: Card, hand: tuple[Card, ...], trick: tuple[Card, ...], contract: Contract
) -> TraceEntry:
    """Why ``card`` may or may not be played (one ``play.*`` trace entry)."""
    trump = contract.trump
    values: dict[str, Any] = {
        "card": card.code,
        "legal": True,
        "led": trick[0].suit.code if trick else None,
        "trump": None if trump is None else trump.code,
    }
    if not trick:
        return TraceEntry("R3.1", "play.lead", values, decided=True)
    led = trick[0].suit
    follow = [c for c in hand if c.suit is led]
    trumps = [c for c in hand if c.suit is trump]

    def illegal(rule: str, key: str, **extra: Any) -> TraceEntry:
        return TraceEntry(rule, key, {**values, "legal": False, **extra}, decided=True)

    def legal(rule: str, key: str, **extra: Any) -> TraceEntry:
        return TraceEntry(rule, key, {**values, **extra}, decided=True)

    if trump is not None and led is trump:
        if card.suit is trump:
            return legal("R3.1", "play.follows_trump")
        other_trumps = [c for c in trumps if c.rank is not Rank.UNDER]
        if other_trumps:
            return illegal("R3.4", "play.must_play_trump", trumps=codes(trumps))
        if trumps:
            return legal("R3.4", "play.puur_exception", puur=trumps[0].code)
        return legal("R3.5", "play.cannot_follow")
    if trump is not None and card.suit is trump:
        strength = T.STRENGTH[contract.index]
        in_trick = [c for c in trick if c.suit is trump]
        if in_trick:
            high = max(in_trick, key=lambda c: strength[c.index])
            if strength[card.index] > strength[high.index]:
                return legal("R3.3", "play.over_trump", highest_trump=high.code)
            if len(trumps) == len(hand):
                return legal("R3.3", "play.only_trumps", highest_trump=high.code)
            return illegal("R3.3", "play.under_trump", highest_trump=high.code)
        return legal("R3.2", "play.trump_allowed", can_follow=bool(follow))
    if card.suit is led:
        return legal("R3.1", "play.follows_suit")
    if follow:
        return illegal("R3.1", "play.must_follow_suit", follow=codes(follow))
    return legal("R3.5", "play.cannot_follow")


@dataclass(frozen=True)
class LegalCards:
    """Which cards of a hand may be played, with one verdict per card.

    ``verdicts`` (= ``trace``): one ``play.*`` entry per card in hand order; its
    values hold ``card``, ``legal``, ``led``, ``trump`` and what the rule looked
    at (``follow``, ``trumps``, ``highest_trump``, ``puur``, ``can_follow``).
    """

    legal: tuple[Card, ...]
    verdicts: tuple[TraceEntry, ...]
    contract: Contract

    @property
    def trace(self) -> tuple[TraceEntry, ...]:
        """Same as ``verdicts``."""
        return self.verdicts

    @property
    def illegal(self) -> tuple[Card, ...]:
        """The cards that may not be played."""
        legal = set(self.legal)
        return tuple(
            Card.parse(v["card"]) for v in self.verdicts if Card.parse(v["card"]) not in legal
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"contract", "legal", "trace"}`` (``legal`` as card codes)."""
        return {
            "contract": self.contract.code,
            "legal": codes(self.legal),
            "trace": trace_to_list(self.verdicts),
        }


def explain_legal_cards(hand: Any, trick: Any, contract: Contract | str) -> LegalCards:
    """:func:`legal_cards` with the rule that allows or forbids each card.

    >>> result = explain_legal_cards("S7 H6 HA C9", "SK HQ", "H")
    >>> for v in result.verdicts:
    ...     print(v["card"], v["legal"], v.key, v.rule)
    S7 True play.follows_suit R3.1
    H6 False play.under_trump R3.3
    HA True play.over_trump R3.3
    C9 False play.must_follow_suit R3.1
    """
    c = coerce_contract(contract)
    cards, played = _hand_and_trick(hand, trick)
    verdicts = tuple(verdict(card, cards, played, c) for card in cards)
    legal = tuple(card for card, v in zip(cards, verdicts, strict=True) if v["legal"])
    return LegalCards(legal, verdicts, c)


def _winner_index(trick: tuple[Card, ...], ci: int) -> int:
    strength = T.STRENGTH[ci]
    trump = T.TRUMP_SUIT[ci]
    led = trick[0].suit.value
    best, best_strength = 0, strength[trick[0].index]
    for i in range(1, len(trick)):
        c = trick[i]
        if c.suit.value in (led, trump) and strength[c.index] > best_strength:
            best, best_strength = i, strength[c.index]
    return best


def trick_winner(trick: Any, contract: Contract | str) -> int:
    """Index in ``trick`` of the card that wins it so far (R3.6).

    The highest trump wins; with no trump in it, the highest card of the led
    suit. Trump order ``J 9 A K Q 10 8 7 6``; other suits and Obenabe
    ``A K Q J 10 9 8 7 6``; Undenufe ``6 7 8 9 10 J Q K A``.

    >>> trick_winner("S7 SA H6 SK", "H"), trick_winner("S7 SA H6 SK", "obenabe")
    (2, 1)
    >>> trick_winner("S7 SA S6 CK", "undenufe"), trick_winner("H9 HA HJ HK", "H")
    (2, 2)
    """
    c = coerce_contract(contract)
    cards = coerce_cards(trick, "trick", min_cards=1, max_cards=4)
    return _winner_index(cards, c.index)


@dataclass(frozen=True)
class TrickWinner:
    """The winner of a trick and why (``trick.winner`` entry, R3.6)."""

    index: int
    card: Card
    trace: tuple[TraceEntry, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"index", "card", "trace"}``."""
        return {"index": self.index, "card": self.card.code, "trace": trace_to_list(self.trace)}


def explain_trick_winner(trick: Any, contract: Contract | str) -> TrickWinner:
    """:func:`trick_winner` with its reason: ``by`` is ``"trump"`` (the highest
    trump) or ``"led_suit"`` (the highest card of the led suit); ``order`` names
    the order used (``"trump"``, ``"plain"``, ``"obenabe"``, ``"undenufe"``).

    >>> explain_trick_winner("S7 SA H6 SK", "H").trace[0].values  # doctest: +NORMALIZE_WHITESPACE
    {'cards': ['S7', 'SA', 'H6', 'SK'], 'led': 'S', 'trump': 'H', 'winner_index': 2,
     'winner_card': 'H6', 'by': 'trump', 'order': 'trump'}
    """
    c = coerce_contract(contract)
    cards = coerce_cards(trick, "trick", min_cards=1, max_cards=4)
    index = _winner_index(cards, c.index)
    card = cards[index]
    by_trump = card.suit is c.trump
    if by_trump:
        order = "trump"
    elif c.trump is not None:
        order = "plain"
    else:
        order = c.code
    entry = TraceEntry(
        "R3.6",
        "trick.winner",
        {
            "cards": codes(cards),
            "led": cards[0].suit.code,
            "trump": None if c.trump is None else c.trump.code,
            "winner_index": index,
            "winner_card": card.code,
            "by": "trump" if by_trump else "led_suit",
            "order": order,
        },
        decided=True,
    )
    return TrickWinner(index, card, (entry,))


def card_points(card: Card | str, contract: Contract | str) -> int:
    """Points of a card in a contract (R4.1-R4.3).

    >>> [card_points(c, "H") for c in ("HJ", "H9", "HA", "SJ", "S9")]
    [20, 14, 11, 2, 0]
    >>> card_points("D8", "obenabe"), card_points("D6", "undenufe"), card_points("DA", "undenufe")
    (8, 11, 0)
    """
    c = coerce_contract(contract)
    return T.POINTS[c.index][coerce_card(card).index]


def explain_card_points(card: Card | str, contract: Contract | str) -> TraceEntry:
    """A ``points.card`` entry: ``table`` is ``"trump"`` or ``"plain"`` (R4.1),
    ``"obenabe"`` (R4.2) or ``"undenufe"`` (R4.3).

    >>> explain_card_points("H9", "H").to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'rule': 'R4.1', 'key': 'points.card', 'values': {'card': 'H9', 'points': 14, 'table': 'trump'},
     'decided': True}
    """
    c = coerce_contract(contract)
    k = coerce_card(card)
    if c.trump is None:
        rule, table = ("R4.2", "obenabe") if c is Contract.OBENABE else ("R4.3", "undenufe")
    else:
        rule, table = "R4.1", "trump" if k.suit is c.trump else "plain"
    points = T.POINTS[c.index][k.index]
    return TraceEntry(rule, "points.card", {"card": k.code, "points": points, "table": table}, True)
