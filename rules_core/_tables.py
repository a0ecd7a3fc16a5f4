"""Precomputed lookup tables for the hot paths (internal).

A hand is a 36-bit mask; card index = suit * 9 + rank (suits D H S C, ranks
6 7 8 9 10 J Q K A = 0..8). A suit holding is the 9-bit slice of one suit.

Meld keys are integers ordered like the comparison ladder R5.5 without the
seat step: ``points << 14 | cards << 10 | high << 6 | trump << 2``; the low two
bits are free for ``3 - seat`` so that ``max`` also applies the SEAT step.
"""

from __future__ import annotations

from typing import TypeAlias

Mask: TypeAlias = int  # a 36-bit hand mask (rules_core.aliases.Mask; no import: _tables is a leaf)
KeyTable: TypeAlias = tuple[int, ...]
WeisTables: TypeAlias = tuple[KeyTable, KeyTable, KeyTable, KeyTable, KeyTable, KeyTable]
WeisTablesAndFactor: TypeAlias = tuple[
    KeyTable, KeyTable, KeyTable, KeyTable, KeyTable, KeyTable, int
]
"""The weis tables of one contract under one rule set, and its factor (cached on the RuleSet)."""

SUIT_MASK = tuple(511 << (9 * s) for s in range(4))
SUIT_OF = tuple(i // 9 for i in range(36))
RANK_OF = tuple(i % 9 for i in range(36))

SEQ_VALUE = {3: 20, 4: 50, 5: 100, 6: 150, 7: 200, 8: 250, 9: 300}
# four of a kind by rank 6 7 8 9 10 J Q K A (R5.2); the low ranks 6 7 8 only with low_quads_score
QUAD_VALUE = (100, 100, 100, 150, 100, 200, 100, 100, 100)
LOW_QUAD_RANKS = (0, 1, 2)

OBENABE = 4
UNDENUFE = 5
# contract index: 0..3 trump suit D H S C, 4 Obenabe, 5 Undenufe
TRUMP_SUIT = (0, 1, 2, 3, -1, -1)

STEP_SHIFTS = (14, 10, 6, 2)  # points, cards, high card, trump


def meld_key(points: int, cards: int, high: int, trump: int) -> int:
    """The ladder key of a meld (R5.5 steps 1 to 4: points, cards, high card, trump)."""
    return points << 14 | cards << 10 | high << 6 | trump << 2


def _runs(holding: int) -> tuple[tuple[int, int], ...]:
    """Maximal runs of three or more ranks in a 9-bit holding: (start, length)."""
    runs: list[tuple[int, int]] = []
    rank = 0
    while rank < 9:
        if holding >> rank & 1:
            start = rank
            while rank < 9 and holding >> rank & 1:
                rank += 1
            if rank - start >= 3:
                runs.append((start, rank - start))
        else:
            rank += 1
    return tuple(runs)


RUNS = tuple(_runs(h) for h in range(512))
SEQ_POINTS = tuple(sum(SEQ_VALUE[n] for _, n in runs) for runs in RUNS)


def _seq_key(runs: tuple[tuple[int, int], ...], reverse: bool) -> int:
    best = 0
    for start, length in runs:
        high = 8 - start if reverse else start + length - 1
        best = max(best, meld_key(SEQ_VALUE[length], length, high, 0))
    return best


SEQ_KEY = tuple(tuple(_seq_key(runs, reverse) for runs in RUNS) for reverse in (False, True))
SEQ_KEY_TRUMP = tuple(tuple(k | 4 if k else 0 for k in table) for table in SEQ_KEY)


def _quad_ranks(q: int, low: bool) -> tuple[int, ...]:
    return tuple(r for r in range(9) if q >> r & 1 and (low or r not in LOW_QUAD_RANKS))


QUAD_POINTS = tuple(
    tuple(sum(QUAD_VALUE[r] for r in _quad_ranks(q, low)) for q in range(512))
    for low in (False, True)
)
QUAD_KEY = tuple(
    tuple(
        tuple(
            max(
                (
                    meld_key(QUAD_VALUE[r], 4, 8 - r if reverse else r, 0)
                    for r in _quad_ranks(q, low)
                ),
                default=0,
            )
            for q in range(512)
        )
        for low in (False, True)
    )
    for reverse in (False, True)
)

_WEIS_TABLES: dict[tuple[int, bool, bool], WeisTables] = {}


def weis_tables(contract_index: int, low: bool, reverse: bool) -> WeisTables:
    """``(seq_table_D, seq_table_H, seq_table_S, seq_table_C, quad_key, quad_points)``.

    The best-meld keys of each suit holding (R5.1 sequences; the trump suit's
    flagged for R5.5 step 4), of the ranks held four times (R5.2, with
    ``low`` = ``low_quads_score``) and their points; ``reverse`` turns the
    high-card step for Undenufe (R5.5 step 3).
    """
    key = (contract_index, low, reverse)
    tables = _WEIS_TABLES.get(key)
    if tables is None:
        trump = TRUMP_SUIT[contract_index]
        rev = int(reverse)
        seq = [SEQ_KEY_TRUMP[rev] if suit == trump else SEQ_KEY[rev] for suit in range(4)]
        tables = (seq[0], seq[1], seq[2], seq[3], QUAD_KEY[rev][int(low)], QUAD_POINTS[int(low)])
        _WEIS_TABLES[key] = tables
    return tables


# --- trick play -------------------------------------------------------------

_TRUMP_POINTS = (0, 0, 0, 14, 10, 20, 3, 4, 11)
_PLAIN_POINTS = (0, 0, 0, 0, 10, 2, 3, 4, 11)
_OBENABE_POINTS = (0, 0, 8, 0, 10, 2, 3, 4, 11)
_UNDENUFE_POINTS = (11, 0, 8, 0, 10, 2, 3, 4, 0)
# trump order low to high: 6 7 8 10 Q K A 9 J (R3.6)
_TRUMP_ORDER = (0, 1, 2, 7, 3, 8, 4, 5, 6)


def _card_points(ci: int, contract: int) -> int:
    """Points of card ``ci`` in a contract (R4.1 trump and plain, R4.2 Obenabe, R4.3 Undenufe)."""
    suit, rank = SUIT_OF[ci], RANK_OF[ci]
    if contract == OBENABE:
        return _OBENABE_POINTS[rank]
    if contract == UNDENUFE:
        return _UNDENUFE_POINTS[rank]
    return _TRUMP_POINTS[rank] if suit == contract else _PLAIN_POINTS[rank]


def _strength(ci: int, contract: int) -> int:
    """Trick strength (R3.6): trumps 100 + trump order; other cards their rank in the contract."""
    suit, rank = SUIT_OF[ci], RANK_OF[ci]
    if suit == TRUMP_SUIT[contract]:
        return 100 + _TRUMP_ORDER[rank]
    return 8 - rank if contract == UNDENUFE else rank


POINTS = tuple(tuple(_card_points(ci, c) for ci in range(36)) for c in range(6))
STRENGTH = tuple(tuple(_strength(ci, c) for ci in range(36)) for c in range(6))
PUUR_BIT = tuple(1 << (t * 9 + 5) if t >= 0 else 0 for t in TRUMP_SUIT)
STOECK_MASK = tuple((1 << (t * 9 + 6)) | (1 << (t * 9 + 7)) if t >= 0 else 0 for t in TRUMP_SUIT)
LOWER_TRUMPS = tuple(
    tuple(
        sum(
            1 << cj
            for cj in range(36)
            if SUIT_OF[cj] == SUIT_OF[ci] and STRENGTH[c][cj] < STRENGTH[c][ci]
        )
        if SUIT_OF[ci] == TRUMP_SUIT[c]
        else 0
        for ci in range(36)
    )
    for c in range(6)
)
"""``LOWER_TRUMPS[contract][card]``: the trumps below trump ``card`` (R3.3, R3.6)."""


def _under_highest(contract: int, holding: int) -> Mask:
    trump = TRUMP_SUIT[contract]
    cards = [trump * 9 + r for r in range(9) if holding >> r & 1]
    high = max(cards, key=STRENGTH[contract].__getitem__)
    return LOWER_TRUMPS[contract][high]


UNDER_TRICK_TRUMPS: tuple[tuple[Mask, ...], ...] = tuple(
    tuple(_under_highest(c, h) if h else 0 for h in range(512)) if TRUMP_SUIT[c] >= 0 else ()
    for c in range(6)
)
"""``UNDER_TRICK_TRUMPS[contract][holding]``: the trumps below the highest trump of
a trick whose trumps are the 9-bit ``holding`` (R3.3); empty for Obenabe, Undenufe."""


def legal_mask(hand: Mask, led: int, lower: Mask, contract: int) -> Mask:
    """Cards of ``hand`` that may be played: the running code of R3.1, R3.2, R3.3,
    R3.4 and R3.5 (:func:`rules_core.legal_cards` and the play checker call it).

    ``led`` is the led suit (-1 when leading); ``lower`` the trumps below the
    highest trump in the trick (0 when the trick holds no trump; see
    :data:`LOWER_TRUMPS`, :data:`UNDER_TRICK_TRUMPS`).

    - R3.1: the leader plays any card; the others follow the led suit if they can.
    - R3.2: a trump may always be played, even by a player who can follow.
    - R3.3: no trump below the highest trump in the trick, unless the hand holds
      nothing but trumps.
    - R3.4: trump led, the Puur the only trump in hand: any card (Puur exception).
    - R3.5: a player who cannot follow plays any card (subject to R3.3).
    """
    if led < 0:
        return hand  # R3.1
    trump = TRUMP_SUIT[contract]
    follow = hand & SUIT_MASK[led]
    if trump < 0:
        return follow or hand  # R3.1, R3.5
    trumps = hand & SUIT_MASK[trump]
    if led == trump:
        return trumps if trumps and trumps != PUUR_BIT[contract] else hand  # R3.1, R3.4, R3.5
    legal = (follow | trumps) if follow else hand  # R3.1, R3.2, R3.5
    if lower and hand & ~SUIT_MASK[trump]:
        legal &= ~lower  # R3.3
    return legal
