"""Issue 22: what the third probe of accounts, privacy and table pages found
(`../shared/reviews/security-2026-12-04.md`). Each test failed before its fix."""

from __future__ import annotations

import importlib
import json
import re
import time
from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps as django_apps
from django.contrib.auth import authenticate as django_authenticate
from django.core import mail
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from teaching.table import Scenario, referee, reference_move
from tests.factories import (
    PASSWORD,
    AssignmentFactory,
    LearnerFactory,
    MembershipFactory,
    SchoolClassFactory,
    TableRoundFactory,
    TeacherFactory,
)
from tests.tutor.test_setup import run_python
from tutor.accounts.models import User, UserSession
from tutor.accounts.sessions import SessionStore, user_id_of
from tutor.classroom import assignments
from tutor.classroom.roster_views import CARDS_SESSION_KEY
from tutor.quizzes.models import SkillState
from tutor.table import services as table_services
from tutor.table.forms import post_data

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Stoeck-und-Weis-7"


@pytest.fixture
def quick_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def authenticate(username: str, password: str) -> bool:
    return (
        django_authenticate(RequestFactory().post("/"), username=username, password=password)
        is not None
    )


def check_and_create(client, school_class, text):
    """Post the pupils' names to "Check", then "Create" with the digest the page gave."""
    url = reverse("roster:roster", args=[school_class.pk])
    preview = client.post(url, {"names": text}).content.decode()
    digest = re.search(r'name="confirm" value="([0-9a-f]+)"', preview).group(1)
    return client.post(url, {"names": text, "confirm": digest})


def cards_url(school_class):
    return reverse("roster:cards", args=[school_class.pk])


def card_values(html: str) -> list[tuple[str, str, str]]:
    """(name, user name, password) of each login card on the page."""
    return re.findall(
        r'class="login-card-name">([^<]*)<.*?login-card-username">([^<]*)<.*?'
        r'login-card-password">([^<]*)<',
        html,
        re.S,
    )


def logs_in(username: str, password: str) -> bool:
    response = Client().post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


# --- item 1: a new password is new ------------------------------------------------------------


def test_the_first_password_cannot_be_the_one_on_the_login_card(client, quick_hashing):
    """A11: the one-time password is known to the teacher; keeping it is refused and the
    account still asks for a password of the pupil's own."""
    pupil = LearnerFactory(username="anna.m", must_set_password=True)
    assert logs_in("anna.m", PASSWORD)
    client.post(reverse("login"), {"username": "anna.m", "password": PASSWORD})
    response = client.post(
        reverse("first_password"),
        {"new_password1": PASSWORD, "new_password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "this is the password the account has now" in response.content.decode()
    pupil.refresh_from_db()
    assert pupil.must_set_password
    # The pupil's own password goes through.
    response = client.post(
        reverse("first_password"), {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert response.status_code == 302
    pupil.refresh_from_db()
    assert not pupil.must_set_password and pupil.check_password(NEW_PASSWORD)


def test_a_password_change_to_the_same_password_is_refused(client, quick_hashing):
    teacher = TeacherFactory(username="frau_keller")
    client.force_login(teacher)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": PASSWORD, "new_password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "this is the password the account has now" in response.content.decode()


def test_a_reset_to_the_same_password_is_refused(client, quick_hashing):
    TeacherFactory(username="frau_keller", email="keller@schule.example.ch")
    client.post(
        reverse("password_reset"), {"email": "keller@schule.example.ch"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    link = re.search(r"https?://testserver(/\S+)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    url = form.redirect_chain[-1][0]
    response = client.post(
        url, {"new_password1": PASSWORD, "new_password2": PASSWORD}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert "this is the password the account has now" in response.content.decode()
    response = client.post(url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response["Location"] == reverse("password_reset_complete")


@pytest.mark.parametrize("form", ["first_password", "password_change"])
def test_a_new_password_equal_to_the_user_name_is_refused(client, quick_hashing, form):
    user = LearnerFactory(username="stoeckundweis", must_set_password=form == "first_password")
    client.force_login(user)
    data = {"new_password1": "stoeckundweis", "new_password2": "stoeckundweis"}
    if form == "password_change":
        data["old_password"] = PASSWORD
    response = client.post(reverse(form), data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "too similar to the username" in response.content.decode()
    assert User.objects.get(pk=user.pk).check_password(PASSWORD)


# --- item 5: deletion and export find every login record -----------------------------------


def test_failed_logins_in_other_capitals_are_in_the_export_and_gone_with_the_account(
    client, quick_hashing
):
    """P5: axes recorded the name as typed; `Chiara` and `CHIARA` escaped both."""
    chiara = LearnerFactory(username="chiara")
    for typed in ("Chiara", "CHIARA", "chiara"):
        Client().post(reverse("login"), {"username": typed, "password": "wrong-password-1"})
    assert AccessAttempt.objects.filter(username="chiara").get().failures_since_start == 3

    client.force_login(chiara)
    export = client.get(reverse("privacy:export_json", args=[chiara.pk])).json()
    failures = [row for row in export["login_failures"] if row["record"] == "counter"]
    assert [row["failures"] for row in failures] == [3]

    response = client.post(
        reverse("privacy:delete", args=[chiara.pk]),
        {"username": "chiara", "password": PASSWORD},
    )
    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username__iexact="chiara").exists()
    assert not AccessFailureLog.objects.filter(username__iexact="chiara").exists()


def test_the_name_folding_keeps_the_per_name_lock():
    """Five wrong passwords lock the name however it is capitalised (one counter)."""
    LearnerFactory(username="dario")
    for typed in ("Dario", "DARIO", "dario", "DaRiO", "darIO"):
        Client().post(reverse("login"), {"username": typed, "password": "wrong-password-1"})
    locked = Client().post(reverse("login"), {"username": "dario", "password": PASSWORD})
    assert locked.status_code == 429


def test_records_made_before_are_folded_and_merged_by_the_migration():
    migration = importlib.import_module("tutor.accounts.migrations.0003_login_names_folded")
    common = {"ip_address": "192.0.2.7", "user_agent": "Firefox", "get_data": "", "post_data": ""}
    AccessAttempt.objects.create(username="Chiara", failures_since_start=2, **common)
    AccessAttempt.objects.create(username="CHIARA", failures_since_start=1, **common)
    AccessAttempt.objects.create(
        username="CHIARA", failures_since_start=4, **{**common, "ip_address": "192.0.2.8"}
    )
    AccessLog.objects.create(username="Ben", ip_address="192.0.2.7", user_agent="x")
    AccessFailureLog.objects.create(username="BEN", ip_address="192.0.2.7", user_agent="x")
    migration.fold_records(django_apps, None)
    counters = sorted(
        AccessAttempt.objects.values_list("username", "ip_address", "failures_since_start")
    )
    assert counters == [("chiara", "192.0.2.7", 3), ("chiara", "192.0.2.8", 4)]
    assert list(AccessLog.objects.values_list("username", flat=True)) == ["ben"]
    assert list(AccessFailureLog.objects.values_list("username", flat=True)) == ["ben"]


# --- item 2: the privacy pages cost the same however many sessions exist --------------------


def other_sessions(count: int) -> None:
    """``count`` sessions of other people (visitors and logged-in users), as the probe
    made them: stored rows the privacy pages must not have to read."""
    expiry = timezone.now() + timedelta(days=14)
    store = SessionStore()
    rows = []
    for n in range(count):
        data = {"deck": "french"} if n % 2 else {"_auth_user_id": str(10_000_000 + n)}
        rows.append(
            UserSession(
                session_key=f"other{n:035d}",
                session_data=store.encode(data),
                expire_date=expiry,
                user_id=user_id_of(data),
            )
        )
    UserSession.objects.bulk_create(rows, batch_size=2000)


class DatabaseWork:
    """What a request costs the database, counted without a clock: the queries, and on
    SQLite the virtual-machine instructions it executed (sqlite3's progress handler is
    called once every ``STEP`` instructions), a deterministic measure of work."""

    STEP = 1

    def __init__(self) -> None:
        self.queries = 0
        self.steps = 0

    def _count_step(self) -> int:
        self.steps += 1
        return 0  # 0: go on

    def _count_query(self, execute, sql, params, many, context):
        self.queries += 1
        return execute(sql, params, many, context)

    def measure(self, client: Client, url: str) -> DatabaseWork:
        connection.ensure_connection()
        raw = connection.connection
        sqlite = connection.vendor == "sqlite"
        if sqlite:
            raw.set_progress_handler(self._count_step, self.STEP)
        try:
            with connection.execute_wrapper(self._count_query):
                response = client.get(url)
        finally:
            if sqlite:
                raw.set_progress_handler(None, self.STEP)
        assert response.status_code == 200, (url, response.status_code)
        return self


def privacy_pages(learner: User, teacher: User) -> list[tuple[User, str]]:
    pages = [
        reverse("privacy:mine"),
        reverse("privacy:learner", args=[learner.pk]),
        reverse("privacy:export_json", args=[learner.pk]),
        reverse("privacy:export_zip", args=[learner.pk]),
        reverse("privacy:delete", args=[learner.pk]),
    ]
    return [(learner, url) for url in pages] + [(teacher, url) for url in pages[1:]]


def test_each_privacy_page_costs_at_most_twice_as_much_with_20000_other_sessions(
    quick_hashing, settings
):
    """P6: the pages decoded every session row. Goal (issue 22): with 20,000 extra
    sessions each page costs at most 2x what it costs with none. Measured as database
    work (queries; on SQLite, executed instructions), so no clock is involved."""
    settings.JASS_EXPORT_LIMIT = 1000
    learner = LearnerFactory(username="anna")
    teacher = TeacherFactory(username="frau_keller")
    MembershipFactory(learner=learner, school_class=SchoolClassFactory(teacher=teacher))
    clients = {}
    for user in (learner, teacher):
        clients[user] = Client()
        clients[user].force_login(user)  # each has a session of their own
    before = [DatabaseWork().measure(clients[u], url) for u, url in privacy_pages(learner, teacher)]
    other_sessions(20_000)
    after = [DatabaseWork().measure(clients[u], url) for u, url in privacy_pages(learner, teacher)]
    for (user, url), cost, grown in zip(
        privacy_pages(learner, teacher), before, after, strict=True
    ):
        assert grown.queries == cost.queries, url
        assert grown.steps <= 2 * max(cost.steps, 1), (user.username, url, cost.steps, grown.steps)


def test_a_visitors_deck_choice_writes_no_session():
    """Anybody could add a session row per deck choice; a cookie keeps it now."""
    client = Client()
    response = client.post(reverse("set_deck"), {"deck": "french", "next": "/lessons/"})
    assert response.status_code == 302
    assert UserSession.objects.count() == 0
    assert response.cookies["jass_deck"].value == "french"
    page = client.get(reverse("lessons:overview"))
    assert page.context["deck"] == "french"
    assert "sessionid" not in page.cookies and UserSession.objects.count() == 0


def test_a_users_sessions_are_found_by_their_id_and_forgotten_with_the_account(quick_hashing):
    anna = LearnerFactory(username="anna")
    browsers = [Client(), Client()]
    for browser in browsers:
        browser.force_login(anna)
    keys = {browser.session.session_key for browser in browsers}
    assert set(UserSession.objects.filter(user_id=anna.pk).values_list("pk", flat=True)) == keys
    browsers[0].get(reverse("logout"))  # GET does not log out; the session stays
    anna.delete()
    assert not UserSession.objects.filter(user_id=anna.pk).exists()


def test_exports_are_limited_per_requester(quick_hashing, settings):
    settings.JASS_EXPORT_LIMIT = 3
    anna = LearnerFactory(username="anna")
    client = Client()
    client.force_login(anna)
    urls = [reverse("privacy:export_json", args=[anna.pk])] * 2 + [
        reverse("privacy:export_zip", args=[anna.pk])
    ]
    assert [client.get(url).status_code for url in urls] == [200, 200, 200]
    refused = client.get(urls[0], HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 429 and refused["Retry-After"] == "600"
    assert "Too many downloads" in refused.content.decode()
    # Another user is not affected.
    ben = LearnerFactory(username="ben")
    other = Client()
    other.force_login(ben)
    assert other.get(reverse("privacy:export_json", args=[ben.pk])).status_code == 200


# --- item 4: no one-time password at rest in clear -----------------------------------------


def stored_text() -> str:
    """Everything the session table holds, raw and decoded."""
    rows = list(UserSession.objects.all())
    return "\n".join(row.session_data + repr(row.get_decoded()) for row in rows)


@pytest.fixture
def class_with_teacher(db):
    teacher = TeacherFactory(username="frau_keller")
    return teacher, SchoolClassFactory(teacher=teacher)


def test_new_one_time_passwords_never_rest_in_clear_in_the_session(client, class_with_teacher):
    """A9: they sat in the teacher's session row until the cards page was opened."""
    teacher, school_class = class_with_teacher
    client.force_login(teacher)
    response = check_and_create(client, school_class, "Anna Meier\nJürg Müller\n")
    assert response.status_code == 302
    key_cookie = response.cookies["login_cards_key"]
    assert key_cookie["max-age"] == 300 and key_cookie["httponly"]
    assert key_cookie["path"] == cards_url(school_class)
    # Between the post and the cards page: nothing readable in the database.
    pupils = list(User.objects.filter(must_set_password=True))
    assert len(pupils) == 2
    stored = stored_text()
    cards = card_values(client.get(cards_url(school_class)).content.decode())
    assert len(cards) == 2
    for _name, username, password in cards:
        assert password not in stored
        assert authenticate(username, password)
    assert CARDS_SESSION_KEY not in client.session
    # The reset of one pupil is sealed the same way.
    pupil = pupils[0]
    client.post(reverse("roster:reset_one", args=[school_class.pk, pupil.pk]))
    stored = stored_text()
    [(_name, _username, password)] = card_values(
        client.get(cards_url(school_class)).content.decode()
    )
    assert password not in stored and authenticate(pupil.username, password)


def test_cards_need_the_key_of_the_same_browser_within_five_minutes(
    client, class_with_teacher, monkeypatch
):
    teacher, school_class = class_with_teacher
    client.force_login(teacher)
    check_and_create(client, school_class, "Anna Meier\n")
    later = time.time() + 5 * 60 + 1
    monkeypatch.setattr(time, "time", lambda: later)
    page = client.get(cards_url(school_class), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    monkeypatch.undo()
    assert card_values(page) == [] and "can no longer be shown" in page
    assert CARDS_SESSION_KEY not in client.session  # the sealed half is gone too

    check_and_create(client, school_class, "Jürg Müller\n")
    del client.cookies["login_cards_key"]  # another browser of the same teacher
    page = client.get(cards_url(school_class), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert card_values(page) == [] and "can no longer be shown" in page


# --- item 6: first views do not wait for a write lock ------------------------------------

FIRST_VIEW_SCRIPT = r"""
import json, os, re, sqlite3
import django
django.setup()
from django.core.management import call_command
from django.db import connections
from django.test import Client
from teaching.generators import generate
from tutor.accounts.models import User
from tutor.quizzes.models import Quiz, QuizQuestion
from tutor.quizzes.services import answer_seconds

call_command("migrate", verbosity=0)
call_command("load_lessons", verbosity=0)
mia = User.objects.create(username="mia")
quiz = Quiz.objects.create(learner=mia)
q = generate("weis_value", 7)
QuizQuestion.objects.create(quiz=quiz, position=0, kind=q.kind, seed=q.seed, question=q.to_dict())
client = Client()
client.force_login(mia)
connections.close_all()

holder = sqlite3.connect(os.environ["DJANGO_SQLITE_PATH"], isolation_level=None)
holder.execute("BEGIN IMMEDIATE")
out = {}
page = client.get(f"/practice/{quiz.pk}/q/0/")
out["question"] = page.status_code
note = re.search(r'name="shown" value="([^"]+)"', page.content.decode()).group(1)
out["shown_at"] = str(QuizQuestion.objects.get(quiz=quiz).shown_at)
lesson = client.get("/lessons/weis-values/", HTTP_ACCEPT_LANGUAGE="en")
out["lesson"] = lesson.status_code
out["prepared"] = "being prepared" in lesson.content.decode()
holder.execute("ROLLBACK")
connections.close_all()

question = QuizQuestion.objects.get(quiz=quiz)
right = question.question["answer"]
out["answer"] = client.post(
    f"/practice/{quiz.pk}/q/0/answer/", {"choice": right, "shown": note}
).status_code
question.refresh_from_db()
out["seconds known"] = answer_seconds(question) is not None
lesson = client.get("/lessons/weis-values/", HTTP_ACCEPT_LANGUAGE="en")
out["prepared_after"] = "being prepared" in lesson.content.decode()
print(json.dumps(out))
"""


def test_first_views_never_wait_for_a_write_lock(tmp_path):
    """Another connection holds SQLite's write lock, and a request would wait ten minutes
    for it: a question's first view and a lesson's first visit answer anyway (the script
    would time out otherwise), without the writes they can do without. A question's view
    writes nothing at all: its form notes when it was drawn, so the answer given later
    still knows its time (tutor.quizzes.showing)."""
    result = run_python(
        FIRST_VIEW_SCRIPT,
        DJANGO_SQLITE_PATH=str(tmp_path / "first-view.sqlite3"),
        JASS_SQLITE_REQUEST_BUSY_MS="600000",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out == {
        "question": 200,
        "shown_at": "None",
        "lesson": 200,
        "prepared": True,
        "answer": 302,
        "seconds known": True,
        "prepared_after": False,
    }


# --- item 7: the probe's other notes ---------------------------------------------------------


def test_a_removed_learner_who_submits_lands_on_the_dashboard_with_the_reason(quick_hashing):
    school_class = SchoolClassFactory()
    learner = LearnerFactory(username="dario")
    membership = MembershipFactory(learner=learner, school_class=school_class)
    assignment = AssignmentFactory(school_class=school_class)
    quiz = assignments.start_or_resume(learner=learner, assignment=assignment)
    membership.delete()
    client = Client()
    client.force_login(learner)
    response = client.post(
        reverse("classroom:assignment_submit", args=[quiz.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response["Location"] == reverse("dashboard")
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert "no longer in the class of the assignment" in page.content.decode()
    quiz.refresh_from_db()
    assert quiz.submitted_at is None


def test_the_reset_mail_leaves_only_after_the_response_is_sent(quick_hashing):
    """With a real SMTP server sending takes a while, and only an address with an account
    gets a mail: sent inside the request, the response time told which addresses exist.
    Run through the WSGI handler as a server runs it: the response is complete before
    the mail goes, and an unknown address answers the same."""
    TeacherFactory(username="frau_keller", email="keller@schule.example.ch")
    browser = Client()
    browser.get(reverse("password_reset"))
    token = browser.cookies["csrftoken"].value
    handler = WSGIHandler()

    def post(email: str):
        environ = (
            RequestFactory()
            .post(
                reverse("password_reset"),
                {"email": email, "csrfmiddlewaretoken": token},
                HTTP_COOKIE=f"csrftoken={token}",
            )
            .environ
        )
        statuses = []
        response = handler(environ, lambda status, headers: statuses.append(status))
        body = b"".join(response)
        return response, statuses[0], body

    # As Django's test client does: a request must not close the test's connection (on
    # PostgreSQL it would, the test's transaction being open).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        response, status, _body = post("keller@schule.example.ch")
        assert status.startswith("302") and mail.outbox == []  # the response is out, no mail
        response.close()  # the server closes the response: now the mail goes
        assert [m.to for m in mail.outbox] == [["keller@schule.example.ch"]]

        unknown, unknown_status, _body = post("nobody@schule.example.ch")
        unknown.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    assert unknown_status == status and unknown["Location"] == response["Location"]
    assert len(mail.outbox) == 1


# --- item 3: a table round can always be finished -----------------------------------------


def _table(round_):
    round_.refresh_from_db()
    return referee(Scenario.from_dict(round_.scenario), round_.moves)


def _post(client, round_, move):
    round_.refresh_from_db()
    return client.post(reverse("table:move", args=[round_.pk]), post_data(move, round_.move_count))


def test_150_stoeck_calls_change_nothing_and_the_round_is_finished_after_them():
    """T10: every card-less «Stöck!» was stored and judged until the move cap refused
    everything. Now a call on its own is judged once; the next 149 are refused (400),
    store nothing and count for nothing, and the round is played to the end."""
    learner = LearnerFactory(username="dario")
    client = Client()
    client.force_login(learner)
    round_ = TableRoundFactory(learner=learner, focus="stoeck", seed=0)
    _post(client, round_, reference_move(_table(round_)))  # a card on the table first
    before = SkillState.objects.filter(learner=learner, skill="stoeck").first()
    statuses = [_post(client, round_, {"stoeck": True}).status_code for _ in range(150)]
    assert statuses[0] == 302 and set(statuses[1:]) == {400}
    round_.refresh_from_db()
    assert [m for m in round_.moves if m == {"stoeck": True}] == [{"stoeck": True}]
    after = SkillState.objects.get(learner=learner, skill="stoeck")
    assert after.attempts == (before.attempts if before else 0) + 1
    t = _table(round_)
    while t.phase != "done":
        assert _post(client, round_, reference_move(t)).status_code == 302
        t = _table(round_)
    round_.refresh_from_db()
    assert round_.finished_at is not None


def test_the_same_refused_card_or_late_announcement_again_is_refused_and_not_stored():
    learner = LearnerFactory(username="ben")
    client = Client()
    client.force_login(learner)
    for seed in range(40):  # a round whose first learner decision has an illegal card
        round_ = TableRoundFactory(learner=learner, focus="weis", seed=seed)
        t = _table(round_)
        illegal = [c for c in t.hand if c not in t.legal]
        if t.plays and illegal:
            break
    else:  # pragma: no cover - the builder deals such rounds in most seeds
        raise AssertionError("no round with an illegal card to try")
    first = _post(client, round_, {"play": illegal[0]})
    assert first.status_code == 302
    again = _post(client, round_, {"play": illegal[0], "announce": 20})
    assert again.status_code == 400
    round_.refresh_from_db()
    assert round_.moves == [{"play": illegal[0]}]
    # After the card is played, the same refused card is a new try (the table moved).
    _post(client, round_, reference_move(_table(round_)))
    late = [_post(client, round_, {"announce": 20}).status_code for _ in range(3)]
    assert late == [302, 400, 400]


def test_a_round_whose_log_is_full_shows_that_it_is_locked(monkeypatch):
    """An old log may have filled the cap before repeats were refused: its page says so
    and offers no move forms."""
    learner = LearnerFactory(username="anna")
    client = Client()
    client.force_login(learner)
    round_ = TableRoundFactory(learner=learner, focus="stoeck", seed=0)
    _post(client, round_, reference_move(_table(round_)))
    monkeypatch.setattr(table_services, "MAX_MOVES", 1)
    page = client.get(reverse("table:round", args=[round_.pk]), HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert "This round takes no more moves: its log is full" in text
    assert 'name="action"' not in text
