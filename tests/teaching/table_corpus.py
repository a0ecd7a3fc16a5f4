"""A corpus of table rounds, made with ``teaching.table`` as it stood before issue 23.

Every focus under every preset rule set with a few seeds, played by a reference
learner (the right move every time) and by learners that go wrong on purpose: illegal
cards, false, early, late and missing «Stöck!», smaller, false, late and missing Weis
announcements, wrong answers to who writes Weis and on the Jasstafel, and moves the
referee refuses. Each case stores its scenario, the move log the referee accepted, the
moves it refused (with their code and parameters), and what the referee returned:
every judgement (``Judgement.to_dict()``), the phase, the score and the learner's
view at the end. ``tests/teaching/test_table_corpus.py`` replays every log with the
current code and asserts the same, so a refactoring of the referee that changes a
judgement shows up there.

``python -m tests.teaching.table_corpus --write`` writes
``tests/teaching/data/table_corpus.json.gz`` (gzip: the verdicts repeat the engine's
traces, and uncompressed the corpus is far above 2 MB); without ``--write`` it
prints the sizes only. Deterministic: the same code writes the same corpus.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules_core import RuleSet, explain_best_meld
from teaching.table import (
    ANNOUNCE_VALUES,
    FOCUSES,
    Scenario,
    Table,
    TableError,
    build_scenario,
    learner_view,
    referee,
    reference_move,
    score,
)

PATH = Path(__file__).parent / "data" / "table_corpus.json.gz"
SEEDS = (0, 1, 2)
MAX_LOG = 200  # a learner that loops would be a bug of this script


def _held_values(table: Table) -> list[int]:
    hand = table.scenario.hands[table.seat]
    return sorted(
        {m.points for m in explain_best_meld(hand, table.contract, table.scenario.rules).melds}
    )


def _illegal(table: Table) -> str | None:
    return next((c for c in table.hand if c not in table.legal), None)


class Learner:
    """The reference learner; subclasses change some of its moves.

    ``extra(table)`` gives moves tried before the learner's real move (refused or
    judged wrong and not played, or calls and late announcements on their own);
    ``final(table, move)`` changes the reference move the learner then makes."""

    name = "reference"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.pending: list[dict[str, Any]] = []

    def extra(self, table: Table) -> list[Any]:
        out, self.pending = self.pending, []
        return out

    def final(self, table: Table, move: dict[str, Any]) -> dict[str, Any]:
        return move


class Illegal(Learner):
    """Tries an illegal card first whenever the hand holds one (judged wrong, R3)."""

    name = "illegal"

    def extra(self, table: Table) -> list[Any]:
        card = _illegal(table) if table.phase == "play" else None
        return [{"play": card}] if card else []


class StoeckMissing(Learner):
    """Never says «Stöck!»."""

    name = "stoeck_missing"

    def final(self, table: Table, move: dict[str, Any]) -> dict[str, Any]:
        move.pop("stoeck", None)
        return move


class StoeckAfter(Learner):
    """Says «Stöck!» on its own after the second Stöck card instead of with it."""

    name = "stoeck_after"

    def final(self, table: Table, move: dict[str, Any]) -> dict[str, Any]:
        if move.pop("stoeck", False):
            self.pending.append({"stoeck": True})
        return move


class StoeckAlways(Learner):
    """Says «Stöck!» with every card and once on its own before writing: false,
    early, not held, repeated calls."""

    name = "stoeck_always"

    def extra(self, table: Table) -> list[Any]:
        if table.phase in ("writes", "jasstafel"):
            return [{"stoeck": True}]
        return []

    def final(self, table: Table, move: dict[str, Any]) -> dict[str, Any]:
        if "play" in move:
            move["stoeck"] = True
        return move


class WeisSmaller(Learner):
    """Announces a smaller meld it holds, or nothing when it holds one meld value."""

    name = "weis_smaller"

    def final(self, table: Table, move: dict[str, Any]) -> dict[str, Any]:
        if "play" in move and "announce" in move:
            held = _held_values(table)
            smaller = [v for v in held if v < move["announce"]]
            move["announce"] = smaller[0] if smaller else 0
        return move


class WeisFalse(Learner):
    """Announces a value it holds no meld of with the first card."""

    name = "weis_false"

    def final(self, table: Table, move: dict[str, Any]) -> dict[str, Any]:
        if "play" in move and not any(j.kind == "announce" for j in table.judgements):
            held = _held_values(table)
            move["announce"] = next(v for v in reversed(ANNOUNCE_VALUES) if v not in held)
        return move


class WeisLate(Learner):
    """Announces nothing with the first card, then its best on its own (late), and
    once a value with a later card (late too)."""

    name = "weis_late"

    def final(self, table: Table, move: dict[str, Any]) -> dict[str, Any]:
        if "play" not in move:
            return move
        if not any(j.kind == "announce" for j in table.judgements):
            value = move.pop("announce", 0) or 20
            self.pending.append({"announce": value})
        elif len(table.plays) in (8, 9, 10, 11) and not any(
            j.key == "announce.late" and j.at_play >= 8 for j in table.judgements
        ):
            move["announce"] = 50
        return move


class Answers(Learner):
    """Right cards and calls, wrong answers to who writes and on the Jasstafel."""

    name = "answers"

    def final(self, table: Table, move: dict[str, Any]) -> dict[str, Any]:
        if "writes" in move:
            team, points = move["writes"]["team"], move["writes"]["points"]
            choice = self.rng.randrange(3)
            if choice == 0:
                team = {None: 1, 1: 2, 2: None}[team]
                points = 0 if team is None else points or 20
            elif choice == 1:
                points += 20 * self.rng.randint(1, 3)
            else:
                team, points = {None: 2, 1: 2, 2: 1}[team], points + 50
            move["writes"] = {"team": team, "points": points}
        if "jasstafel" in move:
            j = move["jasstafel"]
            blocks = j["blocks"]
            for _ in range(self.rng.randint(1, 3)):
                team = self.rng.choice(("1", "2"))
                block = self.rng.choice(("weis", "stoeck", "tricks"))
                blocks[team][block] += self.rng.choice((5, 10, 20, 100))
            target = j["target"]
            if target["team"] is None:
                target.update(team=self.rng.choice((1, 2)), block="weis", trick=None)
            elif self.rng.random() < 0.5:
                target.update(team=3 - target["team"])
            else:
                target.update(team=None, block=None, trick=None)
        return move


def _junk(table: Table, rng: random.Random) -> list[Any]:
    """Moves the referee refuses in this phase."""
    outside = sorted({c for h in table.hands for c in h} - set(table.hand))
    moves: list[Any] = [
        "H7",
        {},
        {"play": "X9"},
        {"dance": True},
        {"play": table.hand[0] if table.hand else "H7", "writes": {"team": 1, "points": 0}},
        {"stoeck": False},
        {"stoeck": True, "announce": 20},
        {"announce": 30},
        {"writes": {"team": 3, "points": 20}},
        {"writes": {"team": 1}},
        {"jasstafel": {"blocks": {"1": {}}, "target": {}}},
        {"jasstafel": {"blocks": {"1": {"weis": 0, "stoeck": 0, "tricks": 0},
                                  "2": {"weis": 0, "stoeck": 0, "tricks": -1}},
                       "target": {"team": None, "block": None, "trick": None}}},
    ]  # fmt: skip
    if outside:
        moves.append({"play": rng.choice(outside)})
    if table.phase != "play":
        moves.append({"play": rng.choice(outside) if outside else "H7"})
    if table.phase != "writes":
        moves.append({"writes": {"team": None, "points": 0}})
    if table.phase != "jasstafel":
        ok = {"weis": 0, "stoeck": 0, "tricks": 0}
        moves.append(
            {
                "jasstafel": {
                    "blocks": {"1": dict(ok), "2": dict(ok)},
                    "target": {"team": None, "block": None, "trick": None},
                }
            }
        )
    if not table.plays:
        moves.append({"stoeck": True})
    if not any(s == table.seat for s, _c in table.plays):
        moves.append({"announce": 20})
    return rng.sample(moves, 3)


class Mixed(Learner):
    """Each decision goes wrong in one of the ways above at random, and moves the
    referee refuses are tried now and then."""

    name = "mixed"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.others = [cls(rng) for cls in WRONG if cls is not Mixed]

    def extra(self, table: Table) -> list[Any]:
        out = [*self.pending]
        self.pending = []
        if self.rng.random() < 0.3:
            out.extend(_junk(table, self.rng))
        self.pick = self.rng.choice(self.others)
        out.extend(self.pick.extra(table))
        return out

    def final(self, table: Table, move: dict[str, Any]) -> dict[str, Any]:
        move = self.pick.final(table, move)
        self.pending.extend(self.pick.pending)
        self.pick.pending = []
        return move


WRONG: tuple[type[Learner], ...] = (
    Illegal,
    StoeckMissing,
    StoeckAfter,
    StoeckAlways,
    WeisSmaller,
    WeisFalse,
    WeisLate,
    Answers,
    Mixed,
)
LEARNERS: tuple[type[Learner], ...] = (Learner, *WRONG)


def play(scenario: Scenario, learner: Learner) -> dict[str, Any]:
    """Play a round with ``learner``: the accepted log, and every refused move with
    the log length it was tried at, its code and parameters."""
    moves: list[Any] = []
    refused: list[list[Any]] = []
    table = referee(scenario, moves)

    def attempt(move: Any) -> None:
        nonlocal table
        try:
            after = referee(scenario, [*moves, move])
        except TableError as err:
            refused.append([len(moves), move, err.code, err.params])
            return
        moves.append(move)
        table = after

    while table.phase != "done":
        if len(moves) > MAX_LOG:  # pragma: no cover - a bug of this script
            raise RuntimeError(f"{learner.name} loops")
        for move in learner.extra(table):
            if table.phase == "done":
                break
            attempt(move)
        if table.phase == "done":
            break
        attempt(learner.final(table, reference_move(table)))
    return {"moves": moves, "refused": refused}


def view_points(moves: list[Any]) -> list[int]:
    """Log lengths at which the learner's view is stored besides the end: a third and
    two thirds into the round, while cards are still hidden (the view must not show
    them, judgements included)."""
    n = len(moves)
    return sorted({n // 3, (2 * n) // 3} - {n})


def outcome(scenario: Scenario, moves: list[Any]) -> dict[str, Any]:
    """What the referee returns for a log: judgements, phase, score, view (at the
    end and at :func:`view_points`)."""
    table = referee(scenario, moves)
    return {
        "judgements": [j.to_dict() for j in table.judgements],
        "phase": table.phase,
        "score": score(table).to_dict() if table.phase == "done" else None,
        "view": learner_view(table),
        "views": {str(k): learner_view(referee(scenario, moves[:k])) for k in view_points(moves)},
    }


def cases() -> list[dict[str, Any]]:
    out = []
    for focus in FOCUSES:
        for preset in RuleSet.presets():
            for seed in SEEDS:
                scenario = build_scenario(focus, seed, preset)
                for n, cls in enumerate(LEARNERS):
                    rng = random.Random(f"corpus:{focus}:{preset}:{seed}:{cls.name}")
                    # not every learner at every seed: the corpus stays small
                    if cls is not Learner and cls is not Mixed and (n + seed) % 3:
                        continue
                    played = play(scenario, cls(rng))
                    out.append(
                        {
                            "focus": focus,
                            "preset": preset,
                            "seed": seed,
                            "learner": cls.name,
                            "scenario": scenario.to_dict(),
                            **played,
                            **outcome(scenario, played["moves"]),
                        }
                    )
    return out


def load() -> list[dict[str, Any]]:
    with gzip.open(PATH, "rt", encoding="utf-8") as f:
        data: list[dict[str, Any]] = json.load(f)
    return data


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {PATH.name}")
    args = parser.parse_args(argv)
    data = cases()
    text = json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    packed = gzip.compress(text.encode(), compresslevel=9, mtime=0)
    out(f"{len(data)} cases, {len(text):,} bytes of JSON, {len(packed):,} gzipped")
    if args.write:
        PATH.parent.mkdir(exist_ok=True)
        PATH.write_bytes(packed)
        out(f"wrote {PATH}")


if __name__ == "__main__":
    main()
