"""R3.1-R3.6 trick play and R4.1-R4.4 card points, with S-EN's worked example."""

from __future__ import annotations

import pytest

from rules_core import (
    DECK,
    Contract,
    RulesError,
    card_points,
    explain_card_points,
    explain_legal_cards,
    explain_trick_winner,
    legal_cards,
    parse_cards,
    trick_winner,
)


def legal(hand, trick, contract):
    return [c.code for c in legal_cards(hand, trick, contract)]


def why(hand, trick, contract):
    return {
        v["card"]: (v.key, v.rule, v["legal"])
        for v in explain_legal_cards(hand, trick, contract).verdicts
    }


# --- R3.1 follow suit ------------------------------------------------------------


def test_r3_1_leader_plays_any_card():
    assert legal("H6 S7 CA", "", "H") == ["H6", "S7", "CA"]
    assert why("H6 S7", [], "obenabe")["S7"] == ("play.lead", "R3.1", True)


def test_r3_1_must_follow_led_suit():
    # S-EN 5: "The others must follow suit if they can."
    assert legal("S7 SK D6 CA", "S6", "obenabe") == ["S7", "SK"]
    assert legal("S7 SK D6 CA", "SA", "undenufe") == ["S7", "SK"]
    assert why("S7 D6", "S6", "obenabe")["D6"] == ("play.must_follow_suit", "R3.1", False)
    assert explain_legal_cards("S7 SK D6", "S6", "H").verdicts[2]["follow"] == ["S7", "SK"]


def test_r3_1_trump_led_any_trump_follows():
    # when trump is led, any trump follows suit: the trump order does not restrict
    assert legal("H6 HA S7", "HJ", "H") == ["H6", "HA"]
    assert why("H6 S7", "HJ", "H")["H6"] == ("play.follows_trump", "R3.1", True)


# --- R3.2 trumping always allowed ---------------------------------------------------


def test_r3_2_trumping_allowed_even_if_able_to_follow():
    # S-EN 5 example: "Player 1 still has the 10 of bells - but he may trump anyway. He plays
    # the Under of roses (Puur) and over-trumps Player 3." S-EN FAQ: "May I trump although I
    # could follow suit? Yes."
    assert "HJ" in legal("D10 D7 HJ C9", "DK H8", "H")
    assert legal("D10 HK C9", "DK", "H") == ["D10", "HK"]
    assert why("D10 HK", "DK", "H")["HK"] == ("play.trump_allowed", "R3.2", True)


# --- R3.3 no under-trumping -------------------------------------------------------


def test_r3_3_no_under_trumping():
    # S-EN 5: "No under-trumping: If a trump is already in the trick, you may not play a lower
    # trump - unless you hold only trumps."
    assert legal("S7 H6 HA", "SK HQ", "H") == ["S7", "HA"]
    assert why("S7 H6 HA", "SK HQ", "H")["H6"] == ("play.under_trump", "R3.3", False)
    assert why("S7 H6 HA", "SK HQ", "H")["HA"] == ("play.over_trump", "R3.3", True)
    # cannot follow suit: any card, but still no lower trump (R3.5 subject to R3.3)
    assert legal("D7 H6 HA", "SK HQ", "H") == ["D7", "HA"]
    # the Nell is above the ace in trump, so H9 over-trumps HA
    assert legal("D7 H9 HK", "SK HA", "H") == ["D7", "H9"]


def test_r3_3_only_trumps_in_hand_may_under_trump():
    assert legal("H6 H7", "SK HQ", "H") == ["H6", "H7"]
    assert why("H6 H7", "SK HQ", "H")["H6"] == ("play.only_trumps", "R3.3", True)


def test_r3_3_no_restriction_when_trump_is_led():
    assert legal("H6 H7 S8", "HA HJ", "H") == ["H6", "H7"]


def test_r3_3_highest_trump_counts_not_the_last():
    # trick S-led: HQ then H6 (by an all-trump hand); the bar is HQ
    assert legal("S8 H7 HK", "SK HQ H6", "H") == ["S8", "HK"]


# --- R3.4 the Puur exception ---------------------------------------------------------


def test_r3_4_puur_need_not_be_played():
    # S-EN 5: "Puur exception: When trumps are led and your only trump is the Puur, you don't
    # have to play it." S-EN FAQ: "Must I play the Puur? No."
    assert legal("HJ S6 C7", "H9", "H") == ["HJ", "S6", "C7"]
    assert why("HJ S6", "H9", "H")["S6"] == ("play.puur_exception", "R3.4", True)


def test_r3_4_other_trump_must_be_played_when_trump_led():
    assert legal("HJ H6 C7", "H9", "H") == ["HJ", "H6"]
    assert legal("H6 C7", "HA", "H") == ["H6"]
    assert why("H6 C7", "HA", "H")["C7"] == ("play.must_play_trump", "R3.4", False)
    # the exception is for the trump Under only: the Under of another suit is no Puur
    assert legal("SJ H6 C7", "H9", "H") == ["H6"]


# --- R3.5 cannot follow ------------------------------------------------------------


def test_r3_5_cannot_follow_any_card():
    assert legal("D6 H6 CA", "S6", "obenabe") == ["D6", "H6", "CA"]
    assert legal("D6 H6 CA", "S6", "C") == ["D6", "H6", "CA"]
    assert why("D6 CA", "S6", "obenabe")["D6"] == ("play.cannot_follow", "R3.5", True)
    assert why("D6 CA", "H6", "H")["D6"] == ("play.cannot_follow", "R3.5", True)


# --- R3.6 who wins ------------------------------------------------------------------


def test_r3_6_trump_order():
    trumps = parse_cards("H6 H7 H8 H10 HQ HK HA H9 HJ")  # low to high: J 9 A K Q 10 8 7 6
    for i, low in enumerate(trumps):
        for high in trumps[i + 1 :]:
            assert trick_winner([low, high], "H") == 1
            assert trick_winner([high, low], "H") == 0


def test_r3_6_plain_and_obenabe_and_undenufe_orders():
    plain = parse_cards("S6 S7 S8 S9 S10 SJ SQ SK SA")
    for i, low in enumerate(plain):
        for high in plain[i + 1 :]:
            assert trick_winner([low, high], "H") == 1
            assert trick_winner([low, high], "obenabe") == 1
            assert trick_winner([low, high], "undenufe") == 0
    # only the led suit or a trump can win
    assert trick_winner("S6 SA DA CA", "obenabe") == 1
    assert trick_winner("S6 D6 C6 H6", "undenufe") == 0
    assert trick_winner("S6 SA H6 HJ", "H") == 3
    assert trick_winner("S6 SA H6 HJ", "D") == 1
    assert trick_winner("S6", "D") == 0  # a partial trick: who wins so far


def test_r3_6_s_en_example_trick():
    # S-EN 5: "Trick to Player 1: king 4 + eight 0 + Puur 20 + six 0 = 24 points."
    trick = parse_cards("DK H8 HJ D6")
    assert trick_winner(trick, "H") == 2
    assert [card_points(c, "H") for c in trick] == [4, 0, 20, 0]
    explained = explain_trick_winner(trick, "H")
    assert explained.card.code == "HJ" and explained.trace[0].rule == "R3.6"
    assert explained.trace[0]["by"] == "trump"
    assert (
        explain_trick_winner("S6 SA DA", "undenufe").to_dict()["trace"][0]["values"]["order"]
        == "undenufe"
    )


# --- R4.1-R4.4 card points ------------------------------------------------------------


def test_r4_1_trump_and_plain_points():
    assert [card_points(c, "H") for c in parse_cards("HJ H9 HA H10 HK HQ H8 H7 H6")] == [
        20, 14, 11, 10, 4, 3, 0, 0, 0,
    ]  # fmt: skip
    assert [card_points(c, "H") for c in parse_cards("SA S10 SK SQ SJ S9 S8 S7 S6")] == [
        11, 10, 4, 3, 2, 0, 0, 0, 0,
    ]  # fmt: skip
    # S-EN 10: "Puur 20, Nell 14, ace 11, ten 10, king 4, Ober 3."
    assert explain_card_points("HJ", "H").values == {"card": "HJ", "points": 20, "table": "trump"}


def test_r4_2_obenabe_points():
    # S-EN 5: "Obenabe (top down): No trumps, the ace is highest; eights score 8 points."
    assert [card_points(c, "obenabe") for c in parse_cards("SA S10 S8 SK SQ SJ S9 S7 S6")] == [
        11, 10, 8, 4, 3, 2, 0, 0, 0,
    ]  # fmt: skip
    assert explain_card_points("S8", "obenabe").rule == "R4.2"


def test_r4_3_undenufe_points():
    # S-EN 5: "Undenufe (bottom up): No trumps, the six is highest (11 points), the ace scores
    # 0; eights score 8."
    assert [card_points(c, "undenufe") for c in parse_cards("S6 S10 S8 SK SQ SJ SA S9 S7")] == [
        11, 10, 8, 4, 3, 2, 0, 0, 0,
    ]  # fmt: skip
    assert explain_card_points("S6", "undenufe").rule == "R4.3"


def test_r4_4_every_contract_totals_152():
    # S-EN 2: "All cards together are worth 152 points, plus 5 for the last trick = 157."
    for contract in Contract:
        assert sum(card_points(c, contract) for c in DECK) == 152


# --- input errors ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "trick", "message"),
    [
        ("", "", "hand has 0 cards"),
        ("D6 D7 D8 D9 D10 DJ DQ DK DA H6", "", "hand has 10 cards"),
        ("H6 H7", "S6 S7 S8 S9", "trick has 4 cards"),
        ("H6 H7", "H6", "both in the hand and in the trick"),
        ("H6 H6", "", "hand has H6 twice"),
        (7, "", "hand must be a list of cards"),
        ("H6", 3.5, "trick must be a list of cards"),
        ("H6 Zwölf", "", "unknown word"),
    ],
)
def test_r3_1_legal_cards_input_errors(hand, trick, message):
    with pytest.raises(RulesError, match=message):
        legal_cards(hand, trick, "H")
    with pytest.raises(RulesError, match=message):
        explain_legal_cards(hand, trick, "H")


def test_r3_6_trick_winner_input_errors():
    with pytest.raises(RulesError, match="trick has 0 cards"):
        trick_winner("", "H")
    with pytest.raises(RulesError, match="trick has 5 cards"):
        trick_winner("H6 H7 H8 H9 H10", "H")
    with pytest.raises(RulesError):
        card_points("H6", None)
