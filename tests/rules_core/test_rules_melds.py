"""R5.1-R5.4 melds, RULES section 9, and golden counts checked two ways."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from rules_core import (
    DECK,
    DEFAULT_RULES,
    Meld,
    MeldKind,
    RulesError,
    RuleSet,
    Step,
    best_meld,
    compare_melds,
    explain_best_meld,
    find_melds,
    parse_cards,
    resolve_weis,
)
from rules_core._tables import RUNS

W_EN = RuleSet.preset("w-en")


def melds(text, rules=DEFAULT_RULES):
    return [(str(m), m.points) for m in find_melds(text, rules)]


# --- R5.1 sequences -----------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("H6 H7 H8", 20),
        ("H6 H7 H8 H9", 50),
        ("H6 H7 H8 H9 H10", 100),
        ("H6 H7 H8 H9 H10 HJ", 150),
        ("H6 H7 H8 H9 H10 HJ HQ", 200),
        ("H6 H7 H8 H9 H10 HJ HQ HK", 250),
        ("H6 H7 H8 H9 H10 HJ HQ HK HA", 300),
    ],
)
def test_r5_1_sequence_values(cards, points):
    # W-EN: "Three cards are worth 20 ... Nine cards are worth 300."; W-DE table Dreiblatt..Neunblatt
    (meld,) = find_melds(cards)
    assert (
        meld.kind is MeldKind.SEQUENCE and meld.points == points and len(meld) == len(cards.split())
    )


def test_r5_1_each_card_more_adds_fifty_from_four():
    # W-DE: "Jede Karte mehr hebt den Weis um eine Stufe, ab dem Vierblatt um 50 Punkte je Karte."
    values = [Meld.parse(" ".join(c.code for c in DECK[9 : 9 + n])).points for n in range(3, 10)]
    assert values[:2] == [20, 50] and all(b - a == 50 for a, b in itertools.pairwise(values[1:]))


def test_r5_1_run_is_never_split():
    assert melds("S6 S7 S8 S9 S10") == [("S6 S7 S8 S9 S10", 100)]  # not 20 + 20 or 50 + ...
    assert melds("D6 D7 D8 D10 DJ DQ") == [("D10 DJ DQ", 20), ("D6 D7 D8", 20)]  # two runs
    assert melds("C6 C7 CA CK") == []  # 6-7 is no sequence; A does not wrap round to 6


def test_r5_1_natural_order_runs_through_the_under():
    # RULES 9 (W-EN omits the Under from the natural order); W-DE: "Sechs, Sieben, Acht,
    # Neun, Banner, Under, Ober, König, Ass"
    assert melds("H9 H10 HJ") == [("H9 H10 HJ", 20)]
    assert melds("H10 HJ HQ HK HA") == [("H10 HJ HQ HK HA", 100)]
    assert melds("H9 H10 HQ") == []
    assert melds("H10 HQ HK") == []  # W-EN's "ten, Ober, king" is no sequence


def test_r5_1_same_sequences_in_every_contract_puur_and_nell_in_place():
    # W-DE: "Welche Karten eine Folge bilden, ist in jeder Farbe und jeder Spielart gleich ...
    # Puur und Nell bleiben für den Weis an ihrem Platz"
    hand = "H8 H9 H10 HJ S6 C6"
    for contract in ("H", "S", "obenabe", "undenufe"):
        assert str(best_meld(hand, contract)) == "H8 H9 H10 HJ"
        assert resolve_weis([hand, "", "", ""], contract).points == 50


def test_r5_1_meld_object():
    meld = Meld.parse("HQ H10 HJ")
    assert meld.cards == parse_cards("H10 HJ HQ")  # natural order
    assert (meld.suit.code, meld.top.code, meld.bottom.code) == ("H", "HQ", "H10")
    assert meld.to_dict() == {
        "kind": "sequence", "cards": ["H10", "HJ", "HQ"], "points": 20, "suit": "H", "top": "HQ",
    }  # fmt: skip
    assert Meld.of(meld.cards) is meld
    with pytest.raises(RulesError, match="not a meld"):
        Meld.parse("H6 H7 S8")
    with pytest.raises(RulesError, match="inconsistent meld"):
        Meld(MeldKind.SEQUENCE, parse_cards("H6 H7 H8"), 50, meld.suit, meld.top)


# --- R5.2 four of a kind -------------------------------------------------------


@pytest.mark.parametrize(
    ("rank", "default", "w_en"),
    [
        ("J", 200, 200), ("9", 150, 150), ("A", 100, 100), ("K", 100, 100), ("Q", 100, 100),
        ("10", 100, 100), ("8", 100, None), ("7", 100, None), ("6", 100, None),
    ],
)  # fmt: skip
def test_r5_2_four_of_a_kind_values(rank, default, w_en):
    # W-DE table: "Vier Gleiche | Sechs, Sieben, Acht, Banner, Ober, König oder Ass | 100",
    # "Vier Nell 150", "Vier Puur 200"; W-EN: "Four sixes, sevens or eights have no Weis value."
    hand = " ".join(s + rank for s in "DHSC")
    assert melds(hand) == [(hand, default)]
    assert melds(hand, W_EN) == ([] if w_en is None else [(hand, w_en)])
    assert find_melds(hand)[0].kind is MeldKind.FOUR_OF_A_KIND and find_melds(hand)[0].suit is None


def test_r5_2_four_sixes_do_not_beat_twenty_without_low_quads():
    # W-EN: "A four of a kind made from four sixes therefore does not beat a sequence worth 20."
    result = resolve_weis(["D6 H6 S6 C6", "S10 SJ SQ", "", ""], "H", W_EN)
    assert (result.team, result.points, result.step) == (1, 20, None)
    result = resolve_weis(["D6 H6 S6 C6", "S10 SJ SQ", "", ""], "H")  # default: 100 beats 20
    assert (result.team, result.points, result.step) == (0, 100, Step.POINTS)


def test_r5_2_four_nell_and_puur_count_without_trump():
    # W-DE: "Vier Nell zählen 150 und vier Puur 200 auch dort, wo kein Trumpf ist."
    assert best_meld("DJ HJ SJ CJ", "obenabe").points == 200
    assert best_meld("D9 H9 S9 C9", "undenufe").points == 150


# --- R5.3 Kreuzweis ------------------------------------------------------------


def test_r5_3_kreuzweis_both_melds_count():
    # W-DE: "Eine Karte darf gleichzeitig zu einer Folge und zu vier Gleichen gehören ...
    # Beide Weise gelten, zusammen zählen beide Punktzahlen."
    hand = "H6 H7 H8 D8 S8 C8"
    assert sorted(melds(hand)) == [("D8 H8 S8 C8", 100), ("H6 H7 H8", 20)]
    assert resolve_weis([hand, "", "", ""], "S").points == 120


def test_r5_3_w_en_hundred_example():
    # W-EN: "Consider a hand containing a five-card sequence worth 100 and four cards of a rank
    # worth 100. The player announces 'a hundred', not both possibilities."
    hand = "S9 S10 SJ SQ SK DK HK CK"
    assert best_meld(hand, "H").points == 100  # the announcement is a value only (R5.4)
    assert str(best_meld(hand, "H")) == "S9 S10 SJ SQ SK"  # 5 cards beat 4 (R5.5 CARDS)
    # the writing team writes every meld (R5.6, Kreuzweis R5.3): 100 + 100
    assert resolve_weis([hand, "", "", ""], "H").points == 200


def test_r5_3_two_fours_and_a_sequence_in_one_hand():
    hand = "DJ HJ SJ CJ DQ HQ SQ CQ HK"
    assert sorted(p for _, p in melds(hand)) == [20, 100, 200]  # HJ HQ HK + four Q + four J


# --- R5.4 declaring: the best meld, value only -----------------------------------


def test_r5_4_announce_best_meld_value():
    choice = explain_best_meld("C6 C7 C8 C9 DA HA SA CA", "H")
    assert str(choice.best) == "DA HA SA CA" and choice.best.points == 100
    assert [m.points for m in choice.melds] == [100, 50]
    assert choice.trace[0].key == "choice.meld" and choice.trace[0].rule == "R5.4"
    assert best_meld("H6 H8 HA", "H") is None
    assert explain_best_meld("", "H").to_dict() == {
        "contract": "H", "best": None, "melds": [], "trace": [],
    }  # fmt: skip


def test_r5_4_equal_melds_in_one_hand_tie_through_trump():
    choice = explain_best_meld("D7 D8 D9 S7 S8 S9", "C")
    assert [e.key for e in choice.trace[-4:]] == [
        "ladder.points", "ladder.cards", "ladder.high_card", "ladder.trump",
    ]  # fmt: skip
    assert not any(e.decided for e in choice.trace[2:])  # equally good; the earlier suit is shown
    assert str(choice.best) == "D7 D8 D9"
    assert str(best_meld("D7 D8 D9 S7 S8 S9", "S")) == "S7 S8 S9"  # trump decides


# --- RULES section 9 ------------------------------------------------------------


def test_r5_5_section_9_four_nell_against_six_card_sequence_decided_at_cards():
    # RULES 9 / W-EN: "Imagine four Nell worth 150 against a six-card sequence worth 150. The
    # points tie and both melds have the same number of cards" -- they have 4 and 6 cards.
    choice = explain_best_meld("H6 H7 H8 H9 H10 HJ D9 S9 C9", "S")
    assert str(choice.best) == "H6 H7 H8 H9 H10 HJ"
    cards = choice.trace[-1]
    assert (cards.key, cards["a"], cards["b"], cards["winner"], cards.decided) == (
        "ladder.cards", 6, 4, 0, True,
    )  # fmt: skip


def test_r5_5_section_9_a_six_card_run_always_holds_the_nine():
    # "Such a pair can only meet inside one hand ... a run of six always holds that suit's 9."
    for suit in "DHSC":
        for start in range(4):
            run = Meld.parse(
                " ".join(
                    suit + r
                    for r in ["6", "7", "8", "9", "10", "J", "Q", "K", "A"][start : start + 6]
                )
            )
            assert any(c.rank.code == "9" for c in run.cards)
            with pytest.raises(RulesError, match="share"):
                compare_melds(run, 0, Meld.parse("D9 H9 S9 C9"), 1, "H")


# --- golden counts, each checked two independent ways -----------------------------


def _maximal_runs_brute(holding: int) -> list[int]:
    """Run lengths >= 3 read off the bit string with a regular expression."""
    bits = format(holding, "09b")[::-1]
    return [len(m) for m in re.findall("1+", bits) if len(m) >= 3]


def test_r5_1_golden_maximal_runs_per_length_over_all_512_holdings():
    by_table = {k: sum(length == k for runs in RUNS for _, length in runs) for k in range(3, 10)}
    by_brute = {k: sum(_maximal_runs_brute(h).count(k) for h in range(512)) for k in range(3, 10)}

    def formula(k: int, n: int = 9) -> int:  # positions with 0, 1 or 2 bounding gaps
        if k == n:
            return 1
        if k == n - 1:
            return 2
        return 2 * 2 ** (n - k - 1) + (n - k - 1) * 2 ** (n - k - 2)

    assert by_table == by_brute == {k: formula(k) for k in range(3, 10)}
    assert by_table == {3: 144, 4: 64, 5: 28, 6: 12, 7: 5, 8: 2, 9: 1}
    holdings_with = {k: sum(any(n == k for _, n in runs) for runs in RUNS) for k in range(3, 10)}
    assert holdings_with == {
        k: sum(k in _maximal_runs_brute(h) for h in range(512)) for k in range(3, 10)
    }
    assert holdings_with[4] == 63  # 64 runs of four, one holding (1111 0 1111) has two


def _poly_mul(a: list[int], b: list[int], cap: int = 9) -> list[int]:
    out = [0] * (cap + 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            if i + j <= cap:
                out[i + j] += x * y
    return out


def _rank_counts(ranks: int, cards: int):
    """Every way to take 0..4 cards of each of ``ranks`` ranks, ``cards`` in all."""
    if ranks == 0:
        if cards == 0:
            yield ()
        return
    for n in range(min(4, cards) + 1):
        for rest in _rank_counts(ranks - 1, cards - n):
            yield (n, *rest)


def test_r5_2_golden_nine_card_hands_with_four_of_a_kind():
    # inclusion-exclusion over the nine ranks (at most two fours fit in nine cards)
    incl_excl = 9 * math.comb(32, 5) - math.comb(9, 2) * math.comb(28, 1)
    # generating function: per rank (1+x)^4 without x^4, hands without any four
    per_rank = [math.comb(4, j) for j in range(4)]  # 0..3 cards of a rank
    poly = [1]
    for _ in range(9):
        poly = _poly_mul(poly, per_rank)
    gen_fn = math.comb(36, 9) - poly[9]
    assert incl_excl == gen_fn == 1_811_376
    # and the rules core agrees: a four depends only on how many cards of each rank a hand has
    by_core = {True: 0, False: 0}
    for counts in _rank_counts(9, 9):
        hand = [DECK[s * 9 + r] for r, n in enumerate(counts) for s in range(n)]
        ways = math.prod(math.comb(4, n) for n in counts)
        for low in (True, False):
            rules = RuleSet(low_quads_score=low)
            if any(m.kind is MeldKind.FOUR_OF_A_KIND for m in find_melds(hand, rules)):
                by_core[low] += ways
    assert by_core[True] == 1_811_376
    # W-EN rules: only the six ranks 9 10 J Q K A score
    assert by_core[False] == 6 * math.comb(32, 5) - math.comb(6, 2) * math.comb(28, 1) == 1_207_836


def _no_run_at_least(k: int) -> list[int]:
    """Holdings of one suit without a run >= k, by number of cards (combinatorial recursion)."""
    # f[n][j][r]: strings of length n, j ones, ending in a run of r ones (r < k)
    f = {(0, 0, 0): 1}
    for _ in range(9):
        g: dict[tuple[int, int, int], int] = {}
        for (n, j, r), ways in f.items():
            g[(n + 1, j, 0)] = g.get((n + 1, j, 0), 0) + ways
            if r + 1 < k:
                g[(n + 1, j + 1, r + 1)] = g.get((n + 1, j + 1, r + 1), 0) + ways
        f = g
    out = [0] * 10
    for (_, j, _), ways in f.items():
        out[j] += ways
    return out


def test_r5_1_golden_nine_card_hands_with_a_sequence():
    for k in range(3, 10):
        # combinatorics: hands whose four suit holdings all lack a run >= k
        per_suit = _no_run_at_least(k)
        poly = [1]
        for _ in range(4):
            poly = _poly_mul(poly, per_suit)
        by_combinatorics = math.comb(36, 9) - poly[9]
        # the rules core: per holding, does find_melds see a sequence of k or more?
        has_run = [0] * 10
        lacks_run = [0] * 10
        for holding in range(512):
            cards = [DECK[r] for r in range(9) if holding >> r & 1]
            longest = max((len(m) for m in find_melds(cards)), default=0)
            (has_run if longest >= k else lacks_run)[len(cards)] += 1
        poly = [1]
        for _ in range(4):
            poly = _poly_mul(poly, lacks_run)
        assert math.comb(36, 9) - poly[9] == by_combinatorics, k
    per_suit = _no_run_at_least(3)
    poly = [1]
    for _ in range(4):
        poly = _poly_mul(poly, per_suit)
    # hands holding at least one sequence (a 200,000-deal sample gave 0.2669 of 94,143,280)
    assert math.comb(36, 9) - poly[9] == 25_102_532
