"""One way of counting, everywhere a person reads: players 1-4, Team 1 and Team 2.

The rules engine counts seats 0-3 and teams 0/1; people never see that. This walks
every kind of page a person can reach (as visitor, learner and teacher, in German and
English), every quiz kind before and after answering, both CSV exports and the command
line referee, and checks the text people read (page text, titles, aria-labels) for a
0-based player or team, words the site does not use ("Partei", "Sitz"/"seat" numbers),
the German "ß" (Swiss spelling: "ss") and engine identifiers.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from rules_core import RuleSet
from rules_core.cli import main as cli_main
from rules_core.deals import play_round
from teaching.generators import KINDS
from teaching.table import FOCUSES, Scenario, referee, reference_move
from tests.factories import (
    AssignmentFactory,
    LearnerFactory,
    MembershipFactory,
    SchoolClassFactory,
    TableAssignmentFactory,
    TeacherFactory,
)
from tests.rules_core.scenes import S_EN_DEAL, S_EN_TEXT
from tutor.classroom.assignments import start_or_resume, start_table_round, submit
from tutor.lessons.models import Lesson
from tutor.lessons.services import load_course
from tutor.quizzes.services import answer, create_quiz
from tutor.table.forms import post_data

pytestmark = pytest.mark.django_db

LANGS = ("de", "en", "fr")

# A 0-based player or team, a word for a player or team the site does not use, and the
# German sharp s. Case-insensitive: "team 0" and "Team 0" are the same mistake.
WRONG_COUNTING = re.compile(
    r"\b(?:player|spieler|joueur|seat|sitz|team|[ée]quipe|partei)\s*0\b|\bpartei|\bsitz\b"
    r"|\bseats?\b|\bsièges?\b|ß",
    re.IGNORECASE,
)
# Engine identifiers that must never reach a reader (case-sensitive: the display names
# "Ausmachregel" or "W-EN" are words people use).
ENGINE_IDS = re.compile(
    r"\b(?:POINTS|HIGH_CARD|HIGH CARD|CARDS|TRUMP|SEAT)\b|low_quads_score|"
    r"\bausmachregel\b|\bswisslos-2500\b|(?<![\w-])w-en\b|undenufe_reverses_weis"
)
# German as the site writes it: card names with a hyphen ("Rosen-6", "Eichel-Ass", never
# "Eicheln-Ass"), "Hand" for a player's cards and "Folge"/"Dreiblatt" for a sequence
# (never "Blatt"), "Stufe" for a step of the comparison ladder.
GERMAN_WORDING = re.compile(
    r"\b(?:Schellen|Rosen|Schilten|Eicheln?|Ecken|Karo|Herz|Schaufeln?|Kreuz) "
    r"(?:6|7|8|9|10|Banner|Under|Ober|König|Ass|As|Nell|Bube|Dame)\b|"
    r"\b(?:Eicheln|Schaufeln)-|\bBlatt\b|\bBlättern?\b|\d-Blatt|\bSchritt \d"
)
READ_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder")


class _Text(HTMLParser):
    """The text a person reads or hears: text nodes and labelling attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        self.parts.extend(value or "" for name, value in attrs if name in READ_ATTRIBUTES)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def readable_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return re.sub(r"\s+", " ", " ".join(parser.parts))


def problems(text: str, engine_ids: bool = True) -> list[str]:
    """Each wrong word with a little context, for a readable failure."""
    found = []
    patterns = (WRONG_COUNTING, GERMAN_WORDING) + ((ENGINE_IDS,) if engine_ids else ())
    for pattern in patterns:
        for match in pattern.finditer(text):
            start, end = max(0, match.start() - 50), match.end() + 50
            found.append(f"{match.group()!r} in …{text[start:end]}…")
    return found


def check_pages(client, urls, lang):
    """GET every URL in ``lang``; returns the problems found, by URL."""
    client.post(reverse("set_language"), {"language": lang, "next": "/"})
    report = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        body = response.content.decode("utf-8-sig")
        is_html = response["Content-Type"].startswith("text/html")
        found = problems(readable_text(body) if is_html else body)
        if found:
            report[f"{lang} {url}"] = found
    return report


def assert_clean(report):
    assert not report, "\n".join(f"{url}: {found}" for url, found in report.items())


# --- the pages --------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def course():
    load_course()
    return list(Lesson.objects.order_by("position").values_list("slug", flat=True))


WEIS_POSITIONS = [
    # Trump: both teams meld, the ladder decides at step 1; a player holds Stöck.
    {"contract": "H", "rules": "default", "seat0_text": "S10 SJ SQ SK HK HQ",
     "seat1_text": "C6 C7 C8", "seat2_text": "DA", "seat3_text": "DK"},
    # Obenabe: equal melds down to step 5 (who announced first).
    {"contract": "obenabe", "rules": "default", "seat0_text": "CQ CK CA",
     "seat1_text": "Schellen-Ober, Schellen-König, Schellen-Ass"},
    # Undenufe under another rule set, with a factor; four of a kind.
    {"contract": "undenufe", "rules": "swisslos-2500", "seat2_text": "DA HA SA CA",
     "seat3_text": "D10 H10 S10 C10"},
    {"contract": "S", "rules": "w-en", "seat1_text": "D6 H6 S6 C6 S7 S8 S9"},
    # A card given twice: the error names the players.
    {"contract": "H", "rules": "ausmachregel", "seat0_text": "H6 H7", "seat1_text": "H7 H8"},
]  # fmt: skip


def weis_urls():
    base = reverse("weistool:tool")
    return [base] + [
        base + "?" + "&".join(f"{key}={value}" for key, value in position.items())
        for position in WEIS_POSITIONS
    ]


def test_public_pages_count_players_and_teams_from_1(client):
    urls = [reverse("home"), reverse("login"), reverse("signup"), *weis_urls()]
    report = {}
    for lang in LANGS:
        report |= check_pages(client, urls, lang)
    client.post(reverse("set_deck"), {"deck": "french"})  # "Herz-Dame", "queen of hearts"
    for lang in LANGS:
        report |= check_pages(client, weis_urls(), lang)
    assert_clean(report)


@pytest.mark.parametrize("lang", LANGS)
def test_every_lesson_counts_players_and_teams_from_1(client, course, lang):
    urls = [reverse("lessons:overview"), reverse("lessons:rules")]
    urls += [reverse("lessons:detail", args=[slug]) for slug in course]
    assert len(urls) >= 2 + 14
    assert_clean(check_pages(client, urls, lang))


SEEDS = range(6)  # enough seeds that every trick sub-kind and many Stöck cases show


def quiz_urls(quiz):
    return [
        reverse("quizzes:question", args=[quiz.pk, position])
        for position in range(quiz.questions.count())
    ]


def test_quiz_questions_and_feedback_count_players_and_teams_from_1(client):
    learner = LearnerFactory()
    client.force_login(learner)
    report = {}
    # a quiz holds at most 50 questions: every kind's seeds in two halves
    halves = (KINDS[: len(KINDS) // 2], KINDS[len(KINDS) // 2 :])
    trick_subs = set()
    for half in halves:
        kinds = [kind for kind in half for _ in SEEDS]
        seeds = [seed for _ in half for seed in SEEDS]
        right = create_quiz(learner=learner, kinds=kinds, seeds=seeds)
        wrong = create_quiz(learner=learner, kinds=kinds, seeds=seeds)
        for lang in LANGS:  # before answering
            report |= check_pages(client, quiz_urls(right), lang)
        for quiz, pick_right in ((right, True), (wrong, False)):
            for question in quiz.questions.all():
                data = question.question
                choice = (
                    data["answer"]
                    if pick_right
                    else next(c["key"] for c in data["choices"] if c["key"] != data["answer"])
                )
                answer(learner=learner, question=question, choice=choice)
        trick_subs |= {
            q.question["inputs"].get("sub") for q in right.questions.filter(kind="trick")
        }
        for lang in LANGS:  # the feedback, right and wrong
            report |= check_pages(client, quiz_urls(right) + quiz_urls(wrong), lang)
            report |= check_pages(client, [reverse("quizzes:summary", args=[wrong.pk])], lang)
    assert trick_subs == {"legal", "winner", "points"}, trick_subs
    assert_clean(report)


@pytest.fixture
def classroom():
    """A class with an assignment of every kind, answered right and wrong, handed in."""
    teacher = TeacherFactory()
    school_class = SchoolClassFactory(teacher=teacher)
    assignment = AssignmentFactory(
        school_class=school_class,
        title="Alles",
        kinds=list(KINDS),
        question_count=2 * len(KINDS),
        rules_preset="w-en",
        attempts_allowed=2,
        base_seed=4242,
    )
    learners = []
    for name, pick_right in (("anna", True), ("ben", False)):
        learner = MembershipFactory(
            school_class=school_class, learner=LearnerFactory(username=name)
        ).learner
        quiz = start_or_resume(learner=learner, assignment=assignment)
        for question in quiz.questions.all():
            data = question.question
            choice = (
                data["answer"]
                if pick_right
                else next(c["key"] for c in data["choices"] if c["key"] != data["answer"])
            )
            answer(learner=learner, question=question, choice=choice)
        submit(learner=learner, quiz=quiz)
        create_quiz(
            learner=learner,
            kinds=list(KINDS),
            seeds=list(range(len(KINDS))),
            rules=RuleSet.preset("swisslos-2500"),
        )
        learners.append(learner)
    return {"teacher": teacher, "class": school_class, "assignment": assignment,
            "learners": learners}  # fmt: skip


def test_learner_pages_count_players_and_teams_from_1(client, classroom):
    learner = classroom["learners"][1]
    client.force_login(learner)
    urls = [reverse("dashboard"), reverse("quizzes:practice"), reverse("classroom:my_classes")]
    report = {}
    for lang in LANGS:
        report |= check_pages(client, urls, lang)
    assert_clean(report)


def test_teacher_pages_and_csv_exports_count_players_and_teams_from_1(client, classroom):
    client.force_login(classroom["teacher"])
    c, a = classroom["class"], classroom["assignment"]
    urls = [
        reverse("classroom:teacher_classes"),
        reverse("classroom:class_detail", args=[c.pk]),
        reverse("classroom:assignment_create", args=[c.pk]),
        reverse("classroom:assignment_results", args=[a.pk]),
        reverse("classroom:class_mastery", args=[c.pk]),
        *(
            reverse("classroom:learner_history", args=[c.pk, learner.pk])
            for learner in classroom["learners"]
        ),
        reverse("classroom:assignment_results_csv", args=[a.pk]),
        reverse("classroom:class_mastery_csv", args=[c.pk]),
    ]
    report = {}
    for lang in LANGS:
        report |= check_pages(client, urls, lang)
    assert_clean(report)


@pytest.mark.parametrize("focus", FOCUSES)
def test_table_rounds_count_players_and_teams_from_1(client, focus):
    """The table trainer's pages, at the first move, with a wrong move's feedback, at
    the end and in the summary, and the teacher's results of a table assignment."""
    teacher = TeacherFactory()
    school_class = SchoolClassFactory(teacher=teacher)
    learner = LearnerFactory()
    MembershipFactory(school_class=school_class, learner=learner)
    assignment = TableAssignmentFactory(school_class=school_class, focus=focus, round_count=1)
    round_ = start_table_round(learner=learner, assignment=assignment)
    client.force_login(learner)
    page = reverse("table:round", args=[round_.pk])
    urls = [reverse("table:start"), page]

    def table():
        round_.refresh_from_db()
        return referee(Scenario.from_dict(round_.scenario), round_.moves)

    def play(move):
        data = post_data(move, round_.move_count)
        assert client.post(reverse("table:move", args=[round_.pk]), data).status_code == 302

    wrong_shown = False
    report = {}
    while (t := table()).phase != "done":
        move = reference_move(t)
        if not wrong_shown and t.phase == "play" and len(t.legal) < len(t.hand):
            # An illegal card: judged wrong with its reason, and played again.
            play({"play": next(c for c in t.hand if c not in t.legal)})
            for lang in LANGS:
                report |= check_pages(client, [page], lang)
            wrong_shown = True
        play(move)
        if round_.move_count == 1:
            for lang in LANGS:
                report |= check_pages(client, urls, lang)
    assert wrong_shown, "no illegal card was on offer in this round"
    urls = [page, reverse("table:summary", args=[round_.pk])]
    for lang in LANGS:
        report |= check_pages(client, urls, lang)
    client.force_login(teacher)
    urls = [
        reverse("classroom:assignment_results", args=[assignment.pk]),
        reverse("classroom:assignment_results_csv", args=[assignment.pk]),
        reverse("classroom:learner_history", args=[school_class.pk, learner.pk]),
    ]
    for lang in LANGS:
        report |= check_pages(client, urls, lang)
    assert_clean(report)


def test_form_errors_use_swiss_spelling(client, classroom):
    """Django's own German messages are written with "ß"; the site overrides them."""
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    login = client.post(reverse("login"), {"username": "anna", "password": "wrong-one"})
    text = readable_text(login.content.decode())
    assert "Gross-/Kleinschreibung" in text and problems(text) == []
    signup = client.post(
        reverse("signup"),
        {"username": "neu", "password1": "kurz", "password2": "anders", "join_code": ""},
    )
    assert signup.status_code == 200 and problems(readable_text(signup.content.decode())) == []
    client.force_login(classroom["teacher"])
    form = client.post(
        reverse("classroom:assignment_create", args=[classroom["class"].pk]),
        {"title": "x", "kinds": ["trick"], "question_count": "0", "rules_preset": "w-en",
         "attempts_allowed": "0", "opens_at": "2026-01-01T10:00", "due_at": "2026-01-02T10:00",
         "same_questions": "1", "explanations": "immediately", "late_policy": "refuse"},
    )  # fmt: skip
    text = readable_text(form.content.decode())
    assert "grösser oder gleich 1" in text and problems(text) == []


def test_card_names_steps_and_rule_sets_in_the_sites_words():
    from django.utils import translation

    from tutor.core import explain
    from tutor.core.cards import display_name

    assert display_name("CA", "de", "swiss") == "Eichel-Ass"
    assert display_name("H6", "de", "swiss") == "Rosen-6"
    assert display_name("SK", "de", "swiss") == "Schilten-König"
    assert display_name("DQ", "de", "french") == "Ecken-Dame"
    assert display_name("DA", "en", "swiss") == "ace of bells"
    with translation.override("de"):
        assert explain.card_label("CQ", "swiss") == "Eichel-Ober"
        assert explain.step_title("points") == "Stufe 1: Punkte"
        assert explain.step_inline("seat") == "Stufe 5 (wer zuerst meldet)"
        assert explain.seat_label(0) == "Spieler 1 (Vorhand)"
        assert explain.team_label(1) == "Team 2 (Spieler 2 und 4)"
        assert explain.meld_label({"kind": "sequence", "cards": ["H6", "H7", "H8"],
                                   "points": 20}, "swiss") == "Dreiblatt Rosen-6 bis Rosen-8 (20)"  # fmt: skip
        assert explain.preset_label("w-en").startswith("Lesart W-EN")
    with translation.override("en"):
        assert explain.step_title("high_card") == "Step 3: highest card"
        assert explain.step_inline("trump") == "Step 4 (trump)"
        assert explain.team_label(0) == "Team 1 (players 1 and 3)"
        assert explain.preset_label(None) == "Own rule set"


def test_the_check_finds_what_it_looks_for():
    """The checks are real: each kind of mistake is caught, correct text passes."""
    for bad in ("Player 0 (Vorhand)", "Spieler 0", "Seat 2", "Sitz 1", "team 0 writes",
                "Team 0", "Partei 1", "Parteien", "Grösse" .replace("s", "ß", 1),
                "Stufe 1: POINTS", "HIGH_CARD", "Voreinstellung w-en", "swisslos-2500",
                "Eichel Ass", "Rosen 6", "das Eicheln-Ass", "ein Blatt im Trumpf", "3-Blatt",
                "Schritt 1"):  # fmt: skip
        assert problems(bad), bad
    good = (
        "Player 1 (Vorhand) · Team 1 (players 1 and 3) writes 50 · Spieler 4 (Team 2) · "
        "Stufe 1: Punkte · Regelwerk: Lesart W-EN · Ausmachregel: Stöck, Weis, Stich · "
        "Gross-/Kleinschreibung · Eichel-Ass, Rosen-6 · Dreiblatt · Step 10 · Trumpf Rosen"
    )
    assert problems(good) == []
    html = '<p title="Sitz 0">ok</p><script>var seat = 0;</script><option value="w-en">x</option>'
    assert readable_text(html).strip() == "Sitz 0 ok x"


# --- the command line referee ------------------------------------------------------------


def _round_plays() -> str:
    plays = play_round(S_EN_DEAL, "H", prefix=[(0, "DK"), (1, "H8"), (2, "HJ"), (3, "D6")])
    return " ".join(card.code for _, card in plays)


def cli_runs():
    hands = S_EN_TEXT.split()
    plays = _round_plays()
    half = " ".join(plays.split()[:28])
    return [
        ["melds", "H6", "H7", "H8", "D8", "S8", "C8", "--contract", "H"],
        ["weis", "--contract", "H", *hands],
        ["weis", "--contract", "obenabe", "--player1", "CQ CK CA", "--player2", "DQ DK DA"],
        ["weis", "--contract", "undenufe", "--player3", "DA HA SA CA", "--player4",
         "D10 H10 S10 C10", "--rules", "swisslos-2500"],
        ["stoeck", *hands, "--contract", "H", "--plays", half],
        ["stoeck", *hands, "--contract", "H", "--plays", half, "--call", "4:HK"],
        ["score", *hands, "--contract", "H", "--plays", plays],
        ["target", *hands, "--contract", "H", "--plays", plays, "--before", "900", "990"],
        ["target", *hands, "--contract", "H", "--plays", plays, "--before", "960", "100"],
        ["legal", "--hand", "S7 H6 HA C9", "--trick", "SK HQ", "--contract", "H"],
        ["presets"],
        # errors people make: they are answered in people's numbers too
        ["weis", "--contract", "H", "H6 / H6 / / "],
        ["score", *hands, "--contract", "H", "--plays", "DK H8 S10 D6 " * 9],
        ["stoeck", *hands, "--contract", "H", "--plays", "DK", "--call", "0:DK"],
    ]  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_cli_output_counts_players_and_teams_from_1(capsys, lang):
    report = {}
    for argv in cli_runs():
        cli_main([*argv, "--lang", lang])
        captured = capsys.readouterr()
        text = captured.out + captured.err
        assert text.strip(), argv
        # `presets` lists the ids that --rules takes and their fields: input vocabulary
        found = problems(text, engine_ids=argv[0] != "presets")
        if found:
            report[" ".join(argv[:2])] = found
    assert_clean(report)
