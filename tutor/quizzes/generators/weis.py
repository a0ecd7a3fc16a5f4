"""Weis questions: ``weis_value`` (R5.1-R5.4), ``who_writes`` (R5.5, R5.6, R4.5)
and ``ladder_step`` (R5.5). Formats: see :mod:`tutor.quizzes.generators`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules_core import (
    Card,
    Contract,
    Meld,
    MeldKind,
    RuleSet,
    Step,
    card_points,
    compare_melds,
    explain_best_meld,
    find_melds,
    parse_cards,
    resolve_weis,
)

from .base import Draft, Kind, Retry, Solved, trace_dicts
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

HIGH_QUAD_RANKS = (3, 4, 5, 6, 7, 8)  # 9 10 J Q K A
HUNDRED_QUAD_RANKS = (4, 6, 7, 8)  # 10 Q K A: four of a kind worth 100


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
    """A random meld worth ``value`` (a run, or for 100/150/200 sometimes four of a kind)."""
    quad_ranks = {
        100: HUNDRED_QUAD_RANKS + (LOW_QUAD_RANKS if rules.low_quads_score else ()),
        150: (RANK_9,),
        200: (RANK_J,),
    }.get(value, ())
    lengths = [n for n, v in SEQ_VALUE.items() if v == value]
    free_quads = [r for r in quad_ranks if not mask_of(quad(r)) & used]
    if free_quads and (not lengths or rng.random() < 0.4):
        return quad(rng.choice(free_quads))
    if not lengths:
        raise Retry("no meld of that value")
    return _random_run(rng, lengths[0], used)


# ---------------------------------------------------------------------------
# weis_value


def solve_weis_value(inputs: Mapping[str, Any], rules: RuleSet) -> Solved:
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


def _wv_single(rng: random.Random) -> tuple[list[Card], list[list[Card]], list]:
    length = weighted(rng, [(3, 3), (4, 3), (5, 2), (6, 1.2), (7, 0.6), (8, 0.3), (9, 0.2)])
    cards = _random_run(rng, int(length), 0)  # type: ignore[arg-type]
    return cards, [cards], []


def _wv_several(rng: random.Random) -> tuple[list[Card], list[list[Card]], list]:
    pattern = rng.choice(("two_runs", "two_runs", "three_runs", "run_and_quad"))
    melds: list[list[Card]] = []
    used = 0
    if pattern == "two_runs":
        a = rng.choice((3, 4, 5, 6))
        b = rng.choice([n for n in (3, 4, 5) if a + n <= 9])
        for n in (a, b):
            m = _random_run(rng, n, used)
            melds.append(m)
            used |= mask_of(m)
    elif pattern == "three_runs":
        for _ in range(3):
            m = _random_run(rng, 3, used)
            melds.append(m)
            used |= mask_of(m)
    else:
        r = rng.choice(HIGH_QUAD_RANKS)
        melds.append(quad(r))
        used |= mask_of(quad(r))
        melds.append(_random_run(rng, rng.choice((3, 4, 5)), used, avoid_rank=r))
    return [c for m in melds for c in m], melds, []


def _wv_kreuzweis(rng: random.Random) -> tuple[list[Card], list[list[Card]], list]:
    r = rng.choice(HIGH_QUAD_RANKS)
    value = QUAD_VALUE[r]
    length = rng.choice([n for n in (3, 4, 5, 6) if SEQ_VALUE[n] != value])
    s = rng.randrange(4)
    starts = [st for st in range(0, 10 - length) if st <= r < st + length]
    start = rng.choice(starts)
    seq = run(s, start, length)
    four = quad(r)
    core = sorted(set(seq) | set(four))
    return core, [seq, four], []


def _wv_four(rng: random.Random) -> tuple[list[Card], list[list[Card]], list]:
    r = rng.choice(HIGH_QUAD_RANKS)
    melds = [quad(r)]
    if rng.random() < 0.5:
        melds.append(_random_run(rng, rng.choice((3, 3, 4)), mask_of(quad(r)), avoid_rank=r))
    return [c for m in melds for c in m], melds, []


def _wv_low(rng: random.Random) -> tuple[list[Card], list[list[Card]], list]:
    r = rng.choice(LOW_QUAD_RANKS)
    melds = [quad(r)]
    if rng.random() < 0.5:
        melds.append(_random_run(rng, 3, mask_of(quad(r)), avoid_rank=r))
    return [c for m in melds for c in m], melds, []


def _wv_none(rng: random.Random) -> tuple[list[Card], list[list[Card]], list]:
    s = rng.randrange(4)
    near: list[tuple[int, str]] = []
    if rng.random() < 0.5:
        # three cards of a suit with one gap: 6 7 9, or 7 9 10 ...
        a = rng.randrange(0, 6)
        gap = rng.choice((1, 2))
        ranks = [a, a + 1, a + 2, a + 3]
        del ranks[gap]
        cards = [card(s, k) for k in ranks]
        near.append((20, "gap_in_sequence"))
    else:
        # W-EN's slip leaves the Under out of the order: 10, Ober, King look like a run
        cards = [card(s, 4), card(s, 6), card(s, 7)]
        near.append((20, "under_left_out_of_order"))
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


_WV_BUILDERS: dict[str, Callable[[random.Random], tuple[list[Card], list[list[Card]], list]]] = {
    "single_sequence": _wv_single,
    "several_melds": _wv_several,
    "kreuzweis": _wv_kreuzweis,
    "four_of_a_kind": _wv_four,
    "low_quads": _wv_low,
    "no_meld": _wv_none,
}


def build_weis_value(rng: random.Random, seed: int, rules: RuleSet) -> Draft:
    category = WEIS_VALUE_CATEGORIES[seed % len(WEIS_VALUE_CATEGORIES)]
    contract = rng.choice(ALL_CONTRACTS)
    core, planned, near = _WV_BUILDERS[category](rng)
    if len(set(core)) != len(core) or len(core) > 9:
        raise Retry("core does not fit a hand")
    if not check_planned(core, planned):
        raise Retry("planned melds merge")
    hand = fill_hand(rng, core)
    if not check_planned(hand, planned):
        raise Retry("extra meld")
    inputs = {"hand": codes(hand), "contract": contract}
    solved = solve_weis_value(inputs, rules)
    answer = solved.value["points"]
    melds = find_melds(hand, rules)
    all_melds = find_melds(hand, dataclasses.replace(rules, low_quads_score=True))
    best = explain_best_meld(hand, contract, rules).best
    factor = rules.factor(contract)
    pairs = _kreuzweis_pairs(melds)

    specific: list[tuple[int, str]] = []
    generic: list[tuple[int, str]] = []
    if pairs:
        quads_in_pairs = [q for q, _ in pairs]
        seqs_in_pairs = [s for _, s in pairs]
        specific.append(
            (
                _max_points([m for m in melds if m not in quads_in_pairs]),
                "kreuzweis_four_of_a_kind_missed",
            )
        )
        specific.append(
            (_max_points([m for m in melds if m not in seqs_in_pairs]), "kreuzweis_sequence_missed")
        )
    low = [m for m in all_melds if _is_low_quad(m)]
    if low:
        if rules.low_quads_score:
            specific.append(
                (_max_points([m for m in melds if not _is_low_quad(m)]), "low_quads_not_counted")
            )
        else:
            specific.append((_max_points(all_melds), "low_quads_counted"))
            if best is None:  # four 6s, 7s or 8s alone: worth nothing under this rule set
                specific.append((50, "four_cards_read_as_sequence"))
                quad_cards = low[0].cards
                specific.append(
                    (sum(card_points(c, contract) for c in quad_cards), "card_points_counted")
                )
    if len(melds) >= 2:
        (specific if category == "several_melds" else generic).insert(
            0, (sum(m.points for m in melds), "sum_of_melds")
        )
    specific.extend(near)
    if best is not None:
        if best.kind is MeldKind.FOUR_OF_A_KIND:
            r = best.cards[0].rank.index
            if r == RANK_J:
                generic.append((150, "puur_and_nell_fours_swapped"))
                generic.append((100, "every_four_of_a_kind_is_100"))
            elif r == RANK_9:
                generic.append((200, "puur_and_nell_fours_swapped"))
                generic.append((100, "every_four_of_a_kind_is_100"))
            generic.append((50, "four_cards_read_as_sequence"))
        else:
            n = len(best.cards)
            if n < 9:
                generic.append((SEQ_VALUE[n + 1], "run_counted_one_card_too_long"))
            if n > 3:
                generic.append((SEQ_VALUE[n - 1], "run_counted_one_card_too_short"))
        generic.append((sum(card_points(c, contract) for c in best.cards), "card_points_counted"))
        if factor > 1:
            generic.append((answer * factor, "factor_applied_to_announcement"))
    distractors = [({"points": v}, tag) for v, tag in specific + generic]

    rules_tested = ["R5.1", "R5.2", "R5.4"]
    if pairs:
        rules_tested.append("R5.3")
    if len(melds) >= 2:
        rules_tested.append("R5.5")
    return Draft(
        inputs=inputs,
        prompt={"preset": _preset(rules)},
        answer=solved.value,
        distractors=distractors,
        explanation=solved.explanation,
        rules_tested=rules_tested,
    )


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
        "run_counted_one_card_too_short",
        "card_points_counted",
        "factor_applied_to_announcement",
    ),
)


# ---------------------------------------------------------------------------
# who_writes


def solve_who_writes(inputs: Mapping[str, Any], rules: RuleSet) -> Solved:
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
        self.used = 0

    def add(self, seat: int, cards: Sequence[Card]) -> None:
        m = mask_of(cards)
        if m & self.used:
            raise Retry("meld overlaps")
        self.used |= m
        self.melds[seat].append(list(cards))

    def add_value(self, rng: random.Random, seat: int, value: int, rules: RuleSet) -> None:
        self.add(seat, _meld_for_value(rng, value, self.used, rules))

    def add_run(self, rng: random.Random, seat: int, length: int, **kw: Any) -> list[Card]:
        cards = _random_run(rng, length, self.used, **kw)
        self.add(seat, cards)
        return cards

    def deal(self, rng: random.Random) -> list[list[Card]]:
        cores = []
        for seat in range(4):
            core = sorted({c for m in self.melds[seat] for c in m})
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
            (50, (20, 20, 20)),
            (50, (20, 20, 20)),
            (50, (20, 20, 20, 20)),
            (100, (50, 50, 20)),
            (100, (50, 20, 20, 20)),
            (150, (100, 50, 20)),
        )
    )
    plan.add_value(rng, w + 2 * rng.randrange(2), winner_value, rules)
    loser = 1 - w
    for value in loser_values:
        seat = loser + 2 * rng.randrange(2)
        plan.add_value(rng, seat, value, rules)
    return rng.choice(ALL_CONTRACTS)


def _ww_partners(rng: random.Random, rules: RuleSet, plan: _Plan, w: int) -> str:
    top = rng.choice((50, 100, 100, 150, 200))
    first = w + 2 * rng.randrange(2)
    plan.add_value(rng, first, top, rules)
    if rng.random() < 0.4:
        plan.add_run(rng, first, 3)
    partner = (first + 2) % 4
    for _ in range(rng.choice((1, 1, 2))):
        plan.add_value(rng, partner, rng.choice([v for v in (20, 50) if v <= top]), rules)
    loser = 1 - w
    lower = [v for v in (20, 50, 100, 150) if v < top]
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
        rng, loser + 2 * rng.randrange(2), rng.choice([v for v in (20, 50) if v < top]), rules
    )
    return rng.choice(ALL_CONTRACTS)


def _ww_undenufe(rng: random.Random, rules: RuleSet, plan: _Plan, w: int) -> str:
    x = rng.randrange(4)
    y = other_team_seat(rng, x)
    if rng.random() < 0.3 and len(HUNDRED_QUAD_RANKS) >= 2:
        a, b = rng.sample(HUNDRED_QUAD_RANKS, 2)
        plan.add(x, quad(a))
        plan.add(y, quad(b))
        extra = (20, 50)
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
        extra = (20,) if length == 4 else ()
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
    smaller = [v for v in (20, 50) if v < SEQ_VALUE[length]]
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


def build_who_writes(rng: random.Random, seed: int, rules: RuleSet) -> Draft:
    category = WHO_WRITES_CATEGORIES[seed % len(WHO_WRITES_CATEGORIES)]
    plan = _Plan()
    w = rng.randrange(2)
    contract = _WW_BUILDERS[category](rng, rules, plan, w)
    hands = plan.deal(rng)
    inputs = {"hands": [codes(h) for h in hands], "contract": contract}
    solved = solve_who_writes(inputs, rules)
    result = resolve_weis(hands, contract, rules)
    if result.team is None:
        raise Retry("nobody writes")
    win, lose = result.team, 1 - result.team
    factor = result.factor
    melds = result.melds
    sums = [sum(m.points for seat in (t, t + 2) for m in melds[seat]) for t in (0, 1)]
    if category == "small_melds_lose" and not sums[lose] > sums[win]:
        raise Retry("the losing team's melds do not sum to more")
    if category == "ladder_tie" and result.step not in (Step.TRUMP, Step.SEAT):
        raise Retry("not a tie up to TRUMP")
    pairs = _kreuzweis_pairs([m for seat in (win, win + 2) for m in melds[seat]])
    if category == "kreuzweis" and not pairs:
        raise Retry("no Kreuzweis in the writing team")
    flipped = None
    if Contract.parse(contract) is Contract.UNDENUFE:
        other = dataclasses.replace(rules, undenufe_reverses_weis=not rules.undenufe_reverses_weis)
        flipped = resolve_weis(hands, contract, other)
        if category == "undenufe" and flipped.team == result.team:
            raise Retry("the Undenufe order does not matter here")

    def v(team: int | None, points: int) -> dict[str, Any]:
        return {"team": team, "points": points}

    best_only = v(win, result.best.points * factor)  # type: ignore[union-attr]
    holder = result.best_seat
    assert holder is not None
    holder_only = v(win, sum(m.points for m in melds[holder]) * factor)
    announced = v(win, sum(melds[s][0].points for s in (win, win + 2) if melds[s]) * factor)
    losing = v(lose, sums[lose] * factor)
    losing_tag = "team_with_more_points_writes" if sums[lose] > sums[win] else "losing_team_writes"
    both = v(win, (sums[0] + sums[1]) * factor)
    distractors: list[tuple[Any, str]] = []
    if category == "small_melds_lose":
        distractors += [(losing, losing_tag), (both, "both_teams_added")]
    elif category == "partners_both_meld":
        distractors += [
            (best_only, "best_meld_only"),
            (holder_only, "partner_melds_forgotten"),
            (announced, "announced_values_only"),
        ]
    elif category == "ladder_tie":
        distractors += [(losing, "wrong_team_at_tie"), (v(None, 0), "tie_nobody_writes")]
    if pairs:
        lost = min(min(q.points, s.points) for q, s in pairs)
        distractors.append((v(win, (sums[win] - lost) * factor), "kreuzweis_counted_once"))
    if flipped is not None and flipped.team != result.team:
        distractors.append((v(flipped.team, flipped.scored), "undenufe_order_wrong"))
    if factor > 1:
        distractors.insert(
            0 if category == "factor" else len(distractors), (v(win, sums[win]), "factor_forgotten")
        )
    if sums[lose]:
        distractors += [(losing, losing_tag), (both, "both_teams_added")]
    distractors += [
        (best_only, "best_meld_only"),
        (holder_only, "partner_melds_forgotten"),
        (announced, "announced_values_only"),
    ]
    rules_tested = ["R5.4", "R5.5", "R5.6"]
    if pairs:
        rules_tested.insert(0, "R5.3")
    if factor > 1:
        rules_tested.append("R4.5")
    return Draft(
        inputs=inputs,
        prompt={
            "preset": _preset(rules),
            "factor": factor,
            "melds": [[codes(m.cards) for m in seat_melds] for seat_melds in melds],
        },
        answer=solved.value,
        distractors=distractors,
        explanation=solved.explanation,
        rules_tested=rules_tested,
    )


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
    ),
)


# ---------------------------------------------------------------------------
# ladder_step

STEPS = tuple(Step)


def solve_ladder_step(inputs: Mapping[str, Any], rules: RuleSet) -> Solved:
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
    """The deciding step and winning seat, optionally ignoring one step (own ladder walk,
    used for the mistakes' answers only)."""
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


def _ls_cards(rng: random.Random, rules: RuleSet) -> tuple[list[Card], list[Card], str]:
    ranks = (6, 7, 8) + ((0, 1, 2) if rules.low_quads_score else ())
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


def build_ladder_step(rng: random.Random, seed: int, rules: RuleSet) -> Draft:
    wanted = STEPS[seed % len(STEPS)]
    a_cards, b_cards, contract = _LS_BUILDERS[wanted](rng, rules)
    a_seat = rng.randrange(4)
    b_seat = other_team_seat(rng, a_seat)
    if wanted is Step.TRUMP and rng.random() < 0.7:
        # the trump run at the later seat, so that SEAT would give the other answer
        a_seat, b_seat = max(a_seat, b_seat), min(a_seat, b_seat)
    pair = sorted([(a_seat, codes(a_cards)), (b_seat, codes(b_cards))])
    inputs = {
        "melds": [{"seat": s, "cards": c} for s, c in pair],
        "contract": contract,
    }
    solved = solve_ladder_step(inputs, rules)
    step = Step(solved.value["step"])
    if step is not wanted:
        raise Retry("another step decides")
    winner = solved.value["winner"]
    c = Contract.parse(contract)
    reverse = c is Contract.UNDENUFE and rules.undenufe_reverses_weis
    ma = (Meld.of(parse_cards(pair[0][1])), pair[0][0])
    mb = (Meld.of(parse_cards(pair[1][1])), pair[1][0])
    loser = mb[1] if winner == ma[1] else ma[1]

    def v(s: Step, seat: int) -> dict[str, Any]:
        return {"step": s.value, "winner": seat}

    distractors: list[tuple[Any, str]] = []
    i = step.number - 1
    if step is Step.POINTS:
        by_cards = _walk(ma, mb, c, reverse, skip=Step.POINTS)
        if by_cards is not None and by_cards[0] is Step.CARDS:
            distractors.append((v(Step.CARDS, by_cards[1]), "more_cards_win_first"))
    elif step is Step.CARDS:
        quad_seat = ma[1] if ma[0].kind is MeldKind.FOUR_OF_A_KIND else mb[1]
        distractors.append((v(Step.CARDS, quad_seat), "four_of_a_kind_beats_sequence"))
    elif step is Step.HIGH_CARD:
        if c is Contract.UNDENUFE:
            distractors.append((v(Step.HIGH_CARD, loser), "undenufe_order_wrong"))
        trump_seats = [
            m[1] for m in (ma, mb) if m[0].kind is MeldKind.SEQUENCE and m[0].suit is c.trump
        ]
        if trump_seats and trump_seats[0] == loser:
            distractors.append((v(Step.TRUMP, loser), "trump_before_high_card"))
    elif step is Step.TRUMP:
        distractors.append((v(Step.SEAT, min(ma[1], mb[1])), "trump_step_forgotten"))
    elif step is Step.SEAT:
        distractors.append((v(Step.SEAT, loser), "later_seat_wins"))
    distractors.append((v(step, loser), "wrong_winner"))
    skipped = _walk(ma, mb, c, reverse, skip=step) if step is not Step.SEAT else None
    if skipped is not None:
        distractors.append((v(*skipped), "deciding_step_skipped"))
    if i + 1 < len(STEPS):
        distractors.append((v(STEPS[i + 1], winner), "later_step_named"))
    if i > 0:
        distractors.append((v(STEPS[i - 1], winner), "earlier_step_named"))
    if i + 1 < len(STEPS):
        distractors.append((v(STEPS[i + 1], loser), "later_step_and_wrong_winner"))
    if i > 0:
        distractors.append((v(STEPS[i - 1], loser), "earlier_step_and_wrong_winner"))
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
)
