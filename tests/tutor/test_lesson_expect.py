"""Lessons cannot contradict their own examples (issue 11, section 2).

Every ``expect:`` line is checked by the engine when the course is loaded, and prose
that names a team or player next to an example must be backed by such a line; the
numbers it states must be ones the engine computes there, and written-out sums add up.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.template.loader import render_to_string
from django.utils import translation

from tutor.lessons.content import ExampleSpec, Expectation, read_course
from tutor.lessons.examples import (
    ExampleError,
    ExpectationError,
    check_expectation,
    engine_numbers,
    evaluate,
    mentions,
)
from tutor.lessons.services import check_course

ROUND = {
    "contract": "H",
    "player1": "D7 DJ H6 H8 H10 HJ HK S10 C8",
    "player2": "D9 D10 H7 H9 S9 SQ SA C7 C10",
    "player3": "D6 DQ DK HA SK C6 CJ CQ CA",
    "player4": "D8 DA HQ S6 S7 S8 SJ C9 CK",
    "plays": (
        "S10 SA SK S8 | C7 CA C9 H8 | H6 H7 HA HQ | C6 CK HK C10 | H10 H9 CQ S7 | "
        "S9 CJ S6 HJ | C8 D9 DQ SJ | D7 D10 D6 D8 | SQ DK DA DJ"
    ),
}


def _spec(kind: str, params: dict[str, str], *expects: str) -> ExampleSpec:
    return ExampleSpec(kind, params, 1, tuple(Expectation(e, 2 + i) for i, e in enumerate(expects)))


def _check(kind: str, params: dict[str, str], expect: str) -> None:
    spec = _spec(kind, params, expect)
    check_expectation(kind, evaluate(spec).data, spec.expects[0])


# (kind, params, a line that holds, the same claim made false)
CASES = [
    ("melds", {"hand": "H6 H7 H8 CA SA DA HA", "contract": "S"}, "best 100", "best 20"),
    ("melds", {"hand": "H6 H7 H8 CA SA DA HA", "contract": "S"}, "count 2", "count 1"),
    ("melds", {"hand": "H6 H8 CA", "contract": "S"}, "best none", "best 20"),
    (
        "compare",
        {
            "a": "H6 H7 H8 H9 H10",
            "a_player": "2",
            "b": "CA SA DA HA",
            "b_player": "1",
            "contract": "S",
        },
        "winner a",
        "winner b",
    ),
    (
        "compare",
        {
            "a": "H6 H7 H8 H9 H10",
            "a_player": "2",
            "b": "CA SA DA HA",
            "b_player": "1",
            "contract": "S",
        },
        "step 2",
        "step 1",
    ),
    (
        "weis",
        {"player1": "H6 H7 H8", "player2": "C6 C7 C8 C9", "player3": "S6 S7 S8", "contract": "D"},
        "writes team 2 50",
        "writes team 1 60",
    ),
    (
        "weis",
        {"player1": "H6 H7 H8", "player2": "C6 C7 C8 C9", "player3": "S6 S7 S8", "contract": "D"},
        "writes team 1 0",
        "writes team 2 0",
    ),
    (
        "weis",
        {"player1": "H6 H7 H8", "player2": "C6 C7 C8 C9", "contract": "D"},
        "best player 2",
        "best player 1",
    ),
    ("weis", {"player1": "H6 H8", "contract": "D"}, "writes nobody", "writes team 1 20"),
    (
        "weis",
        {"player1": "H6 H7 H8", "player2": "C6 C7 C8 C9", "contract": "D"},
        "announces player 2 50",
        "announces player 1 50",
    ),
    ("weis", {"player1": "H6 H7 H8", "contract": "D"}, "holds player 1 H7", "holds player 2 H7"),
    ("round", ROUND, "stoeck none not_held_by_one_player", "stoeck scored"),
    ("points", {"contract": "obenabe"}, "total 152", "total 157"),
    ("points", {"contract": "H"}, "card HJ 20", "card HJ 2"),
    (
        "legal",
        {"hand": "H6 S7 SA", "trick": "S6", "contract": "H"},
        "legal H6 S7 SA",
        "legal S7 SA",
    ),
    ("trick", {"cards": "DK H8 HJ D6", "contract": "H"}, "winner card 3", "winner card 2"),
    ("trick", {"cards": "DK H8 HJ D6", "contract": "H"}, "points 24", "points 25"),
    (
        "stoeck",
        {"contract": "S", "holder": "3", "first": "3", "second": "6", "call": "late"},
        "stoeck lost too_late",
        "stoeck scored",
    ),
    (
        "stoeck",
        {"contract": "S", "holder": "3", "first": "3", "second": "6", "call": "late"},
        "team 1",
        "team 2",
    ),
    (
        "target",
        {
            "before": "960 980",
            "target": "1000",
            "weis": "50 0",
            "stoeck": "0 20",
            "tricks": "40 117",
        },
        "target team 1 weis",
        "target team 2 stoeck",
    ),
    (
        "target",
        {
            "before": "960 980",
            "target": "1000",
            "weis": "50 0",
            "stoeck": "0 20",
            "tricks": "40 117",
        },
        "reaches team 2 stoeck",
        "reaches team 2 tricks",
    ),
    (
        "target",
        {
            "before": "960 980",
            "target": "1000",
            "weis": "50 0",
            "stoeck": "0 20",
            "tricks": "40 117",
        },
        "totals 1050 1117",
        "totals 1117 1050",
    ),
    ("round", ROUND, "match nobody", "match team 1"),
    ("round", ROUND, "trick 1 winner player 2 points 25", "trick 1 winner player 1"),
]


@pytest.mark.parametrize(("kind", "params", "holds", "false"), CASES)
def test_expect_line_holds_and_its_negation_fails(kind, params, holds, false):
    _check(kind, params, holds)
    with pytest.raises(ExpectationError, match="does not hold"):
        _check(kind, params, false)


def test_round_blocks_add_up_to_157():
    data = evaluate(_spec("round", ROUND)).data
    score = data["score"]
    assert sum(b["tricks"] for b in score.blocks) == 157
    team1 = score.blocks[0]["tricks"]
    _check("round", ROUND, f"blocks team 1 tricks {team1}")
    with pytest.raises(ExpectationError):
        _check("round", ROUND, f"blocks team 1 tricks {team1 + 1}")


def test_round_refuses_an_illegal_play():
    # Player 4 holds S6 S7 S8 SJ but throws a diamond to the first trick's spades.
    params = dict(ROUND, plays=ROUND["plays"].replace("S10 SA SK S8", "S10 SA SK D8", 1))
    params["plays"] = params["plays"].replace("D7 D10 D6 D8", "D7 D10 D6 S8")
    with pytest.raises(Exception, match="R3"):
        evaluate(_spec("round", params))


def test_round_with_target_counts_tricks_in_order():
    params = dict(ROUND, before="900 900", target="1000")
    data = evaluate(_spec("round", params)).data
    result = data["result"]
    assert result.block == "tricks"
    team = result.team + 1
    _check("round", params, f"target team {team} tricks trick {result.trick + 1}")
    _check("round", params, f"totals {result.totals[0]} {result.totals[1]}")


def test_unknown_expect_form_names_the_forms():
    with pytest.raises(ExpectationError, match="not a form"):
        _check("trick", {"cards": "DK H8", "contract": "H"}, "writes team 1 20")


def test_a_hand_alone_does_not_back_a_sentence_about_its_player(course_copy: Path):
    _plant(course_copy, "writes 50;", "writes 50, player 2 holds four;", ("en",))
    with pytest.raises(ExampleError, match="names player 2"):
        check_course(course_copy)
    _plant(
        course_copy,
        "expect: writes team 1 0",
        "expect: writes team 1 0\nexpect: announces player 2 50",
    )
    check_course(course_copy)


def test_a_caption_is_checked_like_prose(course_copy: Path):
    _plant(course_copy, "caption: Two melds", "caption: Two melds, Team 2 writes", ("en",))
    check_course(course_copy)
    _plant(course_copy, "expect: writes team 2 50\n", "")
    with pytest.raises(ExampleError, match="names Team 2"):
        check_course(course_copy)


def test_players_in_examples_count_from_one():
    with pytest.raises(ExampleError, match="player 1-4"):
        evaluate(_spec("stoeck", {"contract": "H", "holder": "0", "first": "1", "second": "2"}))


def test_stoeck_example_can_play_the_ober_first_and_end_a_trick():
    params = {
        "contract": "H",
        "holder": "2",
        "first": "2",
        "second": "5",
        "call": "second",
        "order": "Q-first",
        "second_position": "4",
    }
    scenario = evaluate(_spec("stoeck", params)).data["scenario"]
    assert str(scenario.plays[scenario.first_index][1]) == "HQ"
    assert scenario.second_index % 4 == 3
    _check("stoeck", params, "stoeck scored valid")


def test_mentions_ignore_the_team_gloss():
    assert mentions("Team 1 (Spieler 1 und 3) schreibt; Spieler 4 nicht.") == ({1}, {4})
    assert mentions("players 2 and 4") == (set(), {2, 4})
    assert mentions("L'équipe 1 (joueurs 1 et 3) marque ; le joueur 4 non.") == ({1}, {4})
    assert mentions("les joueurs 2 et 4, puis l'Équipe 2") == ({2}, {2, 4})


LESSON = """+++
title = "{title}"
rules = ["R5.6"]
sources = ["W-DE"]
+++

## Who writes

```jass weis
player1: H6 H7 H8
player2: C6 C7 C8 C9
contract: D
caption: {caption}
expect: writes team 2 50
expect: writes team 1 0
```

{prose}

## Remember

Team 1 never writes here.
"""


@pytest.fixture
def course_copy(tmp_path: Path) -> Path:
    """A one-lesson course whose prose is backed by its expect lines."""
    target = tmp_path / "content"
    target.mkdir()
    for lang, title, caption, prose in (
        ("en", "Who writes", "Two melds", "Team 2 (players 2 and 4) writes 50; Team 1 nothing."),
        (
            "de",
            "Wer schreibt",
            "Zwei Weise",
            "Team 2 (Spieler 2 und 4) schreibt 50; Team 1 nichts.",
        ),
        (
            "fr",
            "Qui marque",
            "Deux annonces",
            "L'équipe 2 (joueurs 2 et 4) marque 50 ; l'équipe 1, rien.",
        ),
    ):
        (target / f"01-who.{lang}.md").write_text(
            LESSON.format(title=title, caption=caption, prose=prose)
        )
    return target


def _plant(
    directory: Path, old: str, new: str, langs: tuple[str, ...] = ("en", "de", "fr")
) -> None:
    for lang in langs:
        path = directory / f"01-who.{lang}.md"
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new, 1))


def test_the_course_as_shipped_checks():
    course, checked = check_course()
    assert checked.lessons == len(course) >= 16
    assert checked.expectations >= checked.examples


def test_fixture_course_checks(course_copy: Path):
    _, checked = check_course(course_copy)
    assert (checked.lessons, checked.examples, checked.expectations) == (1, 3, 6)  # 3 languages


def test_planted_contradiction_fails_the_load_naming_file_and_line(course_copy: Path):
    _plant(course_copy, "expect: writes team 2 50", "expect: writes team 2 60")
    with pytest.raises(ExampleError) as error:
        check_course(course_copy)
    assert "01-who.de.md:" in str(error.value)
    assert "01-who.en.md:" in str(error.value)
    assert "01-who.fr.md:" in str(error.value)
    assert "line 14: expect: 'writes team 2 60' does not hold" in str(error.value)


@pytest.mark.django_db
def test_load_lessons_command_refuses_a_contradiction(course_copy: Path):
    _plant(course_copy, "expect: writes team 1 0", "expect: writes team 1 50")
    with pytest.raises(CommandError, match="does not hold"):
        call_command("load_lessons", directory=course_copy)
    with pytest.raises(CommandError, match="does not hold"):
        call_command("load_lessons", directory=course_copy, check=True)


def test_prose_naming_an_unbacked_team_fails(course_copy: Path):
    _plant(course_copy, "expect: writes team 1 0\n", "")
    with pytest.raises(ExampleError, match="names Team 1 next to the example"):
        check_course(course_copy)


def test_prose_naming_an_unbacked_player_fails(course_copy: Path):
    _plant(course_copy, "writes 50;", "writes 50, player 4 nothing;", ("en",))
    with pytest.raises(ExampleError, match="names player 4"):
        check_course(course_copy)


def test_prose_stating_a_number_the_engine_does_not_compute_fails(course_copy: Path):
    # The example gives Team 2 50; the prose may say 50, not 60.
    _plant(course_copy, "writes 50;", "writes 60;", ("en",))
    with pytest.raises(ExampleError, match=r"01-who.en.md:\d+: the prose states 60"):
        check_course(course_copy)


def test_prose_sum_must_add_up(course_copy: Path):
    _plant(course_copy, "writes 50;", "writes 30 + 30 = 50;", ("en",))
    with pytest.raises(ExampleError, match="'30 \\+ 30 = 50' does not add up"):
        check_course(course_copy)


def test_a_correct_sum_of_engine_numbers_backs_its_result(course_copy: Path):
    # 70 is no number of the example, but 50 and 20 are (20: Stöck, a rule value).
    _plant(course_copy, "writes 50;", "writes 50 and would hold 50 + 20 = 70;", ("en",))
    check_course(course_copy)
    _plant(course_copy, "50 + 20 = 70", "50 + 25 = 75", ("en",))
    with pytest.raises(ExampleError, match="the prose states 25, 75"):
        check_course(course_copy)


def test_prose_saying_who_writes_is_checked_against_the_example(course_copy: Path):
    _plant(course_copy, "Team 1 nothing.", "Team 1 writes no Weis.", ("en",))
    check_course(course_copy)
    _plant(course_copy, "Team 1 writes no Weis.", "Team 2 writes no Weis.", ("en",))
    with pytest.raises(ExampleError, match="says 'Team 2 writes no Weis', but no example"):
        check_course(course_copy)


def test_german_prose_saying_who_writes_is_checked_too(course_copy: Path):
    _plant(course_copy, "Team 1 nichts.", "Team 1 schreibt keinen Weis.", ("de",))
    check_course(course_copy)
    _plant(course_copy, "schreibt 50;", "schreibt 20;", ("de",))
    with pytest.raises(ExampleError, match=r"says 'Team 2 \(Spieler 2 und 4\) schreibt 20'"):
        check_course(course_copy)


def test_french_prose_saying_who_writes_is_checked_too(course_copy: Path):
    _plant(course_copy, "l'équipe 1, rien.", "l'équipe 1 ne marque aucune annonce.", ("fr",))
    check_course(course_copy)
    _plant(course_copy, "marque 50 ;", "marque 20 ;", ("fr",))
    with pytest.raises(ExampleError, match=r"says \"L'équipe 2 \(joueurs 2 et 4\) marque 20\""):
        check_course(course_copy)


def test_french_prose_naming_an_unbacked_player_or_number_fails(course_copy: Path):
    _plant(course_copy, "marque 50 ;", "marque 50, le joueur 4 rien ;", ("fr",))
    with pytest.raises(ExampleError, match=r"01-who.fr.md:\d+: the prose names player 4"):
        check_course(course_copy)
    _plant(course_copy, "marque 50, le joueur 4 rien ;", "marque 60 ;", ("fr",))
    with pytest.raises(ExampleError, match=r"01-who.fr.md:\d+: the prose states 60"):
        check_course(course_copy)


def test_french_claims_about_stoeck_and_nothing_are_read():
    from tutor.lessons.examples import _CLAIMS

    found = {
        kind
        for text in (
            "L'équipe 1 ne marque rien.",
            "l'équipe 2 ne marque pas de stöck",
            "L'équipe 2 (joueurs 2 et 4) marque le stöck.",
            "l'équipe 1 marque ses 50",
        )
        for kind, pattern in _CLAIMS
        if pattern.search(text)
    }
    assert found == {"no_weis", "no_stoeck", "stoeck", "points"}


def test_engine_numbers_reach_running_totals():
    example = evaluate(
        _spec(
            "target",
            {"before": "960 980", "weis": "50 0", "stoeck": "0 20", "tricks": "40 117"},
        )
    )
    numbers = engine_numbers(example.data)
    # 1010: Team 1 after its Weis; 1000: Team 2 after its Stöck; 1117: Team 2 at the end.
    assert {960, 980, 1010, 1000, 1050, 1117} <= numbers


def test_prose_under_another_heading_is_not_next_to_the_example(course_copy: Path):
    # "Team 1 never writes here." stands under "## Remember": no example beside it.
    _plant(course_copy, "Team 1 never writes here.", "Team 2 never writes here.")
    check_course(course_copy)


def test_languages_must_claim_the_same_outcome(course_copy: Path):
    _plant(
        course_copy,
        "expect: writes team 1 0",
        "expect: writes team 1 0\nexpect: step none",
        ("en",),
    )
    with pytest.raises(Exception, match="differ between languages"):
        read_course(course_copy)


def test_round_example_renders_the_jasstafel():
    example = evaluate(_spec("round", dict(ROUND, before="900 900", target="1000")))
    with translation.override("en"):
        html = render_to_string("lessons/examples.html#round", {"ex": example, **example.data})
    assert "Jasstafel" in html
    assert html.count('class="card') >= 36
    assert "Trick 9" in html


def test_target_example_of_a_generated_round_writes_that_rounds_blocks():
    # R7.3: the block that crosses the target decides. A generated target example
    # ("decides" instead of written blocks) shows the blocks its round scored.
    from teaching.scenarios import target_scenario

    params = {"decides": "stoeck", "seed": "3"}
    data = evaluate(_spec("target", params)).data
    scenario = target_scenario("stoeck", 3)
    assert data["blocks"] == scenario.score.blocks
    trick_points = sum(points for _team, points in data["tricks"])
    assert trick_points == sum(block["tricks"] for block in scenario.score.blocks)
    team = data["result"].team + 1
    _check("target", params, f"target team {team} stoeck")
    with pytest.raises(ExpectationError):
        _check("target", params, f"target team {3 - team} stoeck")
    with translation.override("en"):
        html = render_to_string(
            "lessons/examples.html#target", {"ex": evaluate(_spec("target", params)), **data}
        )
    assert "Stöck" in html
