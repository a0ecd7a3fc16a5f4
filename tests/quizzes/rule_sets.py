"""Random valid rule sets (RULES section 8, ``rules_core.RuleSet``) for the tests and
the bench: every field over its valid range.

A ``RuleSet`` takes any order of the three blocks, any whole factor >= 1 per contract
and any whole target >= 1. The draws lean on the edges where generators have failed:
factors above 3 (no preset has them), targets below one round's points and far above
the presets' 1000 to 2500.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import strategies as st

from rules_core import Contract, RuleSet
from rules_core.rules import BLOCKS

ORDERS = tuple(itertools.permutations(BLOCKS))
CONTRACTS = tuple(c.code for c in Contract)
FACTORS = st.one_of(st.integers(1, 3), st.integers(1, 12), st.integers(13, 100))
TARGETS = st.one_of(
    st.integers(1, 160),  # below one round's points: some cases cannot exist
    st.integers(161, 5000),
    st.sampled_from((1000, 1500, 2500, 3000)),
    st.integers(5001, 100_000),
)


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    """A valid rule set, every field drawn."""
    return RuleSet(
        low_quads_score=draw(st.booleans()),
        undenufe_reverses_weis=draw(st.booleans()),
        target_order=draw(st.sampled_from(ORDERS)),
        factors={code: draw(FACTORS) for code in CONTRACTS},
        target=draw(TARGETS),
    )


def random_rule_set(rng: random.Random) -> RuleSet:
    """The same spread as :func:`rule_sets`, from a seeded stream (for the bench)."""
    factor = rng.choice(
        (lambda: rng.randint(1, 3), lambda: rng.randint(1, 12), lambda: rng.randint(13, 100))
    )
    target = rng.choice(
        (
            lambda: rng.randint(1, 160),
            lambda: rng.randint(161, 5000),
            lambda: rng.choice((1000, 1500, 2500, 3000)),
            lambda: rng.randint(5001, 100_000),
        )
    )
    return RuleSet(
        low_quads_score=rng.random() < 0.5,
        undenufe_reverses_weis=rng.random() < 0.5,
        target_order=rng.choice(ORDERS),
        factors={code: factor() for code in CONTRACTS},
        target=target(),
    )
