"""The round builders the quiz generators use (teaching.scenarios): the new
``pair_scenario`` (R6.1) and ``near_miss_scenario`` (R7.5), and a known bug of
``stoeck_scenario``."""

from __future__ import annotations

import doctest

import pytest

from rules_core import RuleSet, StoeckReason, check_stoeck, resolve_target, score_round
from teaching import scenarios
from teaching.scenarios import (
    PAIR_CALLS,
    ScenarioError,
    near_miss_scenario,
    pair_scenario,
    stoeck_scenario,
)


@pytest.mark.parametrize("contract", ["obenabe", "undenufe"])
@pytest.mark.parametrize("call", PAIR_CALLS)
def test_r6_1_no_stoeck_in_obenabe_or_undenufe(contract, call):
    for seed in range(6):
        s = pair_scenario(contract, "HDSC"[seed % 4], seed % 4, seed % 4, 2, 6, call, seed)
        assert s.result.status == "none"
        assert s.result.reason is StoeckReason.NO_TRUMP_CONTRACT
        assert s.holder == seed % 4
        king, ober = s.plays[s.first_index][1], s.plays[s.second_index][1]
        assert {king.rank.code, ober.rank.code} == {"K", "Q"} and king.suit is ober.suit
        assert s.plays[s.first_index][0] == s.plays[s.second_index][0] == s.holder
        if call in ("second", "prompted"):
            assert [(c.seat, c.after_play) for c in s.calls] == [(s.holder, s.second_index)]
        # the round excerpt is legal and judged the same by rules_core
        again = check_stoeck(s.hands, s.contract, s.plays, s.calls)
        assert again.reason is StoeckReason.NO_TRUMP_CONTRACT


@pytest.mark.parametrize("seats", [(0, 2), (3, 1), (1, 2), (0, 3)])
def test_r6_1_king_and_ober_split_between_two_players_are_no_stoeck(seats):
    for seed in range(8):
        s = pair_scenario("S", "S", *seats, 1, 5, "second", seed)
        assert s.result.reason is StoeckReason.NOT_HELD_BY_ONE_PLAYER
        assert s.result.status == "none" and s.holder is None
        second_seat = s.plays[s.second_index][0]
        assert [(c.seat, c.after_play) for c in s.calls] == [(second_seat, s.second_index)]


def test_pair_scenario_refuses_a_real_stoeck_and_bad_requests():
    with pytest.raises(ScenarioError, match="stoeck_scenario"):
        pair_scenario("H", "H", 1, 1, 2, 5, "second")
    with pytest.raises(ScenarioError, match="trump suit"):
        pair_scenario("H", "S", 1, 3, 2, 5, "second")
    with pytest.raises(ScenarioError):
        pair_scenario("obenabe", "S", 1, 1, 5, 2, "second")
    with pytest.raises(ScenarioError):
        pair_scenario("obenabe", "S", 1, 1, 2, 5, "pending")


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_r7_5_near_miss_scenario_reaches_nobody(preset):
    rules = RuleSet.preset(preset)
    close = 0
    for seed in range(40):
        s = near_miss_scenario(seed, rules)
        score = score_round(s.round.hands, s.round.contract, s.round.plays, s.round.calls, rules)
        result = resolve_target(s.before, score, s.target, rules)
        assert (result.team, result.block) == (None, None) == (s.result.team, s.result.block)
        assert s.target == rules.target and max(s.before) < s.target
        weis = score.weis
        if weis.team is not None:
            loser = 1 - weis.team
            lost = sum(m.points for x in (loser, loser + 2) for m in weis.melds[x]) * score.factor
            if lost:
                close += 1
                assert result.totals[loser] + lost >= s.target  # counting them would reach it
    assert close >= 35


def test_r6_4a_nothing_is_pending_after_the_last_card_of_the_round():
    """A pending excerpt cannot end on play 36: the round is then complete (R6.4a)."""
    with pytest.raises(ScenarioError, match="nothing pending"):
        stoeck_scenario("S", 0, 1, 9, "pending", 8)


def test_scenario_examples_in_the_docstrings_hold():
    result = doctest.testmod(scenarios, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 10
