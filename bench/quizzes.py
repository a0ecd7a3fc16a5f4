"""How long question generation takes: ``python -m bench.quizzes [--seeds N]``.

A benchmark, not a test: it prints the median, 99th percentile and maximum time per
question for every kind and preset, on seeds 0..N-1, with the scenario caches cleared.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rules_core import RuleSet
from teaching import scenarios
from teaching.generators import KINDS, generate


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    args = parser.parse_args(argv)
    print(f"{'kind':<12} {'preset':<14} {'median':>8} {'p99':>8} {'max':>8}  (ms)")
    for kind in KINDS:
        for preset in RuleSet.presets():
            scenarios.stoeck_scenario.cache_clear()
            scenarios.target_scenario.cache_clear()
            times = []
            for seed in range(args.seeds):
                start = time.perf_counter()
                generate(kind, seed, preset)
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print(
                f"{kind:<12} {preset:<14} {statistics.median(times):8.2f} {p99:8.2f} "
                f"{times[-1]:8.2f}"
            )


if __name__ == "__main__":
    main()
