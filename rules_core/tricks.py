"""Trick play: which cards may be played, who wins a trick, card points
(RULES R3.1, R3.2, R3.3, R3.4, R3.5, R3.6; R4.1, R4.2, R4.3).

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
from ._coerce import CARD_BIT, cards_of, codes, coerce_card, coerce_cards, coerce_contract
from .aliases import CardLike, CardsLike, ContractLike, Mask
from .cards import DECK, Card, Rank
from .cardset import CardSet
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

# the typed fast paths: Card -> bit (a code or any other object is a KeyError) ...
_bit = CARD_BIT.__getitem__
# ... and the led suit of a trick's first card; the tables, bound once
_SUIT_OF_CARD: dict[Card, int] = {c: T.SUIT_OF[c.index] for c in DECK}
_TRUMP_SUIT = T.TRUMP_SUIT
_UNDER_TRICK_TRUMPS = T.UNDER_TRICK_TRUMPS
_legal_mask = T.legal_mask


def _hand_and_trick(hand: object, trick: object) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    cards = coerce_cards(hand, "hand", min_cards=1, max_cards=9)
    played = coerce_cards(trick, "trick", max_cards=3)
    both = sorted(set(cards) & set(played))
    if both:
        raise RulesError(
            f"{' '.join(c.code for c in both)} is both in the hand and in the trick; "
            "every card is in the deck once (R1.1)",
            rule="R1.1",
        )
    return cards, played


def _trick_state(trick: tuple[Card, ...], ci: int) -> tuple[int, Mask]:
    """(led suit or -1, the trumps below the highest trump in the trick or 0)."""
    if not trick:
        return -1, 0
    trump = T.TRUMP_SUIT[ci]
    holding = 0
    if trump >= 0:
        for c in trick:
            if T.SUIT_OF[c.index] == trump:
                holding |= 1 << T.RANK_OF[c.index]
    lower = T.UNDER_TRICK_TRUMPS[ci][holding] if holding else 0
    return T.SUIT_OF[trick[0].index], lower


def legal_cards(hand: CardsLike, trick: CardsLike, contract: ContractLike) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to ``trick``, in hand order: the
    rules R3.1, R3.2, R3.3, R3.4 and R3.5 (run by :func:`rules_core._tables.legal_mask`).

    ``trick`` is the cards already in the current trick, in order (empty when leading).

    Already-typed input (``hand`` and ``trick`` tuples of :class:`Card` or ``hand``
    a :class:`CardSet`, ``contract`` a :class:`Contract`) takes a fast path: it
    is checked with bit arithmetic (every item a Card, no card twice, 1 to 9
    cards in hand, at most 3 in the trick) and not read again; anything else is
    read and checked first. Both give the same answer; a CardSet's hand order is
    card order. The stateless view of ``Round.legal_cards()``.

    R3.4, the Puur exception (trump led, the Puur is the only trump in hand):

    >>> [str(c) for c in legal_cards("HJ S6 C7", "H9", "H")]
    ['HJ', 'S6', 'C7']
    >>> [str(c) for c in legal_cards("HJ H6 C7", "H9", "H")]
    ['HJ', 'H6']

    R3.3, no under-trumping (H trump, S led, HQ in the trick; H6 is lower):

    >>> [str(c) for c in legal_cards("S7 H6 HA", "SK HQ", "H")]
    ['S7', 'HA']
    >>> from rules_core import parse_cards
    >>> legal_cards(parse_cards("S7 H6 HA"), parse_cards("SK HQ"), Contract.H)  # typed
    (Card('S7'), Card('HA'))
    """
    if type(trick) is tuple and type(contract) is Contract:
        try:
            tm = sum(map(_bit, trick))
            if type(hand) is tuple:
                mask = sum(map(_bit, hand))
                n = len(hand)
                as_set = False
            elif type(hand) is CardSet:
                mask = hand.mask
                n = mask.bit_count()
                as_set = True
            else:
                mask = n = -1
        except (KeyError, TypeError):
            pass
        else:
            k = len(trick)
            # sums of distinct bits: the union has n + k bits iff no card is given twice
            if 0 < n < 10 and k < 4 and (mask | tm).bit_count() == n + k:
                if k:
                    ci = contract.index
                    t = _TRUMP_SUIT[ci]
                    lower = _UNDER_TRICK_TRUMPS[ci][tm >> 9 * t & 511] if t >= 0 else 0
                    legal = _legal_mask(mask, _SUIT_OF_CARD[trick[0]], lower, ci)
                    if legal != mask:
                        if as_set:
                            return cards_of(legal)
                        typed: tuple[Card, ...] = hand  # type: ignore[assignment]  # Card keys
                        return tuple([c for c in typed if c.bit & legal])
                return cards_of(mask) if as_set else hand  # type: ignore[return-value]
    c = coerce_contract(contract)
    cards, played = _hand_and_trick(hand, trick)
    ci = c.index
    mask = 0
    for card in cards:
        mask |= card.bit
    led, lower = _trick_state(played, ci)
    legal = T.legal_mask(mask, led, lower, ci)
    return tuple(card for card in cards if legal & card.bit)


def verdict(
    card: Card, hand: tuple[Card, ...], trick: tuple[Card, ...], contract: Contract
) -> TraceEntry:
    """Why ``card`` may or may not be played (one ``play.*`` trace entry): the
    explaining code of R3.1, R3.2, R3.3, R3.4 and R3.5, one rule per verdict."""
    trump = contract.trump
    values: dict[str, Any] = {
        "card": card.code,
        "legal": True,
        "led": trick[0].suit.code if trick else None,
        "trump": None if trump is None else trump.code,
    }
    if not trick:
        return TraceEntry("R3.1", "play.lead", values, decided=True)
    rule, key, legal, extra = _why(card, hand, trick, contract)
    return TraceEntry(rule, key, {**values, "legal": legal, **extra}, decided=True)


_Why = tuple[str, str, bool, dict[str, Any]]
"""(rule, key, legal, what the rule looked at)."""


def _why(card: Card, hand: tuple[Card, ...], trick: tuple[Card, ...], contract: Contract) -> _Why:
    """The verdict on a card played to a led trick (R3.1 to R3.5)."""
    trump = contract.trump
    led = trick[0].suit
    if trump is not None and led is trump:
        return _why_trump_led(card, hand, contract)
    follow = [c for c in hand if c.suit is led]
    if trump is not None and card.suit is trump:
        return _why_trump_played(card, hand, trick, contract, bool(follow))
    if card.suit is led:
        return "R3.1", "play.follows_suit", True, {}
    if follow:
        return "R3.1", "play.must_follow_suit", False, {"follow": codes(follow)}
    return "R3.5", "play.cannot_follow", True, {}


def _why_trump_led(card: Card, hand: tuple[Card, ...], contract: Contract) -> _Why:
    """Trump led: a trump follows (R3.1); holding trumps other than the Puur, one
    must be played (R3.4); the Puur alone need not be (R3.4); without trumps any
    card (R3.5)."""
    trump = contract.trump
    if card.suit is trump:
        return "R3.1", "play.follows_trump", True, {}
    trumps = [c for c in hand if c.suit is trump]
    if any(c.rank is not Rank.UNDER for c in trumps):
        return "R3.4", "play.must_play_trump", False, {"trumps": codes(trumps)}
    if trumps:
        return "R3.4", "play.puur_exception", True, {"puur": trumps[0].code}
    return "R3.5", "play.cannot_follow", True, {}


def _why_trump_played(
    card: Card,
    hand: tuple[Card, ...],
    trick: tuple[Card, ...],
    contract: Contract,
    can_follow: bool,
) -> _Why:
    """A trump to a plain suit led: always allowed (R3.2), but not under a trump
    already in the trick unless the hand holds only trumps (R3.3)."""
    strength = T.STRENGTH[contract.index]
    in_trick = [c for c in trick if c.suit is contract.trump]
    if not in_trick:
        return "R3.2", "play.trump_allowed", True, {"can_follow": can_follow}
    high = max(in_trick, key=lambda c: strength[c.index])
    extra = {"highest_trump": high.code}
    if strength[card.index] > strength[high.index]:
        return "R3.3", "play.over_trump", True, extra
    if all(c.suit is contract.trump for c in hand):
        return "R3.3", "play.only_trumps", True, extra
    return "R3.3", "play.under_trump", False, extra


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


def explain_legal_cards(hand: CardsLike, trick: CardsLike, contract: ContractLike) -> LegalCards:
    """:func:`legal_cards` with the rule that allows or forbids each card (R3.1,
    R3.2, R3.3, R3.4, R3.5). The stateless view of ``Round.legal()``.

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
    """The running code of R3.6: the highest trump, else the highest card of the led suit."""
    strength = T.STRENGTH[ci]
    trump = T.TRUMP_SUIT[ci]
    suit_of = T.SUIT_OF
    first = trick[0].index
    led = suit_of[first]
    best, best_strength = 0, strength[first]
    for i in range(1, len(trick)):
        x = trick[i].index
        suit = suit_of[x]
        if (suit == led or suit == trump) and strength[x] > best_strength:  # noqa: SIM109
            best, best_strength = i, strength[x]
    return best


def trick_winner(trick: CardsLike, contract: ContractLike) -> int:
    """Index in ``trick`` of the card that wins it so far (R3.6).

    The highest trump wins; with no trump in it, the highest card of the led
    suit. Trump order ``J 9 A K Q 10 8 7 6``; other suits and Obenabe
    ``A K Q J 10 9 8 7 6``; Undenufe ``6 7 8 9 10 J Q K A``. A tuple of
    :class:`Card` and a :class:`Contract` take the fast path (no coercion).

    >>> trick_winner("S7 SA H6 SK", "H"), trick_winner("S7 SA H6 SK", "obenabe")
    (2, 1)
    >>> trick_winner("S7 SA S6 CK", "undenufe"), trick_winner("H9 HA HJ HK", "H")
    (2, 2)
    """
    if type(trick) is tuple and type(contract) is Contract:
        try:
            tm = sum(map(_bit, trick))
        except (KeyError, TypeError):
            pass
        else:
            k = len(trick)
            if 0 < k < 5 and tm.bit_count() == k:
                typed: tuple[Card, ...] = trick  # every item was a Card key
                return _winner_index(typed, contract.index)
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


def explain_trick_winner(trick: CardsLike, contract: ContractLike) -> TrickWinner:
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


def card_points(card: CardLike, contract: ContractLike) -> int:
    """Points of a card in a contract: R4.1 (trump and plain suits in a trump
    contract), R4.2 (Obenabe), R4.3 (Undenufe). A :class:`Card` and a
    :class:`Contract` take the fast path (two table lookups).

    >>> [card_points(c, "H") for c in ("HJ", "H9", "HA", "SJ", "S9")]
    [20, 14, 11, 2, 0]
    >>> card_points("D8", "obenabe"), card_points("D6", "undenufe"), card_points("DA", "undenufe")
    (8, 11, 0)
    """
    if type(card) is Card and type(contract) is Contract:
        return T.POINTS[contract.index][card.index]
    c = coerce_contract(contract)
    return T.POINTS[c.index][coerce_card(card).index]


def explain_card_points(card: CardLike, contract: ContractLike) -> TraceEntry:
    """A ``points.card`` entry (R4.1, R4.2, R4.3): ``table`` is ``"trump"`` or ``"plain"`` (R4.1),
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
