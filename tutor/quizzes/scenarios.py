"""Moved to :mod:`teaching.scenarios` (the Django-free teaching layer)."""

from teaching.scenarios import (  # noqa: F401 - re-exported for the generators
    CALLS,
    PlayedRound,
    ScenarioError,
    StoeckScenario,
    TargetScenario,
    near_miss_scenario,
    pair_scenario,
    random_round,
    stoeck_scenario,
    target_scenario,
)
