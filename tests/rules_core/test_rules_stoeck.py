"""R6.1-R6.5 Stöck, with ST-DE's and W-EN's examples, mid-round and complete."""

from __future__ import annotations

import random

import pytest

from rules_core import (
    DEFAULT_RULES,
    Card,
    IllegalPlayError,
    RulesError,
    RuleSet,
    StoeckCall,
    StoeckReason,
    check_stoeck,
    parse_cards,
    resolve_weis,
    score_round,
)
from rules_core.deals import deal_cards, parse_hands, play_round
from tests.rules_core.scenes import STOECK_VS_WEIS, SUITS


def suits_round(seat1_order: str = "HK H6 H7 HQ", n: int = 36):
    """Seat 1 plays its cards in this order first (HK = play 1, HQ = play 12 by default)."""
    return play_round(SUITS, "H", plays=n, choose=_prefer(seat1_order))


def stoeck(plays, calls, contract="H", hands=SUITS, rules=DEFAULT_RULES):
    return check_stoeck(hands, contract, plays, calls, rules)


def index_of(plays, code):
    card = Card.parse(code)
    return next(i for i, (_, c) in enumerate(plays) if c is card)


def search(predicate, contract="H", seed=3):
    rng = random.Random(seed)
    for _ in range(20000):
        hands = deal_cards(rng)
        plays = play_round(hands, contract, rng=rng)
        if predicate(hands, plays):
            return hands, plays
    raise AssertionError("no such round")


# --- R6.1 what Stöck is -------------------------------------------------------------


def test_r6_1_king_and_ober_of_trump_in_one_hand():
    plays = suits_round()
    assert (index_of(plays, "HK"), index_of(plays, "HQ")) == (1, 12)
    result = stoeck(plays, [StoeckCall(1, 12)])
    assert (result.status, result.team, result.seat, result.points) == ("scored", 1, 1, 20)
    assert result.reason is StoeckReason.VALID and result.reason.rule == "R6.2"


def test_r6_1_no_stoeck_in_obenabe_or_undenufe():
    # ST-DE: "Ein Beispiel für Obenabe: Du hältst König und Ober einer Farbe gemeinsam. Weil
    # Obenabe keine Trumpffarbe hat, meldest du keine Stöck und schreibst keine 20 Punkte."
    for contract in ("obenabe", "undenufe"):
        plays = play_round(SUITS, contract)
        result = stoeck(plays, [StoeckCall(1, index_of(plays, "HQ"))], contract)
        assert (result.status, result.reason, result.team, result.points) == (
            "none", StoeckReason.NO_TRUMP_CONTRACT, None, 0,
        )  # fmt: skip
        assert result.reason.rule == "R6.1"


def test_r6_1_not_for_a_non_trump_pair_nor_split_between_partners():
    # ST-DE: "Ein König und ein Ober aus derselben Nicht-Trumpffarbe ergeben keine Stöck."
    # seat 1 holds HK and HQ, but spades are trump and SK/SQ are split between opponents
    pair = parse_hands(
        "SK D7 D8 D9 D10 DJ DQ DK DA / HK HQ H6 H7 H8 H9 H10 SQ HA / "
        "HJ S6 S7 S8 S9 S10 SJ D6 SA / C6 C7 C8 C9 C10 CJ CQ CK CA"
    )
    plays = play_round(pair, "S")
    result = stoeck(plays, [StoeckCall(1, index_of(plays, "HQ"))], "S", hands=pair)
    assert (result.status, result.reason) == ("none", StoeckReason.NOT_HELD_BY_ONE_PLAYER)
    assert next(e for e in result.trace if e.key == "stoeck.call")["verdict"] == "no_stoeck"
    # split between partners (seats 0 and 2)
    split = parse_hands(
        "HK D7 D8 D9 D10 DJ DQ DK DA / D6 H7 H8 H9 H10 HJ H6 S6 HA / "
        "HQ S7 S8 S9 S10 SJ SQ SK SA / C6 C7 C8 C9 C10 CJ CQ CK CA"
    )
    result = stoeck(play_round(split, "H"), [], hands=split)
    assert (result.status, result.reason, result.team) == (
        "none", StoeckReason.NOT_HELD_BY_ONE_PLAYER, None,
    )  # fmt: skip
    holder = next(e for e in result.trace if e.key == "stoeck.holder")
    assert (holder["king_seat"], holder["queen_seat"], holder.decided) == (0, 2, True)


def test_r6_1_holder_of_trump_pair_when_other_suits_pair_exists():
    # seat 2 holds SK and SQ (not trump): nothing; seat 1 holds HK and HQ (trump): Stöck
    plays = suits_round()
    assert stoeck(plays, [StoeckCall(1, 12)]).seat == 1


# --- R6.2 declared with the second card, in either order ------------------------------


def test_r6_2_either_order():
    # ST-DE: "Du kannst den Trumpfkönig zuerst ausspielen und den Trumpfober später, oder die
    # umgekehrte Reihenfolge wählen."
    plays = suits_round("HQ H6 HK")
    assert (index_of(plays, "HQ"), index_of(plays, "HK")) == (1, 8)
    result = stoeck(plays, [StoeckCall(1, 8)])
    assert (result.status, result.first_play, result.second_play) == ("scored", 1, 8)


def test_r6_2_declared_at_first_card_does_not_count():
    # ST-DE: "Die erste Karte bleibt ohne Ansage." RULES R6.2: "A call at the first card does
    # not count."
    result = stoeck(suits_round(), [StoeckCall(1, 1)])
    assert (result.status, result.reason, result.points) == (
        "lost", StoeckReason.DECLARED_AT_FIRST_CARD, 0,
    )  # fmt: skip
    # mid-round, before the second card, the call at the first card leaves Stöck pending
    assert stoeck(suits_round(n=10), [StoeckCall(1, 1)]).reason is (
        StoeckReason.SECOND_CARD_NOT_PLAYED
    )


def test_r6_2_st_de_worked_sequence():
    # ST-DE: "Du spielst den König als erste der beiden Karten aus und sagst noch nichts. Du
    # spielst später den Ober aus. Du sagst in diesem Moment «Stöck», bevor die nächste Person
    # ihre Karte legt."
    plays = suits_round()
    assert stoeck(plays[:2], []).reason is StoeckReason.SECOND_CARD_NOT_PLAYED
    assert stoeck(plays[:13], []).reason is StoeckReason.STILL_POSSIBLE
    assert stoeck(plays[:13], [StoeckCall(1, 12)]).status == "scored"
    assert stoeck(plays, [StoeckCall(1, 12)]).status == "scored"


# --- R6.3 deadline ------------------------------------------------------------------


def test_r6_3_too_late_after_next_card():
    # W-EN: "If the next player has already covered that card before the declaration, the 20
    # points are lost." ST-DE: "Eine nachträgliche Ansage beim Ende des Stichs oder bei der
    # Abrechnung gilt nicht."
    plays = suits_round()
    for late in (13, 15, 35):
        result = stoeck(plays, [StoeckCall(1, late)])
        assert (result.status, result.reason) == ("lost", StoeckReason.TOO_LATE)
        assert result.reason.rule == "R6.3"


def test_r6_3_last_card_of_a_trick_may_be_called_until_the_next_card():
    hands, plays = search(lambda h, p: 0 <= _second(h, p, "H") < 35 and _second(h, p, "H") % 4 == 3)
    second = _second(hands, plays, "H")
    holder = plays[second][0]
    assert stoeck(plays[: second + 1], [], hands=hands).reason is StoeckReason.STILL_POSSIBLE
    assert stoeck(plays[: second + 1], [StoeckCall(holder, second)], hands=hands).status == "scored"
    assert stoeck(plays[: second + 2], [], hands=hands).reason is StoeckReason.NOT_DECLARED
    late = stoeck(plays[: second + 2], [StoeckCall(holder, second + 1)], hands=hands)
    assert late.reason is StoeckReason.TOO_LATE


def test_r6_3_last_card_of_the_round_counts():
    hands, plays = search(lambda h, p: _second(h, p, "H") == 35)
    holder = plays[35][0]
    assert stoeck(plays, [StoeckCall(holder, 35)], hands=hands).status == "scored"
    # the round is complete: without that call Stöck is lost, not pending (R6.4a)
    assert stoeck(plays, [], hands=hands).reason is StoeckReason.NOT_DECLARED


def _second(hands, plays, trump):
    kq = [i for i, (_, c) in enumerate(plays) if c.suit.code == trump and c.rank.code in "KQ"]
    holders = {plays[i][0] for i in kq}
    return kq[1] if len(holders) == 1 else -1


# --- R6.4 on one's own; other calls ignored ---------------------------------------------


def test_r6_4_prompted_call_is_lost_at_once():
    # ST-DE: "Die Ansage muss aus eigenem Antrieb kommen." "Partner dürfen einander nicht
    # erinnern"; W-EN: "Partners may not remind each other."
    plays = suits_round()
    for n in (13, 20, 36):  # even mid-round, and even while the deadline is still open
        result = stoeck(plays[:n], [StoeckCall(1, 12, prompted=True)])
        assert (result.status, result.reason, result.points) == ("lost", StoeckReason.PROMPTED, 0)
    assert StoeckReason.PROMPTED.rule == "R6.4"


def test_r6_4_calls_by_others_are_ignored():
    plays = suits_round()
    partner = stoeck(plays, [StoeckCall(3, 12)])
    assert (partner.status, partner.reason) == ("lost", StoeckReason.NOT_DECLARED)
    call = next(e for e in partner.trace if e.key == "stoeck.call")
    assert (call["verdict"], call.rule) == ("other_seat", "R6.4")
    # an own call at another moment before the second card is ignored too
    early = stoeck(plays, [StoeckCall(1, 5)])
    assert early.reason is StoeckReason.NOT_DECLARED
    assert next(e for e in early.trace if e.key == "stoeck.call")["verdict"] == "too_early"
    # the holder's own call that counts wins over everything else
    mixed = stoeck(
        plays, [StoeckCall(3, 12), StoeckCall(1, 1), StoeckCall(1, 12), StoeckCall(1, 20)]
    )
    assert mixed.status == "scored"


def test_r6_4_reason_priority():
    plays = suits_round()
    cases = [
        ([StoeckCall(1, 1), StoeckCall(1, 30)], StoeckReason.TOO_LATE),
        ([StoeckCall(1, 12, prompted=True), StoeckCall(1, 30)], StoeckReason.PROMPTED),
        ([StoeckCall(1, 1), StoeckCall(1, 5)], StoeckReason.DECLARED_AT_FIRST_CARD),
        ([StoeckCall(1, 5)], StoeckReason.NOT_DECLARED),
        ([], StoeckReason.NOT_DECLARED),
    ]
    for calls, reason in cases:
        assert stoeck(plays, calls).reason is reason


# --- R6.4a mid-round -----------------------------------------------------------------


def test_r6_4a_pending_while_possible():
    plays = suits_round()
    first = stoeck(plays[:1], [])
    assert (first.status, first.reason, first.seat, first.team) == (
        "pending", StoeckReason.SECOND_CARD_NOT_PLAYED, 1, 1,
    )  # fmt: skip
    assert stoeck([], []).reason is StoeckReason.SECOND_CARD_NOT_PLAYED
    assert stoeck(plays[:13], []).reason is StoeckReason.STILL_POSSIBLE
    assert stoeck(plays[:13], [StoeckCall(1, 1)]).reason is StoeckReason.STILL_POSSIBLE
    gone = stoeck(plays[:14], [])
    assert (gone.status, gone.reason) == ("lost", StoeckReason.NOT_DECLARED)
    assert gone.reason.rules == ("R6.4a", "R6.5")


# --- R6.5 lost whole, and independent of Weis ---------------------------------------------


def test_r6_5_stoeck_counts_even_when_opponents_write_weis():
    # ST-DE: "Das andere Team schreibt seinen Weis, dein Team schreibt die 20 Stöck."
    deal = STOECK_VS_WEIS
    assert resolve_weis(deal, "H").team == 1
    plays = play_round(deal, "H")
    second = max(index_of(plays, "HK"), index_of(plays, "HQ"))
    score = score_round(deal, "H", plays, [StoeckCall(0, second)])
    assert score.blocks[0]["stoeck"] == 20 and score.blocks[1]["weis"] == 100
    assert score.blocks[0]["weis"] == 0 and score.blocks[1]["stoeck"] == 0
    # a missed Stöck costs the 20 points and nothing else (R6.5)
    missed = score_round(deal, "H", plays, [])
    assert missed.blocks[0]["stoeck"] == 0
    assert missed.blocks[0]["tricks"] == score.blocks[0]["tricks"]
    assert missed.blocks[1] == score.blocks[1]


def test_r6_5_all_or_nothing_times_factor():
    # ST-DE: "Die Stöck werden auch nicht teilweise gutgeschrieben." and "Stöck zählen dabei
    # weiterhin genau 20 Punkte vor der Multiplikation mit dem Vertragsfaktor."
    swisslos = RuleSet.preset("swisslos-2500")
    plays = suits_round()
    assert stoeck(plays, [StoeckCall(1, 12)], rules=swisslos).points == 20  # H: factor 1
    rotated = [SUITS[0], SUITS[2], SUITS[1], SUITS[3]]  # seat 1 holds the spades
    spades = play_round(rotated, "S", choose=_prefer("SK S6 S7 SQ"))
    second = index_of(spades, "SQ")
    result = check_stoeck(rotated, "S", spades, [StoeckCall(1, second)], swisslos)
    assert (result.points, result.factor) == (40, 2)
    assert {stoeck(plays, c).points for c in ([], [StoeckCall(1, 13)], [StoeckCall(1, 1)])} == {0}


def _prefer(order: str):
    prefer = parse_cards(order)
    return lambda legal: next((c for c in prefer if c in legal), legal[0])


# --- trace and data ------------------------------------------------------------------


def test_r6_2_trace_and_to_dict():
    result = stoeck(suits_round(), [StoeckCall(1, 12), StoeckCall(3, 12)])
    assert [e.key for e in result.trace] == [
        "stoeck.contract", "stoeck.holder", "stoeck.cards_played", "stoeck.call", "stoeck.call",
        "stoeck.result",
    ]  # fmt: skip
    assert [e.decided for e in result.trace] == [False, False, False, True, False, True]
    data = result.to_dict()
    assert data["status"] == "scored" and data["reason"] == "valid" and data["rule"] == "R6.2"
    assert data["calls"] == [
        {"seat": 1, "after_play": 12, "prompted": False},
        {"seat": 3, "after_play": 12, "prompted": False},
    ]
    assert data["trace"][-1]["values"]["points"] == 20
    assert {r.status for r in StoeckReason} == {"none", "pending", "scored", "lost"}


# --- input errors --------------------------------------------------------------------


def test_r6_2_call_and_play_errors():
    plays = suits_round(n=13)
    with pytest.raises(RulesError, match="only 13 card"):
        stoeck(plays, [StoeckCall(1, 13)])
    with pytest.raises(RulesError, match="after_play"):
        StoeckCall(1, -1)
    with pytest.raises(RulesError, match="seat must be"):
        StoeckCall(5, 1)
    with pytest.raises(RulesError, match="prompted"):
        StoeckCall(1, 1, prompted="yes")
    with pytest.raises(RulesError, match="calls must be"):
        stoeck(plays, "1:12")
    with pytest.raises(RulesError, match="call 1"):
        stoeck(plays, [5])
    assert stoeck(plays, [(1, 12)]).status == "scored"  # a tuple is read as a call
    with pytest.raises(IllegalPlayError, match="seat 2's turn"):
        stoeck(plays[:2] + [(3, Card.parse("C6"))], [])
    with pytest.raises(RulesError, match="has 2 cards, expected exactly 9"):
        check_stoeck(["HK HQ", "", "", ""], "H", [], [])


def test_r6_1_only_king_or_only_ober_or_different_suits():
    # ST-DE: "Hältst du nur den König oder nur den Ober, gibt es keine Stöck. Dasselbe gilt,
    # wenn die beiden Karten aus verschiedenen Farben stammen."
    deal = parse_hands(
        "HK SQ D6 D7 D8 D9 D10 DJ DQ / HQ S6 S7 S8 S9 S10 SJ SK SA / "
        "H6 H7 H8 H9 H10 HJ HA DK DA / C6 C7 C8 C9 C10 CJ CQ CK CA"
    )
    result = stoeck(play_round(deal, "H"), [], hands=deal)
    assert (result.status, result.reason) == ("none", StoeckReason.NOT_HELD_BY_ONE_PLAYER)
    assert stoeck(play_round(deal, "S"), [], "S", hands=deal).reason is (
        StoeckReason.NOT_HELD_BY_ONE_PLAYER
    )


def test_r6_3_st_de_forgotten_call_example():
    # ST-DE: "Du spielst zuerst den Ober aus und vergisst die Ansage. Legt die nächste Person
    # bereits eine Karte darauf, sind die Stöck verloren. Sagst du «Stöck», bevor diese Karte
    # gespielt wird, ist die Meldung rechtzeitig." Read with ST-DE's own rule "Die erste Karte
    # bleibt ohne Ansage" (R6.2), the Ober here is the card that completes the pair: the King
    # went earlier, the Ober is led ("ausspielen") as the second card.
    plays = suits_round("HK H6 H7 HQ")
    ober = index_of(plays, "HQ")
    assert plays[ober][0] == 1 and ober % 4 == 0  # seat 1 leads the Ober
    covered = stoeck(plays[: ober + 2], [])  # the next person has put a card on it
    assert (covered.status, covered.reason) == ("lost", StoeckReason.NOT_DECLARED)
    in_time = stoeck(plays[: ober + 2], [StoeckCall(1, ober)])  # said before that card
    assert in_time.status == "scored"


def test_r6_5_w_en_stoeck_credited_regardless_of_weis():
    # W-EN: "Stöck is a separate 20 points ... it is credited to that player's team regardless
    # of the Weis comparison."
    plays = suits_round()
    score = score_round(SUITS, "H", plays, [StoeckCall(1, 12)])
    assert score.weis.team == 1 and score.blocks[1]["stoeck"] == 20
    # and in Obenabe the same cards give no Stöck (W-DE: "Die Stöck setzen Trumpf voraus und
    # fallen in beiden Spielarten weg.")
    obenabe = play_round(SUITS, "obenabe")
    score = score_round(SUITS, "obenabe", obenabe, [StoeckCall(1, index_of(obenabe, "HQ"))])
    assert score.blocks[0]["stoeck"] == score.blocks[1]["stoeck"] == 0
