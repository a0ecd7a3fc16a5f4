"""R2.1-R2.3, R3.7, R4.4-R4.5, R7.1-R7.5: scoring a round and reaching the target."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from rules_core import (
    DEFAULT_RULES,
    Card,
    IllegalPlayError,
    RulesError,
    RuleSet,
    StoeckCall,
    explain_legal_cards,
    first_forehand,
    resolve_target,
    resolve_weis,
    revoke_penalty,
    score_round,
    team_of,
)
from rules_core.deals import deal_cards, parse_hands, play_round
from tests.rules_core.scenes import S_EN_DEAL, STOECK_VS_WEIS, SUITS


def quiet_round(contract: str = "obenabe", seed: int = 5, both_teams: bool = True):
    """A random legal round without any meld at the table."""
    rng = random.Random(seed)
    while True:
        hands = deal_cards(rng)
        if resolve_weis(hands, contract).team is not None:
            continue
        plays = play_round(hands, contract, rng=rng)
        score = score_round(hands, contract, plays, [])
        if not both_teams or score.match is None:
            return hands, plays, score


# --- R2 table and deal ------------------------------------------------------------


def test_r2_1_teams_and_seats():
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]
    with pytest.raises(RulesError, match="seat must be 0, 1, 2 or 3"):
        team_of(4)


def test_r2_1_seats_play_in_turn():
    hands, plays, _ = quiet_round()
    bad = list(plays)
    bad[1], bad[2] = bad[2], bad[1]
    with pytest.raises(IllegalPlayError) as err:
        score_round(hands, "obenabe", bad, [])
    assert str(err.value).startswith("trick 1, play 2: seat 2 played, but it is seat 1's turn")
    assert err.value.rule == "R2.1"


def test_r2_2_nine_cards_each_and_first_forehand():
    # S-EN 3: "Whoever holds the 7 of roses (or hearts) is forehand."; "Player 4 holds the 7 of
    # roses and is forehand." (players listed 1..4 round the table)
    players = ["H6 S6", "D6", "C6", "H7 C7"]
    assert first_forehand(players) == 3
    with pytest.raises(RulesError, match="seat 1's hand has 8 cards, expected exactly 9"):
        score_round(
            ["D6 D7 D8 D9 D10 DJ DQ DK DA", "H6 H7 H8 H9 H10 HJ HQ HK", "", ""], "H", [], []
        )


def test_r2_3_forehand_leads_the_first_trick():
    # S-EN 3: "Forehand always leads to the first trick, even if the partner chose."
    hands, plays, _ = quiet_round()
    rotated = [hands[1], hands[2], hands[3], hands[0]]
    with pytest.raises(
        IllegalPlayError, match=r"seat 0 \(forehand\) leads the first trick \(R2.3\)"
    ):
        score_round(rotated, "obenabe", [(1, plays[0][1])] + plays[1:], [])


def test_r3_6_winner_leads_next_trick():
    hands, plays, score = quiet_round()
    assert all(t.leader == prev.winner for prev, t in itertools.pairwise(score.tricks))
    assert score.tricks[0].leader == 0
    bad = list(plays)
    wrong = (score.tricks[0].winner + 1) % 4
    bad[4] = (wrong, bad[4][1])
    with pytest.raises(IllegalPlayError, match=r"won trick 1 and leads trick 2 \(R3.6\)"):
        score_round(hands, "obenabe", bad, [])


# --- R3.7 revoke and misdeal ------------------------------------------------------


def test_r3_7_revoke_gives_opponents_the_deal_and_misdeal_is_refused():
    # S-EN 7: "Revoke: The opponents are credited with the points of the deal (usually 157)."
    assert revoke_penalty(0, "H") == (0, 157)
    assert revoke_penalty(3, "S", RuleSet.preset("swisslos-2500")) == (314, 0)
    # "Misdeal: Deal again." -- a card dealt twice is refused
    misdeal = [list(h) for h in SUITS]
    misdeal[1][0] = Card.parse("D6")  # D6 twice, H6 nowhere
    with pytest.raises(RulesError, match=r"D6 is in more than one hand \(seats 0 and 1\)"):
        score_round(misdeal, "H", [], [])


def _illegal_swap(hands, plays, contract, wanted_key):
    """Replace one play by an illegal card of the same seat; returns (plays, trick, seat, card)."""
    remaining = [list(h) for h in hands]
    for i, (seat, card) in enumerate(plays):
        trick = [c for _, c in plays[i - i % 4 : i]]
        for v in explain_legal_cards(remaining[seat], trick, contract).verdicts:
            if v.key == wanted_key:
                bad = Card.parse(v["card"])
                return plays[:i] + [(seat, bad)] + plays[i + 1 :], i // 4 + 1, seat, bad, v
        remaining[seat].remove(card)
    raise AssertionError("no such play")


@pytest.mark.parametrize(
    ("key", "contract", "text"),
    [
        ("play.must_follow_suit", "obenabe", "but must follow suit with"),
        ("play.under_trump", "H", "but may not under-trump"),
        ("play.must_play_trump", "H", "but must play a trump when trump is led"),
    ],
)
def test_r3_1_illegal_play_messages_say_what_and_where(key, contract, text):
    for seed in range(200):
        rng = random.Random(seed)
        hands = deal_cards(rng)
        plays = play_round(hands, contract, rng=rng)
        try:
            bad, trick, seat, card, verdict = _illegal_swap(hands, plays, contract, key)
        except AssertionError:
            continue
        with pytest.raises(IllegalPlayError) as err:
            score_round(hands, contract, bad, [])
        message = str(err.value)
        assert message.startswith(f"trick {trick}, seat {seat} played {card} {text}")
        assert message.endswith(f"({verdict.rule})") and err.value.rule == verdict.rule
        if key == "play.must_follow_suit":
            assert f"with {verdict['led']} ({' '.join(verdict['follow'])})" in message
        return
    raise AssertionError("no example found")


def test_r3_1_play_log_errors():
    hands, plays, _ = quiet_round()
    cases = [
        (plays[:35], "a round has 36 plays, got 35"),
        (plays + [plays[0]], "a round has 36 plays, got 37"),
        (plays[:4] + [plays[4][1]] + plays[5:], "expected a (seat, card) pair"),
        (plays[:4] + [(7, plays[4][1])] + plays[5:], "seat must be 0, 1, 2 or 3, got 7"),
        (plays[:4] + [(plays[4][0], "Zwölf")] + plays[5:], "trick 2, play 1: cannot read"),
        ("H6 H7", "plays must be a list"),
    ]
    for bad, message in cases:
        with pytest.raises(RulesError) as err:
            score_round(hands, "obenabe", bad, [])
        assert message in str(err.value), str(err.value)
    # a card of another hand, and a card played twice
    other = next(c for c in hands[1] if c not in [p[1] for p in plays[:4]])
    with pytest.raises(
        IllegalPlayError, match=f"played {other} but {other} is not in seat 0's hand"
    ):
        score_round(hands, "obenabe", [(0, other)] + plays[1:], [])
    seat4 = plays[4][0]
    again = next(c for s, c in plays[:4] if s == seat4)
    with pytest.raises(IllegalPlayError, match=f"{again} was already played in trick 1"):
        score_round(hands, "obenabe", plays[:4] + [(seat4, again)] + plays[5:], [])


# --- R4.4 / R4.5 / R7.1 the written score -----------------------------------------------


def test_r4_4_totals_157_and_match_257():
    # S-EN 10: "Last trick +5, all tricks = match 257."
    _, _, score = quiet_round()
    assert score.blocks[0]["tricks"] + score.blocks[1]["tricks"] == 157
    assert sum(t.points for t in score.tricks) == 157
    assert score.tricks[8].last_trick_bonus == 5
    match = score_round(SUITS, "H", play_round(SUITS, "H"), [])
    assert match.match == 1 and match.blocks[1]["tricks"] == 257 and match.blocks[0]["tricks"] == 0
    assert match.tricks[8].match_bonus == 100 and sum(t.points for t in match.tricks) == 257


def test_r4_5_factor_multiplies_every_written_score():
    rules = RuleSet.preset("swisslos-2500")  # spades x2
    deal = parse_hands(
        "SK SQ D6 D8 D10 H6 H8 H10 C6 / C7 C8 C9 C10 CJ D7 D9 H7 H9 / "
        "S6 S8 S10 SA DJ DK HJ HK CQ / S7 S9 SJ DQ DA HQ HA CK CA"
    )
    plays = play_round(deal, "S")
    second = max(i for i, (_, c) in enumerate(plays) if c.code in ("SK", "SQ"))
    plain = score_round(deal, "S", plays, [StoeckCall(0, second)])
    double = score_round(deal, "S", plays, [StoeckCall(0, second)], rules)
    assert double.factor == 2
    for team in (0, 1):
        for block in ("weis", "stoeck", "tricks"):
            assert double.blocks[team][block] == 2 * plain.blocks[team][block]
    assert double.blocks[0]["stoeck"] == 40 and double.blocks[1]["weis"] == 200
    assert [t.points for t in double.tricks] == [2 * t.points for t in plain.tricks]


def test_r7_1_three_blocks_per_team_and_data():
    plays = play_round(STOECK_VS_WEIS, "H")
    second = max(i for i, (_, c) in enumerate(plays) if c.code in ("HK", "HQ"))
    score = score_round(STOECK_VS_WEIS, "H", plays, [StoeckCall(0, second)])
    assert set(score.blocks[0]) == set(score.blocks[1]) == {"weis", "stoeck", "tricks"}
    assert score.totals == (sum(score.blocks[0].values()), sum(score.blocks[1].values()))
    data = json.loads(json.dumps(score.to_dict()))
    assert data["blocks"] == [dict(b) for b in score.blocks]
    assert len(data["tricks"]) == 9 and data["tricks"][0]["leader"] == 0
    assert data["weis"]["team"] == 1 and data["stoeck"]["status"] == "scored"
    assert set(data["tricks"][0]) == {
        "index", "leader", "seats", "cards", "winner", "team", "card_points",
        "last_trick_bonus", "match_bonus", "points",
    }  # fmt: skip


# --- R7.2 - R7.5 the target ---------------------------------------------------------


def _stoeck_vs_weis_score(rules=DEFAULT_RULES):
    plays = play_round(STOECK_VS_WEIS, "H")
    second = max(i for i, (_, c) in enumerate(plays) if c.code in ("HK", "HQ"))
    return score_round(STOECK_VS_WEIS, "H", plays, [StoeckCall(0, second)], rules)


def test_r7_2_reaching_means_score_at_least_target():
    score = _stoeck_vs_weis_score()
    assert score.blocks[1]["weis"] == 100
    exact = resolve_target((0, 900), score, 1000)
    assert (exact.team, exact.block) == (1, "weis")
    short = resolve_target((0, 899), score, 1000)
    assert short.block != "weis"
    assert resolve_target((0, 0), score).target == 1000  # the rule set's target


def test_r7_3_blocks_in_order_weis_stoeck_tricks():
    # W-EN: "The team that crosses the target during an earlier block wins. A team may therefore
    # win during the Weis block before the Stöck or trick points are counted."
    # ST-DE: "Kommt ein Team bereits im früheren Block über das Ziel, gewinnt es vor einem Team,
    # das erst in einem späteren Block darüber kommt."
    score = _stoeck_vs_weis_score()
    result = resolve_target((985, 950), score, 1000)
    assert (result.team, result.block, result.trick) == (1, "weis", None)
    assert [e.key for e in result.trace[:4]] == [
        "target.start", "target.block", "target.block", "target.trick",
    ]  # fmt: skip
    assert result.trace[1].decided and result.trace[1]["totals"] == [985, 1050]
    assert result.totals == (985 + score.totals[0], 950 + score.totals[1])
    # Stöck before tricks (S-EN 4: "Stöck and Weis are counted before the tricks")
    stoeck_first = resolve_target((985, 800), score, 1000)
    assert (stoeck_first.team, stoeck_first.block) == (0, "stoeck")


def test_r7_3_ausmachregel_counts_stoeck_first():
    rules = RuleSet.preset("ausmachregel")
    score = _stoeck_vs_weis_score(rules)
    result = resolve_target((985, 950), score, 1000, rules)
    assert (result.team, result.block) == (0, "stoeck")
    assert [e["block"] for e in result.trace if e.key == "target.block"] == ["stoeck", "weis"]


def test_r7_4_tricks_count_in_the_order_won():
    _, _, score = quiet_round()
    tricks = score.tricks
    first1 = next(t for t in tricks if t.team == 1)
    team0_before = sum(t.points for t in tricks[: first1.index] if t.team == 0)
    team0_total = sum(t.points for t in tricks if t.team == 0)
    before = (1000 - 1 - team0_before, 1000 - first1.points)
    result = resolve_target(before, score, 1000)
    assert (result.team, result.block, result.trick) == (1, "tricks", first1.index)
    decided = [e for e in result.trace if e.decided]
    assert len(decided) == 1 and decided[0].key == "target.trick"
    assert decided[0]["trick"] == first1.index and decided[0]["totals"][1] == 1000
    # the other team may end the round with more points and still lose
    if team0_total > team0_before + 1:
        assert result.totals[0] >= 1000


def test_r7_4_match_bonus_counts_with_the_last_trick():
    score = score_round(SUITS, "H", play_round(SUITS, "H"), [])
    assert score.blocks[1] == {"weis": 600, "stoeck": 0, "tricks": 257}
    before_tricks = 1000 - 600 - 257
    result = resolve_target((0, before_tricks), score, 1000)
    assert (result.team, result.block, result.trick) == (1, "tricks", 8)
    assert resolve_target((0, before_tricks - 1), score, 1000).team is None


def test_r7_5_nobody_reaches_the_target():
    _, _, score = quiet_round()
    result = resolve_target((0, 0), score, 1000)
    assert (result.team, result.block, result.trick) == (None, None, None)
    assert result.trace[-1].key == "target.not_reached" and result.trace[-1].rule == "R7.5"
    assert result.totals == score.totals
    assert json.loads(json.dumps(result.to_dict()))["team"] is None


def test_r7_2_target_input_errors():
    _, _, score = quiet_round()
    with pytest.raises(RulesError, match="team 1 already has 1000 of 1000"):
        resolve_target((10, 1000), score, 1000)
    for before in ((1, 2, 3), (-1, 0), ("900", 0), None, (True, 0)):
        with pytest.raises(RulesError, match="before must be"):
            resolve_target(before, score, 1000)
    with pytest.raises(RulesError, match="target must be"):
        resolve_target((0, 0), score, 0)
    with pytest.raises(RulesError, match="RoundScore"):
        resolve_target((0, 0), {"blocks": []}, 1000)


def test_r7_2_practice_targets():
    # W-EN: "Practice targets are 1000, 1500, 2500 and 3000." (also ST-DE)
    score = score_round(SUITS, "H", play_round(SUITS, "H"), [])
    for target in (1000, 1500, 2500, 3000):
        rules = RuleSet(target=target)
        assert rules.target == target
        result = resolve_target((0, target - 600), score, rules=rules)
        assert (result.team, result.block, result.target) == (1, "weis", target)


def test_r7_3_w_en_later_blocks_do_not_move_the_win():
    # W-EN: "If the target is crossed during the first block, the later blocks do not move the
    # win to the other team." Team 1 crosses with Weis; team 0 would cross with Stöck and ends
    # the round with more points.
    score = _stoeck_vs_weis_score()
    before = (999, 900)
    result = resolve_target(before, score, 1000)
    assert (result.team, result.block) == (1, "weis")
    assert result.totals[0] > result.totals[1] or result.totals[0] >= 1000


def test_r2_2_s_en_start_example():
    # S-EN 3: "Player 4 holds the 7 of roses and is forehand. His cards are weak, so he pushes.
    # Player 1 is his partner and chooses roses as trumps. Player 4 leads."
    assert first_forehand(S_EN_DEAL) == 0  # Player 4 = seat 0 holds the H7
    # S-EN 5: first trick DK, H8 (Player 3 trumps), HJ (Player 1 over-trumps), D6; "Trick to
    # Player 1 ... = 24 points"; "Player 1 leads to the second trick."
    plays = play_round(S_EN_DEAL, "H", prefix=[(0, "DK"), (1, "H8"), (2, "HJ"), (3, "D6")])
    score = score_round(S_EN_DEAL, "H", plays, [])
    first = score.tricks[0]
    assert (first.leader, first.winner, first.team, first.card_points) == (0, 2, 0, 24)
    assert score.tricks[1].leader == 2


# resolve_target_blocks: the same counting from written blocks (lessons state rounds
# by their blocks). It must agree with resolve_target on every played round.


@pytest.mark.parametrize("seed", range(40))
def test_r7_3_blocks_and_played_round_agree(seed):
    import random

    from rules_core import RuleSet, resolve_target, resolve_target_blocks
    from rules_core.deals import deal_cards, play_round

    rng = random.Random(seed)
    rules = RuleSet.preset(rng.choice(["default", "ausmachregel", "swisslos-2500"]))
    hands = deal_cards(rng)
    contract = rng.choice(["D", "H", "S", "C", "obenabe", "undenufe"])
    plays = play_round(hands, contract, rng=rng)
    score = score_round(hands, contract, plays, [], rules)
    before = (rng.randrange(0, rules.target), rng.randrange(0, rules.target))
    played = resolve_target(before, score, None, rules)
    written = resolve_target_blocks(
        before, score.blocks, None, rules, tricks=[(t.team, t.points) for t in score.tricks]
    )
    assert (written.team, written.block, written.trick, written.totals) == (
        played.team,
        played.block,
        played.trick,
        played.totals,
    )
    assert written.trace == played.trace


def test_r7_4_tricks_block_needs_the_order_when_both_teams_can_reach_it():
    from rules_core import RulesError, resolve_target_blocks

    blocks = [{"weis": 0, "stoeck": 0, "tricks": 80}, {"weis": 0, "stoeck": 0, "tricks": 77}]
    with pytest.raises(RulesError, match="order won"):
        resolve_target_blocks((950, 950), blocks, 1000)
    result = resolve_target_blocks((950, 950), blocks, 1000, tricks=[(1, 60), (0, 80), (1, 17)])
    assert (result.team, result.block, result.trick) == (1, "tricks", 0)


def test_r7_3_tricks_block_as_one_step_when_only_one_team_can_reach():
    from rules_core import resolve_target_blocks

    blocks = [{"weis": 0, "stoeck": 0, "tricks": 110}, {"weis": 0, "stoeck": 0, "tricks": 47}]
    result = resolve_target_blocks((900, 850), blocks, 1000)
    assert (result.team, result.block, result.trick) == (0, "tricks", None)


def test_r5_6_only_one_team_writes_weis_in_blocks():
    from rules_core import RulesError, resolve_target_blocks

    blocks = [{"weis": 20, "stoeck": 0, "tricks": 0}, {"weis": 50, "stoeck": 0, "tricks": 157}]
    with pytest.raises(RulesError, match="only one team"):
        resolve_target_blocks((0, 0), blocks, 1000)


def test_r7_4_tricks_must_add_up_to_the_tricks_block():
    from rules_core import RulesError, resolve_target_blocks

    blocks = [{"weis": 0, "stoeck": 0, "tricks": 100}, {"weis": 0, "stoeck": 0, "tricks": 57}]
    with pytest.raises(RulesError, match="add up"):
        resolve_target_blocks((0, 0), blocks, 1000, tricks=[(0, 90), (1, 57)])
