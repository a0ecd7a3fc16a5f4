"""CSV downloads that open cleanly in Excel (Swiss German locale) and LibreOffice.

- UTF-8 with a byte order mark: Excel then reads "Jürg" as "Jürg", not "JÃ¼rg".
- Semicolons between cells: the list separator of Excel in de-CH; LibreOffice
  detects it.
- CRLF line ends (RFC 4180).
- Numbers as plain integers (per cent without the sign), dates as
  ``YYYY-MM-DD HH:MM`` in the site's time zone: both read as numbers and dates.
  The item analysis's statistics are decimals with a dot and two places (as Moodle
  shows them; Excel de-CH reads the dot), written as :class:`~decimal.Decimal` so that
  "30.00" keeps its places and "-12.50" stays a number, not a defused text.
- Text cells that a spreadsheet would run as a formula (starting with = + - @,
  a tab or a carriage return) get a leading apostrophe: class names, titles and
  usernames are typed by users (OWASP "CSV injection").
- The file name is ASCII (slugified), so every browser saves it as sent.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

from django.http import HttpResponse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .models import Assignment
from .results import (
    DUBIOUS_BELOW,
    UNANSWERED,
    AssignmentResults,
    ItemStat,
    MasteryGrid,
    TableResults,
)

BOM = "\ufeff"
DELIMITER = ";"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | float | Decimal | None
HUNDREDTHS = Decimal("0.01")


def safe_cell(value: Cell) -> str | int | float | Decimal:
    """A value as written to the file; text that looks like a formula is defused."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float | Decimal):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def csv_text(header: Sequence[Cell], rows: Iterable[Sequence[Cell]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(
        buffer, delimiter=DELIMITER, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL
    )
    writer.writerow([safe_cell(v) for v in header])
    for row in rows:
        writer.writerow([safe_cell(v) for v in row])
    return BOM + buffer.getvalue()


def ascii_filename(*parts: str, fallback: str = "export", ext: str = "csv") -> str:
    """'Klasse 6b', 'Stöck üben' -> 'klasse-6b_stock-uben.csv' (ASCII only)."""
    slugs = [slugify(part) for part in parts]
    stem = "_".join(s for s in slugs if s) or fallback
    return f"{stem[:120]}.{ext}"


def csv_response(
    filename: str, header: Sequence[Cell], rows: Iterable[Sequence[Cell]]
) -> HttpResponse:
    response = HttpResponse(
        csv_text(header, rows).encode("utf-8"), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def two_places(value: float) -> Decimal:
    """A statistic with two decimals, rounded half up as the page's ``floatformat`` does.

    >>> two_places(30), two_places(-12.345), two_places(2 / 3)
    (Decimal('30.00'), Decimal('-12.35'), Decimal('0.67'))
    """
    return Decimal(repr(float(value))).quantize(HUNDREDTHS, rounding=ROUND_HALF_UP)


def local_time(value: datetime | None) -> str:
    if value is None:
        return ""
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M")


# --- the two exports -----------------------------------------------------------------


def assignment_results_rows(results: AssignmentResults) -> tuple[list[Cell], list[list[Cell]]]:
    """One row per learner: the summary, then per question the result and the seconds."""
    header: list[Cell] = [
        _("Learner"),
        _("Status"),
        _("Attempt shown"),
        _("Attempts used"),
        _("Right"),
        _("Questions"),
        _("Score (%)"),
        _("Submitted"),
        _("Late"),
        _("Time (s)"),
    ]
    for column in results.columns:
        header.append(
            _("Q%(n)s %(kind)s (1 = right, 0 = wrong)") % {"n": column.number, "kind": column.label}
        )
        header.append(_("Q%(n)s time (s)") % {"n": column.number})
    rows: list[list[Cell]] = []
    for row in results.rows:
        line: list[Cell] = [
            row.learner.shown_name,
            row.status_label,
            row.attempt,
            row.attempts_used,
            row.right if row.basis else None,
            row.total if row.basis else None,
            row.percent,
            local_time(row.submitted_at),
            (_("yes") if row.late else _("no")) if row.submitted_at else "",
            row.seconds,
        ]
        for cell in row.cells:
            line.append(None if cell.state == UNANSWERED else int(cell.state == "right"))
            line.append(cell.seconds)
        rows.append(line)
    return header, rows


def assignment_results_csv(results: AssignmentResults) -> HttpResponse:
    header, rows = assignment_results_rows(results)
    filename = ascii_filename(
        results.school_class.name, results.assignment.title, "results", fallback="results"
    )
    return csv_response(filename, header, rows)


def item_analysis_rows(
    results: AssignmentResults, base_url: str = ""
) -> tuple[list[Cell], list[list[Cell]]]:
    """The item analysis of the results page, long: per item (a kind, then each question
    with the same questions for everybody) one row per wrong choice and one for "not
    answered", the item's figures repeated on each, so a spreadsheet can filter and
    pivot. Facility, discrimination index and discriminative efficiency are per cent
    with two decimals; where the page shows no index, both cells carry its reason
    ("too few", "whole test", ...), and "dubious" is empty. ``base_url`` makes the
    lesson links absolute."""
    header: list[Cell] = [
        _("Item"),
        _("Question"),
        _("Question kind"),
        _("Learners counted"),
        _("Questions counted"),
        _("Right"),
        _("Facility (%)"),
        _("Discrimination index (%)"),
        _("Discriminative efficiency (%)"),
        _("Dubious (efficiency below %(n)s %%)") % {"n": DUBIOUS_BELOW},
        _("Outcome"),
        _("Choice"),
        _("Mistake"),
        _("What the mistake means"),
        _("Picked"),
        _("Share (%)"),
        _("Reteach: rule"),
        _("Reteach: lesson"),
    ]
    rows: list[list[Cell]] = []
    items = results.items.items if results.items else []
    for item in items:
        rows.extend(_item_rows(item, base_url.rstrip("/")))
    return header, rows


def _item_rows(item: ItemStat, base: str) -> list[list[Cell]]:
    facility = item.facility_exact
    reason = item.blank_reason
    head: list[Cell] = [
        item.name,
        item.number,
        item.label,
        item.learners,
        item.questions,
        item.right,
        two_places(facility) if facility is not None else None,
        two_places(item.index) if item.index is not None else reason,
        two_places(item.efficiency) if item.efficiency is not None else reason,
        (_("yes") if item.dubious else _("no")) if item.efficiency is not None else "",
    ]
    reteach: list[Cell] = ["", ""]
    if item.reteach is not None:
        url = f"{base}{item.reteach.url}" if item.reteach.url else ""
        reteach = [item.reteach.rule, url]
    lines: list[list[Cell]] = []
    for choice in item.wrong:
        lines.append(
            [
                *head,
                _("wrong choice"),
                choice.label,
                choice.mistake,
                choice.text,
                choice.count,
                choice.share,
                *reteach,
            ]
        )
    lines.append(
        [*head, _("not answered"), "", "", "", item.unanswered, item.unanswered_share, *reteach]
    )
    return lines


def item_analysis_csv(results: AssignmentResults, base_url: str = "") -> HttpResponse:
    header, rows = item_analysis_rows(results, base_url)
    filename = ascii_filename(
        results.school_class.name, results.assignment.title, "items", fallback="items"
    )
    return csv_response(filename, header, rows)


def table_results_rows(results: TableResults) -> tuple[list[Cell], list[list[Cell]]]:
    """One row per learner for rounds at the table: rounds started and finished, then
    per skill the decisions right and wrong; a last row with the class's facility."""
    header: list[Cell] = [
        _("Learner"),
        _("Status"),
        _("Rounds set"),
        _("Rounds started"),
        _("Rounds finished"),
        _("Rounds finished late"),
        _("Decisions right"),
        _("Decisions judged"),
        _("Decisions right (%)"),
    ]
    for skill in results.skills:
        header.append(_("%(skill)s: right") % {"skill": skill.label})
        header.append(_("%(skill)s: wrong") % {"skill": skill.label})
    rows: list[list[Cell]] = []
    for row in results.rows:
        line: list[Cell] = [
            row.learner.shown_name,
            row.status_label,
            row.rounds_set,
            row.started,
            row.finished,
            row.late,
            row.right,
            row.judged,
            row.percent,
        ]
        for tally in row.skills:
            line.extend([tally.right, tally.wrong])
        rows.append(line)
    total: list[Cell] = [_("Whole class"), None, None, None, None, None]
    right = sum(t.right for t in results.skills)
    judged = sum(t.judged for t in results.skills)
    total.extend([right, judged, round(100 * right / judged) if judged else None])
    for tally in results.skills:
        total.extend([tally.right, tally.wrong])
    rows.append(total)
    return header, rows


def table_results_csv(assignment: Assignment, results: TableResults) -> HttpResponse:
    header, rows = table_results_rows(results)
    filename = ascii_filename(
        results.school_class.name, assignment.title, "results", fallback="results"
    )
    return csv_response(filename, header, rows)


def mastery_rows(grid: MasteryGrid) -> tuple[list[Cell], list[list[Cell]]]:
    """Per learner and skill the mastery in per cent (blank: never practised) and answers."""
    header: list[Cell] = [_("Learner")]
    for skill in grid.skills:
        header.append(_("%(skill)s: mastery (%%)") % {"skill": skill.label})
        header.append(_("%(skill)s: answers") % {"skill": skill.label})
    rows: list[list[Cell]] = []
    for row in grid.rows:
        line: list[Cell] = [row.learner.shown_name]
        for cell in row.cells:
            line.extend([cell.percent, cell.attempts])
        rows.append(line)
    average: list[Cell] = [_("Class average")]
    for skill_average in grid.averages:
        average.extend([skill_average.percent, None])
    rows.append(average)
    return header, rows


def mastery_csv(grid: MasteryGrid) -> HttpResponse:
    header, rows = mastery_rows(grid)
    filename = ascii_filename(grid.school_class.name, "mastery", fallback="mastery")
    return csv_response(filename, header, rows)
