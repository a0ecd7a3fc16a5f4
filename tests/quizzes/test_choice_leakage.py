"""Issue 12, item 6: a question's choices must not give the answer away.

Over 5,000 seeds per kind and rule-set preset (the sub-types of trick, basics and
announce measured apart),
no strategy that looks only at the choices' values (the lowest and highest dropped,
the middle one, the roundest number, the largest, the smallest, the most frequent
or the odd component, values remembered from earlier questions ...; the list is in
:mod:`tests.quizzes.choice_leakage`) may beat a blind guess by more than 5 points.

``pytest -s`` prints the table and the answer's rank among the sorted choices. The
generated questions are cached in the temporary directory under a digest of the
generators' code, so only the first run after a change generates them (about a
minute on two cores); ``python -m tests.quizzes.choice_leakage`` prints the table.
"""

from __future__ import annotations

import pytest

from teaching.generators import KINDS
from tests.quizzes.choice_leakage import BOUND, PRESETS, Report, measure_all, table

SEEDS = 5000
SUBS = {
    "announce": ("announce.deadline", "announce.writes"),
    "basics": ("basics.seat", "basics.trump_name"),
    "trick": ("trick.legal", "trick.points", "trick.winner"),
}
LABELS = tuple(label for k in KINDS for label in SUBS.get(k, (k,)))
# A sub-type asked in fewer than a third of the seeds (basics: Puur or Nell in 2 of 10).
SHARE = {"basics.trump_name": 5}


@pytest.fixture(scope="module")
def reports() -> dict[tuple[str, str], Report]:
    found = measure_all(KINDS, PRESETS, SEEDS, cache=True)
    print()
    print(table(found, threshold=2.0))
    return {(r.label, r.preset): r for r in found}


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("label", LABELS)
def test_no_strategy_on_the_choices_alone_beats_a_blind_guess_by_more_than_5_points(
    reports, label, preset
):
    report = reports[(label, preset)]
    print(f"\n{label} / {preset}: chance {100 * report.chance:.1f} %; {report.rank_text()}")
    assert report.count >= SEEDS // SHARE.get(label, 3)
    over = {}
    for name, edge in report.edges().items():
        if edge > BOUND:
            over[name] = f"{100 * report.hits[name]:.1f} % against {100 * report.chance:.1f} %"
    assert not over, f"{label} under {preset}: {over}"


def test_every_kind_preset_and_strategy_is_measured(reports):
    """The bound is checked everywhere: every kind (trick by sub-type) under every
    preset, with the strategies the brief names among those measured."""
    assert set(reports) == {(label, preset) for label in LABELS for preset in PRESETS}
    for (label, _preset), report in reports.items():
        names = set(report.hits)
        assert {"learned_value"} <= names
        if report.main is not None:
            main = report.main
            assert {f"largest {main}", f"smallest {main}", f"median {main}"} <= names
            assert f"drop_extremes {main}" in names
        if label in ("weis_value", "who_writes", "announce.writes", "trick.points"):
            assert "roundest" in names
        if label in (
            "who_writes",
            "announce.writes",
            "announce.deadline",
            "ladder_step",
            "stoeck",
            "target",
            "trick.winner",
        ):
            assert any(n.startswith("mode ") for n in names)
            assert any(n.startswith("odd_one_out ") for n in names)
