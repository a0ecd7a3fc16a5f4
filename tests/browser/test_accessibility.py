"""axe-core on every kind of page (issue 15): logged out, as a learner and as a teacher,
in German and English, at 390 and 1280 px, with the ``target-size`` rule (WCAG 2.2
2.5.8) switched on. No serious or critical violation may appear; moderate and minor
ones are printed (``pytest -s``) but do not fail. docs/accessibility.md says more.

axe-core comes bundled in axe-playwright-python: nothing is downloaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from playwright.sync_api import Page, expect

from teaching.table import referee, reference_move
from tests.factories import (
    LearnerFactory,
    MembershipFactory,
    SchoolClassFactory,
    TeacherFactory,
)
from tutor.accounts.models import User
from tutor.classroom import assignments
from tutor.classroom.assignments import AssignmentSpec
from tutor.classroom.models import Assignment
from tutor.lessons.services import load_course
from tutor.quizzes.models import Skill
from tutor.quizzes.services import answer, create_quiz
from tutor.table import services as table_services
from tutor.table.services import scenario_of

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Axe()
# All rules axe runs by default (WCAG 2.0/2.1/2.2 A and AA, best practices), plus
# target-size, which axe leaves off by default.
AXE_OPTIONS = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}
FAILING = {"serious", "critical"}
WIDTHS = (390, 1280)
LANGS = ("de", "en", "fr")


@dataclass(frozen=True)
class Violation:
    page: str
    rule: str
    impact: str
    targets: tuple[str, ...]
    help: str

    def __str__(self) -> str:
        return (
            f"{self.page}: {self.rule} ({self.impact}) at {', '.join(self.targets)} - {self.help}"
        )


def check(page: Page, label: str = "") -> list[Violation]:
    """Run axe-core on the page as it is now; every violation, named by page."""
    results = AXE.run(page, options=AXE_OPTIONS).response
    where = label or page.url
    return [
        Violation(
            page=where,
            rule=v["id"],
            impact=v["impact"] or "unknown",
            targets=tuple(" ".join(map(str, node["target"])) for node in v["nodes"]),
            help=v["help"],
        )
        for v in results["violations"]
    ]


def assert_no_serious(violations: list[Violation]) -> None:
    for v in violations:
        if v.impact not in FAILING:  # shown with pytest -s; they do not fail the test
            print(f"axe {v.impact}: {v}")
    serious = [v for v in violations if v.impact in FAILING]
    if serious:
        lines = "\n".join(f"  {v}" for v in serious)
        raise AssertionError(f"{len(serious)} serious or critical axe violations:\n{lines}")


@dataclass
class World:
    """One of every kind of object the pages show."""

    teacher: User
    learner: User
    class_id: int
    assignment_id: int  # a quiz assignment, submitted
    rounds_id: int  # rounds at the table, the first one under way
    quiz_id: int  # a practice quiz: question 0 answered, question 1 open
    round_id: int  # that round at the table, a few moves made
    new_kinds_id: int  # announce (who writes, the deadline) and jasstafel, answered


def build_world() -> World:
    load_course()
    teacher = TeacherFactory(username="frau_keller")
    school_class = SchoolClassFactory(teacher=teacher, name="Klasse 6b")
    learner = LearnerFactory(username="lina")
    MembershipFactory(school_class=school_class, learner=learner)
    MembershipFactory(school_class=school_class, learner__username="noé")
    now = timezone.now()
    kinds = list(Skill.values)
    assignment = assignments.create_assignment(
        teacher=teacher,
        school_class=school_class,
        spec=AssignmentSpec(
            title="Alle Fragenarten",
            kinds=kinds,
            question_count=len(kinds),
            rules_preset="default",
            opens_at=now - timedelta(days=1),
            due_at=now + timedelta(days=1),
        ),
    )
    attempt = assignments.start_or_resume(learner=learner, assignment=assignment)
    for i, question in enumerate(attempt.questions.order_by("position")):
        wrong = next(
            c["key"]
            for c in question.question["choices"]
            if c["key"] != question.question["answer"]
        )
        answer(
            learner=learner,
            question=question,
            choice=question.question["answer"] if i % 2 else wrong,
        )
    assignments.submit(learner=learner, quiz=attempt)

    quiz = create_quiz(learner=learner, kinds=["weis_value", "stoeck", "trick"], seeds=[3, 4, 5])
    first = quiz.questions.get(position=0)
    answer(learner=learner, question=first, choice=first.question["answer"])

    # the kinds of lessons 15 and 16: the first trick as a timeline, a whole round
    new_kinds = create_quiz(
        learner=learner, kinds=["announce", "announce", "jasstafel"], seeds=[1, 2, 0]
    )
    for question in new_kinds.questions.all():
        answer(learner=learner, question=question, choice=question.question["answer"])

    rounds = assignments.create_assignment(
        teacher=teacher,
        school_class=school_class,
        spec=AssignmentSpec(
            title="Stöck am Tisch",
            kinds=[],
            question_count=0,
            rules_preset="default",
            opens_at=now - timedelta(days=1),
            due_at=now + timedelta(days=1),
            activity=Assignment.Activity.TABLE,
            round_count=2,
            focus="stoeck",
        ),
    )
    round_ = assignments.start_table_round(learner=learner, assignment=rounds)
    for _ in range(3):  # a few moves, so the table shows played cards and a judgement
        move = reference_move(referee(scenario_of(round_), round_.moves))
        table_services.play_move(
            learner=learner, round_=round_, move=move, expected_count=round_.move_count
        )
    return World(
        teacher=teacher,
        learner=learner,
        class_id=school_class.pk,
        assignment_id=assignment.pk,
        rounds_id=rounds.pk,
        quiz_id=quiz.pk,
        round_id=round_.pk,
        new_kinds_id=new_kinds.pk,
    )


WEIS_RESULT = "/weis/?contract=S&rules=default&seat0=H6&seat0=H7&seat0=H8&seat1=C9&seat1=C10"


def pages(world: World) -> dict[str, list[tuple[str, str]]]:
    """Every kind of page, by who looks at it, each with something it must show (so
    the check runs on the state meant: the feedback, not the question; a result, not
    an error)."""
    c, q = world.class_id, world.quiz_id
    return {
        "visitor": [
            ("/", "main h1"),
            ("/accounts/login/", "input[name=password]"),
            ("/accounts/signup/", "input[name=password2]"),
            ("/lessons/", ".course"),
            ("/lessons/rules/", "main h1"),
            ("/lessons/glossary/", ".glossary"),
            ("/lessons/comparison-ladder/", ".lesson-body .example"),
            ("/weis/", ".picker"),
            (WEIS_RESULT + "&seat1=CJ&seat1=CQ", ".verdict"),
            ("/no-such-page/", "main h1"),
        ],
        "learner": [
            ("/dashboard/", ".mastery"),
            ("/lessons/stoeck/", ".lesson-question input[name=choice]"),  # answers count
            ("/practice/", ".practice-form"),
            (f"/practice/{q}/q/0/", ".feedback"),
            (f"/practice/{q}/q/1/", "input[name=choice]"),
            (f"/practice/{q}/summary/", ".summary-list"),
            *((f"/practice/{world.new_kinds_id}/q/{i}/", ".feedback") for i in range(3)),
            ("/lessons/weis-at-the-table/", ".lesson-question input[name=choice]"),
            ("/table/", "main form"),
            (f"/table/{world.round_id}/", "#table-round"),
            ("/classes/mine/", "main h1"),
            ("/classes/join/", "main form"),
        ],
        "teacher": [
            ("/classes/", "main form"),
            (f"/classes/{c}/", ".join-code"),
            (f"/classes/{c}/assignments/new/", "main form"),
            (f"/classes/assignments/{world.assignment_id}/results/", "main table"),
            (f"/classes/assignments/{world.rounds_id}/results/", "main table"),
            (f"/classes/{c}/mastery/", "main table"),
            (f"/classes/{c}/learners/{world.learner.pk}/", "main table"),
            ("/classes/moodle/", "main form"),
        ],
    }


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", WIDTHS)
def test_no_serious_violations_on_any_page(live_server, browser_for, sign_in, width, lang):
    world = build_world()
    users = {"visitor": None, "learner": world.learner, "teacher": world.teacher}
    page = browser_for(width, lang)
    found: list[Violation] = []
    for role, paths in pages(world).items():
        sign_in(page.context, users[role])
        for path, shows in paths:
            response = page.goto(live_server.url + path)
            # The page asked for, in its state and language (not the login form):
            assert response.status == (404 if path == "/no-such-page/" else 200), path
            assert urlsplit(page.url).path == urlsplit(path).path, (path, page.url)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            expect(page.locator(shows).first).to_be_visible()
            found += check(page, f"{path} [{role}, {width} px, {lang}]")
    assert_no_serious(found)


def test_the_check_fails_on_planted_violations(live_server, page: Page):
    """The checker is honest: an image without a text alternative (critical), a scroll
    box a keyboard cannot reach (serious) and two tiny buttons side by side (serious,
    found only because target-size is on) make it fail, naming rule, impact, target
    and page."""
    page.goto(live_server.url + "/")
    assert_no_serious(check(page))
    page.evaluate(
        """() => {
            const main = document.querySelector("main");
            const img = document.createElement("img");
            img.src = "/static/img/favicon.svg";
            img.id = "planted-img";
            const box = document.createElement("div");
            box.id = "planted-scroll";
            Object.assign(box.style, {overflow: "auto", height: "3rem", width: "10rem"});
            box.textContent = "Weis ".repeat(400);
            main.append(img, box);
            for (const id of ["planted-tiny-1", "planted-tiny-2"]) {
                const button = document.createElement("button");
                button.id = id;
                button.textContent = "x";
                Object.assign(button.style, {
                    width: "12px", height: "12px", minHeight: "0", padding: "0",
                    margin: "0", border: "0", fontSize: "8px",
                });
                main.append(button);
            }
        }"""
    )
    found = check(page, "/ (planted)")
    by_rule = {v.rule: v for v in found}
    assert by_rule["image-alt"].impact == "critical"
    assert by_rule["image-alt"].targets == ("#planted-img",)
    assert by_rule["scrollable-region-focusable"].impact == "serious"
    assert by_rule["scrollable-region-focusable"].targets == ("#planted-scroll",)
    assert by_rule["target-size"].impact == "serious"
    assert set(by_rule["target-size"].targets) <= {"#planted-tiny-1", "#planted-tiny-2"}
    with pytest.raises(AssertionError) as failure:
        assert_no_serious(found)
    message = str(failure.value)
    assert "/ (planted): image-alt (critical) at #planted-img" in message
    assert "/ (planted): scrollable-region-focusable (serious) at #planted-scroll" in message
    assert "/ (planted): target-size (serious) at #planted-tiny" in message


# The suit as a reader says it, per language and deck: each card's name must carry it.
SUIT_WORDS = {
    ("de", "swiss"): {"D": "Schellen", "H": "Rosen", "S": "Schilten", "C": "Eichel"},
    ("de", "french"): {"D": "Ecken", "H": "Herz", "S": "Schaufel", "C": "Kreuz"},
    ("en", "swiss"): {"D": "bells", "H": "roses", "S": "shields", "C": "acorns"},
    ("en", "french"): {"D": "diamonds", "H": "hearts", "S": "spades", "C": "clubs"},
    ("fr", "swiss"): {"D": "grelots", "H": "roses", "S": "boucliers", "C": "glands"},
    ("fr", "french"): {"D": "carreau", "H": "cœur", "S": "pique", "C": "trèfle"},
}


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_names_its_suit(live_server, browser_for, sign_in, lang):
    """A card is an image with a name that says its suit and rank, in the reader's
    language and deck, so the suit is never told by colour alone; and each suit is
    drawn with its own symbol (a shape, not a colour)."""
    page = browser_for(1280, lang)
    for deck in ("swiss", "french"):
        sign_in(page.context, LearnerFactory(username=f"deck-{deck}", deck=deck))
        page.goto(live_server.url + "/weis/")
        picker = page.locator('.player-panel[data-seat="0"] .picker')
        cards = picker.locator(".card").evaluate_all(
            """cards => cards.map(c => ({
                code: c.dataset.card, role: c.getAttribute("role"),
                name: c.getAttribute("aria-label"),
                symbol: c.querySelector("use").getAttribute("href").split("#")[1],
            }))"""
        )
        assert len(cards) == 36
        words = SUIT_WORDS[(lang, deck)]
        for card in cards:
            assert card["role"] == "img", card
            assert words[card["code"][0]] in card["name"], (lang, deck, card)
        symbols = {suit: {c["symbol"] for c in cards if c["code"][0] == suit} for suit in words}
        assert all(len(s) == 1 for s in symbols.values()), symbols
        assert len({s.pop() for s in symbols.values()}) == 4  # four suits, four shapes
        # The checkbox behind each picture is named by it.
        snapshot = picker.aria_snapshot()
        named = [line for line in snapshot.splitlines() if "checkbox" in line]
        assert len(named) == 36, snapshot
        for line in named:
            assert any(word in line for word in words.values()), line
