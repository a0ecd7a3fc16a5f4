"""Pictures drawn on the server as SVG: pure functions of plain data (labels already
translated, numbers already counted), so they work without JavaScript and print.

Every picture is an ``<svg role="img">`` whose ``<title>`` is a one-sentence summary
and whose ``<desc>`` says how to read it; the page puts the same numbers in a text
table behind a ``<details>`` disclosure for screen readers (role="img" hides the
drawing's own text from them on purpose: a table reads better than loose labels).

Colour is never the only carrier of meaning:

- The heat map prints the number in every cell. Its scale is **viridis** (the
  matplotlib default, by van der Walt and Smith): sequential, perceptually uniform,
  readable with the common colour-vision deficiencies and in greyscale print. Nine
  stops of it are interpolated linearly (:data:`VIRIDIS`); the ink of each number is
  black or white, whichever contrasts more with its cell.
- Stacked bars name their parts with a mark drawn inside (✓, a letter, –) where it
  fits, and a legend; wrong parts are hatched besides being coloured. Their colours
  are from Okabe and Ito's palette for colour-blind readers.

Coordinates are written with a dot, never localised; numbers shown to people are
formatted by the caller or by :func:`django.utils.formats.number_format`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# viridis at 0, 1/8, ..., 1 (matplotlib's table, rounded to 8 bits).
VIRIDIS: tuple[str, ...] = (
    "#440154",
    "#472d7b",
    "#3b528b",
    "#2c728e",
    "#21918c",
    "#28ae80",
    "#5ec962",
    "#addc30",
    "#fde725",
)

# Okabe & Ito (2008), "Color Universal Design".
RIGHT_FILL = "#009e73"  # bluish green
WRONG_FILLS: tuple[str, ...] = (
    "#d55e00",  # vermillion
    "#e69f00",  # orange
    "#cc79a7",  # reddish purple
    "#f0e442",  # yellow
    "#56b4e9",  # sky blue
    "#b0a18a",  # a warm grey, for a sixth mistake and beyond
)
NONE_FILL = "#e4e4e4"  # not answered, not practised
PENDING_FILL = "#c9c9c9"  # answered, correctness not released yet
INK = "#1b1f24"
SOFT_INK = "#4a5360"
RULE = "#8a8f98"

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif"
CHAR_WIDTH = 0.58  # average width of a character, in ems, for the sans-serif above


# --- colour --------------------------------------------------------------------------


def _rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def _hex(rgb: Sequence[float]) -> str:
    return "#" + "".join(f"{round(max(0, min(255, c))):02x}" for c in rgb)


def scale_colour(value: float, stops: Sequence[str] = VIRIDIS) -> str:
    """The colour of ``value`` (0..1, clamped) on a scale of evenly spaced stops.

    >>> scale_colour(0), scale_colour(1), scale_colour(0.5)
    ('#440154', '#fde725', '#21918c')
    """
    value = min(1.0, max(0.0, value))
    place = value * (len(stops) - 1)
    low = min(int(place), len(stops) - 2)
    t = place - low
    a, b = _rgb(stops[low]), _rgb(stops[low + 1])
    return _hex([a[i] + (b[i] - a[i]) * t for i in range(3)])


def luminance(colour: str) -> float:
    """Relative luminance (WCAG 2)."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_for(fill: str) -> str:
    """Black or white, whichever reads better on ``fill``.

    >>> ink_for("#440154"), ink_for("#fde725")
    ('#ffffff', '#000000')
    """
    return "#000000" if contrast(fill, "#000000") >= contrast(fill, "#ffffff") else "#ffffff"


# --- text ----------------------------------------------------------------------------


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is at ``size`` px (no font metrics on the server)."""
    return len(text) * size * CHAR_WIDTH


def fit(text: str, width: float, size: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` px."""
    chars = max(1, int(width / (size * CHAR_WIDTH)))
    return text if len(text) <= chars else text[: max(1, chars - 1)].rstrip() + "…"


def wrap(text: str, width: float, size: float, max_lines: int = 4) -> list[str]:
    """``text`` in lines that fit ``width`` px; the last line is cut if there are more."""
    chars = max(4, int(width / (size * CHAR_WIDTH)))
    lines = textwrap.wrap(text, chars, break_long_words=False) or [""]
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], fit(" ".join(lines[max_lines - 1 :]), width, size)]
    return lines


def _n(value: float) -> str:
    """A coordinate: a dot, at most one decimal, never localised."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: float = 13,
    anchor: str = "start",
    fill: str = INK,
    weight: str = "normal",
) -> str:
    bold = f' font-weight="{weight}"' if weight != "normal" else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}" '
        f'fill="{fill}"{bold}>{escape(text)}</text>'
    )


def _rect(
    x: float, y: float, w: float, h: float, fill: str, *, stroke: str = "", extra: str = ""
) -> str:
    line = f' stroke="{stroke}" stroke-width="1"' if stroke else ""
    return (
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="{fill}"{line}'
        f"{extra}/>"
    )


def _svg(
    chart_id: str, width: float, height: float, title: str, desc: str, body: str
) -> SafeString:
    # Width and height are the natural size; CSS may shrink it (max-width: 100%).
    return mark_safe(  # noqa: S308 -- every text in ``body`` went through escape()
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg" id="{escape(chart_id)}" '
        f'width="{_n(width)}" height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}" '
        f'role="img" aria-labelledby="{escape(chart_id)}-title {escape(chart_id)}-desc" '
        f'font-family="{FONT}">'
        f'<title id="{escape(chart_id)}-title">{escape(title)}</title>'
        f'<desc id="{escape(chart_id)}-desc">{escape(desc)}</desc>'
        f"{body}</svg>"
    )


def _hatch(pattern_id: str, fill: str, ink: str = "#000000", opacity: float = 0.35) -> str:
    """A fill with diagonal lines: wrong parts differ from right ones by more than hue."""
    return (
        f'<pattern id="{escape(pattern_id)}" width="6" height="6" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><rect width="6" height="6" fill="{fill}"/>'
        f'<line x1="0" y1="0" x2="0" y2="6" stroke="{ink}" stroke-width="1.6" '
        f'stroke-opacity="{opacity}"/></pattern>'
    )


# --- heat map ------------------------------------------------------------------------


@dataclass(frozen=True)
class HeatRow:
    label: str
    values: Sequence[float | None]  # 0..1; None: no data
    separated: bool = False  # drawn below a rule (a summary row such as the average)


@dataclass(frozen=True)
class _HeatLayout:
    label_width: float
    header_lines: tuple[tuple[str, ...], ...]  # each column's heading, wrapped
    header_height: float
    width: float
    height: float
    row_tops: tuple[float, ...]  # the top of each row's cells
    rules: tuple[float, ...]  # the height of the rule above each separated row


_HEAT_GAP = 6  # above a separated row
_HEAT_LABEL_SIZE = 13


def _heat_layout(
    columns: Sequence[str], rows: Sequence[HeatRow], cell_width: float, cell_height: float
) -> _HeatLayout:
    size = _HEAT_LABEL_SIZE
    label_width = min(
        170.0, max(90.0, max((text_width(r.label, size) for r in rows), default=0) + 14)
    )
    header_lines = tuple(tuple(wrap(c, cell_width - 6, 11)) for c in columns)
    header_height = 14 * max((len(lines) for lines in header_lines), default=1) + 10
    tops: list[float] = []
    rules: list[float] = []
    y: float = header_height
    for row in rows:
        if row.separated:
            rules.append(y + _HEAT_GAP / 2)
            y += _HEAT_GAP
        tops.append(y)
        y += cell_height
    return _HeatLayout(
        label_width=label_width,
        header_lines=header_lines,
        header_height=header_height,
        width=label_width + cell_width * len(columns) + 2,
        height=y + 2,
        row_tops=tuple(tops),
        rules=tuple(rules),
    )


def _heat_labels(
    layout: _HeatLayout, rows: Sequence[HeatRow], cell_height: float, width: float
) -> list[str]:
    """The learners' names at the left and the rule above a summary row."""
    parts = [
        f'<line x1="0" y1="{_n(y)}" x2="{_n(width)}" y2="{_n(y)}" '
        f'stroke="{RULE}" stroke-width="1.5"/>'
        for y in layout.rules
    ]
    for row, top in zip(rows, layout.row_tops, strict=True):
        parts.append(
            _text(
                layout.label_width - 8,
                top + cell_height / 2 + 4.5,
                fit(row.label, layout.label_width - 10, _HEAT_LABEL_SIZE),
                size=_HEAT_LABEL_SIZE,
                anchor="end",
                weight="bold" if row.separated else "normal",
            )
        )
    return parts


def heatmap(
    *,
    chart_id: str,
    title: str,
    desc: str,
    columns: Sequence[str],
    rows: Sequence[HeatRow],
    empty: str = "–",
    marked: int | None = None,
    cell_width: float = 66,
    cell_height: float = 26,
) -> SafeString:
    """Rows by columns of 0..1 values: each cell coloured on viridis with its value in
    per cent printed in it (no sign; the caption says "in per cent"); no data is a
    pale hatched cell with ``empty``. Column ``marked`` (the one the rows are sorted
    by) has a bold heading and a frame."""
    size = _HEAT_LABEL_SIZE
    layout = _heat_layout(columns, rows, cell_width, cell_height)
    label_width, header_height, width = layout.label_width, layout.header_height, layout.width
    parts = [f"<defs>{_hatch(f'{chart_id}-none', '#f7f7f7', '#9a9a9a', 0.5)}</defs>"]
    for i, lines in enumerate(layout.header_lines):
        cx = label_width + cell_width * (i + 0.5)
        top = header_height - 8 - 14 * (len(lines) - 1)
        for k, line in enumerate(lines):
            parts.append(
                _text(
                    cx,
                    top + 14 * k,
                    line,
                    size=11,
                    anchor="middle",
                    fill=INK if i == marked else SOFT_INK,
                    weight="bold" if i == marked else "normal",
                )
            )
    parts += _heat_labels(layout, rows, cell_height, width)
    for row, y in zip(rows, layout.row_tops, strict=True):
        weight = "bold" if row.separated else "normal"
        for i, value in enumerate(row.values):
            x = label_width + cell_width * i
            if value is None:
                parts.append(
                    _rect(x + 1, y + 1, cell_width - 2, cell_height - 2, f"url(#{chart_id}-none)")
                )
                parts.append(
                    _text(x + cell_width / 2, y + cell_height / 2 + 4.5, empty, anchor="middle")
                )
                continue
            fill = scale_colour(value)
            parts.append(_rect(x + 1, y + 1, cell_width - 2, cell_height - 2, fill))
            parts.append(
                _text(
                    x + cell_width / 2,
                    y + cell_height / 2 + 4.5,
                    str(round(value * 100)),
                    size=size,
                    anchor="middle",
                    fill=ink_for(fill),
                    weight=weight,
                )
            )
    if marked is not None:
        parts.append(
            _rect(
                label_width + cell_width * marked,
                header_height - 1,
                cell_width,
                layout.height - header_height,
                "none",
                extra=f' stroke="{INK}" stroke-width="2"',
            )
        )
    return _svg(chart_id, width, layout.height, title, desc, "".join(parts))


def heatmap_names(
    *,
    columns: Sequence[str],
    rows: Sequence[HeatRow],
    cell_width: float = 66,
    cell_height: float = 26,
) -> SafeString:
    """The name column of :func:`heatmap` (same arguments, same geometry) on its own, to
    lie over the map's left edge and stay in view while a narrow screen scrolls the
    cells sideways. Decoration only (``aria-hidden``): the map itself is the picture."""
    layout = _heat_layout(columns, rows, cell_width, cell_height)
    body = "".join(_heat_labels(layout, rows, cell_height, layout.label_width))
    return mark_safe(  # noqa: S308 -- every text went through escape() in _text()
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg heat-names" '
        f'aria-hidden="true" focusable="false" width="{_n(layout.label_width)}" '
        f'height="{_n(layout.height)}" viewBox="0 0 {_n(layout.label_width)} '
        f'{_n(layout.height)}" font-family="{FONT}">{body}</svg>'
    )


def scale_legend(
    *,
    chart_id: str,
    title: str,
    desc: str,
    ticks: Sequence[tuple[float, str]],
    marks: Sequence[tuple[float, str]] = (),
    empty_label: str = "",
    empty: str = "–",
    width: float = 320,
) -> SafeString:
    """The heat map's colour scale: a viridis band with ``ticks`` (value, text) below it,
    ``marks`` (value, text) as lines across it, and a swatch for "no data"."""
    band_x, band_w = 4.0, width - 8
    stops = "".join(
        f'<stop offset="{_n(100 * i / (len(VIRIDIS) - 1))}%" stop-color="{c}"/>'
        for i, c in enumerate(VIRIDIS)
    )
    parts = [
        f'<defs><linearGradient id="{escape(chart_id)}-band">{stops}</linearGradient>'
        f"{_hatch(f'{chart_id}-none', '#f7f7f7', '#9a9a9a', 0.5)}</defs>",
        _rect(band_x, 4, band_w, 16, f"url(#{chart_id}-band)"),
    ]
    for value, text in ticks:
        x = band_x + band_w * value
        anchor = "start" if value <= 0 else "end" if value >= 1 else "middle"
        parts.append(
            f'<line x1="{_n(x)}" y1="20" x2="{_n(x)}" y2="25" stroke="{INK}" stroke-width="1"/>'
        )
        parts.append(_text(x, 37, text, size=11, anchor=anchor, fill=SOFT_INK))
    for value, text in marks:
        x = band_x + band_w * value
        parts.append(
            f'<line x1="{_n(x)}" y1="1" x2="{_n(x)}" y2="23" stroke="#000000" '
            f'stroke-width="1.5" stroke-dasharray="3 2"/>'
        )
        parts.append(_text(x, 50, text, size=11, anchor="middle", fill=SOFT_INK))
    height = 56 if marks else 42
    if empty_label:
        y = height + 4
        parts.append(_rect(band_x, y, 30, 18, f"url(#{chart_id}-none)", stroke="#cfcfcf"))
        parts.append(_text(band_x + 15, y + 13.5, empty, size=12, anchor="middle"))
        parts.append(_text(band_x + 38, y + 13.5, empty_label, size=12, fill=SOFT_INK))
        height = y + 22
    return _svg(chart_id, width, height, title, desc, "".join(parts))


# --- a line per skill ----------------------------------------------------------------


def line_panel(
    *,
    chart_id: str,
    title: str,
    desc: str,
    label: str,
    values: Sequence[float | None],
    value_text: str,
    first_label: str,
    last_label: str,
    threshold: float | None = None,
    width: float = 320,
) -> SafeString:
    """A small line chart of 0..1 values over evenly spaced steps (weeks): ``label`` and
    ``value_text`` (the last value) above it, the first and last step named below, and
    a dashed line at ``threshold``. ``None`` (no data yet) leaves a gap."""
    top, plot_h, left, right = 24.0, 40.0, 30.0, 8.0
    plot_w = width - left - right
    height = top + plot_h + 22
    steps = max(1, len(values) - 1)

    def px(i: int) -> float:
        return left + (plot_w * i / steps if len(values) > 1 else plot_w / 2)

    def py(v: float) -> float:
        return top + plot_h * (1 - v)

    parts = [
        _text(0, 15, fit(label, width - text_width(value_text, 13) - 12, 13), weight="bold"),
        _text(width, 15, value_text, anchor="end"),
        _rect(left, top, plot_w, plot_h, "#f6f6f4"),
    ]
    v: float | None  # the axis' ends here, the values (None: a gap) below
    for v, text in ((0.0, "0"), (1.0, "100")):
        parts.append(_text(left - 4, py(v) + 4, text, size=10, anchor="end", fill=SOFT_INK))
    if threshold is not None:
        parts.append(
            f'<line x1="{_n(left)}" y1="{_n(py(threshold))}" x2="{_n(left + plot_w)}" '
            f'y2="{_n(py(threshold))}" stroke="{RULE}" stroke-width="1" stroke-dasharray="4 3"/>'
        )
    run: list[str] = []
    runs: list[list[str]] = []
    for i, v in enumerate(values):
        if v is None:
            if run:
                runs.append(run)
            run = []
            continue
        run.append(f"{_n(px(i))},{_n(py(v))}")
    if run:
        runs.append(run)
    for points in runs:
        if len(points) > 1:
            parts.append(
                f'<polyline points="{" ".join(points)}" fill="none" stroke="{VIRIDIS[2]}" '
                f'stroke-width="2.2" stroke-linejoin="round"/>'
            )
        for point in points:
            x, y = point.split(",")
            parts.append(f'<circle cx="{x}" cy="{y}" r="2.8" fill="{VIRIDIS[2]}"/>')
    parts.append(_text(left, height - 4, first_label, size=10, fill=SOFT_INK))
    if len(values) > 1:
        parts.append(
            _text(left + plot_w, height - 4, last_label, size=10, anchor="end", fill=SOFT_INK)
        )
    return _svg(chart_id, width, height, title, desc, "".join(parts))


# --- stacked bars --------------------------------------------------------------------


@dataclass(frozen=True)
class Series:
    """One part of every stacked bar: its name in the legend, colour, and hatching."""

    name: str
    fill: str
    hatched: bool = False


def column_bars(
    *,
    chart_id: str,
    title: str,
    desc: str,
    series: Sequence[Series],
    bars: Sequence[tuple[str, Sequence[int]]],
    width: float = 330,
    height: float = 150,
) -> SafeString:
    """Vertical stacked bars (one per day, say): ``bars`` is (tick label or '', counts per
    series). The axis shows 0, half and the top; the legend names the series."""
    legend_h = 22
    left, bottom = 26.0, 18.0
    plot_h = height - legend_h - bottom - 6
    plot_w = width - left - 2
    base = legend_h + 6 + plot_h
    top_value = max((sum(counts) for _tick, counts in bars), default=0)
    axis_max = _nice_ceiling(top_value)
    defs = "".join(_hatch(f"{chart_id}-s{i}", s.fill) for i, s in enumerate(series) if s.hatched)
    parts = [f"<defs>{defs}</defs>"] if defs else []
    x = 0.0
    for i, s in enumerate(series):
        fill = f"url(#{chart_id}-s{i})" if s.hatched else s.fill
        parts.append(_rect(x, 4, 12, 12, fill, stroke="#6b6b6b"))
        parts.append(_text(x + 16, 14.5, s.name, size=11, fill=SOFT_INK))
        x += 16 + text_width(s.name, 11) + 14
    for value in (0, axis_max / 2, axis_max):
        y = base - plot_h * (value / axis_max if axis_max else 0)
        parts.append(
            f'<line x1="{_n(left)}" y1="{_n(y)}" x2="{_n(left + plot_w)}" y2="{_n(y)}" '
            f'stroke="#d6d2c8" stroke-width="1"/>'
        )
        text = f"{value:g}" if value == int(value) else ""
        if text:
            parts.append(_text(left - 4, y + 4, text, size=10, anchor="end", fill=SOFT_INK))
    slot = plot_w / max(1, len(bars))
    bar_w = max(2.0, slot * 0.72)
    for i, (tick, counts) in enumerate(bars):
        bx = left + slot * i + (slot - bar_w) / 2
        y = base
        for k, count in enumerate(counts):
            if not count or not axis_max:
                continue
            h = plot_h * count / axis_max
            y -= h
            fill = f"url(#{chart_id}-s{k})" if series[k].hatched else series[k].fill
            parts.append(_rect(bx, y, bar_w, h, fill))
        if tick:
            parts.append(
                f'<line x1="{_n(bx + bar_w / 2)}" y1="{_n(base)}" x2="{_n(bx + bar_w / 2)}" '
                f'y2="{_n(base + 3)}" stroke="{INK}" stroke-width="1"/>'
            )
            half = text_width(tick, 10) / 2
            tx = min(max(bx + bar_w / 2, left + half), width - half - 1)
            parts.append(_text(tx, base + 14, tick, size=10, anchor="middle", fill=SOFT_INK))
    return _svg(chart_id, width, height, title, desc, "".join(parts))


def _nice_ceiling(value: int) -> int:
    """The axis top for ``value``: a round number at or above it, even (so half is whole).

    >>> [_nice_ceiling(v) for v in (0, 1, 3, 7, 12, 37, 140)]
    [2, 2, 4, 8, 20, 40, 200]
    """
    if value <= 2:
        return 2
    for step in (4, 6, 8, 10, 20, 30, 40, 50, 60, 80, 100, 200, 300, 400, 500, 1000):
        if value <= step:
            return step
    return (value // 1000 + 1) * 1000


@dataclass(frozen=True)
class Segment:
    count: int
    fill: str
    mark: str  # drawn inside when it fits, e.g. "✓ 12", "A 3", "– 2"
    hatched: bool = False


def share_bars(
    *,
    chart_id: str,
    title: str,
    desc: str,
    bars: Sequence[tuple[str, Sequence[Segment]]],
    width: float = 330,
) -> SafeString:
    """Horizontal bars, each 100 % of its own total, split into ``Segment``s; the bar's
    label sits above it. An empty bar (total 0) is drawn as an outline."""
    bar_h, label_h, gap = 24.0, 18.0, 10.0
    height = len(bars) * (label_h + bar_h + gap) + 2
    hatches: dict[str, str] = {}
    parts: list[str] = []
    y = 0.0
    for label, segments in bars:
        parts.append(_text(0, y + 13, fit(label, width, 13), weight="bold"))
        y += label_h
        total = sum(s.count for s in segments)
        if not total:
            parts.append(_rect(0.5, y + 0.5, width - 1, bar_h - 1, "none", stroke="#b9b9b9"))
        x = 0.0
        for segment in segments:
            if not segment.count or not total:
                continue
            w = width * segment.count / total
            fill = segment.fill
            if segment.hatched:
                pattern = hatches.setdefault(segment.fill, f"{chart_id}-h{len(hatches)}")
                fill = f"url(#{pattern})"
            parts.append(_rect(x, y, w, bar_h, fill, extra=' stroke="#ffffff" stroke-width="1"'))
            if text_width(segment.mark, 12) + 6 <= w:
                parts.append(
                    _text(
                        x + w / 2,
                        y + bar_h / 2 + 4.5,
                        segment.mark,
                        size=12,
                        anchor="middle",
                        fill=ink_for(segment.fill),
                        weight="bold",
                    )
                )
            x += w
        y += bar_h + gap
    defs = "".join(_hatch(pattern, fill) for fill, pattern in hatches.items())
    body = (f"<defs>{defs}</defs>" if defs else "") + "".join(parts)
    return _svg(chart_id, width, height, title, desc, body)


def letter(index: int) -> str:
    """A, B, ..., Z, AA, AB, ...: the key of a wrong choice in a bar and its legend."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def wrong_fill(index: int) -> str:
    return WRONG_FILLS[min(index, len(WRONG_FILLS) - 1)]
