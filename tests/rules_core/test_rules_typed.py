"""The typed engine: fast paths equal to the friendly ones, CardSet, frozen results,
rule IDs on errors and in docstrings, and no import cycle inside rules_core."""

from __future__ import annotations

import ast
import copy
import pickle
import re
from collections.abc import Set
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_core
from rules_core import (
    DECK,
    Card,
    CardSet,
    Contract,
    IllegalPlayError,
    RulesError,
    card_points,
    check_stoeck,
    compare_melds,
    find_melds,
    legal_cards,
    parse_cards,
    resolve_target,
    resolve_weis,
    score_round,
    trick_winner,
)
from rules_core import tricks as tricks_module
from rules_core.deals import deal_cards, play_round
from tests.rules_core.reference import naive_legal, naive_winner

PACKAGE = Path(rules_core.__file__).parent
CONTRACTS = st.sampled_from(list(Contract))
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _codes(cards):
    return " ".join(c.code for c in cards)


# --- fast paths ------------------------------------------------------------------


@SETTINGS
@given(st.permutations(DECK), st.integers(1, 9), st.integers(0, 3), CONTRACTS)
def test_r3_3_typed_legal_cards_equal_the_friendly_path(deck, n_hand, n_trick, contract):
    hand, trick = tuple(deck[:n_hand]), tuple(deck[n_hand : n_hand + n_trick])
    typed = legal_cards(hand, trick, contract)
    assert typed == legal_cards(_codes(hand), _codes(trick), contract.code)
    assert typed == legal_cards(list(hand), [c.code for c in trick], contract)
    assert list(typed) == naive_legal(hand, trick, contract)
    assert type(typed) is tuple and all(type(c) is Card for c in typed)
    # a CardSet hand answers in card order
    assert legal_cards(CardSet(hand), trick, contract) == tuple(sorted(typed))


@SETTINGS
@given(st.permutations(DECK), st.integers(1, 4), CONTRACTS)
def test_r3_6_typed_trick_winner_and_card_points_equal_the_friendly_path(deck, n, contract):
    trick = tuple(deck[:n])
    assert trick_winner(trick, contract) == trick_winner(_codes(trick), contract.code)
    assert trick_winner(trick, contract) == naive_winner(trick, contract)
    for card in trick:
        assert card_points(card, contract) == card_points(card.code, contract.code)


def test_r3_1_typed_input_skips_reading(monkeypatch):
    def no_reading(*args, **kwargs):
        raise AssertionError("the typed fast path read its input")

    hand, trick = parse_cards("S7 H6 HA C9"), parse_cards("SK HQ")
    monkeypatch.setattr(tricks_module, "coerce_cards", no_reading)
    monkeypatch.setattr(tricks_module, "coerce_contract", no_reading)
    monkeypatch.setattr(tricks_module, "coerce_card", no_reading)
    assert legal_cards(hand, trick, Contract.H) == parse_cards("S7 HA")
    assert legal_cards(CardSet(hand), trick, Contract.H) == parse_cards("HA S7")
    assert trick_winner(parse_cards("S7 SA H6 SK"), Contract.H) == 2
    assert card_points(Card.parse("HJ"), Contract.H) == 20
    with pytest.raises(AssertionError):
        legal_cards("S7 H6 HA C9", trick, Contract.H)  # a string is read


@pytest.mark.parametrize(
    ("hand", "trick", "message", "rule"),
    [
        ("S7 S7 H6", "SK", "hand has S7 twice", "R1.1"),
        ("S7 H6", "SK S7", "S7 is both in the hand and in the trick", "R1.1"),
        ("D6 D7 D8 D9 D10 DJ DQ DK DA H6", "", "hand has 10 cards", "R2.2"),
        ("S7", "SK SQ SJ SA", "trick has 4 cards", "R2.2"),
    ],
)
def test_r1_1_typed_input_is_checked_like_friendly_input(hand, trick, message, rule):
    for h, t, c in ((parse_cards(hand), parse_cards(trick), Contract.H), (hand, trick, "H")):
        with pytest.raises(RulesError, match=message) as err:
            legal_cards(h, t, c)
        assert err.value.rule == rule


def test_r3_1_typed_input_with_a_code_inside_falls_back_to_reading():
    hand = (Card.parse("S7"), "H6", Card.parse("HA"))
    assert legal_cards(hand, ("SK", Card.parse("HQ")), Contract.H) == parse_cards("S7 HA")
    assert trick_winner((Card.parse("S7"), "SA"), Contract.S) == 1
    assert card_points("HJ", Contract.H) == card_points(Card.parse("HJ"), "H") == 20


def test_r3_6_typed_trick_winner_checks_its_trick():
    with pytest.raises(RulesError, match="trick has S7 twice"):
        trick_winner(parse_cards("S7 S7"), Contract.H)
    with pytest.raises(RulesError, match="trick has 0 cards"):
        trick_winner((), Contract.H)


# --- CardSet -----------------------------------------------------------------------


def test_cardset_is_an_immutable_set_of_cards():
    hand = CardSet("H6 H7 HA S9")
    assert isinstance(hand, Set)
    assert list(hand) == list(parse_cards("H6 H7 HA S9"))  # card order
    assert len(hand) == 4 and "HA" in hand and Card.parse("S9") in hand
    assert "SA" not in hand and "nonsense" not in hand and 7 not in hand
    assert hand.mask == sum(c.bit for c in hand) == int(hand)
    assert hand | CardSet("D6") == CardSet("D6 H6 H7 HA S9")
    assert hand & {Card.parse("HA"), Card.parse("SA")} == CardSet("HA")
    assert hand - CardSet("H6 H7") == CardSet("HA S9")
    assert hand ^ CardSet("H6 SA") == CardSet("H7 HA S9 SA")
    assert CardSet("H6") <= hand < CardSet(DECK) and not hand <= CardSet("H6")
    assert hand.isdisjoint(CardSet("D6")) and not hand.isdisjoint(CardSet("HA"))
    assert hand == frozenset(hand) and hash(hand) == hash(frozenset(hand))
    assert CardSet.from_mask(hand.mask) == hand == CardSet.from_cards(list(hand))
    assert hand.suit("H") == CardSet("H6 H7 HA") and not CardSet()
    assert eval(repr(hand), {"CardSet": CardSet}) == hand
    with pytest.raises(AttributeError, match="immutable"):
        hand._mask = 0  # type: ignore[misc]
    with pytest.raises(RulesError):
        CardSet.from_mask(1 << 36)
    with pytest.raises(RulesError):
        CardSet("H6 Zwölf")
    assert pickle.loads(pickle.dumps(hand)) == hand
    assert copy.deepcopy(hand) is hand


def test_r5_6_cardset_hands_work_everywhere_a_hand_does():
    hands = ["S10 SJ SQ SK", "C6 C7 C8", "", ""]
    as_sets = [CardSet(h) for h in hands]
    assert resolve_weis(as_sets, "H").to_dict() == resolve_weis(hands, "H").to_dict()
    assert find_melds(CardSet("H6 H7 H8 DJ HJ SJ CJ")) == find_melds("H6 H7 H8 DJ HJ SJ CJ")


# --- frozen results ------------------------------------------------------------------


def _round():
    hands = deal_cards(5)
    plays = play_round(hands, "H", rng=__import__("random").Random(5))
    return hands, plays


@pytest.mark.parametrize("name", ["team", "points", "scored", "best_seat", "step", "_cache"])
def test_r5_6_weis_result_is_immutable(name):
    result = resolve_weis(["S10 SJ SQ SK", "C6 C7 C8", "", ""], "H")
    with pytest.raises(AttributeError, match="immutable"):
        setattr(result, name, 1)
    with pytest.raises(AttributeError, match="immutable"):
        delattr(result, name)
    assert result.team == 0 and result.points == 50


def test_r7_1_round_score_and_its_blocks_are_immutable():
    hands, plays = _round()
    score = score_round(hands, "H", plays)
    for name in ("blocks", "totals", "match", "weis", "stoeck", "factor", "_tricks"):
        with pytest.raises(AttributeError, match="immutable"):
            setattr(score, name, None)
    with pytest.raises(TypeError, match="read-only"):
        score.blocks[0]["weis"] = 1000
    with pytest.raises(TypeError, match="read-only"):
        score.blocks[1].update(tricks=0)
    assert score.blocks[0] == dict(score.blocks[0])  # still a dict to read, compare, copy
    assert sum(b["tricks"] for b in score.blocks) == 157


def test_r6_1_stoeck_result_is_immutable():
    hands, plays = _round()
    result = check_stoeck(hands, "H", plays[:10], [])
    with pytest.raises(AttributeError, match="immutable"):
        result.status = "scored"
    with pytest.raises(AttributeError, match="immutable"):
        result.points = 20


def test_r7_2_frozen_results_keep_their_lazy_parts_and_pickle():
    hands, plays = _round()
    score = score_round(hands, "H", plays)
    assert score.tricks is score.tricks  # built once, kept
    assert score.weis.trace is score.weis.trace and score.weis.melds is score.weis.melds
    assert score.stoeck.trace is score.stoeck.trace
    for value in (score, score.weis, score.stoeck):
        again = pickle.loads(pickle.dumps(value))
        assert again.to_dict() == value.to_dict()
        assert copy.copy(value).to_dict() == value.to_dict()
    assert resolve_target((900, 900), pickle.loads(pickle.dumps(score)), 1000).totals == (
        resolve_target((900, 900), score, 1000).totals
    )


# --- rule IDs on errors -----------------------------------------------------------------


def _full_hands():
    return [
        "D6 D7 D8 D9 D10 DJ DQ DK DA",
        "H6 H7 H8 H9 H10 HJ HQ HK HA",
        "S6 S7 S8 S9 S10 SJ SQ SK SA",
        "C6 C7 C8 C9 C10 CJ CQ CK CA",
    ]


@pytest.mark.parametrize(
    ("plays", "rule"),
    [
        ([(1, "H6")], "R2.3"),  # forehand leads the first trick
        ([(0, "D6"), (2, "S6")], "R2.1"),  # seats play in turn
        ([(0, "D6"), (1, "H6"), (2, "S6"), (3, "C6"), (0, "D7")], "R3.6"),  # the winner leads
        ([(0, "D6"), (1, "H6"), (2, "S6"), (3, "C6"), (1, "H6")], "R1.1"),  # played twice
    ],
)
def test_r2_1_play_errors_name_the_rule_they_break(plays, rule):
    with pytest.raises(IllegalPlayError) as err:
        check_stoeck(_full_hands(), "H", plays, [])
    assert err.value.rule == rule
    assert f"({rule})" in str(err.value)


def test_r5_1_errors_name_the_rule_they_break():
    with pytest.raises(RulesError) as err:
        compare_melds("H9 H10 HQ", 0, "S6 S7 S8", 1, "H")
    assert err.value.rule == "R5.1"
    with pytest.raises(RulesError) as err:
        compare_melds("H6 H7 H8", 0, "H7 H8 H9", 1, "H")
    assert err.value.rule == "R1.1"
    with pytest.raises(RulesError) as err:
        play_round(deal_cards(1), "H", prefix=[(1, deal_cards(1)[1][0])])
    assert err.value.rule == "R2.3"
    hands, plays = _round()
    score = score_round(hands, "H", plays)
    with pytest.raises(RulesError) as err:
        resolve_target((1000, 0), score, 1000)
    assert err.value.rule == "R7.2"


# --- the code cites its rules; no import cycle ------------------------------------------------

NOT_RUN_BY_THE_ENGINE = {"R5.7": "showing melds at the second trick is table practice"}


def _rule_ids() -> list[str]:
    from tests.rules_core.test_rules_coverage import RULE_IDS

    return RULE_IDS


def test_r8_every_rule_the_engine_runs_is_cited_by_a_function_or_class():
    cited: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                doc = ast.get_docstring(node) or ""
                cited.update(re.findall(r"\bR\d(?:\.\d+[a-z]?)?\b", doc))
    missing = [r for r in _rule_ids() if r not in cited and r not in NOT_RUN_BY_THE_ENGINE]
    assert missing == []


def test_r8_rule_ids_are_cited_one_by_one_not_as_ranges():
    ranges = [
        f"{path.name}: {m}"
        for path in PACKAGE.glob("*.py")
        for m in re.findall(r"R\d\.\d+a?\s*[-–]\s*R\d\.\d+a?", path.read_text())
    ]
    assert ranges == []  # "R3.1-R3.5" hides R3.4 from a search; list R3.1, R3.2, ...


def _imports(path: Path) -> set[str]:
    """The rules_core modules ``path`` imports, anywhere in it (functions too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                if node.module:
                    found.add(node.module.split(".")[0])
                else:
                    found.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("rules_core."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(
                a.name.split(".")[1] for a in node.names if a.name.startswith("rules_core.")
            )
    return found


def test_r8_no_import_cycle_inside_rules_core():
    graph = {p.stem: _imports(p) - {p.stem} for p in PACKAGE.glob("*.py")}
    graph = {
        name: {m for m in deps if m in graph and m != "__init__"} for name, deps in graph.items()
    }
    cycles = []

    def visit(node, path):
        for dep in sorted(graph[node]):
            if dep in path:
                cycles.append(path[path.index(dep) :] + [dep])
            elif dep not in done:
                visit(dep, path + [dep])
        done.add(node)

    done: set[str] = set()
    for name in sorted(graph):
        if name not in done:
            visit(name, [name])
    assert cycles == []
    assert "rules_core" not in {m for deps in graph.values() for m in deps}


def test_r8_the_public_names_are_exported_and_typed():
    for name in ("CardLike", "CardsLike", "HandsLike", "ContractLike", "RulesLike", "Seat",
                 "Team", "Mask", "PlayLike", "PlaysLike", "CallLike", "CallsLike", "MeldLike",
                 "CardSet", "Blocks"):  # fmt: skip
        assert name in rules_core.__all__ and hasattr(rules_core, name)
    assert (PACKAGE / "py.typed").exists()
    signatures = (PACKAGE / "tricks.py").read_text()
    assert "hand: Any" not in signatures and "trick: Any" not in signatures
