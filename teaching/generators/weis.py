"""Weis questions: ``weis_value`` (R5.1-R5.4), ``who_writes`` (R5.5, R5.6, R4.5)
and ``ladder_step`` (R5.5). Formats: see :mod:`teaching.generators`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TypeAlias

from rules_core import (
    Card,
    Contract,
    Meld,
    MeldKind,
    Rank,
    RuleSet,
    Step,
    WeisResult,
    card_points,
    compare_melds,
    explain_best_meld,
    find_melds,
    parse_cards,
    resolve_weis,
)

from .base import (
    Draft,
    Inputs,
    Kind,
    PointsValue,
    Retry,
    Solved,
    StepValue,
    TeamPointsValue,
    pick_around,
    ranks_within_reach,
    trace_dicts,
)
from .deal import (
    ALL_CONTRACTS,
    LOW_QUAD_RANKS,
    NO_TRUMP_CONTRACTS,
    QUAD_VALUE,
    RANK_9,
    RANK_J,
    SEQ_VALUE,
    TRUMP_CONTRACTS,
    card,
    check_planned,
    codes,
    fill_hand,
    fill_hands,
    mask_of,
    other_team_seat,
    quad,
    run,
    weighted,
)

# Four of a kind (R5.2), by rank index: the ranks that score under every rule set
# (9 10 J Q K A), and among them those worth the least (10 Q K A; 9s and Unders
# are worth more).
HIGH_QUAD_RANKS = tuple(r for r in range(9) if r not in LOW_QUAD_RANKS)
COMMON_QUAD_VALUE = min(QUAD_VALUE)
HUNDRED_QUAD_RANKS = tuple(r for r in HIGH_QUAD_RANKS if QUAD_VALUE[r] == COMMON_QUAD_VALUE)
# four of a kind in weis_value questions: four 9s and four Unders three times as
# often as each of the others, so that the common value is not the usual answer
WEIGHTED_QUAD_RANKS = tuple(
    r for r in HIGH_QUAD_RANKS for _ in range(1 if r in HUNDRED_QUAD_RANKS else 3)
)
# values of melds, by what makes them (R5.1): the planned deals name them so
RUN3, RUN4, RUN5, RUN6, RUN7 = (SEQ_VALUE[n] for n in (3, 4, 5, 6, 7))


def _preset(rules: RuleSet) -> str | None:
    return rules.preset_name()


def _shares_card(a: Meld, b: Meld) -> bool:
    return bool(set(a.cards) & set(b.cards))


def _kreuzweis_pairs(melds: Sequence[Meld]) -> list[tuple[Meld, Meld]]:
    """(four of a kind, sequence) pairs that share a card (R5.3)."""
    quads = [m for m in melds if m.kind is MeldKind.FOUR_OF_A_KIND]
    seqs = [m for m in melds if m.kind is MeldKind.SEQUENCE]
    return [(q, s) for q in quads for s in seqs if _shares_card(q, s)]


def _is_low_quad(m: Meld) -> bool:
    return m.kind is MeldKind.FOUR_OF_A_KIND and m.cards[0].rank.index in LOW_QUAD_RANKS


def _max_points(melds: Sequence[Meld]) -> int:
    return max((m.points for m in melds), default=0)


def _random_run(
    rng: random.Random,
    length: int,
    used: int,
    *,
    suits: Sequence[int] = (0, 1, 2, 3),
    avoid_rank: int | None = None,
) -> list[Card]:
    """A random run of ``length`` avoiding the cards in ``used``."""
    for _ in range(40):
        s = rng.choice(list(suits))
        start = rng.randrange(0, 10 - length)
        cards = run(s, start, length)
        if mask_of(cards) & used:
            continue
        if avoid_rank is not None and start <= avoid_rank < start + length:
            continue
        return cards
    raise Retry("no free run")


def _meld_for_value(rng: random.Random, value: int, used: int, rules: RuleSet) -> list[Card]:
    """A random meld worth ``value`` (a run, or where four of a kind is worth as much,
    sometimes four of a kind)."""
    ranks = HIGH_QUAD_RANKS + (LOW_QUAD_RANKS if rules.low_quads_score else ())
    quad_ranks = [r for r in ranks if QUAD_VALUE[r] == value]
    lengths = [n for n, v in SEQ_VALUE.items() if v == value]
    free_quads = [r for r in quad_ranks if not mask_of(quad(r)) & used]
    if free_quads and (not lengths or rng.random() < 0.4):
        return quad(rng.choice(free_quads))
    if not lengths:
        raise Retry("no meld of that value")
    return _random_run(rng, lengths[0], used)


# ---------------------------------------------------------------------------
# weis_value


def solve_weis_value(inputs: Inputs, rules: RuleSet) -> Solved[PointsValue]:
    choice = explain_best_meld(inputs["hand"], inputs["contract"], rules)
    points = 0 if choice.best is None else choice.best.points
    explanation = trace_dicts(choice.trace)
    if choice.best is None:  # rules_core's trace is empty then; say so (R5.1, R5.2)
        explanation.append(
            {
                "rule": "R5.4",
                "key": "choice.no_meld",
                "values": {"hand": list(inputs["hand"]), "low_quads_score": rules.low_quads_score},
                "decided": True,
            }
        )
    return Solved({"points": points}, explanation)


WEIS_VALUE_CATEGORIES = (
    "single_sequence",
    "several_melds",
    "kreuzweis",
    "four_of_a_kind",
    "low_quads",
    "no_meld",
)


WVCore: TypeAlias = tuple[list[Card], list[list[Card]], list[tuple[int, str]]]
"""A weis_value hand's planned cards, its planned melds, and its near misses (the
value each would be announced at if read as a meld, the slip)."""


def _wv_single(rng: random.Random) -> WVCore:
    length = weighted(rng, [(3, 4), (4, 3.5), (5, 1.2), (6, 1.2), (7, 0.6), (8, 0.3), (9, 0.2)])
    cards = _random_run(rng, length, 0)
    return cards, [cards], []


def _wv_several(rng: random.Random) -> WVCore:
    # the melds add up to a value a meld can have (a run of five or six cards), so
    # that the sum looks like an announcement (a sum no meld has is wrong at a glance)
    pattern = rng.choice(("two_runs", "two_runs", "two_runs", "run_and_quad"))
    melds: list[list[Card]] = []
    used = 0
    if pattern == "two_runs":
        for n in rng.choice(((4, 4), (4, 4), (4, 5), (5, 4))):
            m = _random_run(rng, n, used)
            melds.append(m)
            used |= mask_of(m)
    else:
        r = rng.choice(WEIGHTED_QUAD_RANKS)
        melds.append(quad(r))
        used |= mask_of(quad(r))
        melds.append(_random_run(rng, rng.choice((4, 4, 5)), used, avoid_rank=r))
    return [c for m in melds for c in m], melds, []


def _wv_kreuzweis(rng: random.Random) -> WVCore:
    r = rng.choice(WEIGHTED_QUAD_RANKS)
    value = QUAD_VALUE[r]
    length = rng.choice([n for n in (4, 5, 6) if SEQ_VALUE[n] != value])
    s = rng.randrange(4)
    starts = [st for st in range(0, 10 - length) if st <= r < st + length]
    start = rng.choice(starts)
    seq = run(s, start, length)
    four = quad(r)
    core = sorted(set(seq) | set(four))
    return core, [seq, four], []


def _wv_four(rng: random.Random) -> WVCore:
    r = rng.choice(WEIGHTED_QUAD_RANKS)
    melds = [quad(r)]
    if rng.random() < 0.5:
        melds.append(_random_run(rng, 4, mask_of(quad(r)), avoid_rank=r))
    return [c for m in melds for c in m], melds, []


def _wv_low(rng: random.Random, alone: bool = False) -> WVCore:
    r = rng.choice(LOW_QUAD_RANKS)
    melds = [quad(r)]
    if not alone:
        melds.append(_random_run(rng, 4, mask_of(quad(r)), avoid_rank=r))
    return [c for m in melds for c in m], melds, []


def _wv_none(rng: random.Random) -> WVCore:
    s = rng.randrange(4)
    near: list[tuple[int, str]] = []
    if rng.random() < 0.5:
        # three cards of a suit with one gap: 6 7 9, or 7 9 10 ...
        a = rng.randrange(0, 6)
        gap = rng.choice((1, 2))
        ranks = [a, a + 1, a + 2, a + 3]
        del ranks[gap]
        cards = [card(s, k) for k in ranks]
        near.append((SEQ_VALUE[3], "gap_in_sequence"))
    else:
        # W-EN's slip leaves the Under out of the order: 10, Ober, King look like a run
        cards = [card(s, 4), card(s, 6), card(s, 7)]
        near.append((SEQ_VALUE[3], "under_left_out_of_order"))
    r = rng.choice([k for k in HIGH_QUAD_RANKS if not any(c.rank.index == k for c in cards)])
    suits = [t for t in range(4) if t != s]
    rng.shuffle(suits)
    three = (
        [card(t, r) for t in suits[:3]]
        if rng.random() < 0.7
        else [card(s, r)] + [card(t, r) for t in suits[:2]]
    )
    three = [c for c in three if c not in cards]
    if len(three) < 3:
        raise Retry("three of a kind overlaps")
    near.append((QUAD_VALUE[r], "three_of_a_kind_counted"))
    return cards + three, [], near


_WV_BUILDERS: dict[str, Callable[[random.Random], WVCore]] = {
    "single_sequence": _wv_single,
    "several_melds": _wv_several,
    "kreuzweis": _wv_kreuzweis,
    "four_of_a_kind": _wv_four,
    "low_quads": _wv_low,
    "no_meld": _wv_none,
}


# Three choices; where the answer stands among them sorted is drawn first (a hand
# without a meld answers 0, the smallest of all, so the other hands make up for it).
# "0" (no meld seen) is shown beside a hand with a meld as often as it is right
# elsewhere, so that a pupil who bets on 0, the roundest number, gains nothing.
WV_SIZE = 3
LOW_ALONE = 0.5  # four 6s, 7s or 8s alone in the hand (0 under W-EN, 100 by default)
CARD_POINTS_SHOWN = 0.3  # the card points of the meld: not round, shown now and then
# The answer's place among the three choices sorted (0 = the smallest) is drawn among
# the places its mistakes can reach, with these weights: the places above are
# reached less often (a sequence of three has no slip below it but "0"), so they
# weigh more, and the place taken evenly over all questions (tuned with
# tests/quizzes/choice_leakage.py).
WV_RANK_WEIGHTS = {  # by low_quads_score
    True: (3.0, 0.0005, 0.0008),
    False: (1.08, 0.64, 1.29),
}
WV_ZERO_SHOWN = 2.9  # tunes how often 0 is shown (W-EN): right a third of the times
FACTOR_SHOWN = 0.05  # the factor applied to the announcement (a factor's ratio)
# four of a kind read as a sequence of four (50): half a four of a kind's 100, so
# offered for a third of the fours of a kind only
FOUR_AS_SEQUENCE_SHOWN = 0.33
NEAR_PLANTS = (
    (),
    ("three",),
    ("three",),
    ("gap",),
    ("ober",),
    ("three", "three"),
    ("three", "three"),
    ("three", "gap"),
)


def _near_miss(rng: random.Random, used: int, kind: str) -> tuple[list[Card], int, str] | None:
    """Cards that make no meld but look like one, and what the slip reads: three of a
    kind read as four of a kind, three cards of a suit with a gap read as a sequence,
    10, Ober, king read as a sequence (W-EN's slip). None when nothing fits."""
    for _ in range(20):
        if kind == "three":
            # three 9s or Unders: read as four of a kind (the Nell's and the Puur's,
            # the highest) they top most melds
            r = rng.choice((RANK_9, RANK_J))
            free = [s for s in range(4) if not card(s, r).bit & used]
            if len(free) < 3:
                continue
            return (
                [card(s, r) for s in rng.sample(free, 3)],
                QUAD_VALUE[r],
                "three_of_a_kind_counted",
            )
        s = rng.randrange(4)
        if kind == "gap":
            a = rng.randrange(0, 6)
            gap = rng.choice((1, 2))
            cards = [card(s, k) for k in (a, a + 1, a + 2, a + 3) if k != a + gap]
            tag = "gap_in_sequence"
        else:
            cards = [card(s, 4), card(s, 6), card(s, 7)]
            tag = "under_left_out_of_order"
        if not mask_of(cards) & used:
            return cards, SEQ_VALUE[3], tag
    return None


# The hands of ``single_sequence``, ``several_melds``, ``four_of_a_kind`` and
# ``no_meld`` questions are dealt as a chain: two features, each a real meld or a
# look-alike (a sequence, or cards with a gap; four of a kind, or three), and as
# choices the announcement with
# no feature real (0), with the lower one real, and with both. Each of the three is
# right a third of the time (the hand is dealt to fit), and each wrong one is the
# answer of a slip: a meld overlooked (less), a look-alike read as a meld (more).
CHAIN_CATEGORIES = ("single_sequence", "several_melds", "four_of_a_kind", "no_meld")
CHAIN_PAIRS = (("run3", "quad", 3), ("run4", "quad", 2), ("run3", "run", 2), ("quad", "quad", 1))
FeatureSpec: TypeAlias = tuple[str, int, bool]
"""``("quad", rank, False)`` or ``("run", length, 10-Ober-king look-alike)``."""
Feature: TypeAlias = tuple[list[Card], list[Card], int, str]
"""A chain feature's real cards, its look-alike's cards, the value, the look-alike's slip."""


def _chain_spec(rng: random.Random, kind: str, above: int = 0) -> FeatureSpec:
    """What a feature of ``kind`` is (worth more than ``above``): ``("quad", rank, _)``
    or ``("run", length, 10-Ober-king look-alike)``."""
    if kind == "quad":
        ranks = [k for k in WEIGHTED_QUAD_RANKS if QUAD_VALUE[k] > above]
        if not ranks:
            raise Retry("no four of a kind worth more")
        return "quad", rng.choice(ranks), False
    lengths = [k for k in (4, 5) if SEQ_VALUE[k] > above]
    if kind == "run" and not lengths:
        raise Retry("no sequence worth more")
    n = {"run3": 3, "run4": 4}.get(kind) or rng.choice(lengths)
    return "run", n, n == 3 and rng.random() < 0.4


def _chain_feature(rng: random.Random, spec: FeatureSpec, other: FeatureSpec | None) -> Feature:
    """Cards for a feature ``spec`` that can never touch the ``other`` feature's
    (another suit, no rank next to its four of a kind): (real cards, look-alike cards,
    value, the look-alike's slip). :class:`NoChain` when there are none."""
    what, size, ober = spec
    if what == "quad":
        real = quad(size)
        return real, rng.sample(real, 3), QUAD_VALUE[size], "three_of_a_kind_counted"
    near: set[int] = set()
    if other is not None and other[0] == "quad":
        near = {other[1] - 1, other[1], other[1] + 1}
    # the look-alike: the same number of cards in pairs with a gap between them
    # (6 7 _ 9, or 6 7 _ 9 10 _ Ober), or 10, Ober, king for 10, Under, Ober
    ranks = [k + k // 2 for k in range(size)]
    width = 4 if ober else max(ranks[-1] + 1, size)
    starts = [4] if ober else list(range(0, 10 - width))
    starts = [st for st in starts if not near & set(range(st - 1, st + width + 1))]
    if not starts:
        raise NoChain("no cards for the feature")
    s = rng.randrange(4)
    start = rng.choice(starts)
    real = run(s, start, size)
    if ober:
        return real, [card(s, 4), card(s, 6), card(s, 7)], SEQ_VALUE[3], "under_left_out_of_order"
    look = [card(s, start + k) for k in ranks]
    return real, look, SEQ_VALUE[size], "gap_in_sequence"


class NoChain(Retry):  # noqa: N818 - a Retry
    """The two features of a chain cannot be dealt apart: draw other features."""


def _weis_value_chain(
    rng: random.Random, rules: RuleSet
) -> tuple[list[Card], str, int, list[tuple[int, str]]]:
    # what the two features are (so the three values) and how many of them are real
    # are drawn first and kept while hands are dealt: the values shown must not
    # depend on which of them is right
    low_kind, high_kind = weighted(rng, [((lo, hi), w) for lo, hi, w in CHAIN_PAIRS])
    for _ in range(20):
        try:
            low = _chain_spec(rng, low_kind)
            high = _chain_spec(rng, high_kind, _spec_value(low))
            if high[0] == "quad" and low[2]:  # 10, Under, Ober touch every four of a kind
                low = (low[0], low[1], False)
            break
        except Retry:
            continue
    else:
        raise Retry("no chain of values")
    real_count = rng.randrange(3)  # 0: none, 1: the lower one, 2: both
    for _attempt in range(100):
        try:
            found = _chain_hand(rng, low, high, real_count)
        except NoChain:
            raise
        except Retry:
            continue
        break
    else:
        raise Retry("no chain hand")
    hand, features = found
    values = [0, features[0][2], features[1][2]]
    picked: list[tuple[int, str]] = []
    for k, value in enumerate(values):
        if k < real_count:
            picked.append((value, "meld_overlooked"))
        elif k > real_count:
            picked.append((value, features[k - 1][3]))
    return hand, rng.choice(ALL_CONTRACTS), values[real_count], picked


def _spec_value(spec: FeatureSpec) -> int:
    return QUAD_VALUE[spec[1]] if spec[0] == "quad" else SEQ_VALUE[spec[1]]


def _chain_hand(
    rng: random.Random, low: FeatureSpec, high: FeatureSpec, real_count: int
) -> tuple[list[Card], list[Feature]]:
    a = _chain_feature(rng, low, high)
    for _ in range(40):
        b = _chain_feature(rng, high, low)
        if low[0] == "quad" or high[0] == "quad" or a[0][0].suit != b[0][0].suit:
            break  # two sequences: in two suits
    else:
        raise NoChain("no second sequence")
    core: list[Card] = []
    planned: list[list[Card]] = []
    for i, (real, look, _value, _tag) in enumerate((a, b)):
        if i < real_count:
            core += real
            planned.append(real)
        else:
            core += look
    if len(core) > 9 or not check_planned(core, planned):
        raise Retry("the chain does not fit a hand")
    hand = fill_hand(rng, core)
    if not check_planned(hand, planned):
        raise Retry("extra meld")
    return hand, [a, b]


def build_weis_value(rng: random.Random, seed: int, rules: RuleSet) -> Draft[PointsValue]:
    category = WEIS_VALUE_CATEGORIES[seed % len(WEIS_VALUE_CATEGORIES)]
    if category in CHAIN_CATEGORIES:
        hand, contract, answer, picked = _weis_value_chain(rng, rules)
    else:
        hand, contract, answer, picked = _weis_value_ranked(rng, category, rules)
    inputs = {"hand": codes(hand), "contract": contract}
    solved = solve_weis_value(inputs, rules)
    assert solved.value["points"] == answer
    melds = find_melds(hand, rules)
    rules_tested = ["R5.1", "R5.2", "R5.4"]
    if _kreuzweis_pairs(melds):
        rules_tested.append("R5.3")
    if len(melds) >= 2:
        rules_tested.append("R5.5")
    return Draft(
        inputs=inputs,
        prompt={"preset": _preset(rules)},
        answer=solved.value,
        distractors=[_points(value, tag) for value, tag in picked],
        explanation=solved.explanation,
        rules_tested=rules_tested,
    )


def _points(value: int, tag: str) -> tuple[PointsValue, str]:
    return {"points": value}, tag


def _weis_value_ranked(
    rng: random.Random, category: str, rules: RuleSet
) -> tuple[list[Card], str, int, list[tuple[int, str]]]:
    """Kreuzweis, four 6s/7s/8s: the mistakes' answers around the answer, its place
    among the three choices drawn among the places they reach."""
    alone = category == "low_quads" and rng.random() < LOW_ALONE
    hand, contract, answer, pool, extra = _weis_value_attempt(rng, category, alone, rules)
    # "0" is right only for four 6s, 7s or 8s alone under W-EN here; beside the other
    # answers it is shown where a place needs it, and (W-EN) so often that it is
    # right about a third of the times shown
    zero_share = (0 if rules.low_quads_score else LOW_ALONE) / (
        len(WEIS_VALUE_CATEGORIES) - len(CHAIN_CATEGORIES)
    )
    must: list[tuple[int, str]] = []
    for value, tag in extra:
        if (tag == "card_points_counted" and rng.random() < CARD_POINTS_SHOWN) or (
            tag == "factor_applied_to_announcement" and rng.random() < FACTOR_SHOWN
        ):
            must.append((value, tag))
    zero = [(0, "")] if answer > 0 else []  # "no meld seen": when a place needs it
    reach = ranks_within_reach(answer, [*pool, *must, *zero], lambda x: x, WV_SIZE)
    if not reach:
        raise Retry("too few mistakes")
    weights = WV_RANK_WEIGHTS[rules.low_quads_score]
    rank = weighted(rng, [(r, weights[r]) for r in reach])
    if answer > 0 and rank > 0:
        zero_shown = min(1.0, zero_share * WV_ZERO_SHOWN)
        if rng.random() < zero_shown or not ranks_within_reach(
            answer, [*pool, *must], lambda x: x, WV_SIZE
        ).count(rank):
            must.append((0, "meld_overlooked"))
    picked = pick_around(rng, answer, pool, lambda x: x, WV_SIZE, rank, must)
    if picked is None:
        raise Retry("the mistakes do not fit")
    return hand, contract, answer, picked


def _weis_value_attempt(
    rng: random.Random, category: str, alone: bool, rules: RuleSet
) -> tuple[list[Card], str, int, list[tuple[int, str]], list[tuple[int, str]]]:
    """A hand of ``category`` with near misses, its answer, the mistakes' answers
    (``pool``) and the rarely shown ones (``extra``: card points, the factor)."""
    contract = rng.choice(ALL_CONTRACTS)
    hand, near = _weis_value_hand(rng, category, alone)
    melds = find_melds(hand, rules)
    best = explain_best_meld(hand, contract, rules).best
    answer = 0 if best is None else best.points
    pool = _weis_melds_pool(hand, melds, best, rules)
    pool += [(max(answer, value), tag) for value, tag in near]  # announced if worth more
    extra: list[tuple[int, str]] = []
    if best is None:
        low = [m for m in find_melds(hand, dataclasses.replace(rules, low_quads_score=True))]
        if low:  # four 6s, 7s or 8s alone, worth nothing under this rule set
            cards_points = sum(card_points(c, contract) for c in low[0].cards)
            extra.append((cards_points, "card_points_counted"))
    else:
        pool += _weis_best_pool(rng, best, runs=category != "low_quads")
        extra.append((sum(card_points(c, contract) for c in best.cards), "card_points_counted"))
        if rules.factor(contract) > 1:
            extra.append((answer * rules.factor(contract), "factor_applied_to_announcement"))
    return hand, contract, answer, pool, extra


def _weis_value_hand(
    rng: random.Random, category: str, alone: bool
) -> tuple[list[Card], list[tuple[int, str]]]:
    """A hand of ``category`` with near misses planted, and the near misses."""
    if category == "low_quads":
        core, planned, near = _wv_low(rng, alone)
    else:
        core, planned, near = _WV_BUILDERS[category](rng)
    near = list(near)
    used = mask_of(core)
    for kind in rng.choice(NEAR_PLANTS):
        found = _near_miss(rng, used, kind)
        if found is None:
            continue
        cards, value, tag = found
        if len(core) + len(cards) > 9:
            break
        core = core + cards
        used |= mask_of(cards)
        near.append((value, tag))
    if len(set(core)) != len(core) or len(core) > 9:
        raise Retry("core does not fit a hand")
    if not check_planned(core, planned):
        raise Retry("planned melds merge")
    hand = fill_hand(rng, core)
    if not check_planned(hand, planned):
        raise Retry("extra meld")
    return hand, near


def _weis_melds_pool(
    hand: Sequence[Card], melds: Sequence[Meld], best: Meld | None, rules: RuleSet
) -> list[tuple[int, str]]:
    """The slips about which melds count: Kreuzweis, four 6s/7s/8s, the sum."""
    pool: list[tuple[int, str]] = []
    pairs = _kreuzweis_pairs(melds)
    if pairs:
        quads_in_pairs = [q for q, _ in pairs]
        seqs_in_pairs = [sq for _, sq in pairs]
        pool.append(
            (
                _max_points([m for m in melds if m not in quads_in_pairs]),
                "kreuzweis_four_of_a_kind_missed",
            )
        )
        pool.append(
            (_max_points([m for m in melds if m not in seqs_in_pairs]), "kreuzweis_sequence_missed")
        )
    all_melds = find_melds(hand, dataclasses.replace(rules, low_quads_score=True))
    if any(_is_low_quad(m) for m in all_melds):
        if rules.low_quads_score:
            others = [m for m in melds if not _is_low_quad(m)]
            pool.append((_max_points(others), "low_quads_not_counted"))
        else:
            pool.append((_max_points(all_melds), "low_quads_counted"))
            if best is None:
                pool.append((SEQ_VALUE[4], "four_cards_read_as_sequence"))
    if len(melds) >= 2:
        pool.append((sum(m.points for m in melds), "sum_of_melds"))
    return pool


def _weis_best_pool(rng: random.Random, best: Meld, *, runs: bool) -> list[tuple[int, str]]:
    """The slips about the best meld's value (a sequence one card longer with
    ``runs``: beside four 6s/7s/8s and a sequence, 100 and the sequence's 50, it would
    put the answer amid numbers 50 apart, a clue)."""
    pool: list[tuple[int, str]] = []
    if best.kind is MeldKind.FOUR_OF_A_KIND:
        r = best.cards[0].rank.index
        if r in (RANK_J, RANK_9):
            swapped = RANK_9 if r == RANK_J else RANK_J
            pool.append((QUAD_VALUE[swapped], "puur_and_nell_fours_swapped"))
            pool.append((COMMON_QUAD_VALUE, "every_four_of_a_kind_is_100"))
        if rng.random() < FOUR_AS_SEQUENCE_SHOWN:
            pool.append((SEQ_VALUE[4], "four_cards_read_as_sequence"))
        return pool
    n = len(best.cards)
    if runs and n < 9:
        pool.append((SEQ_VALUE[n + 1], "run_counted_one_card_too_long"))
    return pool


WEIS_VALUE = Kind(
    "weis_value",
    "What does a player announce: the value of the hand's best meld (R5.1-R5.4).",
    build_weis_value,
    solve_weis_value,
    (
        "sum_of_melds",
        "kreuzweis_four_of_a_kind_missed",
        "kreuzweis_sequence_missed",
        "low_quads_counted",
        "low_quads_not_counted",
        "gap_in_sequence",
        "under_left_out_of_order",
        "three_of_a_kind_counted",
        "puur_and_nell_fours_swapped",
        "every_four_of_a_kind_is_100",
        "four_cards_read_as_sequence",
        "run_counted_one_card_too_long",
        "card_points_counted",
        "factor_applied_to_announcement",
        "meld_overlooked",
    ),
    WEIS_VALUE_CATEGORIES,
)


# ---------------------------------------------------------------------------
# who_writes


def solve_who_writes(inputs: Inputs, rules: RuleSet) -> Solved[TeamPointsValue]:
    result = resolve_weis(inputs["hands"], inputs["contract"], rules)
    return Solved({"team": result.team, "points": result.scored}, trace_dicts(result.trace))


WHO_WRITES_CATEGORIES = (
    "small_melds_lose",
    "partners_both_meld",
    "kreuzweis",
    "undenufe",
    "factor",
    "ladder_tie",
)


class _Plan:
    """Melds planned seat by seat, no card twice."""

    def __init__(self) -> None:
        self.melds: list[list[list[Card]]] = [[], [], [], []]
        self.extra: list[list[Card]] = [[], [], [], []]  # near misses: no meld
        self.used = 0

    def add(self, seat: int, cards: Sequence[Card]) -> None:
        m = mask_of(cards)
        if m & self.used:
            raise Retry("meld overlaps")
        self.used |= m
        self.melds[seat].append(list(cards))

    def add_value(self, rng: random.Random, seat: int, value: int, rules: RuleSet) -> None:
        self.add(seat, _meld_for_value(rng, value, self.used, rules))

    def add_run(self, rng: random.Random, seat: int, length: int) -> list[Card]:
        cards = _random_run(rng, length, self.used)
        self.add(seat, cards)
        return cards

    def add_near_miss(
        self, rng: random.Random, seat: int, kind: str, value: int | None = None
    ) -> int:
        """Cards in ``seat`` that are no meld but look like one: three of a kind
        (``three``, read as four of a kind; of a rank whose four are worth ``value``
        when given) or three cards of a suit with a gap (``gap``, read as a sequence
        of three). Returns what the slip would add."""
        ranks = [r for r in HIGH_QUAD_RANKS if value is None or QUAD_VALUE[r] == value]
        for _ in range(30):
            if kind == "three":
                r = rng.choice(ranks)
                free = [s for s in range(4) if not card(s, r).bit & self.used]
                if len(free) < 3:
                    continue
                cards = [card(s, r) for s in rng.sample(free, 3)]
                value = QUAD_VALUE[r]
            else:
                s = rng.randrange(4)
                a = rng.randrange(0, 6)
                gap = rng.choice((1, 2))
                cards = [card(s, k) for k in (a, a + 1, a + 2, a + 3) if k != a + gap]
                value = SEQ_VALUE[3]
                if mask_of(cards) & self.used:
                    continue
            core = sorted(
                {c for m in self.melds[seat] for c in m} | set(self.extra[seat]) | set(cards)
            )
            if len(core) > 9 or not check_planned(core, self.melds[seat]):
                continue  # no room, or it would make a meld with the seat's cards
            self.used |= mask_of(cards)
            self.extra[seat].extend(cards)
            return value
        raise Retry("no room for a near miss")

    def deal(self, rng: random.Random) -> list[list[Card]]:
        cores = []
        for seat in range(4):
            core = sorted({c for m in self.melds[seat] for c in m} | set(self.extra[seat]))
            if len(core) > 9 or not check_planned(core, self.melds[seat]):
                raise Retry("planned melds do not fit one hand")
            cores.append(core)
        hands = fill_hands(rng, cores)
        for seat in range(4):
            if not check_planned(hands[seat], self.melds[seat]):
                raise Retry("extra meld")
        return hands


def _ww_small_melds_lose(rng: random.Random, rules: RuleSet, plan: _Plan, w: int) -> str:
    winner_value, loser_values = rng.choice(
        (
            (RUN4, (RUN3, RUN3, RUN3)),
            (RUN4, (RUN3, RUN3, RUN3)),
            (RUN4, (RUN3, RUN3, RUN3, RUN3)),
            (RUN5, (RUN4, RUN4, RUN3)),
            (RUN5, (RUN4, RUN3, RUN3, RUN3)),
            (RUN6, (RUN5, RUN4, RUN3)),
        )
    )
    plan.add_value(rng, w + 2 * rng.randrange(2), winner_value, rules)
    loser = 1 - w
    for value in loser_values:
        seat = loser + 2 * rng.randrange(2)
        plan.add_value(rng, seat, value, rules)
    return rng.choice(ALL_CONTRACTS)


def _ww_partners(rng: random.Random, rules: RuleSet, plan: _Plan, w: int) -> str:
    top = rng.choice((RUN4, RUN5, RUN5, RUN6, RUN7))
    first = w + 2 * rng.randrange(2)
    plan.add_value(rng, first, top, rules)
    if rng.random() < 0.4:
        plan.add_run(rng, first, 3)
    partner = (first + 2) % 4
    for _ in range(rng.choice((1, 1, 2))):
        plan.add_value(rng, partner, rng.choice([v for v in (RUN3, RUN4) if v <= top]), rules)
    loser = 1 - w
    lower = [v for v in (RUN3, RUN4, RUN5, RUN6) if v < top]
    for _ in range(rng.choice((1, 1, 2))):
        plan.add_value(rng, loser + 2 * rng.randrange(2), rng.choice(lower), rules)
    return rng.choice(ALL_CONTRACTS)


def _ww_kreuzweis(rng: random.Random, rules: RuleSet, plan: _Plan, w: int) -> str:
    r = rng.choice(HIGH_QUAD_RANKS)
    length = rng.choice([n for n in (3, 4, 5) if SEQ_VALUE[n] != QUAD_VALUE[r]])
    s = rng.randrange(4)
    start = rng.choice([st for st in range(0, 10 - length) if st <= r < st + length])
    seat = w + 2 * rng.randrange(2)
    seq = run(s, start, length)
    plan.add(seat, quad(r))
    plan.melds[seat].append(seq)  # shares a card with the four of a kind (R5.3)
    plan.used |= mask_of(seq)
    if rng.random() < 0.5:
        plan.add_run(rng, (seat + 2) % 4, 3)
    top = max(QUAD_VALUE[r], SEQ_VALUE[length])
    loser = 1 - w
    plan.add_value(
        rng, loser + 2 * rng.randrange(2), rng.choice([v for v in (RUN3, RUN4) if v < top]), rules
    )
    return rng.choice(ALL_CONTRACTS)


def _ww_undenufe(rng: random.Random, rules: RuleSet, plan: _Plan, w: int) -> str:
    x = rng.randrange(4)
    y = other_team_seat(rng, x)
    if rng.random() < 0.3 and len(HUNDRED_QUAD_RANKS) >= 2:
        a, b = rng.sample(HUNDRED_QUAD_RANKS, 2)
        plan.add(x, quad(a))
        plan.add(y, quad(b))
        extra: tuple[int, ...] = (RUN3, RUN4)
    else:
        length = rng.choice((3, 3, 4))
        plan.add_run(rng, x, length)
        for _ in range(20):
            cards = _random_run(rng, length, plan.used)
            if cards[0].rank != plan.melds[x][0][0].rank:
                break
        else:
            raise Retry("no second run")
        plan.add(y, cards)
        extra = (RUN3,) if length == 4 else ()
    for seat in (x, y, (x + 2) % 4, (y + 2) % 4):
        if extra and rng.random() < 0.35:
            plan.add_value(rng, seat, rng.choice(extra), rules)
    return "undenufe"


def _ww_factor(rng: random.Random, rules: RuleSet, plan: _Plan, w: int) -> str:
    build = rng.choice((_ww_partners, _ww_small_melds_lose))
    build(rng, rules, plan, w)
    factored = [c for c in ALL_CONTRACTS if rules.factor(c) > 1]
    return rng.choice(factored) if factored else rng.choice(ALL_CONTRACTS)


def _ww_ladder_tie(rng: random.Random, rules: RuleSet, plan: _Plan, w: int) -> str:
    x = rng.randrange(4)
    y = other_team_seat(rng, x)
    length = rng.choice((3, 3, 4, 5))
    start = rng.randrange(0, 10 - length)
    if rng.random() < 0.5:
        contract = rng.choice(TRUMP_CONTRACTS)
        trump = Contract.parse(contract).trump.index  # type: ignore[union-attr]
        if rng.random() < 0.6:  # TRUMP decides
            suits = [trump, rng.choice([s for s in range(4) if s != trump])]
            rng.shuffle(suits)
        else:  # two sequences outside the trump suit: SEAT decides
            suits = rng.sample([s for s in range(4) if s != trump], 2)
    else:
        contract = rng.choice(NO_TRUMP_CONTRACTS)
        suits = rng.sample(range(4), 2)
    plan.add(x, run(suits[0], start, length))
    plan.add(y, run(suits[1], start, length))
    smaller = [v for v in (RUN3, RUN4) if v < SEQ_VALUE[length]]
    for seat in ((x + 2) % 4, (y + 2) % 4):
        if smaller and rng.random() < 0.5:
            plan.add_value(rng, seat, rng.choice(smaller), rules)
    return contract


_WW_BUILDERS = {
    "small_melds_lose": _ww_small_melds_lose,
    "partners_both_meld": _ww_partners,
    "kreuzweis": _ww_kreuzweis,
    "undenufe": _ww_undenufe,
    "factor": _ww_factor,
    "ladder_tie": _ww_ladder_tie,
}


# The choices of a who-writes question: four. Mostly the writing team's melds counted
# wrongly (too few: a meld or a partner left out, the factor forgotten; too many: the
# other team's melds added, a near miss counted as a meld, a sequence one card
# longer), the answer's place among them by points drawn first (WW_RANKS). Seen only
# as values, the other team's one choice beside three of the writing team lets a pupil
# bet on the team that appears most often (1/3 against 1/4 where it is shown), so it
# is shown in a fifth of the questions without a factor (OTHER_TEAM_SHOWN; mostly in
# the Undenufe ones, where it is the slip they are about); the answer's place among
# the writing team's choices is then drawn evenly. The other questions show the
# writing team only: the question is then how much it writes.
OTHER_TEAM_SHOWN = {"undenufe": 0.75}  # by category, otherwise 0.2
NOBODY_SHOWN = 0.2  # at a tie of the best melds: "nobody writes"
NEAR_MISSES = ((), ("three",), ("gap",), ("three", "gap"))
# Where the answer stands among the four choices sorted by points (0 = the fewest),
# by category: a single meld of the writing team has few slips that count less, so
# those categories put the answer low and the others make up for it, for a place
# spread evenly over all questions.
WW_RANKS = {
    "small_melds_lose": (0.5, 0.5, 0.0, 0.0),
    "partners_both_meld": (0.05, 0.1, 0.35, 0.5),
    "kreuzweis": (0.05, 0.1, 0.35, 0.5),
    "undenufe": (0.35, 0.35, 0.3, 0.0),
    "factor": (0.1, 0.15, 0.3, 0.45),
    "ladder_tie": (0.4, 0.4, 0.2, 0.0),
}
# With a factor, the factor forgotten (the answer divided by it) is the telling slip,
# but beside the answer it makes a pair of numbers in the factor's ratio whose larger
# one is right. So it is shown in about a fifth of the questions with a factor, and
# the pair is made to tell nothing: as often the answer is the smaller number of such
# a pair (a near miss is planted that, read as a meld, makes the answer times the
# factor), twice as often the answer stands outside one (a decoy: two slips that
# happen to be in that ratio, or a slip and the same slip with the factor forgotten
# as well), and the rest show no such pair. The larger number of a pair, its smaller
# one and each choice beside it are then right a quarter of the time each, as any
# choice is. Only the writing team is shown (another team would be the team shown
# least often).
FACTOR_PAIRS = (("larger", 0.25), ("smaller", 0.25), ("outside", 0.5))
# the answer's place by the pair, times the category's WW_RANKS: above the factor
# forgotten, below the answer times the factor, or anywhere (the ends weighed to
# make up for it)
FACTOR_PAIR_PLACES = {
    "larger": (0.0, 0.7, 1.3, 1.3),
    "smaller": (1.0, 1.0, 0.05, 0.0),
    "outside": (1.3, 0.5, 1.1, 1.6),
    "none": (1.3, 0.5, 1.1, 1.6),
}


# The factors under which a near miss is often read as worth the answer times the
# factor ("smaller" above): its value (20, 100, 150 or 200) is the writing team's
# points times (factor - 1), so the team writes 20 to 200 under factor 2 and 50 or
# 100 under 3; under 4 and 5 only 50 would do, and from 6 on nothing the deals plant.
# A custom rule set with other factors shows the other pairs instead.
SMALLER_PAIR_FACTORS = frozenset({2, 3})
# The contracts a category's deal may end in (the others fit any contract).
WW_CONTRACTS = {"undenufe": ("undenufe",)}


def _ww_fits(rules: RuleSet, category: str, factored: bool, pair: str | None = None) -> bool:
    """Whether the rule set has a contract for ``category`` with a factor (or without,
    ``factored``) that can make the factor pair ``pair``: a custom rule set may give a
    factor to no contract the category needs, or only factors no near miss fits."""
    return any(
        (rules.factor(c) > 1) == factored
        and (pair != "smaller" or rules.factor(c) in SMALLER_PAIR_FACTORS)
        for c in WW_CONTRACTS.get(category, ALL_CONTRACTS)
    )


def _ww_rank_weights(
    category: str, pair: str | None, size: int, big_factors: bool = False
) -> list[tuple[int, float]]:
    """The places the answer may take among the ``size`` choices of the writing team,
    with their weights (see WW_RANKS and FACTOR_PAIR_PLACES). With ``big_factors``
    (every factor the question may have is above 3) a decoy pair cannot stand above
    the answer: its smaller number would be a slip of more than three times the
    answer divided by the factor, so the answer is not the smallest choice then."""
    if pair is None:
        weights = WW_RANKS[category] if size == 4 else (1.0,) * size
        return list(enumerate(weights))
    lowest = 1 if pair == "larger" or (pair == "outside" and big_factors) else 0
    allowed = range(lowest, size - 1 if pair == "smaller" else size)
    base = WW_RANKS[category] if size == 4 else (1.0,) * size
    places = FACTOR_PAIR_PLACES[pair] if size == 4 else (1.0,) * size
    return [(r, base[r] * places[r] if size == 4 else 1.0) for r in allowed]


def _ww_deal(
    rng: random.Random, rules: RuleSet, aim: _WWAim, near_misses: Sequence[str] = ()
) -> tuple[list[list[Card]], str, WeisResult, list[tuple[int, int]]]:
    """A deal for ``aim.category`` in a contract with a factor (or without,
    ``aim.factored``); the near misses planted in the writing team's hands (seat, value
    each would add if read as a meld). With the pair ``smaller`` one of them is read
    as worth the answer times the factor (see FACTOR_PAIRS)."""
    category, times_factor = aim.category, aim.pair == "smaller"
    plan = _Plan()
    w = rng.randrange(2)
    contract = _WW_BUILDERS[category](rng, rules, plan, w)
    fits = _ww_contract_fits(rules, aim)
    if not fits(contract):
        if category not in ("small_melds_lose", "partners_both_meld", "kreuzweis", "factor"):
            raise Retry("the contract has the wrong factor")
        # these deals do not depend on the contract: take one that fits
        contract = rng.choice([c for c in ALL_CONTRACTS if fits(c)])
    near: list[tuple[int, int]] = []
    if times_factor:
        own = sum(_planned_points(m, rules) for seat in (w, w + 2) for m in plan.melds[seat])
        extra = own * (rules.factor(contract) - 1)  # (own + extra) * factor = answer * factor
        if extra == SEQ_VALUE[3]:
            kind = "gap"
        elif extra in (QUAD_VALUE[r] for r in HIGH_QUAD_RANKS):
            kind = "three"
        else:
            raise Retry("no near miss is worth the answer times the factor")
        seat = w + 2 * rng.randrange(2)
        near.append((seat, plan.add_near_miss(rng, seat, kind, extra)))
    for kind in near_misses:
        seat = w + 2 * rng.randrange(2)
        near.append((seat, plan.add_near_miss(rng, seat, kind)))
    hands = plan.deal(rng)
    result = resolve_weis(hands, contract, rules)
    if result.team is None:
        raise Retry("nobody writes")
    # (when the other team writes after all, the category's checks decide)
    return hands, contract, result, [(seat, v) for seat, v in near if seat % 2 == result.team]


def _ww_contract_fits(rules: RuleSet, aim: _WWAim) -> Callable[[str], bool]:
    """Whether a contract has a factor (or none, ``aim.factored``) that can give the
    factor pair of ``aim``: one a near miss can be read as worth the answer times
    (``smaller``), or for a decoy pair above the smallest answer one of 2 or 3 (see
    :func:`_ww_rank_weights`)."""

    def fits(contract: str) -> bool:
        factor = rules.factor(contract)
        if aim.pair == "smaller" and factor not in SMALLER_PAIR_FACTORS:
            return False
        if aim.pair == "outside" and aim.rank == 0 and factor > 3:
            return False
        return (factor > 1) == aim.factored

    return fits


def _planned_points(cards: Sequence[Card], rules: RuleSet) -> int:
    """The points of a planned meld under ``rules`` (0 for four 6s, 7s or 8s without
    ``low_quads_score``)."""
    return sum(m.points for m in find_melds(cards, rules))


@dataclasses.dataclass(frozen=True)
class _WWAim:
    """What a who-writes question aims at, drawn before the deal: a contract with a
    factor or without, the other team or "nobody" shown, the factor pair (see
    FACTOR_PAIRS) and the answer's place among the writing team's choices."""

    category: str
    factored: bool
    shown: tuple[bool, bool]  # the other team writing, "nobody writes"
    pair: str | None
    size: int
    rank: int


def _ww_aim(rng: random.Random, category: str, rules: RuleSet) -> _WWAim:
    with_factor = [c for c in ALL_CONTRACTS if rules.factor(c) > 1]
    factored = bool(with_factor) and (
        category == "factor" or rng.random() < len(with_factor) / len(ALL_CONTRACTS)
    )
    if not _ww_fits(rules, category, factored):
        factored = not factored  # the category's contract decides (Undenufe)
    # the factor forgotten is the most telling slip where there is a factor: it is
    # below the answer, so the answer is less often the smallest choice there
    show_other = not factored and rng.random() < OTHER_TEAM_SHOWN.get(category, 0.2)
    show_nobody = category == "ladder_tie" and rng.random() < NOBODY_SHOWN
    pair = weighted(rng, FACTOR_PAIRS) if factored else None
    if pair is not None and not _ww_fits(rules, category, factored, pair):
        pair = weighted(rng, [p for p in FACTOR_PAIRS if p[0] != pair])
    size = len(WW_RANKS[category])
    # with another team's choice, or "nobody", the answer's place among the writing
    # team's choices is drawn evenly (the other falls where it falls)
    big_factors = all(
        rules.factor(c) > 3
        for c in WW_CONTRACTS.get(category, ALL_CONTRACTS)
        if rules.factor(c) > 1
    )
    own_size = size - show_other - show_nobody
    rank = weighted(rng, _ww_rank_weights(category, pair, own_size, big_factors))
    return _WWAim(category, factored, (show_other, show_nobody), pair, size, rank)


WW_ATTEMPTS = 200


def _ww_attempt(
    rng: random.Random, rules: RuleSet, aim: _WWAim
) -> tuple[list[list[Card]], str, WeisResult, Slips] | None:
    """One deal for ``aim`` and its wrong choices (None when they do not fit)."""
    # near misses add slips above the answer: more of them where it stands low
    plants = rng.choice(NEAR_MISSES[: len(NEAR_MISSES) - aim.rank] or NEAR_MISSES[:1])
    if aim.rank == 0 and rng.random() < 0.7:
        plants = NEAR_MISSES[-1]
    hands, contract, result, near = _ww_deal(rng, rules, aim, plants)
    picked = _ww_choices(rng, rules, hands, contract, result, near, aim)
    return None if picked is None else (hands, contract, result, picked)


def build_who_writes(rng: random.Random, seed: int, rules: RuleSet) -> Draft[TeamPointsValue]:
    aim = _ww_aim(rng, WHO_WRITES_CATEGORIES[seed % len(WHO_WRITES_CATEGORIES)], rules)
    for _attempt in range(WW_ATTEMPTS):
        try:
            found = _ww_attempt(rng, rules, aim)
        except Retry:
            continue
        if found is not None:
            break
    else:
        raise Retry("no deal fits the choices")
    hands, contract, result, picked = found
    inputs = {"hands": [codes(h) for h in hands], "contract": contract}
    solved = solve_who_writes(inputs, rules)
    win = _writer(result)
    pairs = _kreuzweis_pairs([m for seat in (win, win + 2) for m in result.melds[seat]])
    rules_tested = ["R5.3"] * bool(pairs) + ["R5.4", "R5.5", "R5.6"]
    rules_tested += ["R4.5"] * (result.factor > 1)
    return Draft(
        inputs=inputs,
        prompt={
            "preset": _preset(rules),
            "factor": result.factor,
            "melds": [[codes(m.cards) for m in seat_melds] for seat_melds in result.melds],
        },
        answer=solved.value,
        distractors=picked,
        explanation=solved.explanation,
        rules_tested=rules_tested,
    )


def _ww_team(team: int | None, points: int) -> TeamPointsValue:
    return {"team": team, "points": points}


def _writer(result: WeisResult) -> int:
    """The writing team of a deal of :func:`_ww_deal` (which has one)."""
    if result.team is None:
        raise Retry("nobody writes")
    return result.team


def _ww_check(
    rules: RuleSet, category: str, hands: list[list[Card]], contract: str, result: WeisResult
) -> WeisResult | None:
    """Raise :class:`Retry` unless the deal is one of ``category``; the result with the
    other Undenufe order (None in other contracts)."""
    win = _writer(result)
    lose = 1 - win
    sums = [sum(m.points for seat in (t, t + 2) for m in result.melds[seat]) for t in (0, 1)]
    if category == "small_melds_lose" and not sums[lose] > sums[win]:
        raise Retry("the losing team's melds do not sum to more")
    if category == "ladder_tie" and result.step not in (Step.TRUMP, Step.SEAT):
        raise Retry("not a tie up to TRUMP")
    own = [m for seat in (win, win + 2) for m in result.melds[seat]]
    if category == "kreuzweis" and not _kreuzweis_pairs(own):
        raise Retry("no Kreuzweis in the writing team")
    if Contract.parse(contract) is not Contract.UNDENUFE:
        return None
    other = dataclasses.replace(rules, undenufe_reverses_weis=not rules.undenufe_reverses_weis)
    flipped = resolve_weis(hands, contract, other)
    if category == "undenufe" and flipped.team == result.team:
        raise Retry("the Undenufe order does not matter here")
    return flipped


def _ww_pool(result: WeisResult, near: list[tuple[int, int]]) -> list[tuple[TeamPointsValue, str]]:
    """The writing team's melds counted wrongly (the factor applied)."""
    win = _writer(result)
    lose, factor, melds = 1 - win, result.factor, result.melds
    sums = [sum(m.points for seat in (t, t + 2) for m in melds[seat]) for t in (0, 1)]
    own = [m for seat in (win, win + 2) for m in melds[seat]]
    pool: list[tuple[TeamPointsValue, str]] = []
    pairs = _kreuzweis_pairs(own)
    if pairs:  # first: where it gives the same points as another slip, it is the clue
        lost = min(min(q.points, sq.points) for q, sq in pairs)
        pool.append((_ww_team(win, (sums[win] - lost) * factor), "kreuzweis_counted_once"))
    if sums[lose]:
        pool.append((_ww_team(win, (sums[0] + sums[1]) * factor), "both_teams_added"))
    holder = result.best_seat
    assert holder is not None and result.best is not None
    pool.append((_ww_team(win, result.best.points * factor), "best_meld_only"))
    holder_points = sum(m.points for m in melds[holder])
    pool.append((_ww_team(win, holder_points * factor), "partner_melds_forgotten"))
    announced = sum(melds[s][0].points for s in (win, win + 2) if melds[s])
    pool.append((_ww_team(win, announced * factor), "announced_values_only"))
    runs = [m for m in own if m.kind is MeldKind.SEQUENCE]
    if runs:
        n = len(max(runs, key=lambda m: m.points).cards)
        if n < 9:
            longer = sums[win] + SEQ_VALUE[n + 1] - SEQ_VALUE[n]
            pool.append((_ww_team(win, longer * factor), "run_counted_one_card_too_long"))
        if n > 3:
            shorter = sums[win] - SEQ_VALUE[n] + SEQ_VALUE[n - 1]
            pool.append((_ww_team(win, shorter * factor), "run_counted_one_card_too_short"))
    for _seat, extra in near:
        tag = "three_of_a_kind_counted" if extra != SEQ_VALUE[3] else "gap_in_sequence"
        pool.append((_ww_team(win, (sums[win] + extra) * factor), tag))
    return pool


def _ww_other_team(
    result: WeisResult, category: str, flipped: WeisResult | None
) -> tuple[TeamPointsValue, str] | None:
    """The other team writing its own melds, and why a learner would think so."""
    win = _writer(result)
    lose = 1 - win
    sums = [sum(m.points for seat in (t, t + 2) for m in result.melds[seat]) for t in (0, 1)]
    if not sums[lose]:
        return None
    if flipped is not None and flipped.team == lose:
        tag = "undenufe_order_wrong"
    elif category == "ladder_tie":
        tag = "wrong_team_at_tie"
    elif sums[lose] > sums[win]:
        tag = "team_with_more_points_writes"
    else:
        tag = "losing_team_writes"
    return _ww_team(lose, sums[lose] * result.factor), tag


def _ww_choices(
    rng: random.Random,
    rules: RuleSet,
    hands: list[list[Card]],
    contract: str,
    result: WeisResult,
    near: list[tuple[int, int]],
    aim: _WWAim,
) -> list[tuple[TeamPointsValue, str]] | None:
    """The wrong choices: the writing team's slips with the answer at ``aim.rank``
    among them; ``aim.shown``: whether the other team writing and "nobody writes" are
    shown too; ``aim.pair``: where the answer stands to the pair in the factor's ratio
    (with a factor). None when the deal cannot give them."""
    category, size, rank, pair = aim.category, aim.size, aim.rank, aim.pair
    show_other, show_nobody = aim.shown
    flipped = _ww_check(rules, category, hands, contract, result)
    win, factor = _writer(result), result.factor
    own_sum = sum(m.points for seat in (win, win + 2) for m in result.melds[seat])
    answer = own_sum * factor
    # a slip whose points are twice or three times the answer's, or a half or a third,
    # would look like the factor at work (a pupil would take the pair for a clue)
    every = _ww_pool(result, near)
    pool = [(x, t) for x, t in every if not _looks_factored(x["points"], answer, factor)]
    extras: list[tuple[TeamPointsValue, str]] = []  # not the writing team: outside the ranking
    if show_other:
        other = _ww_other_team(result, category, flipped)
        if other is None:
            return None
        extras.append(other)
    if show_nobody:
        extras.append((_ww_team(None, 0), "tie_nobody_writes"))
    # the answer's place was drawn before the deal: a deal that cannot give it is
    # dealt again (the place must not depend on the deal)
    own_size = size - len(extras)
    points = _points_of
    if pair is not None:
        picked = _ww_factored(rng, every, pool, win, answer, factor, own_size, rank, pair)
    elif rank not in ranks_within_reach(answer, pool, points, own_size):
        return None
    else:
        picked = pick_around(rng, answer, pool, points, own_size, rank, avoid_midpoint=True)
    if picked is None or any(points(x) in (points(y) for y, _ in picked) for x, _ in extras):
        return None  # the other team's points beside the same points: a clue too
    return picked + extras


def _points_of(value: TeamPointsValue) -> int:
    return value["points"]


Slips: TypeAlias = list[tuple[TeamPointsValue, str]]


def _ww_factored(
    rng: random.Random,
    every: Slips,
    pool: Slips,
    win: int,
    answer: int,
    factor: int,
    size: int,
    rank: int,
    pair: str,
) -> Slips | None:
    """The wrong choices of a question with a factor: ``size - 1`` slips with the
    answer at ``rank``, and among the choices one pair of numbers in the factor's
    ratio with the answer its ``larger`` number (the factor forgotten), its
    ``smaller`` one (a near miss planted to be worth the answer times the factor) or
    ``outside`` it (a decoy), or ``none`` (see FACTOR_PAIRS). ``every``: the slips;
    ``pool``: those not in a factor's ratio to the answer. None when the deal cannot
    give them."""
    options: list[Slips]
    if pair == "larger":
        options = [[(_ww_team(win, answer // factor), "factor_forgotten")]]
    elif pair == "smaller":
        options = [[(x, tag)] for x, tag in every if x["points"] == answer * factor][:1]
    elif pair == "outside":
        options = _ww_decoys(rng, pool, win, factor)
    else:
        options = [[]]
    for must in options:
        rest = [item for item in pool if item not in must]
        picked = pick_around(rng, answer, rest, _points_of, size, rank, must, avoid_midpoint=True)
        if picked is None:
            continue
        pairs = _pairs(answer, [x["points"] for x, _ in picked], factor)
        if pairs == ([] if pair == "none" else [factor]):
            return picked
    return None


DECOYS_TRIED = 4


def _ww_decoys(rng: random.Random, pool: Slips, win: int, factor: int) -> list[Slips]:
    """Pairs of slips in the factor's ratio, neither of them the answer: two slips
    that happen to be (first), or a slip and the same slip with the factor forgotten
    as well (named after the slip: the factor is the lesser slip there)."""
    natural = [[a, b] for a in pool for b in pool if a[0]["points"] == b[0]["points"] * factor]
    made = [
        [(x, tag), (_ww_team(win, x["points"] // factor), tag)]
        for x, tag in pool
        if x["points"] % factor == 0 and x["points"] > 0
    ]
    rng.shuffle(natural)
    rng.shuffle(made)
    return (natural + made)[:DECOYS_TRIED]


def _pairs(answer: int, shown: Sequence[int], factor: int) -> list[int]:
    """The ratios of the pairs of choices whose points are in a factor's ratio (2, 3
    or the question's ``factor``)."""
    values = [answer, *shown]
    return [
        max(a, b) // min(a, b)
        for i, a in enumerate(values)
        for b in values[i + 1 :]
        if _looks_factored(a, b, factor)
    ]


def _looks_factored(points: int, answer: int, factor: int) -> bool:
    """Whether two numbers stand in the ratio of a common factor (2 or 3) or of the
    question's own factor: a pupil would take such a pair for the factor at work."""
    lo, hi = sorted((points, answer))
    return lo > 0 and (hi in (2 * lo, 3 * lo) or (factor > 1 and hi == factor * lo))


WHO_WRITES = Kind(
    "who_writes",
    "Which team writes Weis and how many points, after the factor (R5.5, R5.6, R4.5).",
    build_who_writes,
    solve_who_writes,
    (
        "team_with_more_points_writes",
        "losing_team_writes",
        "both_teams_added",
        "best_meld_only",
        "partner_melds_forgotten",
        "announced_values_only",
        "kreuzweis_counted_once",
        "undenufe_order_wrong",
        "factor_forgotten",
        "wrong_team_at_tie",
        "tie_nobody_writes",
        "run_counted_one_card_too_long",
        "run_counted_one_card_too_short",
        "three_of_a_kind_counted",
        "gap_in_sequence",
    ),
    WHO_WRITES_CATEGORIES,
)


# ---------------------------------------------------------------------------
# ladder_step

STEPS = tuple(Step)


def solve_ladder_step(inputs: Inputs, rules: RuleSet) -> Solved[StepValue]:
    a, b = inputs["melds"]
    comparison = compare_melds(
        Meld.of(parse_cards(a["cards"])),
        a["seat"],
        Meld.of(parse_cards(b["cards"])),
        b["seat"],
        inputs["contract"],
        rules,
    )
    winner = a["seat"] if comparison.winner == 0 else b["seat"]
    return Solved({"step": comparison.step.value, "winner": winner}, trace_dicts(comparison.trace))


def _ladder_values(meld: Meld, seat: int, contract: Contract, reverse: bool) -> dict[Step, int]:
    """What each step of R5.5 compares (higher wins): points, cards, the high card
    (the lowest card, negated, where Undenufe reverses the order), a trump sequence,
    the earlier seat."""
    high = -meld.cards[0].rank.index if reverse else meld.top.rank.index
    trump = int(meld.kind is MeldKind.SEQUENCE and meld.suit is contract.trump)
    return {
        Step.POINTS: meld.points,
        Step.CARDS: len(meld.cards),
        Step.HIGH_CARD: high,
        Step.TRUMP: trump,
        Step.SEAT: -seat,
    }


def _walk(
    a: tuple[Meld, int],
    b: tuple[Meld, int],
    contract: Contract,
    reverse: bool,
    skip: Step | None = None,
) -> tuple[Step, int] | None:
    """R5.5 with the step ``skip`` left out (the mistakes "deciding step skipped" and
    "more cards win first"): the deciding step and the winning seat. Without ``skip``
    it is rules_core's :func:`~rules_core.compare_melds` (a test checks it); the
    correct answers come from there."""
    va = _ladder_values(a[0], a[1], contract, reverse)
    vb = _ladder_values(b[0], b[1], contract, reverse)
    for step in STEPS:
        if step is skip or va[step] == vb[step]:
            continue
        return step, a[1] if va[step] > vb[step] else b[1]
    return None


def _ls_points(rng: random.Random, rules: RuleSet) -> tuple[list[Card], list[Card], str]:
    quads = HIGH_QUAD_RANKS + (LOW_QUAD_RANKS if rules.low_quads_score else ())
    more_cards_lose = rng.random() < 0.45
    for _ in range(60):
        if more_cards_lose:
            # the meld with fewer cards wins on points: four of a kind against a run
            # (a six-card run always holds the 9 and crosses the Under, RULES section 9)
            a = quad(rng.choice((RANK_9, RANK_J)))
            b = _random_run(rng, 5, mask_of(a))
        else:
            kinds = rng.choice(("runs", "runs", "quads", "mixed"))
            if kinds == "runs":
                n1, n2 = rng.sample((3, 4, 5, 6, 7), 2)
                a = _random_run(rng, n1, 0)
                b = _random_run(rng, n2, mask_of(a))
            elif kinds == "quads":
                r1, r2 = rng.sample(quads, 2)
                a, b = quad(r1), quad(r2)
            else:
                a = quad(rng.choice(quads))
                b = _random_run(rng, rng.choice((3, 4, 5, 6)), mask_of(a))
        if Meld.of(a).points != Meld.of(b).points:
            return a, b, rng.choice(ALL_CONTRACTS)
    raise Retry("no POINTS pair")


_OBER_KING_ACE = tuple(rank.index for rank in (Rank.OBER, Rank.KING, Rank.ACE))


def _ls_cards(rng: random.Random, rules: RuleSet) -> tuple[list[Card], list[Card], str]:
    # four Obers, kings or aces (or low ranks where they score) against a run of
    # five: the same points, CARDS decides
    ranks = _OBER_KING_ACE + (LOW_QUAD_RANKS if rules.low_quads_score else ())
    r = rng.choice(ranks)
    a = quad(r)
    b = _random_run(rng, 5, mask_of(a), avoid_rank=r)
    return a, b, rng.choice(ALL_CONTRACTS)


def _ls_high_card(rng: random.Random, rules: RuleSet) -> tuple[list[Card], list[Card], str]:
    contract = weighted(rng, [("undenufe", 0.45), ("obenabe", 0.2), ("trump", 0.35)])
    if contract == "trump":
        contract = rng.choice(TRUMP_CONTRACTS)
    contract = str(contract)
    quads = HUNDRED_QUAD_RANKS + (LOW_QUAD_RANKS if rules.low_quads_score else ())
    if rng.random() < 0.25:
        r1, r2 = rng.sample(quads, 2)
        return quad(r1), quad(r2), contract
    length = rng.choice((3, 3, 4, 5))
    trump = Contract.parse(contract).trump
    for _ in range(40):
        if trump is not None and rng.random() < 0.6:
            # one run is in the trump suit but loses already at HIGH_CARD
            s1 = trump.index
            s2 = rng.choice([s for s in range(4) if s != s1])
        else:
            s1, s2 = rng.sample(range(4), 2)
        st1, st2 = rng.sample(range(0, 10 - length), 2)
        if trump is not None and s1 == trump.index:
            st1, st2 = min(st1, st2), max(st1, st2)  # the trump run loses at HIGH_CARD
        a, b = run(s1, st1, length), run(s2, st2, length)
        if not mask_of(a) & mask_of(b):
            return a, b, contract
    raise Retry("no HIGH_CARD pair")


def _ls_trump(rng: random.Random, rules: RuleSet) -> tuple[list[Card], list[Card], str]:
    contract = rng.choice(TRUMP_CONTRACTS)
    trump = Contract.parse(contract).trump.index  # type: ignore[union-attr]
    other = rng.choice([s for s in range(4) if s != trump])
    length = rng.choice((3, 3, 4, 5))
    start = rng.randrange(0, 10 - length)
    return run(trump, start, length), run(other, start, length), contract


def _ls_seat(rng: random.Random, rules: RuleSet) -> tuple[list[Card], list[Card], str]:
    length = rng.choice((3, 3, 4, 5))
    start = rng.randrange(0, 10 - length)
    if rng.random() < 0.5:
        contract = rng.choice(NO_TRUMP_CONTRACTS)
        s1, s2 = rng.sample(range(4), 2)
    else:
        contract = rng.choice(TRUMP_CONTRACTS)
        trump = Contract.parse(contract).trump.index  # type: ignore[union-attr]
        s1, s2 = rng.sample([s for s in range(4) if s != trump], 2)
    return run(s1, start, length), run(s2, start, length), contract


_LS_BUILDERS = {
    Step.POINTS: _ls_points,
    Step.CARDS: _ls_cards,
    Step.HIGH_CARD: _ls_high_card,
    Step.TRUMP: _ls_trump,
    Step.SEAT: _ls_seat,
}


# (step, the first meld wins): what ``seed % 9`` aims at. At SEAT the first meld
# always wins (the lower seat announced first); at every other step either may.
LADDER_CASES: tuple[tuple[Step, bool], ...] = tuple(
    (step, first) for step in STEPS for first in (True, False) if step is not Step.SEAT or first
)
# how often a SEAT question also shows the later seat winning (the only choice that
# can never be right, so it is kept rare: see :func:`build_ladder_step`)
LATER_SEAT_SHOWN = 0.15


def _ladder_tag(
    value: tuple[Step, int],
    answer: tuple[Step, int],
    specific: Mapping[tuple[Step, int], str],
) -> str:
    """The mistake behind a (step, winner) choice: a specific one when it gives exactly
    this value, else which way the step and the winner are off."""
    if value in specific:
        return specific[value]
    step, seat = value
    if step is answer[0]:
        return "wrong_winner"
    later = step.number > answer[0].number
    if seat == answer[1]:
        return "later_step_named" if later else "earlier_step_named"
    return "later_step_and_wrong_winner" if later else "earlier_step_and_wrong_winner"


LadderMeld: TypeAlias = tuple[Meld, int]  # a meld and its seat


def _ladder_pair(
    rng: random.Random, rules: RuleSet, wanted: Step, first_wins: bool
) -> tuple[list[tuple[int, list[str]]], str]:
    """Two melds of players of different teams (lower seat first) for which ``wanted``
    decides, the first one winning or not; and the contract."""
    a_cards, b_cards, contract = _LS_BUILDERS[wanted](rng, rules)
    a_seat = rng.randrange(4)
    b_seat = other_team_seat(rng, a_seat)
    low, high = min(a_seat, b_seat), max(a_seat, b_seat)
    c = Contract.parse(contract)
    reverse = c is Contract.UNDENUFE and rules.undenufe_reverses_weis
    # steps 1-4 do not look at the seats: seat the winning meld where the case wants it
    if _walk((Meld.of(a_cards), low), (Meld.of(b_cards), high), c, reverse) != (wanted, low):
        a_cards, b_cards = b_cards, a_cards
    pair = [(low, codes(a_cards)), (high, codes(b_cards))]
    if not first_wins:
        pair = [(low, pair[1][1]), (high, pair[0][1])]
    return pair, contract


def _step_slip(
    step: Step, ma: LadderMeld, mb: LadderMeld, c: Contract, reverse: bool, loser: int
) -> dict[tuple[Step, int], str]:
    """The mistakes that give one (step, winner) value in particular, by the deciding
    step."""
    specific: dict[tuple[Step, int], str] = {}
    if step is Step.POINTS:
        by_cards = _walk(ma, mb, c, reverse, skip=Step.POINTS)
        if by_cards is not None and by_cards[0] is Step.CARDS:
            specific[by_cards] = "more_cards_win_first"
    elif step is Step.CARDS:
        quad_seat = ma[1] if ma[0].kind is MeldKind.FOUR_OF_A_KIND else mb[1]
        specific[(Step.CARDS, quad_seat)] = "four_of_a_kind_beats_sequence"
    elif step is Step.HIGH_CARD:
        specific.update(_high_card_slips(ma, mb, c, loser))
    elif step is Step.TRUMP:
        specific[(Step.SEAT, min(ma[1], mb[1]))] = "trump_step_forgotten"
    elif step is Step.SEAT:
        specific[(Step.SEAT, loser)] = "later_seat_wins"
    return specific


def _high_card_slips(
    ma: LadderMeld, mb: LadderMeld, c: Contract, loser: int
) -> dict[tuple[Step, int], str]:
    specific: dict[tuple[Step, int], str] = {}
    if c is Contract.UNDENUFE:
        specific[(Step.HIGH_CARD, loser)] = "undenufe_order_wrong"
    trump_seats = [
        m[1] for m in (ma, mb) if m[0].kind is MeldKind.SEQUENCE and m[0].suit is c.trump
    ]
    if trump_seats and trump_seats[0] == loser:
        specific[(Step.TRUMP, loser)] = "trump_before_high_card"
    return specific


def _ladder_shown(
    rng: random.Random, answer: tuple[Step, int], low: int, high: int
) -> list[tuple[Step, int]]:
    """The wrong (step, winner) values shown.

    Every (step, winner) but the later seat winning at SEAT can be right, and every
    one is some mistake's answer: the wrong choices are drawn at random from all of
    them, so that which values are shown says nothing about which one is right
    (answers are spread evenly over these nine values by ``seed % 9``)."""
    grid = [(s, x) for s in STEPS for x in (low, high) if s is not Step.SEAT or x == low]
    others = [v for v in grid if v != answer]
    size = rng.choice((4, 5))
    shown = rng.sample(others, size - 1)
    if answer[0] is Step.SEAT and rng.random() < LATER_SEAT_SHOWN:
        shown[rng.randrange(len(shown))] = (Step.SEAT, high)
    return shown


def _step_value(step: Step, seat: int) -> StepValue:
    return {"step": step.value, "winner": seat}


def build_ladder_step(rng: random.Random, seed: int, rules: RuleSet) -> Draft[StepValue]:
    wanted, first_wins = LADDER_CASES[seed % len(LADDER_CASES)]
    pair, contract = _ladder_pair(rng, rules, wanted, first_wins)
    (low, _), (high, _) = pair
    inputs = {"melds": [{"seat": s, "cards": cs} for s, cs in pair], "contract": contract}
    solved = solve_ladder_step(inputs, rules)
    step = Step(solved.value["step"])
    winner = solved.value["winner"]
    if step is not wanted or (winner == low) != first_wins:
        raise Retry("another step decides")
    c = Contract.parse(contract)
    reverse = c is Contract.UNDENUFE and rules.undenufe_reverses_weis
    ma = (Meld.of(parse_cards(pair[0][1])), low)
    mb = (Meld.of(parse_cards(pair[1][1])), high)
    specific = _step_slip(step, ma, mb, c, reverse, high if winner == low else low)
    skipped = _walk(ma, mb, c, reverse, skip=step) if step is not Step.SEAT else None
    if skipped is not None:
        specific.setdefault(skipped, "deciding_step_skipped")
    answer = (step, winner)
    distractors = [
        (_step_value(s, seat), _ladder_tag((s, seat), answer, specific))
        for s, seat in _ladder_shown(rng, answer, low, high)
    ]
    return Draft(
        inputs=inputs,
        prompt={"preset": _preset(rules)},
        answer=solved.value,
        distractors=distractors,
        explanation=solved.explanation,
        rules_tested=["R5.5"],
    )


LADDER_STEP = Kind(
    "ladder_step",
    "Which step of the comparison ladder decides between two melds, and who wins (R5.5).",
    build_ladder_step,
    solve_ladder_step,
    (
        "wrong_winner",
        "later_step_named",
        "earlier_step_named",
        "later_step_and_wrong_winner",
        "earlier_step_and_wrong_winner",
        "deciding_step_skipped",
        "more_cards_win_first",
        "four_of_a_kind_beats_sequence",
        "undenufe_order_wrong",
        "trump_before_high_card",
        "trump_step_forgotten",
        "later_seat_wins",
    ),
    tuple(step.value for step, _first in LADDER_CASES),
)
