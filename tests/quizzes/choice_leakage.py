"""How much do a question's choices give away on their own? (issue 12, item 6)

A test aid, not part of the site: it generates N seeds per (kind, rule-set
preset), plays a set of *value-only strategies* on each question (a pupil who
looks at the choices but not at the question) and reports, per kind (the trick
sub-types separately) x preset x strategy, the hit rate against a blind guess
(1 / number of choices, averaged over the questions), and the distribution of
the answer's rank among the choices sorted by their main number.

A strategy picks a set of choices and guesses uniformly among them, so its hit
rate on a question is ``1/len(picked)`` when the answer is picked, else 0.

Strategies (each only where it makes sense for the kind's values):

- on a number (points; the ladder step 1-5; the number of legal cards; a card's
  rank; a block's place in the counting order): ``largest``, ``smallest``,
  ``median`` (the middle one, or the two middle ones), ``drop_extremes`` (guess
  among all but the lowest and the highest), ``rank_by_n`` (learned: the place
  that was most often right for this number of choices);
- on points: ``roundest`` / ``least_round`` (divisible by the largest power of
  10, then by 5; 0 counts as roundest), ``hub`` (the number most others are
  derived from by what the kind is about: the 5 of the last trick, a factor, one
  card more in a sequence), ``pair_larger`` / ``pair_smaller`` (the larger or the
  smaller number of such a pair), ``pair_outside`` (the numbers in no such pair),
  ``midpoint`` (a choice halfway between two
  others); within the team shown most often: its largest, smallest, middle;
- on a component (a team, a block, a step, a winner, a Stöck status, a card's
  suit or rank, the suits of a list): ``mode`` (the choices whose component is the
  most frequent one) and ``odd_one_out`` (the least frequent one); across
  components: ``consensus`` (the choice whose components are, summed, the most
  frequent: the centre of a grid of variants) and ``outlier``; for a card,
  ``largest puur_or_nell`` (an Under or a 9);
- for card lists: ``lattice_middle`` (the list that is a subset of the most others
  and a superset of the most others), ``popular_cards`` (highest mean card
  frequency over the choices);
- learned from other seeds, as a pupil who remembers earlier quizzes:
  ``learned_value`` (the choice whose value was most often right when it was
  shown; see :func:`memory_key` for what counts as the same value) and
  ``learned_set`` (for the same set of choices, the value that was right most
  often; for the kinds with few possible values). Learned strategies are scored
  two-fold: learned on the even seeds, played on the odd ones, and the other way
  round.

Run ``python -m tests.quizzes.choice_leakage [--seeds N] [--kinds k,...]
[--presets p,...] [--all]`` for the table (only the strategies more than 2 points
above chance, unless ``--all``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import pickle
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules_core import RuleSet
from teaching.generators import KINDS, generate

PRESETS: tuple[str, ...] = tuple(RuleSet.presets())
ROOT = Path(__file__).resolve().parents[2]
# what the questions depend on: a cached sample is used only while these are unchanged
SOURCES = ("teaching", "rules_core")
CACHE_DIR = Path(tempfile.gettempdir()) / "jass-choice-leakage"
BOUND = 5.0  # percentage points above chance that no strategy may exceed
STEP_NUMBER = {"points": 1, "cards": 2, "high_card": 3, "trump": 4, "seat": 5}
SUIT_ORDER = "DHSC"
RANK_ORDER = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")


@dataclass(frozen=True)
class Sample:
    """One question as a value-only pupil sees it."""

    label: str  # the kind, or "trick.legal" / "trick.winner" / "trick.points"
    seed: int
    values: tuple[str, ...]  # canonical JSON of each choice value, display order
    answer: int  # index of the right choice in ``values``
    order: tuple[str, ...]  # the rule set's target order (target questions)


# ---------------------------------------------------------------------------
# generation


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _label(q: Any) -> str:
    return f"{q.kind}.{q.prompt['sub']}" if q.kind in ("trick", "basics", "announce") else q.kind


def _samples_for(job: tuple[str, str, int, int]) -> list[Sample]:
    kind, preset, start, stop = job
    rules = RuleSet.preset(preset)
    out = []
    for seed in range(start, stop):
        q = generate(kind, seed, rules)
        values = tuple(_canon(c["value"]) for c in q.choices)
        keys = [c["key"] for c in q.choices]
        out.append(Sample(_label(q), seed, values, keys.index(q.answer), tuple(rules.target_order)))
    return out


def _pool(processes: int | None) -> Any:
    processes = processes or min(4, os.cpu_count() or 1)
    if processes <= 1:
        return None
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    return multiprocessing.get_context(method).Pool(processes)


def _jobs(kinds: Iterable[str], presets: Iterable[str], seeds: int) -> list[tuple]:
    chunk = 250
    return [
        (kind, preset, start, min(seeds, start + chunk))
        for kind in kinds
        for preset in presets
        for start in range(0, seeds, chunk)
    ]


def generate_samples(
    kinds: Iterable[str], presets: Iterable[str], seeds: int, processes: int | None = None
) -> dict[tuple[str, str], list[Sample]]:
    """Seeds ``0..seeds-1`` of every (kind, preset), generated over ``processes``
    worker processes (default: the CPU count, at most 4)."""
    jobs = _jobs(kinds, presets, seeds)
    pool = _pool(processes)
    if pool is not None:
        with pool:
            results = pool.map(_samples_for, jobs, chunksize=1)
    else:
        results = [_samples_for(job) for job in jobs]
    out: dict[tuple[str, str], list[Sample]] = defaultdict(list)
    for job, samples in zip(jobs, results, strict=True):
        out[(job[0], job[1])].extend(samples)
    return dict(out)


# ---------------------------------------------------------------------------
# what a pupil can read off a value


@dataclass(frozen=True)
class Features:
    numbers: dict[str, float]  # named numbers (the first is the main one)
    parts: dict[str, str]  # named components
    points: float | None = None  # a points value (for roundness and hub)
    cards: frozenset[str] | None = None  # a list of cards (legal)


def _card_rank(code: str) -> int:
    return RANK_ORDER.index(code[1:])


def features(label: str, value: Any, order: Sequence[str]) -> Features:
    if label in ("weis_value", "trick.points", "jasstafel"):
        return Features({"points": value["points"]}, {}, points=value["points"])
    if label in ("who_writes", "announce.writes"):
        team = "none" if value["team"] is None else str(value["team"])
        return Features({"points": value["points"]}, {"team": team}, points=value["points"])
    if label == "ladder_step":
        return Features(
            {"step": STEP_NUMBER[value["step"]]},
            {"step": value["step"], "winner": str(value["winner"])},
        )
    if label == "stoeck":
        return Features({}, {"status": value["status"], "reason": value["reason"]})
    if label == "announce.deadline":
        return Features({}, {"deadline": value["deadline"]})
    if label == "target":
        block = value["block"]
        place = len(order) if block is None else list(order).index(block)
        team = "none" if value["team"] is None else str(value["team"])
        return Features({"block_place": place}, {"team": team, "block": str(block)})
    if label == "basics.seat":
        return Features({"seat": value["seat"]}, {"team": str(value["seat"] % 2)})
    if label in ("trick.winner", "basics.trump_name"):
        code = value["card"]
        return Features(
            {"rank": _card_rank(code), "puur_or_nell": int(code[1:] in ("J", "9"))},
            {"suit": code[0], "rank": code[1:]},
        )
    if label == "trick.legal":
        cards = value["cards"]
        return Features(
            {"size": len(cards)},
            {"suits": "".join(sorted({c[0] for c in cards}))},
            cards=frozenset(cards),
        )
    raise ValueError(label)


# ---------------------------------------------------------------------------
# strategies: a strategy maps the features of the choices to the picked indices

Pick = Callable[[list[Features]], list[int]]


def _best(scores: Sequence[float], *, low: bool = False) -> list[int]:
    target = min(scores) if low else max(scores)
    return [i for i, s in enumerate(scores) if s == target]


def _sorted_indices(xs: Sequence[float]) -> list[int]:
    return sorted(range(len(xs)), key=lambda i: xs[i])


def _median(xs: Sequence[float]) -> list[int]:
    idx = _sorted_indices(xs)
    n = len(idx)
    middle = idx[(n - 1) // 2 : n // 2 + 1]
    values = {xs[i] for i in middle}
    return [i for i in range(n) if xs[i] in values]


def _drop_extremes(xs: Sequence[float]) -> list[int]:
    lo, hi = min(xs), max(xs)
    inner = [i for i, x in enumerate(xs) if lo < x < hi]
    return inner or list(range(len(xs)))


def roundness(x: float) -> float:
    """Higher is rounder: the power of 10 dividing ``x`` (half a step more when the
    quotient is still divisible by 5); 0 is the roundest."""
    if x == 0:
        return 99.0
    x = abs(int(x))
    score = 0.0
    while x % 10 == 0:
        x //= 10
        score += 1
    if x % 5 == 0:
        score += 0.5
    return score


# What a pupil knows links two numbers of a kind: differences (the 5 of the last
# trick, times a factor; one card more or less in a sequence) and ratios (a factor).
RELATIONS: dict[str, tuple[frozenset[float], frozenset[float]]] = {
    "trick.points": (frozenset({5, 10, 15}), frozenset({2.0, 3.0})),
    "weis_value": (frozenset({30, 50}), frozenset({2.0, 3.0})),
    "who_writes": (frozenset(), frozenset({2.0, 3.0})),
    # the Stöck (20) and the Weis block between the choices, times a factor
    "jasstafel": (frozenset({20, 40, 60}), frozenset({2.0, 3.0})),
    # a partner's small meld (20 or 50, times a factor) more or less
    "announce.writes": (frozenset({20, 40, 60, 50, 100, 150}), frozenset({2.0, 3.0})),
}


def _related(a: float, b: float, diffs: frozenset[float], ratios: frozenset[float]) -> bool:
    if abs(a - b) in diffs:
        return True
    lo, hi = sorted((abs(a), abs(b)))
    return lo > 0 and hi / lo in ratios


def _hub(xs: Sequence[float], label: str) -> list[int]:
    diffs, ratios = RELATIONS[label]
    return _best(
        [
            sum(_related(x, y, diffs, ratios) for j, y in enumerate(xs) if j != i)
            for i, x in enumerate(xs)
        ]
    )


def _pair_end(xs: Sequence[float], label: str, *, larger: bool) -> list[int]:
    """The larger (smaller) number of each related pair (all choices when none)."""
    diffs, ratios = RELATIONS[label]
    found = {
        (i if (xs[i] > xs[j]) == larger else j)
        for i in range(len(xs))
        for j in range(i + 1, len(xs))
        if xs[i] != xs[j] and _related(xs[i], xs[j], diffs, ratios)
    }
    return sorted(found) or list(range(len(xs)))


def _pair_outside(xs: Sequence[float], label: str) -> list[int]:
    """The numbers in no related pair (all choices when there is none, or no such
    number): a pupil who takes a pair for a decoy."""
    diffs, ratios = RELATIONS[label]
    paired = {
        k
        for i in range(len(xs))
        for j in range(i + 1, len(xs))
        if xs[i] != xs[j] and _related(xs[i], xs[j], diffs, ratios)
        for k in (i, j)
    }
    return [i for i in range(len(xs)) if i not in paired] or list(range(len(xs)))


def _midpoints(xs: Sequence[float]) -> list[int]:
    """The choices halfway between two others (or all, when there is none)."""
    found = [
        i
        for i, x in enumerate(xs)
        if any(
            2 * x == xs[j] + xs[k]
            for j in range(len(xs))
            for k in range(j + 1, len(xs))
            if i not in (j, k)
        )
    ]
    return found or list(range(len(xs)))


def _part_counts(fs: list[Features], name: str) -> Counter:
    return Counter(f.parts[name] for f in fs)


def _numeric(name: str, fn: Callable[[Sequence[float]], list[int]]) -> Pick:
    return lambda fs: fn([f.numbers[name] for f in fs])


def strategies(label: str, example: Features) -> dict[str, Pick]:
    """The value-only strategies that make sense for ``label``."""
    out: dict[str, Pick] = {}
    for name in example.numbers:
        out[f"largest {name}"] = _numeric(name, lambda xs: _best(xs))
        out[f"smallest {name}"] = _numeric(name, lambda xs: _best(xs, low=True))
        out[f"median {name}"] = _numeric(name, _median)
        out[f"drop_extremes {name}"] = _numeric(name, _drop_extremes)
    if example.points is not None:
        out["roundest"] = lambda fs: _best([roundness(f.points) for f in fs])
        out["least_round"] = lambda fs: _best([roundness(f.points) for f in fs], low=True)
        out["hub"] = lambda fs: _hub([f.points for f in fs], label)
        out["midpoint"] = lambda fs: _midpoints([f.points for f in fs])
        out["pair_larger"] = lambda fs: _pair_end([f.points for f in fs], label, larger=True)
        out["pair_smaller"] = lambda fs: _pair_end([f.points for f in fs], label, larger=False)
        out["pair_outside"] = lambda fs: _pair_outside([f.points for f in fs], label)
    for name in example.parts:
        out[f"mode {name}"] = lambda fs, n=name: _best(
            [_part_counts(fs, n)[f.parts[n]] for f in fs]
        )
        out[f"odd_one_out {name}"] = lambda fs, n=name: _best(
            [_part_counts(fs, n)[f.parts[n]] for f in fs], low=True
        )
    if len(example.parts) > 1:

        def consensus(fs: list[Features], low: bool = False) -> list[int]:
            counts = {n: _part_counts(fs, n) for n in example.parts}
            return _best([sum(counts[n][f.parts[n]] for n in counts) for f in fs], low=low)

        out["consensus"] = consensus
        out["outlier"] = lambda fs: consensus(fs, low=True)
    if "team" in example.parts and example.points is not None:
        # among the choices of the most frequent team: the largest, the smallest, the middle
        def within_mode_team(fn: Callable[[Sequence[float]], list[int]]) -> Pick:
            def pick(fs: list[Features]) -> list[int]:
                counts = _part_counts(fs, "team")
                top = max(counts.values())
                members = [i for i, f in enumerate(fs) if counts[f.parts["team"]] == top]
                chosen = fn([fs[i].points for i in members])  # type: ignore[misc]
                return [members[i] for i in chosen]

            return pick

        out["mode team, largest"] = within_mode_team(lambda xs: _best(xs))
        out["mode team, smallest"] = within_mode_team(lambda xs: _best(xs, low=True))
        out["mode team, median"] = within_mode_team(_median)
    if example.cards is not None:

        def lattice(fs: list[Features]) -> list[int]:
            sets = [f.cards for f in fs]
            return _best(
                [
                    sum(1 for t in sets if t is not s and s < t)
                    + sum(1 for t in sets if t is not s and s > t)
                    for s in sets
                ]
            )

        def popular(fs: list[Features]) -> list[int]:
            count = Counter(c for f in fs for c in f.cards)  # type: ignore[union-attr]
            return _best([sum(count[c] for c in f.cards) / len(f.cards) for f in fs])  # type: ignore[union-attr, arg-type]

        out["lattice_middle"] = lattice
        out["popular_cards"] = popular
    return out


# ---------------------------------------------------------------------------
# scoring


def _hit(picked: Sequence[int], answer: int) -> float:
    return 1.0 / len(picked) if answer in picked else 0.0


def _rank(xs: Sequence[float], answer: int) -> float:
    """The answer's place among the sorted numbers, 0 = lowest; ties share the mean place."""
    below = sum(1 for x in xs if x < xs[answer])
    same = sum(1 for x in xs if x == xs[answer])
    return below + (same - 1) / 2


LEARNED_SET_LABELS = {"ladder_step", "stoeck", "target", "trick.winner", "announce.deadline"}


def memory_key(label: str, value: str) -> str:
    """What a pupil remembers of a choice: the value itself, except for a trick's
    points (a band of 10 written points: which exact sums of card values are common
    is knowing the card values, not a clue of the choices) and a list of legal cards
    (how many cards it holds)."""
    if label == "trick.points":
        return str(json.loads(value)["points"] // 10)
    if label == "trick.legal":
        return str(len(json.loads(value)["cards"]))
    return value


def _learned(samples: list[Sample], label: str, fs_all: list[list[Features]]) -> dict[str, float]:
    """Two-fold scores of the learned strategies (learned on one half of the seeds,
    played on the other)."""
    halves = [[s for s in samples if s.seed % 2 == k] for k in (0, 1)]
    fs_of = {id(s): fs for s, fs in zip(samples, fs_all, strict=True)}
    totals: dict[str, float] = defaultdict(float)
    main = next(iter(fs_of[id(samples[0])][0].numbers), None)
    for train, test in ((halves[0], halves[1]), (halves[1], halves[0])):
        shown: Counter = Counter()
        right: Counter = Counter()
        by_set: dict[frozenset, Counter] = defaultdict(Counter)
        by_rank: dict[int, Counter] = defaultdict(Counter)
        for s in train:
            for i, v in enumerate(s.values):
                key = memory_key(label, v)
                shown[key] += 1
                right[key] += i == s.answer
            by_set[frozenset(s.values)][s.values[s.answer]] += 1
            if main is not None:
                xs = [f.numbers[main] for f in fs_of[id(s)]]
                by_rank[len(xs)][_rank(xs, s.answer)] += 1
        for s in test:
            keys = [memory_key(label, v) for v in s.values]
            rates = [(right[k] + 0.5) / (shown[k] + 2) for k in keys]  # smoothed
            totals["learned_value"] += _hit(_best(rates), s.answer)
            if label in LEARNED_SET_LABELS:
                seen = by_set.get(frozenset(s.values))
                if seen:
                    top = max(seen.values())
                    picked = [i for i, v in enumerate(s.values) if seen[v] == top]
                else:
                    picked = list(range(len(s.values)))
                totals["learned_set"] += _hit(picked, s.answer)
            if main is not None:
                xs = [f.numbers[main] for f in fs_of[id(s)]]
                ranks = [_rank(xs, i) for i in range(len(xs))]
                seen_r = by_rank.get(len(xs))
                if seen_r:
                    top = max(seen_r[r] for r in ranks)
                    picked = [i for i, r in enumerate(ranks) if seen_r[r] == top]
                else:
                    picked = list(range(len(xs)))
                totals[f"rank_by_n {main}"] += _hit(picked, s.answer)
    return {name: total / len(samples) for name, total in totals.items()}


@dataclass
class Report:
    """The figures of one (label, preset)."""

    label: str
    preset: str
    count: int
    chance: float  # mean of 1/n, a fraction
    hits: dict[str, float]  # strategy -> hit rate, a fraction
    ranks: dict[int, Counter]  # n choices -> Counter of the answer's rank (0 = lowest)
    main: str | None  # the number the ranks are about

    def edges(self) -> dict[str, float]:
        """Strategy -> percentage points above chance."""
        return {name: 100 * (hit - self.chance) for name, hit in self.hits.items()}

    def worst(self) -> tuple[str, float]:
        return max(self.edges().items(), key=lambda item: item[1])

    def rank_text(self) -> str:
        if self.main is None:
            return "(no numbers)"
        parts = []
        for n in sorted(self.ranks):
            counts = self.ranks[n]
            total = sum(counts.values())
            cells = " ".join(f"{r:g}:{100 * counts[r] / total:.0f}%" for r in sorted(counts))
            parts.append(f"n={n} ({total}) {cells}")
        return f"rank of {self.main}: " + "; ".join(parts)


def measure(samples: list[Sample], preset: str) -> list[Report]:
    """One report per label among ``samples`` (a kind; the trick sub-types apart)."""
    by_label: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        by_label[s.label].append(s)
    reports = []
    for label in sorted(by_label):
        group = by_label[label]
        fs_all = [[features(label, json.loads(v), s.order) for v in s.values] for s in group]
        named = strategies(label, fs_all[0][0])
        hits: dict[str, float] = dict.fromkeys(named, 0.0)
        ranks: dict[int, Counter] = defaultdict(Counter)
        main = next(iter(fs_all[0][0].numbers), None)
        for s, fs in zip(group, fs_all, strict=True):
            for name, pick in named.items():
                hits[name] += _hit(pick(fs), s.answer)
            if main is not None:
                ranks[len(fs)][_rank([f.numbers[main] for f in fs], s.answer)] += 1
        hits = {name: total / len(group) for name, total in hits.items()}
        hits.update(_learned(group, label, fs_all))
        chance = sum(1 / len(s.values) for s in group) / len(group)
        reports.append(Report(label, preset, len(group), chance, hits, dict(ranks), main))
    return reports


def source_digest() -> str:
    """A digest of the code the questions come from (see ``SOURCES``)."""
    digest = hashlib.sha256()
    for name in SOURCES:
        path = ROOT / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            if file.exists():
                digest.update(str(file.relative_to(ROOT)).encode())
                digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def measure_all(
    kinds: Iterable[str] = KINDS,
    presets: Iterable[str] = PRESETS,
    seeds: int = 5000,
    processes: int | None = None,
    *,
    cache: bool = False,
) -> list[Report]:
    """Generate and measure every (kind, preset), both over worker processes. With
    ``cache`` the generated samples are kept in the temporary directory, named by a
    digest of the generators' code, and used again while that code is unchanged."""
    kinds, presets = list(kinds), list(presets)
    path = CACHE_DIR / f"{source_digest()}-{seeds}-{'_'.join(kinds)}-{'_'.join(presets)}.pickle"
    grouped: dict[tuple[str, str], list[Sample]] | None = None
    if cache and path.exists():
        try:
            grouped = pickle.loads(path.read_bytes())
        except (OSError, pickle.PickleError, EOFError):
            grouped = None
    pool = _pool(processes)
    if pool is None:
        if grouped is None:
            grouped = generate_samples(kinds, presets, seeds, 1)
        measured = [measure(group, preset) for (_k, preset), group in grouped.items()]
    else:
        with pool:
            if grouped is None:
                jobs = _jobs(kinds, presets, seeds)
                results = pool.map(_samples_for, jobs, chunksize=1)
                grouped = defaultdict(list)
                for job, part in zip(jobs, results, strict=True):
                    grouped[(job[0], job[1])].extend(part)
                grouped = dict(grouped)
            measured = pool.starmap(
                measure, [(group, preset) for (_k, preset), group in grouped.items()], chunksize=1
            )
    if cache and not path.exists():
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(pickle.dumps(grouped))
        partial.replace(path)
    return [r for reports in measured for r in reports]


def table(reports: Sequence[Report], *, threshold: float | None = 2.0) -> str:
    """The reports as text: per (label, preset) the chance, the worst strategy, every
    strategy above ``threshold`` points (all with None), and the rank distribution."""
    lines = [f"{'kind':<13} {'preset':<14} {'n':>5} {'chance':>6}  worst strategy (+points)"]
    for r in sorted(reports, key=lambda r: (r.label, PRESETS.index(r.preset))):
        name, edge = r.worst()
        lines.append(
            f"{r.label:<13} {r.preset:<14} {r.count:>5} {100 * r.chance:>5.1f}%  "
            f"{name}: {100 * r.hits[name]:.1f}% ({edge:+.1f})"
        )
        for other, e in sorted(r.edges().items(), key=lambda item: -item[1]):
            if other != name and (threshold is None or e > threshold):
                lines.append(f"{'':>43}{other}: {100 * r.hits[other]:.1f}% ({e:+.1f})")
        lines.append(f"{'':>43}{r.rank_text()}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5000)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--processes", type=int, default=None)
    parser.add_argument("--all", action="store_true", help="list every strategy")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    reports = measure_all(
        args.kinds.split(","), args.presets.split(","), args.seeds, args.processes
    )
    print(table(reports, threshold=None if args.all else 2.0))
    worst = max(reports, key=lambda r: r.worst()[1])
    name, edge = worst.worst()
    print(
        f"\nworst: {worst.label} / {worst.preset} / {name}: {edge:+.1f} points "
        f"(bound +{BOUND:g}); {time.perf_counter() - started:.1f} s"
    )


if __name__ == "__main__":
    main()
