"""Melds (Weis) and the comparison ladder (RULES R5.1, R5.2, R5.3, R5.4, R5.5).

A sequence is three or more cards of one suit in natural order (R5.1); a run is
one sequence at its full length, never split. Four of a kind (R5.2) scores by
rank; four 6s, 7s, 8s only with ``low_quads_score``. One card may be in a
sequence and a four of a kind at once, and both count (Kreuzweis, R5.3).

>>> hand = parse_cards("H6 H7 H8 H9 H10 HJ DJ SJ CJ")
>>> [str(m) + f" = {m.points}" for m in find_melds(hand)]
['DJ HJ SJ CJ = 200', 'H6 H7 H8 H9 H10 HJ = 150']
>>> best_meld(hand, "S").kind
<MeldKind.FOUR_OF_A_KIND: 'four_of_a_kind'>

Comparing two melds of different players, first difference decides (R5.5):

>>> five = Meld.parse("D9 D10 DJ DQ DK")
>>> aces = Meld.parse("HA CA SA DA")  # card order does not matter
>>> comparison = compare_melds(five, 1, aces, 0, "H")
>>> comparison.winner, comparison.step
(0, <Step.CARDS: 'cards'>)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeAlias

from . import _tables as T
from ._coerce import coerce_cards, coerce_contract, coerce_rules, coerce_seat, hand_mask
from .aliases import CardLike, CardsLike, ContractLike, Mask, RulesLike, Seat
from .cards import DECK, Card, Rank, Suit, parse_cards
from .contracts import Contract
from .errors import RulesError
from .rules import DEFAULT_RULES, RuleSet
from .trace import TraceEntry, trace_to_list

__all__ = [
    "Comparison",
    "Meld",
    "MeldChoice",
    "MeldKind",
    "MeldLike",
    "Step",
    "best_meld",
    "compare_melds",
    "explain_best_meld",
    "find_melds",
]


class MeldKind(Enum):
    """``SEQUENCE`` (R5.1) or ``FOUR_OF_A_KIND`` (R5.2)."""

    SEQUENCE = "sequence"
    FOUR_OF_A_KIND = "four_of_a_kind"


class Step(Enum):
    """The steps of the comparison ladder R5.5, in order.

    >>> [s.value for s in Step]
    ['points', 'cards', 'high_card', 'trump', 'seat']
    >>> Step.HIGH_CARD.number, Step.HIGH_CARD.key, Step.HIGH_CARD.rule
    (3, 'ladder.high_card', 'R5.5')
    """

    POINTS = "points"
    CARDS = "cards"
    HIGH_CARD = "high_card"
    TRUMP = "trump"
    SEAT = "seat"

    @property
    def number(self) -> int:
        """1 for POINTS up to 5 for SEAT."""
        return _STEP_NUMBER[self]

    @property
    def key(self) -> str:
        """The trace key of this step: ``ladder.<value>``."""
        return "ladder." + self.value

    @property
    def rule(self) -> str:
        """Always ``"R5.5"``."""
        return "R5.5"


_STEP_NUMBER = {step: i for i, step in enumerate(Step, 1)}
_STEPS = tuple(Step)


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld: ``kind``, ``cards`` (natural order), ``points`` (before any factor),
    ``suit`` (a sequence's suit, None for four of a kind), ``top`` (the highest
    card in natural order; for four of a kind the last card, suits in order D H S C).

    Build one with :meth:`parse` or :meth:`of`; :func:`find_melds` finds them.

    >>> m = Meld.parse("Rosen 10, Rosen Under, Rosen Ober")
    >>> m.kind.value, m.points, m.suit, m.top, m.bottom, len(m)
    ('sequence', 20, <Suit.H: 1>, Card('HQ'), Card('H10'), 3)
    >>> Meld.parse("H9 H10 HQ")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
      ...
    rules_core.errors.RulesError: H9 H10 HQ is not a meld: a sequence needs three or more
    cards of one suit in a row (6 7 8 9 10 J Q K A) and four of a kind one card of each suit
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    points: int
    suit: Suit | None
    top: Card

    def __post_init__(self) -> None:
        try:
            expected = Meld.of(self.cards)
        except RulesError as err:
            raise RulesError(f"not a meld: {err}", rule=err.rule) from None
        if (expected.kind, expected.cards, expected.points, expected.suit, expected.top) != (
            self.kind,
            self.cards,
            self.points,
            self.suit,
            self.top,
        ):
            raise RulesError(f"inconsistent meld {self.cards!r}; build melds with Meld.of(cards)")

    @classmethod
    def of(cls, cards: CardsLike) -> Meld:
        """The meld made of exactly these cards (any order): a sequence (R5.1) or
        four of a kind (R5.2).

        >>> Meld.of(["CJ", "DJ", "HJ", "SJ"]).points
        200
        """
        hand = coerce_cards(cards, "meld", min_cards=3, max_cards=9)
        mask = 0
        for c in hand:
            mask |= c.bit
        for suit in range(4):
            holding = mask >> (9 * suit) & 511
            if holding << (9 * suit) == mask:
                runs = T.RUNS[holding]
                if len(runs) == 1 and runs[0][1] == len(hand):
                    return _SEQUENCES[(suit, *runs[0])]
        if len(hand) == 4 and len({c.rank for c in hand}) == 1:
            return _QUADS[hand[0].rank.index]
        one_suit = len({c.suit for c in hand}) == 1
        raise RulesError(
            f"{' '.join(c.code for c in sorted(hand))} is not a meld: a sequence needs three or "
            "more cards of one suit in a row (6 7 8 9 10 J Q K A) and four of a kind one card "
            "of each suit",
            rule="R5.1" if one_suit or len(hand) != 4 else "R5.2",
        )

    @classmethod
    def parse(cls, text: CardsLike) -> Meld:
        """The meld written as cards, e.g. ``"H6 H7 H8"``."""
        return cls.of(parse_cards(text) if isinstance(text, str) else text)

    @property
    def bottom(self) -> Card:
        """The lowest card in natural order (for four of a kind the first card)."""
        return self.cards[0]

    @property
    def rank(self) -> Rank:
        """The rank of a four of a kind; for a sequence the rank of its top card."""
        return self.top.rank

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return " ".join(c.code for c in self.cards)

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "cards", "points", "suit", "top"}`` as plain data (card codes).

        >>> Meld.parse("H6 H7 H8").to_dict()
        {'kind': 'sequence', 'cards': ['H6', 'H7', 'H8'], 'points': 20, 'suit': 'H', 'top': 'H8'}
        """
        return {
            "kind": self.kind.value,
            "cards": [c.code for c in self.cards],
            "points": self.points,
            "suit": None if self.suit is None else self.suit.code,
            "top": self.top.code,
        }


def _build(kind: MeldKind, cards: tuple[Card, ...], points: int, suit: Suit | None) -> Meld:
    meld = object.__new__(Meld)
    for name, value in (
        ("kind", kind),
        ("cards", cards),
        ("points", points),
        ("suit", suit),
        ("top", cards[-1]),
    ):
        object.__setattr__(meld, name, value)
    return meld


_SEQUENCES: dict[tuple[int, int, int], Meld] = {
    (s, start, length): _build(
        MeldKind.SEQUENCE,
        tuple(DECK[s * 9 + r] for r in range(start, start + length)),
        T.SEQ_VALUE[length],
        Suit(s),
    )
    for s in range(4)
    for length in range(3, 10)
    for start in range(0, 10 - length)
}
_QUADS: tuple[Meld, ...] = tuple(
    _build(MeldKind.FOUR_OF_A_KIND, tuple(DECK[s * 9 + r] for s in range(4)), T.QUAD_VALUE[r], None)
    for r in range(9)
)


MeldLike: TypeAlias = Meld | str | Sequence[CardLike]
"""A meld, or its cards (``"H6 H7 H8"``, a list or tuple of cards)."""


def _is_scoring(meld: Meld, rules: RuleSet) -> bool:
    """R5.2: four 6s, 7s or 8s score only with ``low_quads_score``."""
    return (
        meld.kind is MeldKind.SEQUENCE
        or rules.low_quads_score
        or meld.cards[0].rank.value not in T.LOW_QUAD_RANKS
    )


def melds_of_mask(mask: Mask, low_quads: bool) -> list[Meld]:
    """Every scoring meld of a hand mask, runs by suit (R5.1), then fours by rank
    (R5.2); a card may be in both (R5.3)."""
    out = []
    for s in range(4):
        for start, length in T.RUNS[mask >> (9 * s) & 511]:
            out.append(_SEQUENCES[(s, start, length)])
    q = mask & (mask >> 9) & (mask >> 18) & (mask >> 27) & 511
    for r in range(9):
        if q >> r & 1 and (low_quads or r not in T.LOW_QUAD_RANKS):
            out.append(_QUADS[r])
    return out


def meld_key(meld: Meld, trump: Suit | None, reverse: bool) -> int:
    """The meld's ladder key without the seat: R5.5 steps 1 to 4 (points, cards,
    high card, trump; see :mod:`rules_core._tables`)."""
    if meld.kind is MeldKind.SEQUENCE:
        high = 8 - meld.cards[0].rank.value if reverse else meld.top.rank.value
        return T.meld_key(meld.points, len(meld.cards), high, int(meld.suit is trump))
    r = meld.cards[0].rank.value
    return T.meld_key(meld.points, 4, 8 - r if reverse else r, 0)


def _reverses(contract: Contract, rules: RuleSet) -> bool:
    return contract is Contract.UNDENUFE and rules.undenufe_reverses_weis


def sort_melds(melds: list[Meld], contract: Contract | None, rules: RuleSet) -> list[Meld]:
    """Best first by the ladder steps POINTS..TRUMP (R5.5); ties by suit order D H S C."""
    trump = None if contract is None else contract.trump
    reverse = contract is not None and _reverses(contract, rules)
    return sorted(
        melds,
        key=lambda m: (-meld_key(m, trump, reverse), m.cards[0].suit.value),
    )


def find_melds(hand: CardsLike, rules: RulesLike = DEFAULT_RULES) -> list[Meld]:
    """Every scoring meld in a hand (R5.1, R5.2, R5.3): one sequence per maximal run of
    three or more, and every scoring four of a kind (a card may be in both).

    Ordered best first in natural order (points, cards, top card; then suit D H S C).

    >>> [str(m) for m in find_melds("D6 D7 D8 H6 S6 C6 CA CK CQ")]
    ['D6 H6 S6 C6', 'CQ CK CA', 'D6 D7 D8']
    >>> [str(m) for m in find_melds("D6 D7 D8 H6 S6 C6", RuleSet.preset("w-en"))]
    ['D6 D7 D8']
    """
    rules = coerce_rules(rules)
    mask = hand_mask(hand, "hand")
    return sort_melds(melds_of_mask(mask, rules.low_quads_score), None, rules)


def best_meld(
    hand: CardsLike, contract: ContractLike, rules: RulesLike = DEFAULT_RULES
) -> Meld | None:
    """The meld a player announces (R5.4): the best of the hand by the ladder
    steps POINTS, CARDS, HIGH_CARD, TRUMP; None without a meld. Two melds that
    tie on all four steps (equal runs in two non-trump suits) are equally good;
    the one in the earlier suit (D H S C) is returned.

    >>> str(best_meld("H7 H8 H9 S7 S8 S9", "H")), str(best_meld("H7 H8 H9 S7 S8 S9", "S"))
    ('H7 H8 H9', 'S7 S8 S9')
    >>> str(best_meld("H7 H8 H9 S7 S8 S9", "C"))  # a tie: the earlier suit
    'H7 H8 H9'
    >>> print(best_meld("H6 H8 HA", "obenabe"))
    None
    """
    return explain_best_meld(hand, contract, rules).best


@dataclass(frozen=True)
class MeldChoice:
    """The melds of one hand, best first, and why the best is best.

    ``trace``: one ``choice.meld`` entry per meld (best first), then the ladder
    steps between the best and the runner-up (no ``seat`` step: both are in one
    hand; all steps tied means they are equally good).
    """

    best: Meld | None
    melds: tuple[Meld, ...]
    trace: tuple[TraceEntry, ...]
    contract: Contract

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"contract", "best", "melds", "trace"}``."""
        return {
            "contract": self.contract.code,
            "best": None if self.best is None else self.best.to_dict(),
            "melds": [m.to_dict() for m in self.melds],
            "trace": trace_to_list(self.trace),
        }


def explain_best_meld(
    hand: CardsLike, contract: ContractLike, rules: RulesLike = DEFAULT_RULES
) -> MeldChoice:
    """Which meld a player announces and why (R5.4 with the ladder R5.5).

    RULES section 9: four Nell (150) against a six-card sequence (150) in one
    hand is decided at CARDS, 6 against 4.

    >>> choice = explain_best_meld("H6 H7 H8 H9 H10 HJ D9 S9 C9", "S")
    >>> str(choice.best), [(e.key, e.decided) for e in choice.trace[-2:]]
    ('H6 H7 H8 H9 H10 HJ', [('ladder.points', False), ('ladder.cards', True)])
    """
    contract = coerce_contract(contract)
    rules = coerce_rules(rules)
    mask = hand_mask(hand, "hand")
    melds = tuple(sort_melds(melds_of_mask(mask, rules.low_quads_score), contract, rules))
    trace = [
        TraceEntry("R5.4", "choice.meld", {"meld": m.to_dict(), "rank": i}, decided=i == 0)
        for i, m in enumerate(melds)
    ]
    if len(melds) >= 2:
        trace.extend(_ladder(melds[0], None, melds[1], None, contract, rules)[2])
    return MeldChoice(melds[0] if melds else None, melds, tuple(trace), contract)


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare_melds`.

    ``winner`` is 0 when ``a`` wins, 1 when ``b`` wins; ``step`` the deciding
    :class:`Step`; ``trace`` one ``ladder.*`` entry per step tried, the last one
    ``decided``.
    """

    winner: int
    step: Step
    trace: tuple[TraceEntry, ...]
    a: Meld
    a_seat: int
    b: Meld
    b_seat: int
    contract: Contract

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"winner", "step", "a", "a_seat", "b", "b_seat", "contract", "trace"}``."""
        return {
            "winner": self.winner,
            "step": self.step.value,
            "a": self.a.to_dict(),
            "a_seat": self.a_seat,
            "b": self.b.to_dict(),
            "b_seat": self.b_seat,
            "contract": self.contract.code,
            "trace": trace_to_list(self.trace),
        }


def _coerce_meld(meld: object, what: str) -> Meld:
    if isinstance(meld, Meld):
        return meld
    if isinstance(meld, (str, list, tuple)):
        try:
            return Meld.of(meld)
        except RulesError as err:
            raise RulesError(f"{what}: {err}", rule=err.rule) from None
    raise RulesError(f"{what} must be a Meld, got {type(meld).__name__}")


def compare_melds(
    a: MeldLike,
    a_seat: Seat,
    b: MeldLike,
    b_seat: Seat,
    contract: ContractLike,
    rules: RulesLike = DEFAULT_RULES,
) -> Comparison:
    """Compare two players' melds by the ladder R5.5; the first difference decides.

    1. POINTS, 2. CARDS, 3. HIGH_CARD (natural order; in Undenufe with
    ``undenufe_reverses_weis`` the meld whose lowest card is lower), 4. TRUMP (a
    sequence in the trump suit), 5. SEAT (the lower seat announced first).

    >>> c = compare_melds(Meld.parse("S6 S7 S8"), 1, Meld.parse("H7 H8 H9"), 0, "undenufe")
    >>> c.winner, c.step
    (0, <Step.HIGH_CARD: 'high_card'>)
    >>> c.trace[-1].values  # doctest: +NORMALIZE_WHITESPACE
    {'order': 'reversed', 'a': '6', 'b': '7', 'a_card': 'S6', 'b_card': 'H7',
     'winner': 0}
    >>> compare_melds(Meld.parse("CQ CK CA"), 1, Meld.parse("DQ DK DA"), 0, "obenabe").step
    <Step.SEAT: 'seat'>
    """
    contract = coerce_contract(contract)
    rules = coerce_rules(rules)
    a = _coerce_meld(a, "meld a")
    b = _coerce_meld(b, "meld b")
    a_seat = coerce_seat(a_seat, "a_seat")
    b_seat = coerce_seat(b_seat, "b_seat")
    return _compare(a, a_seat, b, b_seat, contract, rules)


def _compare(
    a: Meld, a_seat: Seat, b: Meld, b_seat: Seat, contract: Contract, rules: RuleSet
) -> Comparison:
    if a_seat == b_seat:
        raise RulesError(
            f"both melds are at seat {a_seat}; compare_melds compares two players' melds "
            "(use explain_best_meld for the melds of one hand)"
        )
    shared = sorted(set(a.cards) & set(b.cards))
    if shared:
        raise RulesError(
            f"the melds share {' '.join(c.code for c in shared)}; "
            "two players cannot hold the same card (R1.1)",
            rule="R1.1",
        )
    for meld, name in ((a, "meld a"), (b, "meld b")):
        if not _is_scoring(meld, rules):
            raise RulesError(
                f"{name} ({meld}) scores nothing under this rule set: four 6s, 7s or 8s "
                "have no value with low_quads_score=False (R5.2)",
                rule="R5.2",
            )
    winner, step, trace = _ladder(a, a_seat, b, b_seat, contract, rules)
    assert winner is not None and step is not None
    return Comparison(winner, step, trace, a, a_seat, b, b_seat, contract)


def _ladder(
    a: Meld,
    a_seat: Seat | None,
    b: Meld,
    b_seat: Seat | None,
    contract: Contract,
    rules: RuleSet,
) -> tuple[int | None, Step | None, tuple[TraceEntry, ...]]:
    """The explaining code of R5.5: walk the ladder POINTS, CARDS, HIGH_CARD,
    TRUMP, SEAT; without seats a full tie gives ``(None, None, trace)``."""
    trump = contract.trump
    reverse = _reverses(contract, rules)
    if reverse:
        a_card, b_card = a.bottom, b.bottom
        a_high, b_high = -a_card.rank.value, -b_card.rank.value
    else:
        a_card, b_card = a.top, b.top
        a_high, b_high = a_card.rank.value, b_card.rank.value
    a_trump = a.kind is MeldKind.SEQUENCE and a.suit is trump
    b_trump = b.kind is MeldKind.SEQUENCE and b.suit is trump
    steps: list[tuple[Step, Any, Any, dict[str, Any]]] = [
        (Step.POINTS, a.points, b.points, {}),
        (Step.CARDS, len(a.cards), len(b.cards), {}),
        (
            Step.HIGH_CARD,
            a_high,
            b_high,
            {
                "order": "reversed" if reverse else "natural",
                "a": a_card.rank.code,
                "b": b_card.rank.code,
                "a_card": a_card.code,
                "b_card": b_card.code,
            },
        ),
        (
            Step.TRUMP,
            a_trump,
            b_trump,
            {"trump": None if trump is None else trump.code, "a": a_trump, "b": b_trump},
        ),
    ]
    if a_seat is not None and b_seat is not None:
        steps.append((Step.SEAT, -a_seat, -b_seat, {"a": a_seat, "b": b_seat}))
    trace = []
    for step, a_value, b_value, shown in steps:
        winner = None if a_value == b_value else (0 if a_value > b_value else 1)
        values = shown or {"a": a_value, "b": b_value}
        values["winner"] = winner
        trace.append(TraceEntry(step.rule, step.key, values, decided=winner is not None))
        if winner is not None:
            return winner, step, tuple(trace)
    return None, None, tuple(trace)


def step_between(key_a: int, key_b: int) -> Step:
    """The deciding step of R5.5 between two seat-tagged meld keys (fast path)."""
    diff = key_a ^ key_b
    for step, shift in zip(_STEPS, T.STEP_SHIFTS, strict=False):
        if diff >> shift:
            return step
    return Step.SEAT
