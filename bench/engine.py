"""Benchmark of the rules engine: ``python -m bench.engine`` (a benchmark, not a test).

Usage::

    python -m bench.engine            # 30,000 positions, 100,000 deals, 10,000 rounds
    python -m bench.engine --quick    # 10,000 positions, 10,000 deals, 1,000 rounds
    python -m bench.engine --positions 30000 --deals 50000 --rounds 5000 --seed 7

On one core (the process pins itself to one CPU where the OS allows it), in one run:

1. ``legal_cards`` on positions taken from random legal rounds (the hand of the
   player to play, the cards already in the trick, the contract): typed input
   (tuples of :class:`Card`, a :class:`Contract`), a :class:`CardSet` hand,
   friendly input (strings of card codes), the bitmask core
   ``_tables.legal_mask`` alone, and HSLU's jass-kit
   ``RuleSchieber().get_valid_cards(hand, current_trick, move_nr, trump)`` on the
   same positions in its own encoding (a numpy one-hot hand of 36, the trick as
   a numpy row of 4 card indices padded with -1, as its ``GameState`` keeps it,
   the number of cards in the trick, the trump as an int) when jass-kit is
   importable; it says so when it is not;
2. ``trick_winner`` and ``card_points`` on typed and friendly input;
3. ``resolve_weis`` on random deals and ``score_round`` on complete random legal
   rounds (with random Stöck calls), against the naive reference of
   ``tests/rules_core/reference.py``; contracts and rule sets vary over all.

Every input is built before the clock starts. Each figure is the best of
``--repeat`` passes, the contenders' passes interleaved, so that a busy moment
on the machine hurts them alike. Cross-checks on every position, deal and round:
typed, friendly, CardSet and reference answers must agree (the exit status is 1
otherwise); jass-kit's agreement is reported, with the rule where it differs.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.metadata
import math
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from rules_core import (
    Card,
    CardSet,
    Contract,
    card_points,
    legal_cards,
    resolve_weis,
    score_round,
    trick_winner,
)
from rules_core import _tables as T
from tests.rules_core.reference import (
    Round,
    fast_round_answer,
    fast_weis_answer,
    make_deals,
    make_rounds,
    naive_legal,
    naive_resolve_weis,
    naive_score_round,
    naive_winner,
)

Position = tuple[tuple[Card, ...], tuple[Card, ...], Contract]
Item = Sequence[Any]

LEGAL_TARGET = 500_000
JASS_KIT_FACTOR = 5.0
WEIS_TARGET = 100_000


# --- the machine ----------------------------------------------------------------


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def _pin(cpu: int | None) -> str:
    """Pin this process to one CPU; say which (or why not)."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[-1] if cpu is None else cpu
    try:
        os.sched_setaffinity(0, {chosen})
    except OSError as err:
        return f"not pinned ({err})"
    return f"pinned to CPU {chosen}"


# --- jass-kit, when it is installed -----------------------------------------------


class JassKit:
    """HSLU's jass-kit (``pip install jass-kit``): its rule object and card encoding."""

    def __init__(self) -> None:
        self.np = importlib.import_module("numpy")
        const = importlib.import_module("jass.game.const")
        rule_module = importlib.import_module("jass.game.rule_schieber")
        self.version = importlib.metadata.version("jass-kit")
        self.numpy_version = importlib.metadata.version("numpy")
        self.rule = rule_module.RuleSchieber()
        # jass-kit numbers its cards DA DK DQ DJ D10 .. D6 HA .. C6 (card_ids, by the same
        # codes as ours) and its trumps D H S C = 0..3, OBE_ABE = 4, UNE_UFE = 5.
        self.card_id: dict[Card, int] = {}
        for card_code, jk_id in const.card_ids.items():
            self.card_id[Card.parse(card_code)] = int(jk_id)
        self.trump: dict[Contract, int] = {
            Contract.D: const.DIAMONDS,
            Contract.H: const.HEARTS,
            Contract.S: const.SPADES,
            Contract.C: const.CLUBS,
            Contract.OBENABE: const.OBE_ABE,
            Contract.UNDENUFE: const.UNE_UFE,
        }
        assert len(self.card_id) == 36 and sorted(self.card_id.values()) == list(range(36))

    def encode(self, position: Position) -> tuple[Any, Any, int, int]:
        """``(hand, current_trick, move_nr, trump)`` as ``get_valid_cards`` takes them."""
        np = self.np
        hand, trick, contract = position
        one_hot = np.zeros(36, dtype=np.int32)
        for card in hand:
            one_hot[self.card_id[card]] = 1
        current = np.full(4, -1, dtype=np.int32)
        for i, card in enumerate(trick):
            current[i] = self.card_id[card]
        return (one_hot, current, len(trick), self.trump[contract])

    def decode(self, position: Position, valid: Any) -> tuple[Card, ...]:
        """The hand's cards that a ``get_valid_cards`` answer marks valid, in hand order."""
        return tuple(card for card in position[0] if valid[self.card_id[card]])


def _jass_kit() -> tuple[JassKit | None, str]:
    try:
        return JassKit(), ""
    except ImportError as err:
        return None, (
            f"jass-kit is not installed ({err.name} missing): the comparison with it is "
            "skipped (.venv/bin/pip install jass-kit==2.0.5 to run it; not a project dependency)"
        )


# --- workloads --------------------------------------------------------------------


def make_positions(n: int, seed: int) -> tuple[list[Position], list[Round]]:
    """``n`` positions along random legal rounds, and the rounds they come from."""
    rounds = make_rounds(math.ceil(n / 36), seed + 2)
    positions: list[Position] = []
    for hands, contract, plays, _calls, _rules in rounds:
        remaining = [list(h) for h in hands]
        for i, (seat, card) in enumerate(plays):
            trick = tuple(c for _, c in plays[i - i % 4 : i])
            positions.append((tuple(remaining[seat]), trick, contract))
            remaining[seat].remove(card)
    return positions[:n], rounds


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(c.code for c in cards)


def _mask_args(position: Position) -> tuple[int, int, int, int]:
    """``legal_mask``'s arguments for a position (the engine's own encoding)."""
    hand, trick, contract = position
    mask = sum(c.bit for c in hand)
    ci = contract.index
    if not trick:
        return (mask, -1, 0, ci)
    trump = T.TRUMP_SUIT[ci]
    holding = sum(1 << T.RANK_OF[c.index] for c in trick if T.SUIT_OF[c.index] == trump)
    lower = T.UNDER_TRICK_TRUMPS[ci][holding] if holding else 0
    return (mask, T.SUIT_OF[trick[0].index], lower, ci)


# --- timing -----------------------------------------------------------------------


def _one_pass(fn: Callable[..., object], items: Sequence[Item]) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        for item in items:
            fn(*item)
        return time.perf_counter() - start
    finally:
        gc.enable()


def race(
    contenders: dict[str, tuple[Callable[..., object], Sequence[Item]]], repeat: int
) -> dict[str, float]:
    """Calls per second of each contender: the best of ``repeat`` interleaved passes."""
    best = dict.fromkeys(contenders, math.inf)
    for _ in range(repeat):
        for name, (fn, items) in contenders.items():
            best[name] = min(best[name], _one_pass(fn, items))
    return {name: len(contenders[name][1]) / best[name] for name in contenders}


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


# --- the run ------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.engine", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a short run (10,000 positions and deals, 1,000 rounds, 3 passes)",
    )
    parser.add_argument("--positions", type=int, help="legal_cards positions (default 30,000)")
    parser.add_argument("--deals", type=int, help="random deals for resolve_weis (default 100,000)")
    parser.add_argument("--rounds", type=int, help="random rounds for score_round (default 10,000)")
    parser.add_argument("--repeat", type=int, help="timed passes per figure, best kept (default 7)")
    parser.add_argument(
        "--naive-share",
        type=int,
        default=10,
        help="time the naive reference on 1/N of the deals and rounds (default 10)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cpu", type=int, help="the CPU to pin to (default: the last allowed)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    args = parser.parse_args(argv)
    n_positions = args.positions or (10_000 if args.quick else 30_000)
    n_deals = args.deals or (10_000 if args.quick else 100_000)
    n_rounds = args.rounds or (1_000 if args.quick else 10_000)
    repeat = max(1, args.repeat or (3 if args.quick else 7))

    pinned = "not pinned (--no-pin)" if args.no_pin else _pin(args.cpu)
    kit, why_not = _jass_kit()
    print(
        f"rules engine benchmark: Python {platform.python_version()}, {_cpu_model()} "
        f"({os.cpu_count()} logical CPUs, {pinned}), seed {args.seed}"
    )
    if kit is not None:
        print(
            f"jass-kit {kit.version} (numpy {kit.numpy_version}): "
            "RuleSchieber().get_valid_cards on the same positions"
        )
    else:
        print(why_not)

    t0 = time.perf_counter()
    positions, position_rounds = make_positions(n_positions, args.seed)
    deals = make_deals(n_deals, args.seed)
    rounds = make_rounds(n_rounds, args.seed)
    friendly = [(_codes(h), _codes(t), c.code) for h, t, c in positions]
    as_cardset = [(CardSet(h), t, c) for h, t, c in positions]
    masks = [_mask_args(p) for p in positions]
    jk_inputs = [kit.encode(p) for p in positions] if kit is not None else []
    tricks = [
        (tuple(c for _, c in plays[k : k + 4]), contract)
        for _, contract, plays, _, _ in position_rounds
        for k in range(0, 36, 4)
    ]
    tricks_friendly = [(_codes(t), c.code) for t, c in tricks]
    cards = [(c, contract) for trick, contract in tricks for c in trick]
    cards_friendly = [(c.code, contract.code) for c, contract in cards]
    print(
        f"prepared {len(positions):,} positions, {len(tricks):,} tricks, {n_deals:,} deals "
        f"and {n_rounds:,} rounds in {time.perf_counter() - t0:.1f} s; "
        f"each figure is the best of {repeat} passes"
    )

    # 1. legal_cards
    contenders: dict[str, tuple[Callable[..., object], Sequence[Item]]] = {
        "typed input (tuples of Card, a Contract)": (legal_cards, positions),
        "CardSet hand": (legal_cards, as_cardset),
        "friendly input (strings of codes)": (legal_cards, friendly),
        "bitmask core _tables.legal_mask alone": (T.legal_mask, masks),
    }
    if kit is not None:
        contenders["jass-kit RuleSchieber().get_valid_cards"] = (
            kit.rule.get_valid_cards,
            jk_inputs,
        )
    rates = race(contenders, repeat)
    print(f"\nlegal_cards on {len(positions):,} positions from random legal rounds")
    for name, rate in rates.items():
        print(f"  {name:44} {rate:>12,.0f} calls/s")
    typed = rates["typed input (tuples of Card, a Contract)"]
    print(f"  typed input: target >= {LEGAL_TARGET:,} calls/s: {_met(typed >= LEGAL_TARGET)}")
    if kit is not None:
        factor = typed / rates["jass-kit RuleSchieber().get_valid_cards"]
        print(
            f"  typed input against jass-kit: {factor:.1f}x "
            f"(target >= {JASS_KIT_FACTOR:g}x: {_met(factor >= JASS_KIT_FACTOR)})"
        )
    else:
        print("  typed input against jass-kit: not measured (jass-kit is not installed)")

    # 2. trick_winner, card_points
    rates = race(
        {
            "trick_winner typed": (trick_winner, tricks),
            "trick_winner friendly": (trick_winner, tricks_friendly),
            "card_points typed": (card_points, cards),
            "card_points friendly": (card_points, cards_friendly),
        },
        repeat,
    )
    print(f"\ntrick_winner on {len(tricks):,} tricks, card_points on their {len(cards):,} cards")
    for name, rate in rates.items():
        print(f"  {name:44} {rate:>12,.0f} calls/s")

    # 3. resolve_weis, score_round against the naive reference
    share = max(1, args.naive_share)
    weis_fast = race({"fast": (resolve_weis, deals)}, 3)["fast"]
    weis_naive = race({"naive": (naive_resolve_weis, deals[: max(1, n_deals // share)])}, 1)
    round_fast = race({"fast": (score_round, rounds)}, 3)["fast"]
    round_naive = race({"naive": (naive_score_round, rounds[: max(1, n_rounds // share)])}, 1)
    print(f"\nresolve_weis on {n_deals:,} deals, score_round on {n_rounds:,} rounds")
    print(
        f"  resolve_weis  fast {weis_fast:>10,.0f} deals/s   naive {weis_naive['naive']:>9,.0f}"
        f" deals/s   ratio {weis_fast / weis_naive['naive']:5.1f}x   "
        f"target >= {WEIS_TARGET:,} deals/s: {_met(weis_fast >= WEIS_TARGET)}"
    )
    print(
        f"  score_round   fast {round_fast:>10,.0f} rounds/s  naive "
        f"{round_naive['naive']:>9,.0f} rounds/s  ratio {round_fast / round_naive['naive']:5.1f}x"
    )

    # cross-checks
    bad_legal = 0
    for p, f, s in zip(positions, friendly, as_cardset, strict=True):
        answer = legal_cards(*p)
        if (
            answer != legal_cards(*f)
            or list(answer) != naive_legal(*p)
            or set(answer) != set(legal_cards(*s))
        ):
            bad_legal += 1
    bad_winner = sum(
        trick_winner(*t) != trick_winner(*tf) or trick_winner(*t) != naive_winner(*t)
        for t, tf in zip(tricks, tricks_friendly, strict=True)
    )
    bad_points = sum(
        card_points(*c) != card_points(*cf) for c, cf in zip(cards, cards_friendly, strict=True)
    )
    bad_weis = sum(fast_weis_answer(d) != naive_resolve_weis(*d) for d in deals)
    bad_round = sum(fast_round_answer(r) != naive_score_round(*r) for r in rounds)
    print("\ncross-checks (every item; mismatches must be 0)")
    print(
        f"  legal_cards typed = friendly = CardSet = reference: {bad_legal} mismatches; "
        f"trick_winner typed = friendly = reference: {bad_winner}; "
        f"card_points typed = friendly: {bad_points}"
    )
    print(f"  resolve_weis = reference: {bad_weis}; score_round = reference: {bad_round}")
    if kit is not None:
        _jass_kit_agreement(kit, positions, jk_inputs)
    return 1 if bad_legal or bad_winner or bad_points or bad_weis or bad_round else 0


def _jass_kit_agreement(kit: JassKit, positions: list[Position], inputs: list[Any]) -> None:
    """How often jass-kit's valid cards equal ours, and where they differ."""
    same = two_trumps = other = 0
    for position, encoded in zip(positions, inputs, strict=True):
        ours = legal_cards(*position)
        theirs = kit.decode(position, kit.rule.get_valid_cards(*encoded))
        if theirs == ours:
            same += 1
            continue
        _, trick, contract = position
        trump = contract.trump
        if set(ours) < set(theirs) and sum(c.suit is trump for c in trick) >= 2:
            two_trumps += 1
        else:
            other += 1
    print(
        f"  jass-kit gives the same cards on {same:,} of {len(positions):,} positions; "
        f"{two_trumps:,} differ where two trumps are already in the trick: jass-kit then "
        "also allows a trump above the lower one but below the highest, which R3.3 forbids "
        f"(no under-trumping the highest trump); {other:,} differ otherwise"
    )


if __name__ == "__main__":
    sys.exit(main())
