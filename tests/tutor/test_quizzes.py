"""Taking quizzes: answers stored once, nothing foreign reachable, no answer leaked."""

import re

import pytest
from django.core.cache import caches
from django.urls import reverse

from teaching import mastery
from teaching.generators import KINDS, recompute
from tests.factories import LearnerFactory, SkillStateFactory, TeacherFactory
from tutor.core.cards import display_name
from tutor.quizzes.models import Quiz, QuizQuestion, SkillState
from tutor.quizzes.presenters import present
from tutor.quizzes.selectors import suggested_skills
from tutor.quizzes.services import create_quiz

pytestmark = pytest.mark.django_db


@pytest.fixture
def quiz(learner):
    return create_quiz(learner=learner, kinds=list(KINDS), seeds=list(range(len(KINDS))))


def q_url(quiz, position, name="question"):
    return reverse(f"quizzes:{name}", args=[quiz.pk, position])


def right_and_wrong(question):
    data = question.question
    wrong = next(c["key"] for c in data["choices"] if c["key"] != data["answer"])
    return data["answer"], wrong


def strip_csrf(html: str) -> str:
    """Without what changes per request: the CSRF token and the note of when the form
    was drawn (tutor.quizzes.showing)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'name="shown" value="[^"]*"', "", html)
    return re.sub(r'"x-csrftoken": "[^"]+"', "", html)


def test_stored_answers_match_a_fresh_computation(quiz):
    for question in quiz.questions.all():
        data = question.question
        correct = [c for c in data["choices"] if c["value"] == recompute(data)]
        assert [c["key"] for c in correct] == [data["answer"]]


@pytest.mark.parametrize("position", range(len(KINDS)))
def test_answer_is_not_in_the_page_before_answering(client, learner, quiz, position):
    """The page must not depend on the stored answer: swap it and compare the HTML."""
    client.force_login(learner)
    question = quiz.questions.get(position=position)
    before = strip_csrf(client.get(q_url(quiz, position)).content.decode())
    data = question.question
    _right, wrong = right_and_wrong(question)
    data["mistakes"] = {**{k: "x" for k in data["mistakes"]}, data["answer"]: "x"}
    data["mistakes"].pop(wrong)
    data["answer"] = wrong
    data["explanation"] = []
    QuizQuestion.objects.filter(pk=question.pk).update(question=data)
    caches["fragments"].clear()  # render the swapped question afresh, not from the cache
    after = strip_csrf(client.get(q_url(quiz, position)).content.decode())
    assert before == after
    assert "choice--answer" not in before and "feedback" not in before


def test_right_answer_htmx_returns_feedback_partial(client, learner, quiz):
    client.force_login(learner)
    question = quiz.questions.get(position=0)
    right, _wrong = right_and_wrong(question)
    response = client.post(
        q_url(quiz, 0, "answer"), {"choice": right}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert 'class="feedback feedback--right"' in html
    question.refresh_from_db()
    assert question.correct is True and question.answered_choice == right


@pytest.mark.parametrize("outcome", ["right", "wrong", "refused"])
def test_an_htmx_answer_swaps_in_what_the_answer_changes_not_the_question(
    client, learner, quiz, outcome
):
    """The form posts into ``#question-answer`` and the answer sends that part alone
    (issue 24: the question above it is not drawn again): the same markup the page
    then shows there, and never the question's head."""
    client.force_login(learner)
    question = quiz.questions.get(position=0)
    right, wrong = right_and_wrong(question)
    form_page = client.get(q_url(quiz, 0)).content.decode()
    assert 'hx-target="#question-answer"' in form_page
    if outcome == "refused":
        client.post(q_url(quiz, 0, "answer"), {"choice": wrong})
    choice = right if outcome == "right" else wrong
    response = client.post(
        q_url(quiz, 0, "answer"), {"choice": choice}, headers={"HX-Request": "true"}
    )
    html = strip_csrf(response.content.decode()).strip()
    assert response.status_code == (409 if outcome == "refused" else 200)
    assert html.startswith('<div id="question-answer"') and html.endswith("</div>")
    assert "question-title" not in html and "question-head" not in html
    verdict = "feedback--right" if outcome == "right" else "feedback--wrong"
    assert verdict in html and ('role="alert"' in html) == (outcome == "refused")
    page = strip_csrf(client.get(q_url(quiz, 0)).content.decode())
    if outcome != "refused":
        assert html in page


def test_wrong_answer_without_js_redirects_to_feedback_page(client, learner, quiz):
    client.force_login(learner)
    question = quiz.questions.get(position=1)
    _right, wrong = right_and_wrong(question)
    response = client.post(q_url(quiz, 1, "answer"), {"choice": wrong})
    assert response.status_code == 302 and response["Location"] == q_url(quiz, 1)
    page = client.get(q_url(quiz, 1)).content.decode()
    assert "feedback--wrong" in page and "choice--answer" in page
    assert SkillState.objects.get(learner=learner, skill=question.kind).correct == 0


def test_second_answer_is_refused_and_changes_nothing(client, learner, quiz):
    client.force_login(learner)
    question = quiz.questions.get(position=2)
    right, wrong = right_and_wrong(question)
    client.post(q_url(quiz, 2, "answer"), {"choice": wrong})
    state = SkillState.objects.get(learner=learner, skill=question.kind)
    response = client.post(
        q_url(quiz, 2, "answer"), {"choice": right}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 409
    assert "deine erste Antwort zählt" in response.content.decode()
    question.refresh_from_db()
    assert question.answered_choice == wrong and question.correct is False
    state_after = SkillState.objects.get(pk=state.pk)
    assert (state_after.attempts, state_after.mastery) == (state.attempts, state.mastery)


@pytest.mark.parametrize("choice", ["z", "", "a' OR 1=1", "x" * 50])
def test_tampered_choice_is_refused_cleanly(client, learner, quiz, choice):
    client.force_login(learner)
    response = client.post(q_url(quiz, 0, "answer"), {"choice": choice})
    assert response.status_code == 400
    assert not QuizQuestion.objects.filter(answered_at__isnull=False).exists()
    assert not SkillState.objects.exists()


def test_another_learners_quiz_is_404_and_untouched(client, quiz):
    intruder = LearnerFactory()
    client.force_login(intruder)
    assert client.get(q_url(quiz, 0)).status_code == 404
    assert client.get(reverse("quizzes:quiz", args=[quiz.pk])).status_code == 404
    assert client.get(reverse("quizzes:summary", args=[quiz.pk])).status_code == 404
    assert client.post(q_url(quiz, 0, "answer"), {"choice": "a"}).status_code == 404
    assert not QuizQuestion.objects.filter(answered_at__isnull=False).exists()


def test_teacher_and_anonymous_cannot_take_quizzes(client, quiz):
    assert client.get(q_url(quiz, 0)).status_code == 302
    client.force_login(TeacherFactory())
    assert client.get(reverse("quizzes:practice")).status_code == 403
    assert client.post(q_url(quiz, 0, "answer"), {"choice": "a"}).status_code == 403


def test_interrupted_quiz_resumes_at_first_open_question(client, learner, quiz):
    client.force_login(learner)
    for position in (0, 1):
        right, _ = right_and_wrong(quiz.questions.get(position=position))
        client.post(q_url(quiz, position, "answer"), {"choice": right})
    response = client.get(reverse("quizzes:quiz", args=[quiz.pk]))
    assert response["Location"] == q_url(quiz, 2)


def test_finished_quiz_goes_to_summary(client, learner):
    client.force_login(learner)
    quiz = create_quiz(learner=learner, kinds=["trick"], seeds=[7])
    right, _ = right_and_wrong(quiz.questions.get())
    client.post(q_url(quiz, 0, "answer"), {"choice": right})
    assert Quiz.objects.get(pk=quiz.pk).completed_at is not None
    response = client.get(reverse("quizzes:quiz", args=[quiz.pk]))
    assert response["Location"] == reverse("quizzes:summary", args=[quiz.pk])
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "1 of 1 answers right" in client.get(response["Location"]).content.decode()


def test_practice_with_chosen_skills_creates_quiz(client, learner):
    client.force_login(learner)
    response = client.post(
        reverse("quizzes:practice"),
        {"skills": ["stoeck", "target"], "count": 4, "rules": "ausmachregel"},
    )
    quiz = Quiz.objects.get(learner=learner)
    assert response["Location"] == reverse("quizzes:quiz", args=[quiz.pk])
    assert [q.kind for q in quiz.questions.order_by("position")] == ["stoeck", "target"] * 2
    assert quiz.rules["target_order"] == ["stoeck", "weis", "tricks"]


@pytest.mark.parametrize(
    "data",
    [{"count": 0}, {"count": 999}, {"count": 3, "skills": ["nope"]}, {"count": 3, "rules": "x"}],
)
def test_practice_bad_input_is_a_form_error(client, learner, data):
    client.force_login(learner)
    response = client.post(reverse("quizzes:practice"), {"rules": "default", **data})
    assert response.status_code == 200 and response.context["form"].errors
    assert not Quiz.objects.exists()


def test_site_chooses_weakest_skills_first(learner):
    SkillStateFactory(learner=learner, skill="stoeck", mastery=0.05, attempts=5)
    for skill in ("weis_value", "who_writes", "ladder_step", "target", "trick"):
        SkillStateFactory(learner=learner, skill=skill, mastery=0.95, attempts=9)
    assert suggested_skills(learner, 3)[0] == "stoeck"


def test_mastery_rises_with_right_answers_and_falls_with_wrong():
    up = mastery.update(0.5, True)
    down = mastery.update(0.5, False)
    assert down < 0.5 < up


def test_practice_page_shows_mastery_per_skill(client, learner):
    client.force_login(learner)
    page = client.get(
        reverse("quizzes:practice"), headers={"Accept-Language": "en"}
    ).content.decode()
    assert page.count('role="meter"') == len(KINDS)


# --- rendered fragments are cached: the cache must never show the wrong thing ---------


def test_cached_question_follows_the_language_and_the_deck(client, learner, quiz):
    client.force_login(learner)
    url = q_url(quiz, KINDS.index("weis_value"))  # a hand of cards

    def question(page: str) -> str:  # the footer names both decks' suits
        return page.split("<main", 1)[1].split("</main>", 1)[0]

    german = question(client.get(url).content.decode())
    assert "Rosen" in german or "Schellen" in german or "Schilten" in german or "Eicheln" in german
    client.post(reverse("set_deck"), {"deck": "french"})
    french = question(client.get(url).content.decode())
    assert not any(suit in french for suit in ("Rosen", "Schellen", "Schilten", "Eicheln"))
    assert any(suit in french for suit in ("Herz", "Karo", "Pik", "Kreuz"))
    client.post(reverse("set_language"), {"language": "en"})
    english = client.get(url, headers={"Accept-Language": "en"}).content.decode()
    assert "What does the player announce?" in english
    assert "Was meldet" not in english


def test_cached_feedback_shows_each_learners_own_answer(client):
    """Two learners get the same question (same seed); each must see their own choice."""
    anna, ben = LearnerFactory(), LearnerFactory()
    quizzes = {
        who: create_quiz(learner=who, kinds=["ladder_step"], seeds=[7]) for who in (anna, ben)
    }
    right, wrong = right_and_wrong(quizzes[anna].questions.get())
    for who, choice in ((anna, right), (ben, wrong)):
        client.force_login(who)
        client.get(q_url(quizzes[who], 0))  # fills the cache with the question's fragments
        client.post(q_url(quizzes[who], 0, "answer"), {"choice": choice})
    for who, verdict in ((anna, "feedback--right"), (ben, "feedback--wrong")):
        client.force_login(who)
        for _ in range(2):  # the second time from the cache
            page = client.get(q_url(quizzes[who], 0)).content.decode()
            assert verdict in page
            assert page.count("choice--chosen") == 1


def test_classmates_given_the_same_question_share_its_rendering_not_their_links(
    client, monkeypatch
):
    """Issue 24: the card and a choice's feedback are kept under what the question says,
    so a class given the same questions has them rendered once; each pupil's page still
    links to their own quiz, says their own number of questions and marks their choice."""
    from tutor.quizzes import views

    anna, ben = LearnerFactory(), LearnerFactory()
    first = create_quiz(learner=anna, kinds=["ladder_step", "stoeck"], seeds=[7, 8])
    stored = {q.position: q.question for q in first.questions.all()}
    second = create_quiz(learner=ben, kinds=["ladder_step"], seeds=[7], stored=stored)
    right, _wrong = right_and_wrong(first.questions.get(position=0))
    client.force_login(anna)
    client.get(q_url(first, 0))
    client.post(q_url(first, 0, "answer"), {"choice": right}, follow=True)  # her feedback
    presented = []
    monkeypatch.setattr(views, "present", lambda *a, **k: presented.append(a) or present(*a, **k))
    client.force_login(ben)
    card = client.get(q_url(second, 0)).content.decode()
    meta = re.search(r'class="question-meta">([^<·]*)', card).group(1)
    assert meta.split() == ["Frage", "1", "von", "1"]  # Anna's quiz has 2: a head of its own
    assert presented and 'name="choice"' in card
    presented.clear()
    client.post(q_url(second, 0, "answer"), {"choice": right})
    page = client.get(q_url(second, 0)).content.decode()
    assert presented == []  # head, body and this choice's feedback: all kept from Anna's
    assert "feedback--right" in page and page.count("choice--chosen") == 1
    assert reverse("quizzes:summary", args=[second.pk]) in page  # Ben's last question
    assert f"/practice/{first.pk}/" not in page


def test_answering_replaces_the_cached_form_with_the_feedback(client, learner, quiz):
    client.force_login(learner)
    before = client.get(q_url(quiz, 3)).content.decode()
    assert 'name="choice"' in before
    right, _wrong = right_and_wrong(quiz.questions.get(position=3))
    client.post(q_url(quiz, 3, "answer"), {"choice": right})
    after = client.get(q_url(quiz, 3)).content.decode()
    assert 'name="choice"' not in after and "feedback--right" in after


@pytest.mark.parametrize("lang", ["de", "en"])
def test_r1_3_r2_basics_questions_explain_the_card_or_player(client, learner, lang):
    """Every basics case (Puur, Nell, four partners, chooser, first lead, next Vorhand,
    last card): the page names no answer before answering; after a wrong answer the
    explanation names the right card or player and links its rule."""
    quiz = create_quiz(learner=learner, kinds=["basics"] * 10, seeds=list(range(10)))
    client.force_login(learner)
    client.post(reverse("set_language"), {"language": lang, "next": "/"})
    player = {"de": "Spieler", "en": "Player"}[lang]
    for question in quiz.questions.order_by("position"):
        url = q_url(quiz, question.position)
        before = client.get(url).content.decode()
        assert "feedback--" not in before and "rule-ref" not in before
        right, wrong = right_and_wrong(question)
        client.post(q_url(quiz, question.position, "answer"), {"choice": wrong})
        after = client.get(url).content.decode()
        data = question.question
        rule = data["rules_tested"][0]
        assert f'#{rule}">{rule}</a>' in after
        value = data["choices"][ord(right) - ord("a")]["value"]
        if "seat" in value:
            assert f"{player} {value['seat'] + 1}" in after.split("verdict")[-1]
        else:
            name = display_name(value["card"], lang, "swiss")
            trump_name = data["inputs"]["name"]
            says = {
                "de": f"{name} ist {'der' if trump_name == 'Puur' else 'das'} {trump_name}",
                "en": f"{name} is the {trump_name}",
            }[lang]
            assert says in after


def test_next_question_from_htmx_is_the_card_alone_with_title_crumbs_and_address(
    client, learner, quiz
):
    """«Next question» with htmx: the quiz's resume redirect leads to the next card
    without the page around it; the address bar, title and breadcrumb follow."""
    client.force_login(learner)
    first = quiz.questions.get(position=0)
    client.post(q_url(quiz, 0, "answer"), {"choice": first.question["answer"]})
    response = client.get(
        reverse("quizzes:quiz", args=[quiz.pk]), headers={"HX-Request": "true"}, follow=True
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Push-Url"] == q_url(quiz, 1)
    assert html.lstrip().startswith("<title>") and "<html" not in html and "main-nav" not in html
    assert 'id="question-card"' in html and "autofocus" in html
    assert 'id="question-crumbs"' in html and 'hx-swap-oob="true"' in html
    # Showing it wrote nothing: the form notes when it was drawn (tutor.quizzes.showing).
    assert quiz.questions.get(position=1).shown_at is None
    assert 'name="shown" value="' in html
    # Without htmx the same address is the whole page.
    page = client.get(q_url(quiz, 1)).content.decode()
    assert "<html" in page and "hx-swap-oob" not in page and "autofocus" not in page


def test_a_card_swapped_in_by_htmx_posts_with_the_pages_token_as_a_header(learner, quiz):
    """The form carries the CSRF token as a field on the page (which works without
    JavaScript); a card htmx swapped in carries none, and its htmx post passes the check
    with the page's token, which htmx sends as a header (the body's hx-headers). Without
    the token the post is refused and stores nothing (issue 24)."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    page = client.get(q_url(quiz, 0)).content.decode()
    assert 'name="csrfmiddlewaretoken"' in page
    token = re.search(r'"x-csrftoken": "([^"]+)"', page).group(1)
    htmx = {"HX-Request": "true"}
    card = client.get(q_url(quiz, 1), headers=htmx).content.decode()
    assert 'id="question-card"' in card and "csrfmiddlewaretoken" not in card
    second = quiz.questions.get(position=1)
    choice = second.question["answer"]
    refused = client.post(q_url(quiz, 1, "answer"), {"choice": choice}, headers=htmx)
    assert refused.status_code == 403 and not QuizQuestion.objects.get(pk=second.pk).answered
    answered = client.post(
        q_url(quiz, 1, "answer"), {"choice": choice}, headers={**htmx, "X-CSRFToken": token}
    )
    assert answered.status_code == 200 and QuizQuestion.objects.get(pk=second.pk).correct


def next_links(html: str) -> list[tuple[str, str | None]]:
    """The card's «Next question» / «See the summary» buttons: (href, hx-get)."""
    found = re.findall(
        r'<p class="next">\s*<a class="button" href="([^"]+)"( hx-get="([^"]+)")?', html
    )
    return [(href, hx or None) for href, _attr, hx in found]


@pytest.mark.parametrize("htmx", [True, False])
def test_next_question_links_straight_to_the_first_open_question(client, learner, quiz, htmx):
    """«Next question» goes where the quiz's resume would redirect (its first open
    question), without the redirect: one request fewer per question (issue 24)."""
    client.force_login(learner)
    headers = {"HX-Request": "true"} if htmx else {}
    summary = reverse("quizzes:summary", args=[quiz.pk])
    total = quiz.questions.count()

    def answer_and_links(position):
        question = quiz.questions.get(position=position)
        response = client.post(
            q_url(quiz, position, "answer"),
            {"choice": question.question["answer"]},
            headers=headers,
            follow=not htmx,
        )
        assert response.status_code == 200
        return next_links(response.content.decode())

    def resumes_at():
        response = client.get(reverse("quizzes:quiz", args=[quiz.pk]))
        return response.url

    # In order: the next question; the resume agrees.
    assert answer_and_links(0) == [(q_url(quiz, 1), q_url(quiz, 1))]
    assert resumes_at() == q_url(quiz, 1)
    # Question 2 skipped, 3 answered: the link goes back to 2, as the resume does.
    assert answer_and_links(2) == [(q_url(quiz, 1), q_url(quiz, 1))]
    assert resumes_at() == q_url(quiz, 1)
    for position in range(3, total - 1):
        answer_and_links(position)
    # The last one answered while 2 is still open: its summary link (as before).
    assert answer_and_links(total - 1) == [(summary, None)]
    # 2 answered last, none open: the summary, not «Next question».
    links = answer_and_links(1)
    assert links == [(summary, None)]
    assert resumes_at() == summary


def test_next_question_from_htmx_after_the_last_goes_to_the_summary_page(client, learner, quiz):
    client.force_login(learner)
    for question in quiz.questions.all():
        client.post(
            q_url(quiz, question.position, "answer"), {"choice": question.question["answer"]}
        )
    response = client.get(reverse("quizzes:quiz", args=[quiz.pk]), headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert response["HX-Redirect"] == reverse("quizzes:summary", args=[quiz.pk])
    assert client.get(reverse("quizzes:quiz", args=[quiz.pk])).status_code == 302


def test_the_largest_id_and_position_are_a_404_not_a_500(client, learner, quiz):
    """The URLs take numbers up to 2^63 - 1; the compiled question query binds them as
    they come (no range check of the ORM's in between), and the database finds nothing."""
    from tutor.core.converters import MAX_ID

    client.force_login(learner)
    for quiz_id, position in ((quiz.pk, MAX_ID), (MAX_ID, 0), (MAX_ID, MAX_ID)):
        assert client.get(reverse("quizzes:question", args=[quiz_id, position])).status_code == 404
        posted = client.post(
            reverse("quizzes:answer", args=[quiz_id, position]),
            {"choice": "a"},
            headers={"HX-Request": "true"},
        )
        assert posted.status_code == 404
    assert not quiz.questions.filter(answered_at__isnull=False).exists()  # nothing stored


def test_the_summary_marks_a_quiz_complete_that_two_last_answers_left_unmarked(
    client, learner, quiz
):
    """On PostgreSQL the last two answers of a quiz posted at the same instant (two
    tabs) can each still see the other's question open, and neither marks the quiz
    complete; the summary finds every question answered and marks it, at the last
    answer. A quiz with a question open stays unmarked."""
    client.force_login(learner)
    questions = list(quiz.questions.order_by("position"))
    for question in questions[:-1]:
        client.post(
            q_url(quiz, question.position, "answer"), {"choice": right_and_wrong(question)[0]}
        )
    client.get(reverse("quizzes:summary", args=[quiz.pk]))
    quiz.refresh_from_db()
    assert quiz.completed_at is None
    last = questions[-1]
    client.post(q_url(quiz, last.position, "answer"), {"choice": right_and_wrong(last)[1]})
    quiz.refresh_from_db()
    assert quiz.completed_at is not None  # the answer marked it
    Quiz.objects.filter(pk=quiz.pk).update(completed_at=None)  # as the race leaves it
    assert client.get(reverse("quizzes:summary", args=[quiz.pk])).status_code == 200
    quiz.refresh_from_db()
    last.refresh_from_db()
    assert quiz.completed_at == max(q.answered_at for q in quiz.questions.all()) == last.answered_at
