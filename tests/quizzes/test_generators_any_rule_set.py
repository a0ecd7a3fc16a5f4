"""Issue 23, item 5: every generator builds a question for every seed under every
valid rule set, since the API accepts any ``RuleSet`` and a custom one may reach the
forms one day.

Random valid rule sets (every field over its valid range, ``tests/quizzes/rule_sets.py``)
and seeds, aimed at every case of every kind; each question is checked like the
preset ones (``check_question``: the stored answer is a fresh rules_core computation,
exactly one choice holds it, the choices are well formed). Where a target makes a
case impossible the generator takes the next case that exists and says so in
``prompt["case"]``; the tests check that it is the case the answer shows, and that
it happens only where the case cannot exist. How long it takes:
``python -m bench.generators_any_rules``.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core import RuleSet
from teaching import scenarios
from teaching.generators import KINDS, case_of, generate, get_kind
from tests.quizzes.rule_sets import rule_sets
from tests.quizzes.test_quiz_generators import check_question

DRAWS = 200  # per kind

ANY_RULE_SET = settings(
    max_examples=DRAWS,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def seed_of_case(kind: str, case: str, base: int) -> int:
    """A seed whose residue aims at ``case`` (``Kind.seeds_of``)."""
    spec = get_kind(kind)
    return base * len(spec.cases) + spec.seeds_of(case)[0]


def check_case(kind: str, seed: int, rules: RuleSet) -> None:
    q = generate(kind, seed, rules)
    check_question(q)
    assert q.rules == rules.to_dict()
    aimed = get_kind(kind).case_of(seed)
    taken = case_of(q)
    if kind == "target":
        block = q.answer_value["block"]
        assert taken == (block or "nobody"), (seed, rules, taken, q.answer_value)
        if taken != aimed:
            # only where the aimed case has no contract in which it can exist or no
            # round was found for it; never under a preset
            assert rules.preset_name() is None
    else:
        assert taken == aimed and "case" not in q.prompt


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_builds_a_right_question_under_random_rule_sets(kind):
    cases = get_kind(kind).cases

    @ANY_RULE_SET
    @given(rules=rule_sets(), case=st.sampled_from(cases), base=st.integers(0, 10**6))
    def build(rules: RuleSet, case: str, base: int) -> None:
        check_case(kind, seed_of_case(kind, case, base), rules)

    build()


# Rule sets at the edges, each case of each kind under every one of them.
EDGES = {
    "target 1": RuleSet(target=1),
    "target 31, factors 10": RuleSet(
        target=31, factors={c: 10 for c in ("D", "H", "S", "C", "obenabe", "undenufe")}
    ),
    "target 99, tricks first": RuleSet(target=99, target_order=("tricks", "stoeck", "weis")),
    "factor 7 on Undenufe only": RuleSet(factors={"undenufe": 7}),
    "factors 4 5 6 (the issue)": RuleSet(
        factors={"D": 2, "H": 3, "S": 1, "C": 4, "obenabe": 5, "undenufe": 6}
    ),
    "factor 100 everywhere, target 100000": RuleSet(
        factors={c: 100 for c in ("D", "H", "S", "C", "obenabe", "undenufe")}, target=100_000
    ),
    "W-EN, Ausmachregel, target 1500": RuleSet(
        low_quads_score=False,
        undenufe_reverses_weis=False,
        target_order=("stoeck", "weis", "tricks"),
        target=1500,
    ),
}


@pytest.mark.parametrize("edge", EDGES)
@pytest.mark.parametrize("kind", KINDS)
def test_every_case_builds_under_edge_rule_sets(kind, edge):
    rules = EDGES[edge]
    for case in get_kind(kind).cases:
        for base in range(3):
            check_case(kind, seed_of_case(kind, case, base), rules)


def test_r7_5_nobody_cannot_stay_short_of_a_target_below_half_a_round():
    """157 card points (R4.4) times the factor go to the two teams: under a target of
    50 one of them reaches it in every round, so "nobody yet" (R7.5) is replaced."""
    rules = RuleSet(target=50)
    assert scenarios.target_contracts("nobody", rules) == ()
    with pytest.raises(scenarios.ScenarioError):
        scenarios.near_miss_scenario(0, rules)
    for base in range(8):
        q = generate("target", seed_of_case("target", "nobody", base), rules)
        assert q.answer_value["team"] is not None
        assert q.prompt["case"] == q.answer_value["block"]


def test_r7_3_a_team_passes_a_tiny_target_in_the_deciding_block():
    """Under a target of 1 every block that scores reaches it: the first block in the
    counting order in which a team scores decides, from 0:0 (R7.3)."""
    rules = RuleSet(target=1)
    for decides in ("weis", "stoeck", "tricks"):
        s = scenarios.target_scenario(decides, 5, rules, attempts=60)
        assert s.before == (0, 0) and s.result.block == decides


def test_r4_5_who_writes_under_factor_5_shows_the_factor_forgotten():
    """With factor 5 the answer divided by 5 is the factor forgotten (R4.5); it was
    never accepted as a factor pair before (only 2 and 3 were), so no question came."""
    rules = RuleSet(factors={c: 5 for c in ("D", "H", "S", "C", "obenabe", "undenufe")})
    found = set()
    for seed in range(4, 600, 6):  # the "factor" case
        q = generate("who_writes", seed, rules)
        check_question(q)
        found |= set(q.mistakes.values())
    assert "factor_forgotten" in found
