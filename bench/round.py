"""Benchmark of rules_core.Round: ``python -m bench.round`` (a benchmark, not a test).

Usage::

    python -m bench.round              # 2,000 random rounds, best of 5 passes
    python -m bench.round --rounds 500 --repeat 3

On random legal rounds (every contract; logs built before the clock starts), in one
run, each figure the best of ``--repeat`` interleaved passes:

1. a play-through: ``Round(hands, contract)`` and its 36 ``play(card)`` calls, per
   play; the same asking ``legal_cards()`` before each play (what a bot does), and
   asking ``legal()`` (the reasons, what a learner's screen shows);
2. ``copy()`` of a round in the middle (18 plays, one announcement, one call);
3. ``score()`` of a finished round, against the stateless ``score_round`` of the
   same log (which replays all 36 plays first).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence

from rules_core import Card, Contract, Round, score_round
from rules_core.deals import deal_cards, play_round

Log = tuple[tuple[tuple[Card, ...], ...], Contract, list[tuple[int, Card]]]


def make_logs(n: int, seed: int) -> list[Log]:
    rng = random.Random(seed)
    out: list[Log] = []
    for i in range(n):
        hands = deal_cards(rng)
        contract = list(Contract)[i % 6]
        out.append((hands, contract, play_round(hands, contract, rng=rng)))
    return out


def play_through(log: Log) -> Round:
    hands, contract, plays = log
    r = Round(hands, contract)
    for _seat, card in plays:
        r.play(card)
    return r


def play_through_legal(log: Log) -> Round:
    hands, contract, plays = log
    r = Round(hands, contract)
    for _seat, card in plays:
        r.legal_cards()
        r.play(card)
    return r


def play_through_reasons(log: Log) -> Round:
    hands, contract, plays = log
    r = Round(hands, contract)
    for _seat, card in plays:
        r.legal()
        r.play(card)
    return r


def middle(log: Log) -> Round:
    hands, contract, plays = log
    r = Round(hands, contract)
    r.play(plays[0][1])
    r.announce(20)  # a false Weis is fine here: only the copy's cost is measured
    r.call_stoeck()
    for _seat, card in plays[1:18]:
        r.play(card)
    return r


def best_of(fn: Callable[[object], object], items: Sequence[object], repeat: int) -> float:
    """Seconds per item: the best of ``repeat`` passes."""
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    return best / len(items)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.round")
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args(argv)
    logs = make_logs(args.rounds, args.seed)
    mids = [middle(log) for log in logs]
    done = [play_through(log) for log in logs]
    figures = {
        "play-through, per play": best_of(play_through, logs, args.repeat) / 36,  # type: ignore[arg-type]
        "  with legal_cards()": best_of(play_through_legal, logs, args.repeat) / 36,  # type: ignore[arg-type]
        "  with legal() (reasons)": best_of(play_through_reasons, logs, args.repeat) / 36,  # type: ignore[arg-type]
        "copy() at play 18": best_of(lambda r: r.copy(), mids, args.repeat),  # type: ignore[attr-defined]
        "score() of a finished Round": best_of(lambda r: r.score(), done, args.repeat),  # type: ignore[attr-defined]
        "score_round of the same log": best_of(
            lambda log: score_round(log[0], log[1], log[2], []),  # type: ignore[index]
            logs,
            args.repeat,
        ),
    }
    print(f"rules_core.Round on {args.rounds:,} random rounds (best of {args.repeat})")
    for name, seconds in figures.items():
        print(f"  {name:<30} {seconds * 1e6:8.2f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
