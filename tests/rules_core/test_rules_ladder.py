"""R5.5: the comparison ladder, with every worked example of W-EN, W-DE and S-EN."""

from __future__ import annotations

import pytest

from rules_core import DEFAULT_RULES, Meld, RulesError, RuleSet, Step, compare_melds, resolve_weis

W_EN = RuleSet.preset("w-en")


def cmp(a, a_seat, b, b_seat, contract="H", rules=DEFAULT_RULES):
    return compare_melds(Meld.parse(a), a_seat, Meld.parse(b), b_seat, contract, rules)


def test_r5_5_points_decide_first():
    # W-DE: "Vierblatt 50 schlägt Dreiblatt 20"
    c = cmp("C6 C7 C8", 0, "S10 SJ SQ SK", 1)
    assert (c.winner, c.step) == (1, Step.POINTS)
    assert [e.key for e in c.trace] == ["ladder.points"]
    assert c.trace[0].to_dict() == {
        "rule": "R5.5", "key": "ladder.points", "values": {"a": 20, "b": 50, "winner": 1},
        "decided": True,
    }  # fmt: skip
    # W-EN: "A meld worth 150 beats a meld worth 100, regardless of the cards' trick strength"
    assert cmp("D9 H9 S9 C9", 3, "DA HA SA CA", 0).step is Step.POINTS
    # W-DE: "vier Puur mit 200 über vier Nell mit 150"
    c = cmp("D9 H9 S9 C9", 0, "DJ HJ SJ CJ", 1, "obenabe")
    assert (c.winner, c.step) == (1, Step.POINTS)


def test_r5_5_cards_beat_points_tie():
    # W-EN: "A five-card sequence worth 100 beats four aces worth 100 because the sequence has
    # five cards and the four of a kind has four."
    c = cmp("DA HA SA CA", 0, "S9 S10 SJ SQ SK", 3)
    assert (c.winner, c.step) == (1, Step.CARDS)
    assert [(e.key, e["a"], e["b"], e.decided) for e in c.trace] == [
        ("ladder.points", 100, 100, False),
        ("ladder.cards", 4, 5, True),
    ]
    # W-DE: "Fünfblatt 100 schlägt vier Könige 100"; "eine Folge schlägt vier Gleiche desselben
    # Werts, denn sie hat immer mehr Karten"
    c = cmp("D8 D9 D10 DJ DQ", 1, "DK HK SK CK", 0, "C")
    assert (c.winner, c.step) == (0, Step.CARDS)


def test_r5_5_w_en_four_card_fifty_against_five_card_sequence():
    # W-EN: "A four-card sequence worth 50 cannot beat a five-card sequence worth 50" -- a
    # five-card sequence is worth 100 (R5.1), so the points already decide.
    c = cmp("H6 H7 H8 H9", 0, "S6 S7 S8 S9 S10", 1)
    assert (c.winner, c.step) == (1, Step.POINTS)


def test_r5_5_high_card_natural_order():
    # W-EN: "A sequence ending in ace ranks above a sequence ending in king at that stage."
    # W-DE: "Dreiblatt vom Ass schlägt Dreiblatt vom König"
    c = cmp("SQ SK SA", 1, "DJ DQ DK", 0)
    assert (c.winner, c.step) == (0, Step.HIGH_CARD)
    assert c.trace[-1].values == {
        "order": "natural", "a": "A", "b": "K", "a_card": "SA", "b_card": "DK", "winner": 0,
    }  # fmt: skip
    # W-DE: "Bei gleichen Punkten entscheidet die höhere Karte, vier Asse über vier Könige."
    c = cmp("DK HK SK CK", 0, "DA HA SA CA", 1)
    assert (c.winner, c.step) == (1, Step.HIGH_CARD)
    # W-DE dialogue: «Fünfzig» - «Fünfzig auch» - «Vom Ass»: both 50, the one up to the ace wins
    c = cmp("C9 C10 CJ CQ", 1, "HJ HQ HK HA", 0, "S")
    assert (c.winner, c.step) == (1, Step.HIGH_CARD)


def test_r5_5_high_card_in_obenabe_from_the_ace():
    # W-DE: "In Obenabe gilt die gewohnte Ordnung vom Ass her."
    c = cmp("C6 C7 C8", 0, "D7 D8 D9", 1, "obenabe")
    assert (c.winner, c.step) == (1, Step.HIGH_CARD)


def test_r5_5_undenufe_reverses_high_card_by_default():
    # W-DE: "Ein Dreiblatt Acht, Sieben, Sechs schlägt ein Dreiblatt Neun, Acht, Sieben."
    c = cmp("H7 H8 H9", 0, "S6 S7 S8", 1, "undenufe")
    assert (c.winner, c.step) == (1, Step.HIGH_CARD)
    assert c.trace[-1].values == {
        "order": "reversed", "a": "7", "b": "6", "a_card": "H7", "b_card": "S6", "winner": 1,
    }  # fmt: skip
    # W-DE: "Dieselbe Ordnung gilt in Undenufe für vier Gleiche desselben Werts: Die tiefere
    # Karte gewinnt." -- four 10s beat four aces
    c = cmp("DA HA SA CA", 0, "D10 H10 S10 C10", 1, "undenufe")
    assert (c.winner, c.step) == (1, Step.HIGH_CARD)
    # four 6s beat four aces when low fours score (default)
    c = cmp("DA HA SA CA", 0, "D6 H6 S6 C6", 1, "undenufe")
    assert (c.winner, c.step) == (1, Step.HIGH_CARD)
    # the same fours in Obenabe: the higher wins
    assert cmp("DA HA SA CA", 1, "D10 H10 S10 C10", 0, "obenabe").winner == 0


def test_r5_5_undenufe_natural_order_variant_w_en():
    # W-EN: "Undenufe does not reverse the order used for Weis ... A sequence ending in ace
    # remains higher than a sequence ending in king"
    c = cmp("DJ DQ DK", 0, "SQ SK SA", 1, "undenufe", W_EN)
    assert (c.winner, c.step) == (1, Step.HIGH_CARD)
    assert c.trace[-1]["order"] == "natural"
    c = cmp("DA HA SA CA", 0, "D10 H10 S10 C10", 1, "undenufe", W_EN)
    assert c.winner == 0
    c = cmp("DJ DQ DK", 0, "SQ SK SA", 1, "undenufe")  # default: reversed, the lower wins
    assert c.winner == 0


def test_r5_5_trump_sequence_beats_equal_sequence():
    # W-DE: "Dreiblatt vom König im Trumpf schlägt Dreiblatt vom König in einer anderen Farbe"
    # and "Ist Rosen Trumpf und hält die eine Partei ein Dreiblatt vom König in Rosen, die
    # andere eines in Eichel, schreibt die Partei mit Rosen."
    c = cmp("CJ CQ CK", 0, "HJ HQ HK", 1, "H")
    assert (c.winner, c.step) == (1, Step.TRUMP)
    assert c.trace[-1].values == {"trump": "H", "a": False, "b": True, "winner": 1}
    result = resolve_weis(["CJ CQ CK", "HJ HQ HK", "", ""], "Rosen")
    assert (result.team, result.points, result.step) == (1, 20, Step.TRUMP)


def test_r5_5_seat_decides_last():
    # W-DE: "Meldet Vorhand ein Dreiblatt vom König in Eichel und der nächste Spieler ein
    # Dreiblatt vom König in Schellen, schreibt die Partei von Vorhand."
    c = cmp("DJ DQ DK", 1, "CJ CQ CK", 0, "H")
    assert (c.winner, c.step) == (1, Step.SEAT)
    assert [e.key for e in c.trace] == [
        "ladder.points", "ladder.cards", "ladder.high_card", "ladder.trump", "ladder.seat",
    ]  # fmt: skip
    assert c.trace[-1].values == {"a": 1, "b": 0, "winner": 1}
    result = resolve_weis(["CJ CQ CK", "DJ DQ DK", "", ""], "H")
    assert (result.team, result.best_seat, result.step) == (0, 0, Step.SEAT)


def test_r5_5_no_trump_contract_always_goes_to_seat():
    # W-DE: "Ohne Trumpf, also in Obenabe, Undenufe ... greift er immer."
    for contract in ("obenabe", "undenufe"):
        c = cmp("H7 H8 H9", 2, "S7 S8 S9", 3, contract)
        assert (c.winner, c.step) == (0, Step.SEAT)
        assert c.trace[-2].values == {"trump": None, "a": False, "b": False, "winner": None}


def test_r5_5_s_en_equal_weis_rule():
    # S-EN 7: "Equal Weis: With equal length the higher card wins, then the trump Weis,
    # otherwise forehand."
    assert cmp("S7 S8 S9", 0, "D8 D9 D10", 1, "S").step is Step.HIGH_CARD
    assert cmp("S8 S9 S10", 1, "D8 D9 D10", 0, "S").step is Step.TRUMP
    assert cmp("C8 C9 C10", 1, "D8 D9 D10", 0, "S").winner == 1  # seat 0 = forehand


def test_r5_5_comparison_to_dict_is_plain_data():
    data = cmp("CJ CQ CK", 0, "HJ HQ HK", 1, "H").to_dict()
    assert data["winner"] == 1 and data["step"] == "trump" and data["contract"] == "H"
    assert data["a"]["cards"] == ["CJ", "CQ", "CK"] and data["b_seat"] == 1
    assert [e["key"] for e in data["trace"]][-1] == "ladder.trump"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("H6 H7 H8", 1, "S6 S7 S8", 1), "both melds are at seat 1"),
        (("H6 H7 H8", 0, "H6 H7 H8", 1), "share H6 H7 H8"),
        (("H6 H7 H8", 0, "D8 H8 S8 C8", 1), "share H8"),
        (("H6 H7 H8", 4, "S6 S7 S8", 1), "a_seat must be"),
        (("H6 H7 H8", 0, "S6 S7", 1), "meld b"),
        (("H6 H7 H8", True, "S6 S7 S8", 1), "a_seat must be"),
    ],
)
def test_r5_5_compare_errors(args, message):
    a, a_seat, b, b_seat = args
    with pytest.raises(RulesError, match=message):
        compare_melds(a, a_seat, b, b_seat, "H")


def test_r5_5_low_four_not_a_meld_under_w_en():
    with pytest.raises(RulesError, match="scores nothing"):
        cmp("D7 H7 S7 C7", 0, "S10 SJ SQ", 1, "H", W_EN)
    with pytest.raises(RulesError):
        compare_melds(42, 0, Meld.parse("H6 H7 H8"), 1, "H")
