"""The pictures of the results, drawn by :mod:`..charts` from plain numbers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.utils import formats
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from teaching import mastery as bkt

from .. import charts
from ..models import SchoolClass
from .assignments import AssignmentResults
from .mastery import NEEDS_HELP_BELOW, MasteryGrid
from .progress import Progress

# --- pictures ------------------------------------------------------------------------
#
# The pictures of these results, drawn by :mod:`.charts` from plain numbers; each with
# a one-sentence summary. The pages put the same numbers in a table beside them.


@dataclass(frozen=True)
class Figure:
    svg: SafeString
    title: str  # the summary, also the picture's <title>
    names: SafeString | None = None  # a heat map's name column, kept in view on phones


def _day(value: date) -> str:
    return formats.date_format(value, "j. M")


def mastery_figures(grid: MasteryGrid) -> tuple[Figure, Figure]:
    """The class's heat map (learners by skills, then the class average) and its scale."""
    weakest = grid.weakest
    if weakest is None:
        title = gettext(
            "Mastery heat map: %(n)s learners by %(k)s skills; nobody has practised yet."
        ) % {
            "n": len(grid.rows),
            "k": len(grid.skills),
        }
    else:
        title = gettext(
            "Mastery heat map: %(n)s learners by %(k)s skills; the weakest skill is "
            "%(skill)s, %(p)s %% on average."
        ) % {
            "n": len(grid.rows),
            "k": len(grid.skills),
            "skill": weakest.skill.label,
            "p": weakest.percent,
        }
    rows = [
        charts.HeatRow(row.learner.shown_name, [c.mastery for c in row.cells]) for row in grid.rows
    ]
    rows.append(
        charts.HeatRow(gettext("Class average"), [a.mastery for a in grid.averages], separated=True)
    )
    columns = [s.label for s in grid.skills]
    names = charts.heatmap_names(columns=columns, rows=rows)
    heat = charts.heatmap(
        chart_id="mastery-map",
        title=title,
        desc=gettext(
            "Each row is a learner, each column a skill. Colour and number give the mastery "
            "in per cent, from dark purple (0) to yellow (100); a pale hatched cell with a "
            "dash: not practised yet. The last row is the class average."
        ),
        columns=columns,
        rows=rows,
        marked=next((i for i, s in enumerate(grid.skills) if s.skill == grid.sort), None),
    )
    scale_title = gettext(
        "Colour scale: mastery from 0 %% (dark purple) to 100 %% (yellow); "
        "%(help)s %% needs help, %(mastered)s %% mastered."
    ) % {"help": grid.needs_help_percent, "mastered": grid.mastered_percent}
    scale = charts.scale_legend(
        chart_id="mastery-scale",
        title=scale_title,
        desc=gettext("The viridis scale, readable with colour-blindness and in greyscale."),
        ticks=[(v / 100, f"{v} %") for v in (0, 25, 50, 75, 100)],
        marks=[
            (NEEDS_HELP_BELOW, gettext("needs help below")),
            (bkt.MASTERED, gettext("mastered")),
        ],
        empty_label=gettext("not practised yet"),
    )
    return Figure(heat, title, names), Figure(scale, scale_title)


def kind_bars_figure(results: AssignmentResults) -> Figure:
    """One bar per question kind over every attempt: right, each mistake, unanswered."""
    bars = []
    parts = []
    for stat in results.by_kind:
        segments = [charts.Segment(stat.right, charts.RIGHT_FILL, f"✓ {stat.right}")]
        for i, choice in enumerate(stat.wrong_choices):
            segments.append(
                charts.Segment(
                    choice.count,
                    charts.wrong_fill(i),
                    f"{choice.letter} {choice.count}",
                    hatched=True,
                )
            )
        segments.append(charts.Segment(stat.unanswered, charts.NONE_FILL, f"– {stat.unanswered}"))
        bars.append((stat.label, segments))
        parts.append(
            gettext("%(kind)s %(right)s of %(n)s right")
            % {"kind": stat.label, "right": stat.right, "n": stat.questions}
        )
    title = gettext("Answers by question kind: %(parts)s.") % {"parts": "; ".join(parts)}
    svg = charts.share_bars(
        chart_id="kind-bars",
        title=title,
        desc=gettext(
            "One bar per question kind, over every question of every attempt: right (✓), "
            "each wrong choice by the letter of its mistake (hatched), not answered (–)."
        ),
        bars=bars,
    )
    return Figure(svg, title)


@dataclass(frozen=True)
class ProgressFigures:
    lines: list[Figure]  # one per practised skill
    days: Figure


def progress_figures(
    progress: Progress, chart_id: str = "progress", school_class: SchoolClass | None = None
) -> ProgressFigures:
    """The pictures of :func:`learner_progress`; ``school_class`` when its answers per
    day are those of one class (a teacher's view)."""
    lines = []
    for line in progress.practised:
        first_week = next(
            w for w, v in zip(progress.weeks, line.values, strict=True) if v is not None
        )
        title = gettext(
            "%(skill)s: mastery by week, from %(first)s %% in the week of %(start)s to "
            "%(last)s %% in the week of %(end)s."
        ) % {
            "skill": line.label,
            "first": line.first_percent,
            "start": _day(first_week),
            "last": line.last_percent,
            "end": _day(progress.weeks[-1]),
        }
        lines.append(
            Figure(
                charts.line_panel(
                    chart_id=f"{chart_id}-{line.skill}",
                    title=title,
                    desc=gettext(
                        "A point per week: the mastery at its end, 0 to 100 %%; the dashed "
                        "line is %(p)s %%, mastered."
                    )
                    % {"p": progress.mastered_percent},
                    label=line.label,
                    values=line.values,
                    value_text=f"{line.last_percent} %",
                    first_label=_day(progress.weeks[0]),
                    last_label=_day(progress.weeks[-1]),
                    threshold=bkt.MASTERED,
                ),
                title,
            )
        )
    series = [
        charts.Series(gettext("right"), charts.RIGHT_FILL),
        charts.Series(gettext("wrong"), charts.WRONG_FILLS[0], hatched=True),
    ]
    if progress.pending:
        series.append(charts.Series(gettext("not marked yet"), charts.PENDING_FILL))
    bars = [
        (
            _day(d.day) if d.day.weekday() == 0 else "",
            [d.right, d.wrong, d.pending][: len(series)],
        )
        for d in progress.days
    ]
    numbers = {
        "days": len(progress.days),
        "n": progress.answers,
        "active": len(progress.active_days),
        "right": progress.right,
        "name": school_class.name if school_class else "",
    }
    if school_class is None:
        title = (
            gettext(
                "Answers per day over the last %(days)s days: %(n)s answers on %(active)s "
                "days, %(right)s of them right."
            )
            % numbers
        )
    else:
        title = (
            gettext(
                "Answers per day to the assignments of %(name)s over the last %(days)s days: "
                "%(n)s answers on %(active)s days, %(right)s of them right."
            )
            % numbers
        )
    days = charts.column_bars(
        chart_id=f"{chart_id}-days",
        title=title,
        desc=gettext(
            "A bar per day, Mondays named: right answers at the bottom, wrong ones "
            "(hatched) above, then answers not marked yet."
        ),
        series=series,
        bars=bars,
    )
    return ProgressFigures(lines, Figure(days, title))
