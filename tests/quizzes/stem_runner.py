"""Run the stem checker (``tutor.quizzes.stem_check``) over many seeds, fast.

A test aid, not part of the site. Seeds ``0..n-1`` of every kind under every preset,
in every language of the checker (the Swiss deck for even seeds, the French deck for
odd ones), checked over worker processes (one per core, at most four; forked after Django is set
up; the checker touches no database). The generated questions are kept in the
temporary directory under a digest of the code they come from (``teaching``,
``rules_core``), so a change of the presenter, the templates or the translations is
checked again without generating anew.

``python -m tests.quizzes.stem_runner [--seeds N] [--kinds k,...]`` prints the
problems and the time taken.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import pickle
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules_core import RuleSet
from teaching.generators import KINDS, Question, generate
from tests.quizzes.choice_leakage import CACHE_DIR, source_digest

PRESETS: tuple[str, ...] = tuple(RuleSet.presets())
CHUNK = 125
DECKS = ("swiss", "french")


@dataclass(frozen=True)
class Outcome:
    """What one (kind, preset) run found: how many questions, and each problem."""

    kind: str
    preset: str
    checked: int
    problems: tuple[str, ...]


def _questions(kind: str, preset: str, start: int, stop: int) -> list[Question]:
    path = CACHE_DIR / f"stems-{source_digest()}-{kind}-{preset}-{start}-{stop}.pickle"
    if path.exists():
        try:
            found: list[Question] = pickle.loads(path.read_bytes())
            return found
        except (OSError, pickle.PickleError, EOFError, AttributeError):
            pass
    rules = RuleSet.preset(preset)
    questions = [generate(kind, seed, rules) for seed in range(start, stop)]
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_bytes(pickle.dumps(questions))
    partial.replace(path)
    return questions


def _check(job: tuple[str, str, int, int]) -> Outcome:
    from tutor.quizzes.stem_check import check_question, default_templates

    kind, preset, start, stop = job
    templates = default_templates()
    problems: list[str] = []
    questions = _questions(kind, preset, start, stop)
    for q in questions:
        deck = DECKS[q.seed % 2]
        problems += [
            f"{p} (deck {deck})" for p in check_question(q, deck=deck, templates=templates)
        ]
    return Outcome(kind, preset, len(questions), tuple(problems))


def _pool(processes: int | None) -> multiprocessing.pool.Pool | None:
    processes = processes or min(4, os.cpu_count() or 1)
    if processes <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    return multiprocessing.get_context("fork").Pool(processes)


def run(
    seeds: int,
    kinds: Iterable[str] = KINDS,
    presets: Sequence[str] = PRESETS,
    processes: int | None = None,
) -> dict[tuple[str, str], Outcome]:
    """Check seeds ``0..seeds-1`` of each kind under each preset; by (kind, preset)."""
    jobs = [
        (kind, preset, start, min(seeds, start + CHUNK))
        for kind in kinds
        for preset in presets
        for start in range(0, seeds, CHUNK)
    ]
    pool = _pool(processes)
    if pool is None:
        outcomes = [_check(job) for job in jobs]
    else:
        with pool:
            outcomes = pool.map(_check, jobs, chunksize=1)
    checked: dict[tuple[str, str], int] = defaultdict(int)
    problems: dict[tuple[str, str], list[str]] = defaultdict(list)
    for outcome in outcomes:
        checked[(outcome.kind, outcome.preset)] += outcome.checked
        problems[(outcome.kind, outcome.preset)] += outcome.problems
    return {key: Outcome(key[0], key[1], checked[key], tuple(problems[key])) for key in checked}


def main(argv: Sequence[str] | None = None) -> None:  # pragma: no cover - a tool
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tutor.settings")
    django.setup()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=500)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args(argv)
    started = time.perf_counter()
    found = run(args.seeds, args.kinds.split(","))
    for outcome in found.values():
        for problem in outcome.problems:
            print(problem)
    total = sum(o.checked for o in found.values())
    count = sum(len(o.problems) for o in found.values())
    from tutor.quizzes.stem_check import LANGS

    seconds = time.perf_counter() - started
    print(f"{total} questions x {len(LANGS)} languages, {count} problems, {seconds:.1f} s")


if __name__ == "__main__":  # pragma: no cover
    main()


__all__ = ["PRESETS", "Outcome", "run"]
