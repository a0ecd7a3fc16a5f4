"""Live in class (issue 25): the teacher's steps, the pupils' answers and what each
page shows in each phase; answers stored once, nothing about correctness before the
reveal, and every page limited to the class's teacher and pupils."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import LearnerFactory, MembershipFactory, TeacherFactory
from tutor.classroom.models import Assignment, LiveSession
from tutor.core.explain import contract_label
from tutor.live import selectors, services
from tutor.live.services import Action, LiveError, LiveSpec, StaleStep
from tutor.quizzes import selectors as quiz_selectors
from tutor.quizzes.models import QuizQuestion, SkillState
from tutor.quizzes.services import AlreadyAnswered, AttemptClosed

pytestmark = pytest.mark.django_db

Phase = LiveSession.Phase


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def pupils(school_class):
    return [MembershipFactory(school_class=school_class).learner for _ in range(3)]


@pytest.fixture
def session(teacher, school_class):
    return services.start_live(
        teacher=teacher,
        school_class=school_class,
        spec=LiveSpec(kinds=["who_writes", "stoeck"], question_count=3),
    )


def step(teacher, session, action):
    return services.advance(
        teacher=teacher, session=session, action=action, version=session.version
    )


def right_and_wrong(session, position):
    data = session.questions[position]
    right = data["answer"]
    wrong = next(c["key"] for c in data["choices"] if c["key"] != right)
    return right, wrong


def login(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


# --- services ------------------------------------------------------------------------


def test_start_makes_a_live_assignment_in_the_lobby(session, school_class):
    assignment = session.assignment
    assert assignment.activity == Assignment.Activity.LIVE
    assert assignment.school_class == school_class
    assert session.phase == Phase.LOBBY
    assert len(session.questions) == 3
    assert [q["kind"] for q in session.questions] == ["who_writes", "stoeck", "who_writes"]
    assert re.fullmatch(r"[A-Z2-9]{6}", session.code)


def test_a_lesson_s_questions_are_aimed_at_its_rules(teacher, school_class):
    session = services.start_live(
        teacher=teacher,
        school_class=school_class,
        spec=LiveSpec(kinds=[], question_count=4, lesson="kreuzweis"),
    )
    assert [q["kind"] for q in session.questions] == ["weis_value"] * 4
    assert all("R5.3" in q["rules_tested"] for q in session.questions)


def test_a_table_s_positions_are_asked_in_turn(teacher, school_class, pupils):
    session = services.start_live(
        teacher=teacher,
        school_class=school_class,
        spec=LiveSpec(
            kinds=["stoeck"], question_count=5, focus="stoeck", asks=("jasstafel", "play")
        ),
    )
    assert session.assignment.kinds == ["trick", "jasstafel"]
    tables = [q["prompt"]["table"] for q in session.questions]
    assert [t["ask"] for t in tables] == ["play", "jasstafel", "play", "jasstafel", "play"]
    assert {t["focus"] for t in tables} == {"stoeck"} and tables[0]["round"] == 0
    services.join_live(learner=pupils[0], session=session)
    session = step(teacher, session, Action.BEGIN)
    right, _wrong = right_and_wrong(session, 0)
    outcome = services.answer_live(learner=pupils[0], session=session, position=0, choice=right)
    assert outcome.question.correct
    phone = login(pupils[0]).get(reverse("live:pupil", args=[session.pk])).content.decode()
    player = f"Player {tables[0]['seat'] + 1}"
    assert f"Round 1 at the table, trick {tables[0]['trick'] + 1}: {player}" in phone
    # The contract decides the legal cards and the melds: both views name it.
    trump = contract_label(session.questions[0]["inputs"]["contract"], "swiss")
    projector = login(teacher).get(reverse("live:projector", args=[session.pk]))
    assert trump in phone and trump in projector.content.decode()


def test_only_the_class_teacher_starts_and_steps(session, school_class):
    other = TeacherFactory()
    with pytest.raises(LiveError):
        services.start_live(
            teacher=other,
            school_class=school_class,
            spec=LiveSpec(kinds=["stoeck"], question_count=1),
        )
    with pytest.raises(LiveError):
        step(other, session, Action.BEGIN)


@pytest.mark.parametrize(
    "spec",
    [
        LiveSpec(kinds=[], question_count=3),
        LiveSpec(kinds=["nonsense"], question_count=3),
        LiveSpec(kinds=["stoeck"], question_count=0),
        LiveSpec(kinds=["stoeck"], question_count=31),
        LiveSpec(kinds=["stoeck"], question_count=3, timer_seconds=7),
        LiveSpec(kinds=["stoeck"], question_count=3, rules_preset="nonsense"),
        LiveSpec(kinds=[], question_count=3, lesson="no-such-lesson"),
        LiveSpec(kinds=[], question_count=3, focus="nonsense", asks=("play",)),
        LiveSpec(kinds=[], question_count=3, focus="weis", asks=()),
        LiveSpec(kinds=[], question_count=3, focus="weis", asks=("bid",)),
        LiveSpec(kinds=[], question_count=3, focus="weis", asks=("play",), lesson="kreuzweis"),
        LiveSpec(kinds=[], question_count=3, focus="undenufe", asks=("jasstafel",)),
    ],
)
def test_start_refuses_a_bad_spec(teacher, school_class, spec):
    with pytest.raises(LiveError):
        services.start_live(teacher=teacher, school_class=school_class, spec=spec)
    assert not Assignment.objects.exists()


def test_steps_go_lobby_ask_reveal_next_then_finish(teacher, session):
    session = step(teacher, session, Action.BEGIN)
    assert (session.phase, session.position) == (Phase.ASKING, 0)
    session = step(teacher, session, Action.REVEAL)
    assert session.phase == Phase.REVEALED
    session = step(teacher, session, Action.NEXT)
    assert (session.phase, session.position) == (Phase.ASKING, 1)
    for _ in range(2):
        session = step(teacher, step(teacher, session, Action.REVEAL), Action.NEXT)
    assert session.phase == Phase.FINISHED
    with pytest.raises(LiveError):
        step(teacher, session, Action.BEGIN)


def test_a_step_that_does_not_fit_the_phase_is_refused(teacher, session):
    with pytest.raises(LiveError):
        step(teacher, session, Action.REVEAL)  # nothing asked yet
    session = step(teacher, session, Action.BEGIN)
    with pytest.raises(LiveError):
        step(teacher, session, Action.NEXT)  # not shown yet


def test_a_double_click_moves_the_session_once(teacher, session):
    shown = session.version
    step(teacher, session, Action.BEGIN)
    stale = LiveSession.objects.get(pk=session.pk)
    stale.version = shown  # a second tab drawn before the first step
    stale.phase = Phase.LOBBY
    with pytest.raises(StaleStep):
        services.advance(teacher=teacher, session=stale, action=Action.BEGIN, version=shown)
    session.refresh_from_db()
    assert (session.phase, session.position, session.version) == (Phase.ASKING, 0, shown + 1)


def test_joining_twice_keeps_one_attempt_with_the_projected_questions(session, pupils):
    first = services.join_live(learner=pupils[0], session=session)
    again = services.join_live(learner=pupils[0], session=session)
    assert first.pk == again.pk
    stored = [q.question for q in first.questions.order_by("position")]
    assert stored == session.questions


def test_outsiders_cannot_join_but_can_join_the_class_with_the_code(session):
    outsider = LearnerFactory()
    with pytest.raises(LiveError):
        services.join_live(learner=outsider, session=session)
    quiz = services.join_class_and_live(learner=outsider, session=session)
    assert quiz.learner == outsider
    assert session.assignment.school_class.learners.filter(pk=outsider.pk).exists()


def test_teachers_do_not_answer(session, teacher):
    with pytest.raises(LiveError):
        services.join_live(learner=teacher, session=session)


def test_only_the_question_asked_takes_answers(teacher, session, pupils):
    pupil = pupils[0]
    services.join_live(learner=pupil, session=session)
    right, _wrong = right_and_wrong(session, 0)
    with pytest.raises(AttemptClosed):  # still in the lobby
        services.answer_live(learner=pupil, session=session, position=0, choice=right)
    session = step(teacher, session, Action.BEGIN)
    future_right, _ = right_and_wrong(session, 1)
    with pytest.raises(AttemptClosed):  # not asked yet
        services.answer_live(learner=pupil, session=session, position=1, choice=future_right)
    services.answer_live(learner=pupil, session=session, position=0, choice=right)
    with pytest.raises(AlreadyAnswered):
        services.answer_live(learner=pupil, session=session, position=0, choice=right)
    session = step(teacher, session, Action.REVEAL)
    other = pupils[1]
    services.join_live(learner=other, session=session)
    with pytest.raises(AttemptClosed):  # shown: too late
        services.answer_live(learner=other, session=session, position=0, choice=right)
    answered = QuizQuestion.objects.filter(
        quiz__assignment=session.assignment, answered_at__isnull=False
    )
    assert list(answered.values_list("quiz__learner", "position")) == [(pupil.pk, 0)]


def test_the_timer_closes_the_question(teacher, school_class, pupils):
    session = services.start_live(
        teacher=teacher,
        school_class=school_class,
        spec=LiveSpec(kinds=["stoeck"], question_count=1, timer_seconds=15),
    )
    services.join_live(learner=pupils[0], session=session)
    session = step(teacher, session, Action.BEGIN)
    LiveSession.objects.filter(pk=session.pk).update(
        asked_at=timezone.now() - timezone.timedelta(seconds=16)
    )
    session.refresh_from_db()
    right, _ = right_and_wrong(session, 0)
    with pytest.raises(AttemptClosed):
        services.answer_live(learner=pupils[0], session=session, position=0, choice=right)
    assert selectors.poll_token(session, timezone.now()).endswith("-0")


def test_answers_count_toward_mastery_when_the_session_ends(teacher, session, pupils):
    pupil = pupils[0]
    services.join_live(learner=pupil, session=session)
    session = step(teacher, session, Action.BEGIN)
    right, _ = right_and_wrong(session, 0)
    services.answer_live(learner=pupil, session=session, position=0, choice=right)
    # Mastery shows on every page: it may not move before the answers are released.
    assert not SkillState.objects.filter(learner=pupil).exists()
    assert quiz_selectors.skill_states([pupil.pk], timezone.now()) == {}
    session = step(teacher, session, Action.FINISH)
    state = SkillState.objects.get(learner=pupil)
    assert (state.skill, state.attempts, state.correct) == ("who_writes", 1, 1)
    assert session.assignment.is_closed(timezone.now())
    # Handed in at the end: the class's results score it as submitted work.
    assert session.assignment.attempts.get(learner=pupil).submitted_at is not None


def test_distribution_and_summary_count_every_answer(teacher, session, pupils):
    for pupil in pupils:
        services.join_live(learner=pupil, session=session)
    session = step(teacher, session, Action.BEGIN)
    right, wrong = right_and_wrong(session, 0)
    for pupil, choice in zip(pupils, [right, wrong, wrong], strict=True):
        services.answer_live(learner=pupil, session=session, position=0, choice=choice)
    session = step(teacher, session, Action.REVEAL)
    view = selectors.question_view(session, 0, reveal=True, deck="swiss")
    counts = {c.key: (c.count, c.right) for c in selectors.distribution(session, 0, view)}
    assert counts[right] == (1, True)
    assert counts[wrong] == (2, False)
    assert sum(n for n, _ in counts.values()) == 3
    (first,) = selectors.summary(session, deck="swiss")
    assert (first.answered, first.right, first.facility) == (3, 1, 33)
    assert [c.key for c in first.wrong_choices] == [wrong]
    assert selectors.counts(session) == selectors.Counts(joined=3, answered=3)


def test_leaderboard_shows_first_names_of_revealed_questions_only(teacher, school_class):
    session = services.start_live(
        teacher=teacher,
        school_class=school_class,
        spec=LiveSpec(kinds=["stoeck"], question_count=2, leaderboard=True),
    )
    anna = MembershipFactory(school_class=school_class, learner__first_name="Anna").learner
    services.join_live(learner=anna, session=session)
    session = step(teacher, session, Action.BEGIN)
    right, _ = right_and_wrong(session, 0)
    services.answer_live(learner=anna, session=session, position=0, choice=right)
    session = step(teacher, step(teacher, session, Action.REVEAL), Action.NEXT)
    right1, _ = right_and_wrong(session, 1)
    services.answer_live(learner=anna, session=session, position=1, choice=right1)
    # Question 2 is not shown yet: it does not count on the board.
    assert selectors.leaderboard(session, 0) == [selectors.Standing("Anna", 1)]


# --- pages ---------------------------------------------------------------------------


def test_teacher_starts_from_the_form_and_lands_on_the_projector(teacher, school_class):
    client = login(teacher)
    page = client.get(reverse("live:start", args=[school_class.pk]))
    assert page.status_code == 200
    response = client.post(
        reverse("live:start", args=[school_class.pk]),
        {
            "kinds": ["stoeck"],
            "question_count": "4",
            "rules_preset": "default",
            "timer_seconds": "0",
        },
    )
    session = LiveSession.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("live:projector", args=[session.pk])
    projector = client.get(response["Location"])
    assert session.code in projector.content.decode()
    assert "<svg" in projector.content.decode()  # the QR code


def test_start_form_reports_bad_input(teacher, school_class):
    client = login(teacher)
    response = client.post(
        reverse("live:start", args=[school_class.pk]),
        {"question_count": "999", "rules_preset": "default", "timer_seconds": "3"},
    )
    assert response.status_code == 400
    assert not LiveSession.objects.exists()
    assert "Choose at least one question kind, or a lesson." in response.content.decode()


def test_pages_are_limited_to_the_class(session, pupils):
    other_teacher = login(TeacherFactory())
    outsider = login(LearnerFactory())
    pupil = login(pupils[0])
    for name in ("projector", "summary"):
        assert other_teacher.get(reverse(f"live:{name}", args=[session.pk])).status_code == 404
        assert pupil.get(reverse(f"live:{name}", args=[session.pk])).status_code == 403
    assert (
        other_teacher.post(
            reverse("live:control", args=[session.pk]),
            {"action": "begin", "version": session.version},
        ).status_code
        == 404
    )
    for name in ("pupil",):
        assert outsider.get(reverse(f"live:{name}", args=[session.pk])).status_code == 404
    assert (
        outsider.post(
            reverse("live:answer", args=[session.pk]), {"position": 0, "choice": "a"}
        ).status_code
        == 404
    )
    assert outsider.post(reverse("live:enter", args=[session.pk])).status_code == 404
    session.refresh_from_db()
    assert session.phase == Phase.LOBBY


def test_code_join_for_members_and_the_offer_for_others(session, pupils):
    pupil = login(pupils[0])
    response = pupil.post(reverse("live:join"), {"code": session.code.lower()})
    assert response.status_code == 302
    assert response["Location"] == reverse("live:pupil", args=[session.pk])
    outsider_user = LearnerFactory()
    outsider = login(outsider_user)
    offer = outsider.post(reverse("live:join"), {"code": session.code})
    assert offer.status_code == 200
    assert session.assignment.school_class.name in offer.content.decode()
    assert not session.assignment.attempts.filter(learner=outsider_user).exists()
    joined = outsider.post(reverse("live:join"), {"code": session.code, "join_class": "1"})
    assert joined.status_code == 302
    assert session.assignment.attempts.filter(learner=outsider_user).exists()
    unknown = pupil.post(reverse("live:join"), {"code": "ZZZZZZ"})
    assert unknown.status_code == 400
    assert "No live session is running with this code." in unknown.content.decode()


def test_no_correctness_reaches_the_phone_before_the_reveal(teacher, session, pupils):
    user = pupils[0]
    pupil = login(user)
    pupil.post(reverse("live:enter", args=[session.pk]))
    session = step(teacher, session, Action.BEGIN)
    right, wrong = right_and_wrong(session, 0)
    response = pupil.post(
        reverse("live:answer", args=[session.pk]),
        {"position": 0, "choice": wrong},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Your answer is saved" in html
    for telltale in ("Right!", "Not quite", "correct answer", "feedback--", "Step by step"):
        assert telltale not in html
    page = pupil.get(reverse("live:pupil", args=[session.pk])).content.decode()
    for telltale in ("Right!", "Not quite", "correct answer", "feedback--"):
        assert telltale not in page
    # The quiz's own pages send the pupil back to the live page.
    quiz = session.assignment.attempts.get(learner=user)
    redirect = pupil.get(reverse("quizzes:question", args=[quiz.pk, 1]))
    assert redirect["Location"] == reverse("live:pupil", args=[session.pk])
    session = step(teacher, session, Action.REVEAL)
    shown = pupil.get(reverse("live:pupil", args=[session.pk])).content.decode()
    assert "Not quite" in shown and "correct answer" in shown


def test_the_phone_answers_without_javascript(teacher, session, pupils):
    pupil = login(pupils[0])
    pupil.post(reverse("live:enter", args=[session.pk]))
    session = step(teacher, session, Action.BEGIN)
    right, _ = right_and_wrong(session, 0)
    response = pupil.post(
        reverse("live:answer", args=[session.pk]), {"position": 0, "choice": right}
    )
    assert response.status_code == 302
    page = pupil.get(response["Location"]).content.decode()
    assert "Your answer is saved." in page
    again = pupil.post(reverse("live:answer", args=[session.pk]), {"position": 0, "choice": right})
    assert "your first answer counts" in pupil.get(again["Location"]).content.decode()
    bad = pupil.post(reverse("live:answer", args=[session.pk]), {"position": "x"})
    assert bad.status_code == 302  # with a message, the answer unchanged
    assert QuizQuestion.objects.filter(answered_at__isnull=False).count() == 1


def test_polls_answer_nothing_changed_until_the_session_moves(teacher, session, pupils):
    pupil = login(pupils[0])
    pupil.post(reverse("live:enter", args=[session.pk]))
    url = reverse("live:pupil", args=[session.pk])
    token = selectors.poll_token(session, timezone.now())
    assert pupil.get(url, {"token": token}, HTTP_HX_REQUEST="true").status_code == 204
    session = step(teacher, session, Action.BEGIN)
    moved = pupil.get(url, {"token": token}, HTTP_HX_REQUEST="true")
    assert moved.status_code == 200
    assert 'id="stage"' in moved.content.decode()
    assert "<html" not in moved.content.decode()
    projector = login(teacher)
    purl = reverse("live:projector", args=[session.pk])
    first = projector.get(purl, HTTP_HX_REQUEST="true").content.decode()
    ptoken = re.search(r"token=([0-9-]+)", first).group(1)
    assert projector.get(purl, {"token": ptoken}, HTTP_HX_REQUEST="true").status_code == 204
    right, _ = right_and_wrong(session, 0)
    services.answer_live(learner=pupils[0], session=session, position=0, choice=right)
    assert projector.get(purl, {"token": ptoken}, HTTP_HX_REQUEST="true").status_code == 200


def test_projector_steps_without_javascript_and_a_stale_post_is_harmless(teacher, session):
    client = login(teacher)
    url = reverse("live:control", args=[session.pk])
    first = client.post(url, {"action": "begin", "version": session.version})
    assert first.status_code == 302
    again = client.post(url, {"action": "begin", "version": session.version})
    assert again.status_code == 302
    session.refresh_from_db()
    assert (session.phase, session.position) == (Phase.ASKING, 0)
    bad = client.post(url, {"action": "explode", "version": "x"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400


def test_dashboard_lists_running_sessions_and_hides_them_from_due_work(session, pupils, teacher):
    client = login(pupils[0])
    page = client.get(reverse("dashboard")).content.decode()
    assert reverse("live:pupil", args=[session.pk]) in page
    step(teacher, session, Action.FINISH)
    page = client.get(reverse("dashboard")).content.decode()
    assert reverse("live:pupil", args=[session.pk]) not in page
    assert reverse("classroom:assignment_start", args=[session.pk]) not in page


def test_results_list_the_live_session_as_an_activity(teacher, session, school_class):
    client = login(teacher)
    page = client.get(reverse("classroom:class_detail", args=[school_class.pk])).content.decode()
    assert "Live in class" in page
    assert reverse("live:projector", args=[session.pk]) in page
    assert client.get(reverse("classroom:assignment_results", args=[session.pk])).status_code == 200


def test_teacher_starts_a_lesson_s_questions_from_the_form(teacher, school_class):
    from tutor.lessons.services import load_course

    load_course()
    client = login(teacher)
    page = client.get(reverse("live:start", args=[school_class.pk])).content.decode()
    assert re.search(r'<select name="lesson"[^>]*>(?:(?!</select>).)*value="kreuzweis"', page, re.S)
    response = client.post(
        reverse("live:start", args=[school_class.pk]),
        {
            "lesson": "kreuzweis",
            "question_count": "2",
            "rules_preset": "default",
            "timer_seconds": "0",
        },
    )
    assert response.status_code == 302
    session = LiveSession.objects.get()
    assert session.assignment.kinds == ["weis_value"]
    unknown = client.post(
        reverse("live:start", args=[school_class.pk]),
        {"lesson": "nope", "question_count": "2", "rules_preset": "default", "timer_seconds": "0"},
    )
    assert unknown.status_code == 400


def test_teacher_starts_table_positions_from_the_form(teacher, school_class):
    client = login(teacher)
    page = client.get(reverse("live:start", args=[school_class.pk])).content.decode()
    assert re.search(r'<select name="focus"[^>]*>.*<option value="undenufe">', page, re.S)
    assert 'name="asks" value="play"' in page
    form = {"question_count": "3", "rules_preset": "w-en", "timer_seconds": "0"}
    start = reverse("live:start", args=[school_class.pk])
    no_asks = client.post(start, {**form, "focus": "undenufe"})
    assert no_asks.status_code == 400
    assert "Choose at least one moment to ask about." in no_asks.content.decode()
    both = client.post(start, {**form, "focus": "undenufe", "asks": ["play"], "lesson": "x"})
    assert both.status_code == 400 and not LiveSession.objects.exists()
    no_stoeck = client.post(start, {**form, "focus": "undenufe", "asks": ["jasstafel"]})
    assert no_stoeck.status_code == 400
    assert "Undenufe has no trump and so no Stöck" in no_stoeck.content.decode()
    response = client.post(start, {**form, "focus": "undenufe", "asks": ["announce", "play"]})
    assert response.status_code == 302
    session = LiveSession.objects.get()
    assert [q["kind"] for q in session.questions] == ["announce", "trick", "announce"]
    assert session.assignment.rules_preset == "w-en"
    assert {q["inputs"]["contract"] for q in session.questions} == {"undenufe"}


def test_the_phone_notes_when_the_question_was_first_shown(teacher, session, pupils):
    pupil = login(pupils[0])
    pupil.post(reverse("live:enter", args=[session.pk]))
    question = QuizQuestion.objects.get(quiz__learner=pupils[0], position=0)
    pupil.get(reverse("live:pupil", args=[session.pk]))
    question.refresh_from_db()
    assert question.shown_at is None  # still in the lobby: not shown
    step(teacher, session, Action.BEGIN)
    pupil.get(reverse("live:pupil", args=[session.pk]))
    question.refresh_from_db()
    assert question.shown_at is not None


def test_selectors_only_read_and_a_poll_that_finds_nothing_is_two_queries(teacher, session, pupils):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    services.join_live(learner=pupils[0], session=session)
    session = step(teacher, session, Action.BEGIN)
    right, _ = right_and_wrong(session, 0)
    services.answer_live(learner=pupils[0], session=session, position=0, choice=right)
    session = step(teacher, session, Action.REVEAL)
    now = timezone.now()
    with CaptureQueriesContext(connection) as queries:
        view = selectors.question_view(session, 0, reveal=True, deck="swiss")
        selectors.distribution(session, 0, view)
        selectors.counts(session)
        selectors.leaderboard(session, 0)
        selectors.summary(session, deck="swiss")
        selectors.pupil_stage(session, pupils[0], deck="swiss", now=now)
        selectors.poll_token(session, now)
    writes = [q["sql"] for q in queries if re.match(r"\s*(INSERT|UPDATE|DELETE)", q["sql"], re.I)]
    assert writes == []
    pupil = login(pupils[0])
    url = reverse("live:pupil", args=[session.pk])
    token = selectors.poll_token(session, timezone.now())
    with CaptureQueriesContext(connection) as poll:
        response = pupil.get(url, {"token": token}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    # The session row with its user, the live session with its class: nothing is drawn.
    assert len(poll) == 2, [q["sql"] for q in poll]


def test_an_answer_checked_before_the_reveal_but_stored_after_it_is_refused(
    teacher, session, pupils
):
    from tutor.quizzes.services import NotAsked, answer

    services.join_live(learner=pupils[0], session=session)
    session = step(teacher, session, Action.BEGIN)
    question = QuizQuestion.objects.select_related("quiz__assignment__live").get(
        quiz__learner=pupils[0], position=0
    )
    assert question.quiz.assignment.live.phase == Phase.ASKING  # what the request read
    step(teacher, session, Action.REVEAL)  # meanwhile, the teacher shows the answer
    right, _ = right_and_wrong(session, 0)
    with pytest.raises(NotAsked):
        answer(learner=pupils[0], question=question, choice=right)
    question.refresh_from_db()
    assert question.answered_at is None


def test_the_phones_poll_reads_one_row_and_says_only_moved_or_not(teacher, session, pupils):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    pupil = login(pupils[0])
    pupil.post(reverse("live:enter", args=[session.pk]))
    page = pupil.get(reverse("live:pupil", args=[session.pk])).content.decode()
    poll_url = (
        re.search(r'class="live-poller" hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")
    )
    assert poll_url.startswith(reverse("live:poll", args=[session.pk]))
    with CaptureQueriesContext(connection) as queries:
        still = pupil.get(poll_url, HTTP_HX_REQUEST="true")
    assert still.status_code == 204 and "HX-Trigger" not in still
    assert len(queries) == 1, [q["sql"] for q in queries]  # the pace row: no session, no user
    step(teacher, session, Action.BEGIN)
    moved = Client().get(poll_url)  # the ticket is the credential; it says nothing else
    assert moved.status_code == 204 and moved["HX-Trigger"] == "live-moved"
    assert moved.content == b""
    other = services.start_live(
        teacher=teacher,
        school_class=session.assignment.school_class,
        spec=LiveSpec(kinds=["stoeck"], question_count=1),
    )
    forged = poll_url.replace(f"/live/{session.pk}/", f"/live/{other.pk}/")
    assert Client().get(forged).status_code == 400
    assert (
        Client().get(reverse("live:poll", args=[session.pk]), {"ticket": "x:y"}).status_code == 400
    )
    assert Client().get(reverse("live:poll", args=[session.pk])).status_code == 400


def test_summary_lists_only_the_questions_asked_when_ended_early(teacher, session, pupils):
    assert selectors.summary(session, deck="swiss") == []  # nothing asked yet
    services.join_live(learner=pupils[0], session=session)
    session = step(teacher, session, Action.BEGIN)
    right, _ = right_and_wrong(session, 0)
    services.answer_live(learner=pupils[0], session=session, position=0, choice=right)
    session = step(teacher, session, Action.FINISH)  # after question 1 of 3
    (only,) = selectors.summary(session, deck="swiss")
    assert (only.number, only.answered, only.right) == (1, 1, 1)
