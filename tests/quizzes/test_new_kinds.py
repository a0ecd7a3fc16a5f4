"""Issue 21, item 5: the kinds made for lessons 15 and 16, and the cases every kind aims at.

``announce`` asks about announcing Weis at the first trick (R5.4, R5.4a, R5.4b),
``jasstafel`` what a team writes for a whole round (R7.1). ``case_of`` names the case
a question's generator aimed at (``Kind.cases``), which the lessons choose their
questions by; every case named must be the one the question asks.
Run: ``.venv/bin/pytest tests/quizzes/test_new_kinds.py -q -p no:django``.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from rules_core import (
    DECK,
    Contract,
    RulesError,
    RuleSet,
    find_melds,
    legal_cards,
    parse_cards,
    resolve_weis,
    score_round,
    stoeck_holder,
)
from teaching.generators import (
    KINDS,
    Question,
    case_of,
    generate,
    get_kind,
    recompute,
    recompute_under,
)
from teaching.generators.announce import (
    CASES as ANNOUNCE_CASES,
)
from teaching.generators.announce import (
    DEADLINES,
    GATHERED,
    deadline_of,
    resolve_claims,
)
from teaching.generators.jasstafel import CASES as JASSTAFEL_CASES

SEEDS = 700
PRESETS = tuple(RuleSet.presets())


@cache
def questions(kind: str, preset: str = "default", n: int = SEEDS) -> tuple[Question, ...]:
    return tuple(generate(kind, seed, preset) for seed in range(n))


# --- cases ------------------------------------------------------------------------------


def _asks(q: Question, case: str) -> bool:
    """Whether ``q`` asks what ``case`` names, read from the question alone."""
    kind, value, inputs = q.kind, q.answer_value, q.inputs
    if kind == "basics":
        return (inputs.get("name") or inputs.get("question")).lower() == case
    if kind == "trick":
        return inputs["sub"] == case
    if kind == "ladder_step":
        return value["step"] == case
    if kind == "stoeck":
        return value["reason"] == case
    if kind == "target":
        return value["block"] == case or (case == "nobody" and value["team"] is None)
    if kind == "announce":
        if case in DEADLINES:
            return value == {"deadline": case}
        return inputs["sub"] == "writes"
    if kind == "jasstafel":
        blocks = q.explanation[-1]["values"]
        team = blocks["team"]
        weis = blocks["weis_team"] == team
        stoeck = blocks["blocks"][team]["stoeck"] > 0
        return (
            case
            == {(0, 0): "neither", (0, 1): "stoeck", (1, 0): "weis", (1, 1): "both"}[(weis, stoeck)]
        )
    if kind == "who_writes":
        if case == "undenufe":
            return inputs["contract"] == "undenufe"
        if case == "kreuzweis":
            return "R5.3" in q.rules_tested
        if case == "factor":
            return q.prompt["factor"] > 1 or not any(q.rule_set().factor(c) > 1 for c in "DHSC")
        return True
    if kind == "weis_value":
        if case == "kreuzweis":
            return "R5.3" in q.rules_tested
        if case == "low_quads":
            ranks = Counter(code[1:] for code in inputs["hand"])
            return any(ranks[r] == 4 for r in ("6", "7", "8"))
        return True
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", KINDS)
def test_case_of_names_what_each_question_asks(kind):
    spec = get_kind(kind)
    assert spec.cases, kind
    for q in questions(kind, n=120):
        case = case_of(q)
        assert case == spec.cases[q.seed % len(spec.cases)]
        assert q.seed % len(spec.cases) in spec.seeds_of(case)
        assert _asks(q, case), (kind, q.seed, case)
    # every case is asked within one period of seeds
    assert {case_of(generate(kind, s)) for s in range(len(spec.cases))} == set(spec.cases)


def test_case_of_reads_stored_questions_and_refuses_bad_ones():
    q = generate("announce", 5)
    assert case_of(q.to_dict()) == case_of(q) == ANNOUNCE_CASES[5]
    with pytest.raises(RulesError):
        case_of({"kind": "announce", "seed": "5"})
    with pytest.raises(RulesError):
        case_of({"kind": "nope", "seed": 5})


def test_recompute_under_another_rule_set_shows_what_depends_on_it():
    """Four 6s, 7s or 8s under W-EN score nothing, under the default 100 (R5.2)."""
    low = [q for q in questions("weis_value", "w-en", 60) if case_of(q) == "low_quads"]
    assert low
    for q in low:
        assert recompute_under(q, "w-en") == recompute(q)
        assert recompute_under(q, "default") != q.answer_value


# --- announce: the deadline (R5.4) --------------------------------------------------------


def test_r5_4_deadline_next_card_and_gathering():
    assert [deadline_of(0, a) for a in range(5)] == ["in_time"] + ["next_card_played"] * 4
    assert [deadline_of(3, a) for a in (3, GATHERED)] == ["in_time", "trick_gathered"]
    with pytest.raises(RulesError):
        deadline_of(2, 1)  # before the player's own card


def test_r5_4_deadline_questions_each_deadline_right_a_third_of_the_time():
    qs = [q for q in questions("announce") if q.inputs["sub"] == "deadline"]
    right = Counter(q.answer_value["deadline"] for q in qs)
    assert set(right) == set(DEADLINES)
    assert max(right.values()) - min(right.values()) <= 1
    for q in qs:
        assert sorted(c["value"]["deadline"] for c in q.choices) == sorted(DEADLINES)
        asked = q.inputs["asked"]
        (after,) = [a for s, _v, a in q.inputs["announcements"] if s == asked]
        assert q.answer_value["deadline"] == deadline_of(asked, after)
        assert q.rules_tested == ["R5.4"]
        # the four cards of the first trick are legal, the Vorhand leading
        trick = []
        for seat, (player, code) in enumerate(q.inputs["plays"]):
            assert player == seat
            trick.append(parse_cards(code)[0])
        assert len(set(trick)) == 4


# --- announce: who writes when claims are compared (R5.4a, R5.4b, R5.6) -----------------


def writes(preset: str = "default") -> list[Question]:
    return [q for q in questions("announce", preset) if q.inputs["sub"] == "writes"]


def said(q: Question) -> dict[int, tuple[int, int]]:
    return {seat: (value, after) for seat, value, after in q.inputs["announcements"]}


@pytest.mark.parametrize("preset", PRESETS)
def test_announce_writes_four_fixed_values_each_right_a_quarter_of_the_time(preset):
    """The hands are dealt alike in every case; only the announcements decide, so each
    of the four values (the two teams' melds, with and without a partner's) is right
    equally often."""
    qs = writes(preset)
    for q in qs:
        values = [c["value"] for c in q.choices]
        assert len(values) == 4 and len({v["team"] for v in values}) == 2
        for team in (0, 1):
            mine = sorted(v["points"] for v in values if v["team"] == team)
            assert len(mine) == 2 and mine[0] < mine[1]
    per_case = Counter(case_of(q) for q in qs)
    assert set(per_case) == {"all_announce", "silent_partner", "smaller_claim", "late_claim"}
    assert max(per_case.values()) - min(per_case.values()) <= 1
    # the partner's melds in or out: the higher and the lower value of a team, alike often
    higher = Counter(
        q.answer_value["points"]
        == max(
            c["value"]["points"] for c in q.choices if c["value"]["team"] == q.answer_value["team"]
        )
        for q in qs
    )
    assert abs(higher[True] - higher[False]) < 0.1 * len(qs)


def test_r5_4a_a_smaller_announcement_loses_what_the_best_meld_would_win():
    qs = [q for q in writes() if case_of(q) == "smaller_claim"]
    assert len(qs) >= 80
    for q in qs:
        hands = q.inputs["hands"]
        best = resolve_weis(hands, q.inputs["contract"])  # everybody announcing the best
        x = best.best_seat
        value, after = said(q)[x]
        assert after == x and value < best.best.points  # announced in time, but less
        assert "R5.4a" in q.rules_tested
        assert q.answer_value["team"] == 1 - best.team
        mistaken = {q.mistakes[c["key"]] for c in q.choices if c["value"]["team"] == best.team}
        assert mistaken == {"held_meld_compared"}


def test_r5_4b_a_silent_partner_writes_nothing():
    qs = [q for q in writes() if case_of(q) == "silent_partner"]
    assert len(qs) >= 80
    for q in qs:
        team = q.answer_value["team"]
        silent = [s for s in (team, team + 2) if s not in said(q)]
        assert len(silent) == 1 and find_melds(q.inputs["hands"][silent[0]])
        assert "R5.4b" in q.rules_tested
        counted = next(c for c in q.choices if q.mistakes.get(c["key"]) == "silent_partner_counted")
        extra = sum(m.points for m in find_melds(q.inputs["hands"][silent[0]]))
        factor = q.rule_set().factor(Contract.parse(q.inputs["contract"]))
        assert counted["value"] == {
            "team": team,
            "points": q.answer_value["points"] + extra * factor,
        }


def test_r5_4_a_late_announcement_counts_for_nothing():
    qs = [q for q in writes() if case_of(q) == "late_claim"]
    assert len(qs) >= 80
    for q in qs:
        late = [s for s, (_v, a) in said(q).items() if deadline_of(s, a) != "in_time"]
        assert len(late) == 1
        assert q.answer_value["team"] != late[0] % 2
        tags = {q.mistakes[c["key"]] for c in q.choices if c["value"]["team"] == late[0] % 2}
        assert tags == {"late_announcement_counted"}


def test_r5_6_all_announce_the_team_writes_both_partners_melds():
    for q in [q for q in writes() if case_of(q) == "all_announce"]:
        team = q.answer_value["team"]
        points = sum(m.points for s in (team, team + 2) for m in find_melds(q.inputs["hands"][s]))
        factor = q.rule_set().factor(Contract.parse(q.inputs["contract"]))
        assert q.answer_value["points"] == points * factor


def _random_deal(rng: random.Random) -> list:
    cards = list(DECK)
    rng.shuffle(cards)
    return [tuple(sorted(cards[i * 9 : i * 9 + 9])) for i in range(4)]


@pytest.mark.parametrize("preset", PRESETS)
def test_r5_4a_claims_of_each_best_value_give_exactly_resolve_weis(preset):
    """Every player announcing the best meld's value (silence without a meld) is what
    rules_core's resolve_weis models: same team, same points, same deciding step."""
    rules = RuleSet.preset(preset)
    rng = random.Random(21)
    for _ in range(400):
        hands = _random_deal(rng)
        contract = Contract.parse(rng.choice(["D", "H", "S", "C", "obenabe", "undenufe"]))
        best = resolve_weis(hands, contract, rules)
        claims = [m[0].points if (m := best.melds[s]) else None for s in range(4)]
        mine = resolve_claims(hands, contract, claims, rules)
        assert (mine.team, mine.points, mine.scored) == (best.team, best.points, best.scored)
        if best.step is not None:
            assert mine.comparison is not None and mine.comparison.step == best.step


def test_r5_4a_a_value_not_held_claims_nothing_and_silence_writes_nothing():
    hands = [parse_cards(h) for h in ("H6 H7 H8 CA DA SA HA", "S6 S7 S8 S9", "D6 D7 D8", "")]
    rules, contract = RuleSet(), Contract.parse("C")
    # Player 1 says fifty without a fifty: nothing claimed (a false Weis is struck out)
    r = resolve_claims(hands, contract, [50, 50, 20, None], rules)
    assert r.claims[0] is None and r.team == 1 and r.scored == 50
    # with their hundred claimed, Team 1 writes both players' melds: 100 + 20 and 20
    r = resolve_claims(hands, contract, [100, 50, 20, None], rules)
    assert r.team == 0 and r.scored == 140
    # the partner silent: only the announcing player's melds
    r = resolve_claims(hands, contract, [100, 50, None, None], rules)
    assert r.team == 0 and r.scored == 120


def test_announce_first_trick_is_legal():
    for q in questions("announce", n=200):
        hands = q.inputs.get("hands")
        if hands is None:
            continue
        trick = []
        for seat, code in q.inputs["plays"]:
            card = parse_cards(code)[0]
            assert card in legal_cards(
                parse_cards(" ".join(hands[seat])), trick, q.inputs["contract"]
            )
            trick.append(card)


# --- jasstafel (R7.1, R4.4, R4.5, R5.6, R6.5) ---------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_r7_1_jasstafel_the_team_writes_its_three_blocks(preset):
    rules = RuleSet.preset(preset)
    cases = Counter()
    for q in questions("jasstafel", preset, 300):
        i = q.inputs
        score = score_round(i["hands"], i["contract"], i["plays"], i["calls"], rules)
        team = i["team"]
        assert q.answer_value == {"points": sum(score.blocks[team].values())}
        # R4.4: card points of the team's tricks, 5 for the last trick, 100 for a match
        won = [t for t in score.tricks if t.team == team]
        bonus = 5 * (score.tricks[8].team == team) + 100 * (score.match == team)
        assert (
            score.blocks[team]["tricks"] == (sum(t.card_points for t in won) + bonus) * score.factor
        )
        tricks = score.blocks[team]["tricks"]
        stoeck, weis = 20 * score.factor, score.weis.scored
        assert sorted(c["value"]["points"] for c in q.choices) == sorted(
            [tricks, tricks + stoeck, tricks + weis, tricks + stoeck + weis]
        )
        assert stoeck_holder(i["hands"], i["contract"]) == q.prompt["stoeck_seat"]
        # what the page shows is what the engine computed
        assert q.prompt["weis_team"] == score.weis.team
        assert q.prompt["weis_points"] == score.weis.points
        assert q.prompt["stoeck_status"] == score.stoeck.status
        shown = [(t["team"], t["points"]) for t in q.prompt["tricks"]]
        assert shown == [(t.team, t.card_points) for t in score.tricks]
        cases[case_of(q)] += 1
        if score.factor > 1:
            assert "R4.5" in q.rules_tested
    assert set(cases) == set(JASSTAFEL_CASES)


def test_r6_5_jasstafel_stoeck_counts_beside_the_other_teams_weis():
    """Case "stoeck": the team asked about writes no Weis but its Stöck (R6.5)."""
    seen = 0
    for q in questions("jasstafel", n=300):
        if case_of(q) == "stoeck":
            assert q.prompt["weis_team"] != q.inputs["team"]
            assert q.prompt["stoeck_seat"] % 2 == q.inputs["team"]
            assert q.prompt["stoeck_status"] == "scored"
            tags = {q.mistakes[k] for k in q.mistakes}
            assert tags == {"stoeck_forgotten", "other_team_weis_counted"}
            seen += 1
    assert seen >= 60
