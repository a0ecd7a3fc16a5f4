"""The fast paths against the naive reference (tests/rules_core/reference.py), on thousands of deals.

The reference is written independently (plain loops over Card objects, no tables,
no bitmasks), so agreement checks the lookup tables and the bitmask play checker.
"""

from __future__ import annotations

import random

from rules_core import DECK, Contract, RuleSet, check_stoeck, find_melds, legal_cards, resolve_weis
from rules_core.deals import deal_cards, play_round
from tests.rules_core.reference import (
    fast_round_answer,
    fast_weis_answer,
    make_deals,
    make_rounds,
    naive_legal,
    naive_resolve_weis,
    naive_score_round,
    naive_stoeck,
)


def test_r5_6_fast_resolve_weis_agrees_with_reference_on_3000_deals():
    deals = make_deals(3000, seed=11)
    assert {d[1] for d in deals} == set(Contract)
    assert {d[2] for d in deals} == {RuleSet.preset(n) for n in RuleSet.presets()}
    mismatches = [d for d in deals if fast_weis_answer(d) != naive_resolve_weis(*d)]
    assert mismatches == []


def test_r5_5_reference_agrees_on_deals_rich_in_melds():
    # random deals rarely hold long runs or fours; deal from a few suits to make them common
    rng = random.Random(3)
    for _ in range(1500):
        hands = [sorted(rng.sample(range(9), rng.randrange(3, 10))) for _ in range(4)]
        suits = [rng.randrange(4) for _ in range(4)]
        used, out = set(), []
        for seat in range(4):
            hand = []
            for r in hands[seat]:
                for s in (suits[seat], *range(4)):
                    card = s * 9 + r
                    if card not in used:
                        used.add(card)
                        hand.append(card)
                        break
            out.append(hand)
        deal = [[DECK[i] for i in h] for h in out]
        contract = rng.choice(list(Contract))
        rules = rng.choice([RuleSet.preset(n) for n in RuleSet.presets()])
        assert fast_weis_answer((deal, contract, rules)) == naive_resolve_weis(
            deal, contract, rules
        )


def test_r4_4_fast_score_round_agrees_with_reference_on_600_rounds():
    rounds = make_rounds(600, seed=12)
    mismatches = [r for r in rounds if fast_round_answer(r) != naive_score_round(*r)]
    assert mismatches == []


def test_r6_4a_check_stoeck_agrees_with_reference_on_partial_rounds():
    rng = random.Random(13)
    for hands, contract, plays, calls, rules in make_rounds(600, seed=13):
        n = rng.randrange(37)
        so_far = [c for c in calls if c.after_play < n]
        fast = check_stoeck(hands, contract, plays[:n], so_far, rules)
        status, reason, team, points = naive_stoeck(hands, contract, plays[:n], so_far, rules)
        assert (fast.status, fast.reason.value, fast.team, fast.points) == (
            status, reason, team, points,
        )  # fmt: skip


def test_r3_3_legal_cards_agree_with_reference_along_random_rounds():
    rng = random.Random(14)
    for _ in range(300):
        hands = deal_cards(rng)
        contract = rng.choice(list(Contract))
        plays = play_round(hands, contract, rng=rng)
        remaining = [list(h) for h in hands]
        for i, (seat, card) in enumerate(plays):
            trick = [c for _, c in plays[i - i % 4 : i]]
            assert list(legal_cards(remaining[seat], trick, contract)) == naive_legal(
                remaining[seat], trick, contract
            )
            remaining[seat].remove(card)


def test_r5_4a_claims_agree_with_reference_on_deals_rich_in_melds():
    # every player: silent, the best value, a smaller held value, or a value not held
    rng = random.Random(5)
    rule_sets = [RuleSet.preset(n) for n in RuleSet.presets()]
    seen = set()
    for _ in range(1500):
        deal = []
        used = set()
        for _seat in range(4):
            home = rng.randrange(4)
            hand = []
            for r in sorted(rng.sample(range(9), rng.randrange(3, 10))):
                card = next(s * 9 + r for s in (home, *range(4)) if s * 9 + r not in used)
                used.add(card)
                hand.append(DECK[card])
            deal.append(hand)
        contract = rng.choice(list(Contract))
        rules = rng.choice(rule_sets)
        claims = []
        for hand in deal:
            held = sorted({m.points for m in find_melds(hand, rules)})
            claims.append(rng.choice([None, 20, 50, 150, *held, *held, *held]))
        r = resolve_weis(deal, contract, rules, claims=claims)
        fast = (r.team, r.points, r.scored, r.best_seat, None if r.step is None else r.step.value)
        assert fast == naive_resolve_weis(deal, contract, rules, claims), (deal, claims)
        seen.update(r.status)
        claimed = {e["seat"]: e["status"] for e in r.trace if e.key == "weis.claim"}
        assert claimed == {
            s: st
            for s, st in enumerate(r.status)
            if st not in ("best", "silent") or (st == "silent" and r.melds[s])
        }
    assert seen == {"best", "smaller", "false", "silent"}
