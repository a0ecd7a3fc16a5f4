"""The SVG pictures (tutor/classroom/charts.py): well-formed, accessible, readable colours,
and the numbers drawn where the data says."""

from __future__ import annotations

import doctest
import re
import xml.etree.ElementTree as ET

import pytest

from tutor.classroom import charts

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    """The picture as XML: it must be well-formed to be drawn at all."""
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_doctests_of_the_module():
    result = doctest.testmod(charts)
    assert result.attempted >= 3 and result.failed == 0


def test_viridis_runs_from_dark_to_light_and_every_number_stays_readable():
    steps = [i / 100 for i in range(101)]
    lightness = [charts.luminance(charts.scale_colour(v)) for v in steps]
    assert lightness == sorted(lightness)  # sequential: more is lighter, also in greyscale
    assert charts.scale_colour(-1) == charts.VIRIDIS[0] and charts.scale_colour(2) == "#fde725"
    for v in steps:
        fill = charts.scale_colour(v)
        # The number printed in a cell meets WCAG AA for normal text (4.5:1).
        assert charts.contrast(fill, charts.ink_for(fill)) >= 4.5, (v, fill)


def test_bar_colours_carry_black_text():
    for fill in (charts.RIGHT_FILL, *charts.WRONG_FILLS, charts.NONE_FILL, charts.PENDING_FILL):
        assert charts.ink_for(fill) == "#000000"
        assert charts.contrast(fill, "#000000") >= 4.5, fill


def test_text_helpers():
    assert charts.fit("abcdefghijklmnop", 13 * charts.CHAR_WIDTH * 6, 13) == "abcde…"
    assert charts.fit("short", 500, 13) == "short"
    lines = charts.wrap("Welche Stufe der Leiter entscheidet", 60, 11)
    assert lines == ["Welche", "Stufe der", "Leiter", "entscheidet"]
    assert charts.wrap("a b c d e f g h", 10, 11, max_lines=2)[-1].endswith("…")
    assert [charts.letter(i) for i in (0, 1, 25, 26, 27)] == ["A", "B", "Z", "AA", "AB"]
    assert charts.wrong_fill(0) == charts.WRONG_FILLS[0]
    assert charts.wrong_fill(40) == charts.WRONG_FILLS[-1]


def heat(**overrides):
    arguments = {
        "chart_id": "map",
        "title": "Mastery <b>& more</b>",
        "desc": "How to read it",
        "columns": ["Weis einer Hand", "Stichspiel"],
        "rows": [
            charts.HeatRow("jürg <script>", [0.0, None]),
            charts.HeatRow("zoë", [0.5, 1.0]),
            charts.HeatRow("Average", [0.25, 1.0], separated=True),
        ],
    }
    return charts.heatmap(**(arguments | overrides))


def test_heatmap_is_an_accessible_image_with_a_number_in_every_cell():
    svg = str(heat())
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "map-title map-desc"
    title = root.find(f"{SVG}title")
    assert title is not None and title.get("id") == "map-title"
    assert title.text == "Mastery <b>& more</b>"  # escaped in the markup, intact as text
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert root.find(f"{SVG}desc").text == "How to read it"
    drawn = texts(root)
    # Every value is printed (per cent, no sign), a dash where there is no data.
    for number in ("0", "50", "100", "25"):
        assert number in drawn
    assert drawn.count("–") == 1
    # Cells are coloured on viridis: 0 is its first stop, 1 its last.
    fills = {r.get("fill") for r in root.iter(f"{SVG}rect")}
    assert {charts.VIRIDIS[0], charts.VIRIDIS[-1], charts.scale_colour(0.5)} <= fills
    assert "url(#map-none)" in fills  # the hatched "no data" cell
    # Long column labels are wrapped, not cut.
    assert "Weis" in drawn and "Hand" in " ".join(drawn)
    # Width: names, then one cell per column.
    assert float(root.get("width")) > 2 * 66


def test_heatmap_marks_the_sorted_column():
    root = parse(str(heat(marked=1)))
    frames = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == "none"]
    assert len(frames) == 1
    assert float(frames[0].get("x")) > float(frames[0].get("width"))  # the second column
    bold = [t.text for t in root.iter(f"{SVG}text") if t.get("font-weight") == "bold"]
    assert "Stichspiel" in bold
    assert not [r for r in parse(str(heat())).iter(f"{SVG}rect") if r.get("fill") == "none"]


def test_scale_legend():
    root = parse(
        str(
            charts.scale_legend(
                chart_id="scale",
                title="Scale",
                desc="viridis",
                ticks=[(0, "0 %"), (0.5, "50 %"), (1, "100 %")],
                marks=[(0.85, "mastered")],
                empty_label="not practised",
            )
        )
    )
    stops = [s.get("stop-color") for s in root.iter(f"{SVG}stop")]
    assert stops == list(charts.VIRIDIS)
    assert {"0 %", "50 %", "100 %", "mastered", "not practised", "–"} <= set(texts(root))


def test_line_panel_leaves_a_gap_before_the_first_answer():
    root = parse(
        str(
            charts.line_panel(
                chart_id="line",
                title="t",
                desc="d",
                label="Stöck",
                values=[None, None, 0.25, 0.5, 0.9],
                value_text="90 %",
                first_label="5. Jan",
                last_label="2. Feb",
                threshold=0.85,
            )
        )
    )
    lines = list(root.iter(f"{SVG}polyline"))
    assert len(lines) == 1 and len(lines[0].get("points").split()) == 3
    assert len(list(root.iter(f"{SVG}circle"))) == 3
    ys = [float(p.split(",")[1]) for p in lines[0].get("points").split()]
    assert ys == sorted(ys, reverse=True)  # rising mastery is drawn upwards
    assert {"Stöck", "90 %", "5. Jan", "2. Feb"} <= set(texts(root))
    dashed = [x for x in root.iter(f"{SVG}line") if x.get("stroke-dasharray")]
    assert len(dashed) == 1  # the mastered threshold


def test_column_bars_stack_in_proportion():
    series = [
        charts.Series("right", charts.RIGHT_FILL),
        charts.Series("wrong", charts.WRONG_FILLS[0], hatched=True),
    ]
    root = parse(
        str(
            charts.column_bars(
                chart_id="days",
                title="t",
                desc="d",
                series=series,
                bars=[("5. Jan", [3, 1]), ("", [0, 0]), ("", [6, 0])],
            )
        )
    )
    assert root.find(f"{SVG}defs/{SVG}pattern").get("id") == "days-s1"
    bars = [
        r
        for r in root.iter(f"{SVG}rect")
        if r.get("fill") in (charts.RIGHT_FILL, "url(#days-s1)") and float(r.get("y")) > 20
    ]  # below the legend
    heights = [float(r.get("height")) for r in bars]
    assert len(bars) == 3  # right and wrong of the first day, right of the third
    assert heights[0] == pytest.approx(3 * heights[1], rel=0.02)
    assert heights[2] == pytest.approx(2 * heights[0], rel=0.02)
    assert "6" in texts(root) and "3" in texts(root)  # the axis: top and half
    assert "5. Jan" in texts(root)


def test_share_bars_name_their_parts_where_they_fit():
    root = parse(
        str(
            charts.share_bars(
                chart_id="kinds",
                title="t",
                desc="d",
                bars=[
                    (
                        "Weis",
                        [
                            charts.Segment(18, charts.RIGHT_FILL, "✓ 18"),
                            charts.Segment(1, charts.WRONG_FILLS[0], "A 1", hatched=True),
                            charts.Segment(1, charts.NONE_FILL, "– 1"),
                        ],
                    ),
                    ("Stöck", [charts.Segment(0, charts.RIGHT_FILL, "✓ 0")]),
                ],
                width=300,
            )
        )
    )
    drawn = texts(root)
    assert "✓ 18" in drawn
    assert "A 1" not in drawn and "– 1" not in drawn  # 15 px is too narrow for a label
    widths = [
        float(r.get("width"))
        for r in root.iter(f"{SVG}rect")
        if r.get("fill") in (charts.RIGHT_FILL, charts.NONE_FILL) or "url(" in r.get("fill")
    ]
    assert widths == pytest.approx([270, 15, 15])
    outline = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == "none"]
    assert len(outline) == 1  # the empty bar of Stöck
    assert re.fullmatch(r"kinds-h0", root.find(f"{SVG}defs/{SVG}pattern").get("id"))


def test_heatmap_names_match_the_maps_name_column():
    """The copy of the name column that stays in view on a phone: decoration only, and
    laid out exactly like the map's own names (same width, height and positions)."""
    arguments = {
        "columns": ["Weis einer Hand", "Stichspiel"],
        "rows": [
            charts.HeatRow("jürg <script>", [0.0, None]),
            charts.HeatRow("zoë", [0.5, 1.0]),
            charts.HeatRow("Average", [0.25, 1.0], separated=True),
        ],
    }  # as heat() draws them
    names = parse(str(charts.heatmap_names(**arguments)))
    whole = parse(str(heat()))
    assert names.get("aria-hidden") == "true" and names.get("role") is None
    assert names.get("height") == whole.get("height")
    labels = {(t.get("x"), t.get("y"), t.text) for t in names.iter(f"{SVG}text")}
    assert labels == {
        (t.get("x"), t.get("y"), t.text)
        for t in whole.iter(f"{SVG}text")
        if t.text in ("jürg <script>", "zoë", "Average")
    }
    # The name column ends where the first cell begins.
    first_cell = min(float(r.get("x")) for r in whole.iter(f"{SVG}rect") if r.get("x"))
    assert float(names.get("width")) == first_cell - 1
