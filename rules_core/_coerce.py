"""Input checking shared by the public functions (internal).

Every function here raises :class:`RulesError` with a message that says what
is wrong and where; the fast paths fall back to the careful ones to word it.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from .aliases import Mask
from .cards import DECK, Card, parse_cards
from .cardset import CardSet
from .contracts import Contract
from .errors import CardParseError, RulesError
from .rules import RuleSet

# cards and their codes -> bit; the fast path of hand_mask
_BIT: dict[Card | str, int] = {c: c.bit for c in DECK} | {c.code: c.bit for c in DECK}
CARD_INDEX: dict[Card | str, int] = {c: c.index for c in DECK} | {c.code: c.index for c in DECK}
CARD_BIT: dict[Card, int] = {c: c.bit for c in DECK}
"""Card -> bit, for Card objects only (the typed fast paths: a code is a KeyError)."""


def cards_of(mask: Mask) -> tuple[Card, ...]:
    """The cards of a mask, in index order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(DECK[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def coerce_contract(contract: object) -> Contract:
    if type(contract) is Contract:
        return contract
    if isinstance(contract, str):
        return Contract.parse(contract)
    raise RulesError(
        "contract must be a Contract or a code like 'H' or 'obenabe', "
        f"got {type(contract).__name__}"
    )


def coerce_rules(rules: object) -> RuleSet:
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return RuleSet.preset(rules)
    raise RulesError(f"rules must be a RuleSet or a preset name, got {type(rules).__name__}")


def coerce_seat(seat: object, what: str = "seat") -> int:
    if type(seat) is not int or not 0 <= seat <= 3:
        raise RulesError(f"{what} must be 0, 1, 2 or 3, got {seat!r}")
    return seat


def coerce_card(card: object, what: str = "card") -> Card:
    if type(card) is Card:
        return card
    if isinstance(card, str):
        try:
            return Card.parse(card)
        except CardParseError as err:
            raise CardParseError(f"{what}: {err}") from None
    raise RulesError(f"{what}: expected a card, got {type(card).__name__}")


def coerce_cards(
    cards: object, what: str, *, min_cards: int = 0, max_cards: int = 9
) -> tuple[Card, ...]:
    """A hand or trick: a string of cards or a sequence/set of cards, no card twice.

    Too many or too few cards break R2.2 (nine cards each); a card given twice
    breaks R1.1 (36 different cards).
    """
    if isinstance(cards, str):
        try:
            out = parse_cards(cards)
        except CardParseError as err:
            raise CardParseError(f"{what}: {err}") from None
    elif isinstance(cards, (Sequence, Set)) and not isinstance(cards, (bytes, bytearray)):
        out = tuple(coerce_card(c, f"{what}, card {i}") for i, c in enumerate(cards, 1))
    else:
        raise RulesError(f"{what} must be a list of cards, got {type(cards).__name__}")
    if not min_cards <= len(out) <= max_cards:
        if min_cards == max_cards:
            expected = f"exactly {min_cards}"
        elif min_cards:
            expected = f"{min_cards} to {max_cards}"
        else:
            expected = f"at most {max_cards}"
        noun = "card" if len(out) == 1 else "cards"
        raise RulesError(f"{what} has {len(out)} {noun}, expected {expected}", rule="R2.2")
    seen: set[Card] = set()
    for c in out:
        if c in seen:
            raise RulesError(
                f"{what} has {c} twice; every card is in the deck once (R1.1)", rule="R1.1"
            )
        seen.add(c)
    return out


def hand_mask(hand: object, what: str, *, min_cards: int = 0, max_cards: int = 9) -> Mask:
    """The 36-bit mask of a hand (checked like :func:`coerce_cards`)."""
    if type(hand) is CardSet:
        mask = hand.mask
        if min_cards <= mask.bit_count() <= max_cards:
            return mask
    elif type(hand) is tuple or type(hand) is list:
        try:
            # a sum of n distinct bits has n bits set; a card given twice carries
            mask = sum(map(_BIT.__getitem__, hand))
        except (KeyError, TypeError):
            pass
        else:
            n = len(hand)
            if mask.bit_count() == n and min_cards <= n <= max_cards:
                return mask
    mask = 0
    for c in coerce_cards(hand, what, min_cards=min_cards, max_cards=max_cards):
        mask |= c.bit
    return mask


_LIST_TYPES: frozenset[type] = frozenset({list, tuple})


def hands_masks(hands: object, *, full_deal: bool = False) -> tuple[Mask, Mask, Mask, Mask]:
    """Four hands by seat -> four masks; no card in two hands.

    ``hands`` is a sequence of four hands, or one string with the four hands
    separated by ``/``. With ``full_deal`` each hand has nine cards (R2.2).
    """
    if (type(hands) is list or type(hands) is tuple) and len(hands) == 4:
        h0, h1, h2, h3 = hands
        if (
            type(h0) in _LIST_TYPES
            and type(h1) in _LIST_TYPES
            and type(h2) in _LIST_TYPES
            and type(h3) in _LIST_TYPES
        ):
            get = _BIT.__getitem__
            try:
                m0, m1, m2, m3 = (
                    sum(map(get, h0)),
                    sum(map(get, h1)),
                    sum(map(get, h2)),
                    sum(map(get, h3)),
                )
            except (KeyError, TypeError):
                pass
            else:
                n0, n1, n2, n3 = len(h0), len(h1), len(h2), len(h3)
                low = 9 if full_deal else 0
                # sums of bits: the union has n0+..+n3 bits iff no card is given twice
                if (m0 | m1 | m2 | m3).bit_count() == n0 + n1 + n2 + n3 and (
                    low <= n0 <= 9 and low <= n1 <= 9 and low <= n2 <= 9 and low <= n3 <= 9
                ):
                    return (m0, m1, m2, m3)
    return _hands_masks_checked(hands, full_deal)


def _hands_masks_checked(hands: object, full_deal: bool) -> tuple[Mask, Mask, Mask, Mask]:
    """Each hand checked (R1.1, R2.2); a card in two hands is a misdeal (R3.7)."""
    if isinstance(hands, (list, tuple)):
        pass
    elif isinstance(hands, str):
        parts = hands.split("/")
        if len(parts) != 4:
            raise RulesError(f"give four hands separated by '/', got {len(parts)} part(s)")
        hands = parts
    elif not isinstance(hands, Sequence) or isinstance(hands, (bytes, bytearray)):
        raise RulesError(f"hands must be four hands by seat, got {type(hands).__name__}")
    if len(hands) != 4:
        raise RulesError(f"hands must be four hands (seats 0 to 3), got {len(hands)}")
    low = 9 if full_deal else 0
    m0 = hand_mask(hands[0], "seat 0's hand", min_cards=low)
    m1 = hand_mask(hands[1], "seat 1's hand", min_cards=low)
    m2 = hand_mask(hands[2], "seat 2's hand", min_cards=low)
    m3 = hand_mask(hands[3], "seat 3's hand", min_cards=low)
    if (
        m0 | m1 | m2 | m3
    ).bit_count() != m0.bit_count() + m1.bit_count() + m2.bit_count() + m3.bit_count():
        masks = (m0, m1, m2, m3)
        for card in DECK:
            holders = [s for s in range(4) if masks[s] & card.bit]
            if len(holders) > 1:
                raise RulesError(
                    f"{card} is in more than one hand (seats {' and '.join(map(str, holders))}); "
                    "a misdeal is dealt again (R3.7)",
                    rule="R3.7",
                )
    return (m0, m1, m2, m3)
