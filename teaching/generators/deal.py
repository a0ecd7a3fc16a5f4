"""Building hands to order: melds planned on purpose, the rest dealt at random
without making any other meld (internal).

Cards are ``rules_core.Card``; ``index = suit * 9 + rank`` (ranks 6..A = 0..8).
Nothing here iterates a set, so the order of everything depends on the seeded
random stream only (not on ``PYTHONHASHSEED``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from rules_core import DECK, Card, Contract, Rank
from rules_core.tables import FOUR_OF_A_KIND_POINTS, LOW_FOUR_OF_A_KIND_RANKS, SEQUENCE_POINTS

from .base import Retry

T = TypeVar("T")

TRUMP_CONTRACTS = ("D", "H", "S", "C")
NO_TRUMP_CONTRACTS = ("obenabe", "undenufe")
ALL_CONTRACTS = TRUMP_CONTRACTS + NO_TRUMP_CONTRACTS
# The builders count ranks by index (6 7 8 9 10 J Q K A = 0..8); the values are
# rules_core's (R5.1, R5.2), only re-indexed here.
SEQ_VALUE: Mapping[int, int] = SEQUENCE_POINTS
"""A sequence's points by its number of cards (R5.1)."""
QUAD_VALUE: tuple[int, ...] = tuple(FOUR_OF_A_KIND_POINTS[rank] for rank in Rank)
"""Four of a kind by rank index, the low ranks at the value they have when they
score (R5.2; whether they do is the rule set's ``low_quads_score``)."""
LOW_QUAD_RANKS: tuple[int, ...] = tuple(rank.index for rank in LOW_FOUR_OF_A_KIND_RANKS)
"""The rank indices of four of a kind that scores only with ``low_quads_score``."""
RANK_J, RANK_9 = Rank.UNDER.index, Rank.NINE.index


def card(suit: int, rank: int) -> Card:
    """The card of suit index ``suit`` (D H S C) and rank index ``rank``."""
    return DECK[suit * 9 + rank]


def trump_index(contract: str) -> int:
    """The suit index of the trump of ``contract``, one of :data:`TRUMP_CONTRACTS`."""
    trump = Contract.parse(contract).trump
    if trump is None:
        raise ValueError(f"{contract} is not a trump contract")
    return trump.index


def run(suit: int, start: int, length: int) -> list[Card]:
    """The sequence of ``length`` cards of ``suit`` from rank index ``start``."""
    if not (3 <= length <= 9 and start >= 0 and start + length <= 9):
        raise ValueError(f"no run of {length} from rank {start}")
    return [card(suit, r) for r in range(start, start + length)]


def quad(rank: int) -> list[Card]:
    """The four cards of a rank (suits D H S C)."""
    return [card(s, rank) for s in range(4)]


def codes(cards: Iterable[Card]) -> list[str]:
    """Card codes in deck order (D H S C, 6 up to A)."""
    return [c.code for c in sorted(cards)]


def mask_of(cards: Iterable[Card]) -> int:
    """The 36-bit mask of ``cards``."""
    mask = 0
    for c in cards:
        mask |= c.bit
    return mask


def makes_meld(mask: int, c: Card) -> bool:
    """Would adding ``c`` to the hand ``mask`` make or lengthen a meld (any four of a
    kind counts, whatever the rule set)?"""
    s, r = c.suit.index, c.rank.index
    left = 0
    k = r - 1
    while k >= 0 and mask >> (s * 9 + k) & 1:
        left += 1
        k -= 1
    right = 0
    k = r + 1
    while k < 9 and mask >> (s * 9 + k) & 1:
        right += 1
        k += 1
    if left + right >= 2:
        return True
    return sum(mask >> (t * 9 + r) & 1 for t in range(4)) == 3


def meld_cards(hand: Sequence[Card]) -> list[tuple[int, ...]]:
    """Every meld of a hand (low quads counted) as sorted tuples of card indices."""
    mask = mask_of(hand)
    found: list[tuple[int, ...]] = []
    for s in range(4):
        r = 0
        while r < 9:
            if mask >> (s * 9 + r) & 1:
                start = r
                while r < 9 and mask >> (s * 9 + r) & 1:
                    r += 1
                if r - start >= 3:
                    found.append(tuple(s * 9 + k for k in range(start, r)))
            else:
                r += 1
    for r in range(9):
        if all(mask >> (s * 9 + r) & 1 for s in range(4)):
            found.append(tuple(s * 9 + r for s in range(4)))
    return sorted(found)


def check_planned(hand: Sequence[Card], melds: Sequence[Sequence[Card]]) -> bool:
    """True iff the hand's melds are exactly the planned ones (no merging, no extras)."""
    return meld_cards(hand) == sorted(tuple(sorted(c.index for c in m)) for m in melds)


def fill_hands(
    rng: random.Random, cores: Sequence[Sequence[Card]], sizes: Sequence[int] | None = None
) -> list[list[Card]]:
    """Complete each core hand to its size (default 9) with random unused cards,
    never making a meld the core does not already have. Raises :class:`Retry`
    when the cards cannot be placed so."""
    sizes = list(sizes) if sizes is not None else [9] * len(cores)
    hands = [list(core) for core in cores]
    used = 0
    for hand in hands:
        m = mask_of(hand)
        if used & m:
            raise Retry("planned melds overlap")
        used |= m
    rest = [c for c in DECK if not used & c.bit]
    rng.shuffle(rest)
    masks = [mask_of(h) for h in hands]
    seats = list(range(len(hands)))
    for c in rest:
        open_seats = [s for s in seats if len(hands[s]) < sizes[s]]
        if not open_seats:
            break
        rng.shuffle(open_seats)
        for s in open_seats:
            if not makes_meld(masks[s], c):
                hands[s].append(c)
                masks[s] |= c.bit
                break
        else:
            # a full deal must place every card; a partial one may leave it out
            if sum(sizes) == len(DECK):
                raise Retry("a card fits in no hand without making a meld")
    if any(len(h) != n for h, n in zip(hands, sizes, strict=True)):
        raise Retry("not enough cards to fill the hands")
    return [sorted(h) for h in hands]


def fill_hand(rng: random.Random, core: Sequence[Card]) -> list[Card]:
    """One nine-card hand: ``core`` plus random cards that make no further meld."""
    return fill_hands(rng, [core], [9])[0]


def weighted(rng: random.Random, options: Sequence[tuple[T, float]]) -> T:
    """One of the options, drawn with its weight."""
    total = sum(w for _, w in options)
    x = rng.random() * total
    for value, w in options:
        x -= w
        if x < 0:
            return value
    return options[-1][0]


def other_team_seat(rng: random.Random, seat: int) -> int:
    """A random seat of the other team."""
    return (seat + rng.choice((1, 3))) % 4
