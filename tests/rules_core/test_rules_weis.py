"""R5.6-R5.7: who writes Weis; the worked examples of W-DE, W-EN and S-EN."""

from __future__ import annotations

import json
import pickle

import pytest

from rules_core import (
    Card,
    Meld,
    RulesError,
    RuleSet,
    Step,
    parse_cards,
    resolve_weis,
    score_round,
)
from rules_core.deals import parse_hands, play_round
from tests.rules_core.scenes import S_EN_DEAL


def test_r5_6_s_en_example_team_of_player_1_scores_50():
    # S-EN: "Player 1's Weis is higher, so his team scores 50."
    result = resolve_weis(S_EN_DEAL, "H")
    assert (result.team, result.points, result.scored) == (0, 50, 50)
    assert (result.best_seat, str(result.best), result.step) == (2, "S10 SJ SQ SK", Step.POINTS)
    assert [len(m) for m in result.melds] == [0, 1, 1, 0]
    assert result.team_best[1][0] == 1 and str(result.team_best[1][1]) == "C6 C7 C8"


def test_r5_6_w_de_two_threes_lose_to_one_four():
    # W-DE: "Zwei Dreiblatt auf der einen Seite sind zusammen 40 und verlieren gegen ein
    # einziges Vierblatt mit 50 auf der anderen: Die Partei mit dem Vierblatt schreibt 50,
    # die andere nichts."
    result = resolve_weis(["H6 H7 H8", "C6 C7 C8 C9", "S6 S7 S8", ""], "D")
    assert (result.team, result.points, result.step) == (1, 50, Step.POINTS)
    writes = result.trace[-1]
    assert writes.key == "weis.writes" and writes["team"] == 1 and writes["points"] == 50


def test_r5_6_writing_team_writes_every_meld_of_both_partners():
    # W-DE: "Die Partei, die ihn hält, schreibt alle ihre Weise, auch die kleinen."
    # W-EN: "That team records both partners' melds together."
    result = resolve_weis(["S9 S10 SJ SQ SK D6 D7 D8", "C6 C7 C8 C9", "H6 H7 H8", ""], "C")
    assert (result.team, result.points) == (0, 100 + 20 + 20)
    assert [m["cards"][0] for m in result.trace[-1]["melds"]] == ["S9", "D6", "H6"]


def test_r5_6_other_team_writes_nothing_even_with_more_melds_in_sum():
    # W-EN: "The other team records nothing for Weis, even if one of its players announced a
    # valid meld."; S-EN FAQ: "Only the team with the highest Weis scores its Weis."
    result = resolve_weis(["S6 S7 S8 S9", "H6 H7 H8 D6 D7 D8", "", "C6 C7 C8 CQ CK CA"], "D")
    assert (result.team, result.points) == (0, 50)  # one 50 beats 20+20+20+20 (=80)


def test_r5_6_no_meld_and_one_team():
    none = resolve_weis(["H6 H8", "S6", "", ""], "H")
    assert (none.team, none.points, none.scored, none.best, none.best_seat, none.step) == (
        None, 0, 0, None, None, None,
    )  # fmt: skip
    assert [e.key for e in none.trace][-2:] == ["weis.no_melds", "weis.writes"]
    one = resolve_weis(["", "", "", "D6 D7 D8"], "H")
    assert (one.team, one.points, one.best_seat, one.step) == (1, 20, 3, None)
    assert [e.key for e in one.trace][-2:] == ["weis.only_team", "weis.writes"]


def test_r5_6_partners_compare_too():
    # seat 2's meld is the team's best although seat 0 announced first: points decide
    result = resolve_weis(["H6 H7 H8", "", "S6 S7 S8 S9", "C6 C7 C8"], "D")
    assert result.team_best[0][0] == 2 and result.best_seat == 2 and result.points == 70
    # equal melds of partners: the earlier seat counts as the team's best
    result = resolve_weis(["H6 H7 H8", "", "S6 S7 S8", ""], "D")
    assert result.team_best[0][0] == 0


def test_r4_5_weis_times_factor():
    # W-DE: "Ein Dreiblatt zählt bei einer doppelt zählenden Trumpfart 40."
    swisslos = RuleSet.preset("swisslos-2500")
    assert resolve_weis(["H6 H7 H8", "", "", ""], "S", swisslos).scored == 40
    assert resolve_weis(["H6 H7 H8", "", "", ""], "H", swisslos).scored == 20
    assert resolve_weis(["H6 H7 H8", "", "", ""], "obenabe", swisslos).scored == 60


def test_r5_6_trace_shapes_and_json():
    result = resolve_weis(S_EN_DEAL, "H")
    keys = [e.key for e in result.trace]
    assert keys == ["weis.seat"] * 4 + ["weis.team_best"] * 2 + ["ladder.points", "weis.writes"]
    assert result.trace[2].values["announced"] == 50
    data = json.loads(json.dumps(result.to_dict()))
    assert data["team"] == 0 and data["step"] == "points" and data["best_seat"] == 2
    assert data["melds"][2][0]["cards"] == ["S10", "SJ", "SQ", "SK"]
    assert data["team_best"][1] == {
        "seat": 1,
        "meld": {"kind": "sequence", "cards": ["C6", "C7", "C8"], "points": 20, "suit": "C",
                 "top": "C8"},
    }  # fmt: skip
    assert len(result.hands[0]) == 9 and repr(result).startswith("WeisResult(team=0")


def test_r5_7_weis_counts_for_a_team_that_takes_no_trick():
    # W-DE: "Wer weist und danach keinen Stich holt, schreibt seinen Weis trotzdem."
    deal = parse_hands(
        "D6 D7 D8 D9 D10 S6 S7 C6 C7 / HJ H9 HA HK HQ SA SK CA DA / "
        "H6 H7 H8 H10 DJ S8 S10 C8 C10 / DQ DK S9 SJ SQ C9 CJ CQ CK"
    )
    prefer = parse_cards("HJ H9 HA HK HQ SA SK CA")
    plays = play_round(
        deal, "H", prefix=[(0, "D6"), (1, "DA"), (2, "DJ"), (3, "DK")],
        choose=lambda legal: next((c for c in prefer if c in legal), legal[0]),
    )  # fmt: skip
    score = score_round(deal, "H", plays, [])
    assert all(t.team == 1 for t in score.tricks) and score.match == 1
    assert score.weis.team == 0 and score.weis.points == 100 + 20  # D6-D10 and H6 H7 H8
    assert score.blocks[0] == {"weis": 120, "stoeck": 0, "tricks": 0}
    assert score.blocks[1]["weis"] == 0 and score.blocks[1]["tricks"] == 257


def test_r5_6_resolve_weis_input_errors():
    with pytest.raises(RulesError, match="more than one hand"):
        resolve_weis(["H6 H7 H8", "H8", "", ""], "H")
    with pytest.raises(RulesError, match="seat 1's hand has 10 cards"):
        resolve_weis(["", "D6 D7 D8 D9 D10 DJ DQ DK DA H6", "", ""], "H")
    with pytest.raises(RulesError, match="four hands"):
        resolve_weis(["H6", "", ""], "H")
    with pytest.raises(RulesError, match="seat 2's hand has H6 twice"):
        resolve_weis(["", "", [Card.parse("H6"), "H6"], ""], "H")
    with pytest.raises(RulesError, match="must be a list of cards"):
        resolve_weis(["", 5, "", ""], "H")
    with pytest.raises(RulesError, match="hands must be four hands"):
        resolve_weis(None, "H")
    with pytest.raises(RulesError, match="unknown contract"):
        resolve_weis(["", "", "", ""], "hearts please")
    with pytest.raises(RulesError, match="rules must be"):
        resolve_weis(["", "", "", ""], "H", rules=1)


# ---------------------------------------------------------------------------
# R5.4a, R5.4b, R5.7: the announced claims are compared (resolve_weis(..., claims=...))

# Player 1 holds a hundred (S9-SK) and a twenty (H6 H7 H8); player 2 a fifty (C6-C9);
# player 3 a twenty (D6 D7 D8); player 4 nothing.
CLAIM_DEAL = ["S9 S10 SJ SQ SK H6 H7 H8", "C6 C7 C8 C9", "D6 D7 D8", ""]


def test_r5_4a_smaller_claim_loses_to_a_bigger_claim_the_best_meld_would_have_beaten():
    everyone = resolve_weis(CLAIM_DEAL, "H")
    assert (everyone.team, everyone.points) == (0, 100 + 20 + 20)  # the hundred wins
    result = resolve_weis(CLAIM_DEAL, "H", claims=[20, 50, 20, None])
    # W-DE's exchange compares what was announced: the twenty competes, and loses
    assert (result.team, result.points, result.best_seat, result.step) == (1, 50, 1, Step.POINTS)
    assert str(result.claimed[0]) == "H6 H7 H8" and str(result.best) == "C6 C7 C8 C9"
    assert str(result.team_best[0][1]) == "H6 H7 H8"
    assert result.comparison.a == result.claimed[0]  # the claim, not the hundred
    assert result.status == ("smaller", "best", "best", "silent")
    seats = [e for e in result.trace if e.key == "weis.seat"]
    assert [e["announced"] for e in seats] == [20, 50, 20, 0]
    assert seats[0]["best"]["cards"] == ["S9", "S10", "SJ", "SQ", "SK"]
    # the trace names the claim that is not the best meld (player 4 has no meld)
    (claim,) = [e for e in result.trace if e.key == "weis.claim"]
    assert (claim.rule, claim["seat"], claim["status"]) == ("R5.4a", 0, "smaller")
    assert claim["claim"]["cards"] == ["H6", "H7", "H8"] and claim["announced"] == 20
    assert result.written == ((), (Meld.parse("C6 C7 C8 C9"),), (), ())


def test_r5_4a_a_claim_is_the_best_meld_of_the_announced_value():
    # player 2 holds two twenties; the one in trump (spades) is the claim, and beats
    # player 1's twenty at step 4 (with the hearts twenty player 1 would win at step 5)
    hands = ["D6 D7 D8", "H6 H7 H8 S6 S7 S8", "", ""]
    result = resolve_weis(hands, "S", claims=[20, 20, None, None])
    assert str(result.claimed[1]) == "S6 S7 S8"
    assert (result.team, result.step, result.points) == (1, Step.TRUMP, 40)


def test_r5_6_the_writing_team_writes_every_meld_of_its_announcing_partners():
    # player 1's smaller claim still writes the hundred when the team's claim wins
    result = resolve_weis(CLAIM_DEAL, "H", claims=[20, None, 20, None])
    assert (result.team, result.points) == (0, 100 + 20 + 20)
    assert [len(m) for m in result.written] == [2, 0, 1, 0]
    writes = result.trace[-1]
    assert writes.key == "weis.writes" and [m["seat"] for m in writes["melds"]] == [0, 0, 2]


def test_r5_4b_a_silent_partner_writes_nothing():
    result = resolve_weis(CLAIM_DEAL, "H", claims=[None, 50, 20, None])
    # player 3's twenty is the team's only claim and loses to the fifty
    assert (result.team, result.points) == (1, 50)
    result = resolve_weis(["S9 S10 SJ SQ SK", "C6 C7 C8", "H6 H7 H8", ""], "D",
                          claims=[None, 20, 20, None])  # fmt: skip
    # two equal twenties: player 2 announced before player 3 (R5.5 step 5)
    assert result.team == 1 and result.points == 20 and result.step == Step.SEAT
    result = resolve_weis(["S9 S10 SJ SQ SK", "C6 C7 C8", "H6 H7 H8", ""], "D",
                          claims=[100, 20, None, None])  # fmt: skip
    assert (result.team, result.points) == (0, 100)  # player 3 was silent: not the 20
    assert result.written[2] == () and len(result.melds[2]) == 1


def test_r5_7_a_value_not_held_is_a_false_weis_and_struck_out():
    result = resolve_weis(CLAIM_DEAL, "H", claims=[150, 50, 20, None])
    assert result.claimed[0] is None and (result.team, result.points) == (1, 50)
    (claim,) = [e for e in result.trace if e.key == "weis.claim"]
    assert (claim.rule, claim["status"], claim["claim"]) == ("R5.7", "false", None)
    # a partner's claim still counts, but the false player's melds are not written
    result = resolve_weis(CLAIM_DEAL, "H", claims=[150, None, 20, None])
    assert (result.team, result.points, result.best_seat) == (0, 20, 2)
    assert resolve_weis(CLAIM_DEAL, "H", claims=[30, None, None, None]).team is None


def test_r5_4a_no_claim_at_all():
    result = resolve_weis(CLAIM_DEAL, "H", claims=[None] * 4)
    assert (result.team, result.points, result.best, result.step) == (None, 0, None, None)
    assert [e.key for e in result.trace][-2:] == ["weis.no_melds", "weis.writes"]
    assert result.claims == (None, None, None, None) and result.written == ((),) * 4


def test_r5_4a_claims_keep_the_factor_and_pickle():
    swisslos = RuleSet.preset("swisslos-2500")
    result = resolve_weis(CLAIM_DEAL, "S", swisslos, claims=(20, 50, None, None))
    assert (result.team, result.points, result.scored) == (1, 50, 100)
    again = pickle.loads(pickle.dumps(result))
    assert again.to_dict() == result.to_dict() and again.claims == (20, 50, None, None)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["claims"] == [20, 50, None, None]
    assert data["claimed"][0]["cards"] == ["H6", "H7", "H8"] and data["claimed"][2] is None
    assert data["written"] == [[], [data["claimed"][1]], [], []]


@pytest.mark.parametrize(
    "claims, match",
    [
        ([20, 50, None], "four announced values"),
        ("20 50 0 0", "four announced values"),
        (20, "four announced values"),
        ([20, 0, None, None], "seat 1's claim"),
        ([20, -20, None, None], "seat 1's claim"),
        ([True, None, None, None], "seat 0's claim"),
        ([20.0, None, None, None], "seat 0's claim"),
        ([None, None, "50", None], "seat 2's claim"),
    ],
)
def test_r5_4a_bad_claims_raise_rules_error(claims, match):
    with pytest.raises(RulesError, match=match):
        resolve_weis(CLAIM_DEAL, "H", claims=claims)
