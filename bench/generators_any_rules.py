"""How long question generation takes under random valid rule sets:
``python -m bench.generators_any_rules [--draws N] [--seed S] [--kinds k,...]``.

A benchmark, not a test (issue 23, item 5): for every kind, ``N`` draws of a random
rule set (every field over its valid range, ``tests/quizzes/rule_sets.py``), a random
seed and each case in turn; the scenario caches are cleared before each question, so
every round is searched anew. Prints the median, 99th percentile and maximum build
time per kind, the slowest draw, and the questions whose case was replaced because
the rule set's target leaves it out.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rules_core import RuleSet
from teaching import scenarios
from teaching.generators import KINDS, case_of, generate, get_kind
from tests.quizzes.rule_sets import random_rule_set

CACHED = (
    scenarios.stoeck_scenario,
    scenarios.pair_scenario,
    scenarios.target_scenario,
    scenarios.near_miss_scenario,
)


def _percentile(times: list[float], share: float) -> float:
    return times[min(len(times) - 1, int(len(times) * share))]


def bench_kind(
    kind: str, draws: int, seed: int
) -> tuple[list[float], tuple[float, int, RuleSet], int]:
    """Build times (ms), the slowest (ms, seed, rules) and how many cases were replaced."""
    rng = random.Random(f"{kind}:{seed}")
    cases = get_kind(kind).cases
    times: list[float] = []
    slowest = (0.0, 0, RuleSet())
    replaced = 0
    for draw in range(draws):
        rules = random_rule_set(rng)
        question_seed = rng.randrange(10**6) * len(cases) + draw % len(cases)
        for cached in CACHED:
            cached.cache_clear()
        start = time.perf_counter()
        q = generate(kind, question_seed, rules)
        took = (time.perf_counter() - start) * 1000
        times.append(took)
        replaced += case_of(q) != get_kind(kind).case_of(question_seed)
        if took > slowest[0]:
            slowest = (took, question_seed, rules)
    return sorted(times), slowest, replaced


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--draws", type=int, default=200, help="rule sets per kind")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args(argv)
    print(f"{'kind':<12} {'median':>8} {'p99':>8} {'max':>8}  (ms)  replaced  slowest draw")
    for kind in args.kinds.split(","):
        times, (took, seed, rules), replaced = bench_kind(kind, args.draws, args.seed)
        print(
            f"{kind:<12} {statistics.median(times):8.2f} {_percentile(times, 0.99):8.2f} "
            f"{times[-1]:8.2f}  {replaced:8d}  seed {seed} {rules.to_dict()}",
            flush=True,
        )


if __name__ == "__main__":
    main()
