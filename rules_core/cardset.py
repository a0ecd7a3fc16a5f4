"""CardSet: an immutable set of cards backed by one 36-bit integer (a :data:`Mask`).

Like python-chess's ``SquareSet`` over its bitboards: the engine works on hand
masks (bit ``card.index`` set for each card, ``card.index`` = suit index * 9 +
rank index, suits D H S C, ranks 6 7 8 9 10 J Q K A); a CardSet is such a mask
with the manners of a set. Iteration is in card order (D6 first, CA last).

>>> hand = CardSet("H6 H7 HA S9")
>>> hand, len(hand), Card.parse("HA") in hand, "S9" in hand
(CardSet('H6 H7 HA S9'), 4, True, True)
>>> hand.mask == sum(c.bit for c in hand), [str(c) for c in hand]
(True, ['H6', 'H7', 'HA', 'S9'])
>>> hand | CardSet("D6"), hand & CardSet("HA SA"), hand - CardSet("H6 H7")
(CardSet('D6 H6 H7 HA S9'), CardSet('HA'), CardSet('HA S9'))
>>> hand.suit("H"), CardSet.from_mask(0b111), CardSet.from_cards([Card.parse("CA")])
(CardSet('H6 H7 HA'), CardSet('D6 D7 D8'), CardSet('CA'))

A CardSet is a :class:`collections.abc.Set`: it compares equal to other sets of
the same cards, and every function that takes a hand takes a CardSet
(``legal_cards`` returns the legal cards in card order, as a tuple):

>>> from rules_core import legal_cards
>>> legal_cards(CardSet("S7 H6 HA"), "SK HQ", "H")
(Card('HA'), Card('S7'))
>>> CardSet("H6 H7") == {Card.parse("H6"), Card.parse("H7")}, CardSet() <= hand
(True, True)

It is immutable and hashable; a card given twice is the same member:

>>> hand.mask = 0
Traceback (most recent call last):
  ...
AttributeError: CardSet is immutable
>>> len(CardSet("H6 H6")), len({CardSet("H6"), CardSet(["H6"])})
(1, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from typing import Any

from .cards import DECK, Card, Suit, parse_cards
from .errors import CardParseError, RulesError

__all__ = ["FULL_MASK", "CardSet"]

FULL_MASK = (1 << 36) - 1
"""The mask of all 36 cards."""


class CardSet(AbstractSet[Card]):
    """An immutable set of cards, stored as one 36-bit integer (see the module docs).

    ``CardSet(cards)`` reads a string of cards or a collection of cards and codes;
    ``CardSet.from_mask(mask)`` wraps a mask; ``.mask`` gives it back.
    """

    __slots__ = ("_mask",)
    _mask: int

    def __init__(self, cards: str | Iterable[Card | str] = ()) -> None:
        if type(cards) is CardSet:
            mask = cards._mask
        else:
            mask = 0
            for card in parse_cards(cards):
                mask |= card.bit
        object.__setattr__(self, "_mask", mask)

    @classmethod
    def from_cards(cls, cards: str | Iterable[Card | str]) -> CardSet:
        """The set of ``cards`` (a string of cards, or cards and codes).

        >>> CardSet.from_cards(["HA", "H6"])
        CardSet('H6 HA')
        """
        return cls(cards)

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        """The set whose bit ``i`` stands for ``DECK[i]``.

        >>> CardSet.from_mask(1 << 35), CardSet.from_mask(0)
        (CardSet('CA'), CardSet(''))
        """
        if type(mask) is not int or not 0 <= mask <= FULL_MASK:
            raise RulesError(f"a card mask is an integer 0 .. 2**36 - 1, got {mask!r}")
        cs = object.__new__(cls)
        object.__setattr__(cs, "_mask", mask)
        return cs

    @property
    def mask(self) -> int:
        """The 36-bit mask: bit ``card.index`` for each card."""
        return self._mask

    def suit(self, suit: Suit | str) -> CardSet:
        """The cards of one suit.

        >>> CardSet("D6 H7 H9").suit("Rosen")
        CardSet('H7 H9')
        """
        s = Suit.parse(suit)
        return CardSet.from_mask(self._mask & (511 << (9 * s.index)))

    # --- the set protocol -----------------------------------------------------

    def __iter__(self) -> Iterator[Card]:
        mask = self._mask
        while mask:
            low = mask & -mask
            yield DECK[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __contains__(self, card: object) -> bool:
        if type(card) is Card:
            return bool(self._mask & card.bit)
        if not isinstance(card, str):
            return False
        try:
            return bool(self._mask & Card.parse(card).bit)
        except CardParseError:
            return False

    def __bool__(self) -> bool:
        return self._mask != 0

    def __int__(self) -> int:
        return self._mask

    def _other_mask(self, other: object) -> int | None:
        if type(other) is CardSet:
            return other._mask
        if isinstance(other, AbstractSet):
            try:
                return CardSet(other)._mask
            except RulesError:
                return None
        return None

    def __or__(self, other: AbstractSet[Any]) -> CardSet:
        mask = self._other_mask(other)
        if mask is None:
            return NotImplemented
        return CardSet.from_mask(self._mask | mask)

    def __and__(self, other: AbstractSet[Any]) -> CardSet:
        mask = self._other_mask(other)
        if mask is None:
            return NotImplemented
        return CardSet.from_mask(self._mask & mask)

    def __sub__(self, other: AbstractSet[Any]) -> CardSet:
        mask = self._other_mask(other)
        if mask is None:
            return NotImplemented
        return CardSet.from_mask(self._mask & ~mask)

    def __xor__(self, other: AbstractSet[Any]) -> CardSet:
        mask = self._other_mask(other)
        if mask is None:
            return NotImplemented
        return CardSet.from_mask(self._mask ^ mask)

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __rsub__(self, other: AbstractSet[Any]) -> CardSet:
        mask = self._other_mask(other)
        if mask is None:
            return NotImplemented
        return CardSet.from_mask(mask & ~self._mask)

    def isdisjoint(self, other: Iterable[Any]) -> bool:
        """True when no card is in both."""
        if type(other) is CardSet:
            return not self._mask & other._mask
        return super().isdisjoint(other)

    def __eq__(self, other: object) -> bool:
        if type(other) is CardSet:
            return self._mask == other._mask
        return super().__eq__(other)

    def __le__(self, other: AbstractSet[Any]) -> bool:
        if type(other) is CardSet:
            return not self._mask & ~other._mask
        return super().__le__(other)

    def __lt__(self, other: AbstractSet[Any]) -> bool:
        if type(other) is CardSet:
            return self._mask != other._mask and not self._mask & ~other._mask
        return super().__lt__(other)

    def __ge__(self, other: AbstractSet[Any]) -> bool:
        if type(other) is CardSet:
            return not other._mask & ~self._mask
        return super().__ge__(other)

    def __gt__(self, other: AbstractSet[Any]) -> bool:
        if type(other) is CardSet:
            return self._mask != other._mask and not other._mask & ~self._mask
        return super().__gt__(other)

    def __hash__(self) -> int:
        # equal to the hash of a frozenset of the same cards, as == with sets requires
        return self._hash()

    # --- immutability and plain manners ---------------------------------------

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[Callable[[int], CardSet], tuple[int]]:
        return (CardSet.from_mask, (self._mask,))

    def __copy__(self) -> CardSet:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> CardSet:
        return self

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"

    def __str__(self) -> str:
        return " ".join(c.code for c in self)
