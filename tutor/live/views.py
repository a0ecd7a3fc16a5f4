"""Live in class: the teacher's projector and controls, the pupils' phones.

Both pages poll with htmx every second with the token of what they show
(``selectors.poll_token``): the projector its own page (an empty 204 when nothing
changed), a phone the ticketed :func:`poll` (see there), which reads neither the
session nor the user. Without JavaScript the pages have a «Refresh» link and every
step is a form post followed by a redirect (docs/live.md).
"""

from __future__ import annotations

from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tutor.accounts.http import AuthedRequest
from tutor.accounts.login_cards import qr_svg
from tutor.accounts.middleware import without_account_state
from tutor.accounts.permissions import learner_required, teacher_required
from tutor.classroom.models import LiveSession
from tutor.classroom.results.access import class_of_teacher
from tutor.core.context_processors import current_deck
from tutor.lessons.selectors import lessons_for
from tutor.quizzes import services as quiz_services
from tutor.quizzes.views import refused_answer

from . import selectors, services
from .forms import AnswerForm, CodeForm, ControlForm, StartForm

Phase = LiveSession.Phase
# A reveal must reach every phone within 2 s at the 95th percentile (issue 25): polls
# every second, each a 204 when nothing changed (docs/live.md).
POLL_SECONDS = 1


def _nothing_changed(request: AuthedRequest, token: str) -> bool:
    return bool(request.htmx) and request.GET.get("token") == token


# --- the teacher ---------------------------------------------------------------------


@teacher_required
def start(request: AuthedRequest, class_id: int) -> HttpResponse:
    school_class = class_of_teacher(request.user, class_id)
    form = StartForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            session = services.start_live(
                teacher=request.user, school_class=school_class, spec=form.spec()
            )
        except services.LiveError as error:
            form.add_error(None, str(error))
        else:
            return redirect("live:projector", assignment_id=session.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "live/start.html",
        {"form": form, "school_class": school_class},
        status=status,
    )


def _projector_context(request: HttpRequest, session: LiveSession) -> dict[str, object]:
    now = timezone.now()
    counts = selectors.counts(session)
    deck = current_deck(request)
    context: dict[str, object] = {
        "session": session,
        "school_class": session.assignment.school_class,
        "counts": counts,
        "total": session.assignment.question_count,
        "number": session.position + 1,
        "token": selectors.poll_token(session, now, counts.joined, counts.answered),
        "poll_seconds": POLL_SECONDS,
        "open_now": session.takes_answer(session.position, now),
    }
    if session.phase == Phase.LOBBY:
        join_url = request.build_absolute_uri(
            reverse("live:join") + "?" + urlencode({"code": session.code})
        )
        context.update(join_url=join_url, qr=qr_svg(join_url))
    elif session.phase in (Phase.ASKING, Phase.REVEALED):
        revealed = session.phase == Phase.REVEALED
        view = selectors.question_view(session, session.position, reveal=revealed, deck=deck)
        context.update(view=view, revealed=revealed)
        if revealed:
            context["distribution"] = selectors.distribution(session, session.position, view)
            context["rule_links"] = lessons_for(view.rules_tested)
            if session.leaderboard:
                context["leaders"] = selectors.leaderboard(session, session.position)
    elif session.leaderboard:
        context["leaders"] = selectors.leaderboard(session, session.assignment.question_count)
    return context


def _stage_or_page(
    request: AuthedRequest, template: str, context: dict[str, object]
) -> HttpResponse:
    """The page, or for htmx (a poll that found a change) its «stage» partial alone."""
    return render(request, f"{template}#stage" if request.htmx else template, context)


@teacher_required
def projector(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    session = selectors.session_of_teacher(request.user, assignment_id)
    context = _projector_context(request, session)
    if _nothing_changed(request, str(context["token"])):
        return HttpResponse(status=204)
    return _stage_or_page(request, "live/projector.html", context)


@teacher_required
@require_POST
def control(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    session = selectors.session_of_teacher(request.user, assignment_id)
    form = ControlForm(request.POST)
    status = 200
    if not form.is_valid():
        messages.error(request, _("That step was not understood; the page shows the session now."))
        status = 400
    else:
        try:
            session = services.advance(
                teacher=request.user,
                session=session,
                action=form.cleaned_data["action"],
                version=form.cleaned_data["version"],
            )
        except services.StaleStep as error:
            session.refresh_from_db()
            messages.info(request, str(error))
            status = 409
        except services.LiveError as error:
            messages.error(request, str(error))
            status = 409
    if request.htmx:
        return render(
            request,
            "live/projector.html#stage",
            _projector_context(request, session),
            status=status,
        )
    return redirect("live:projector", assignment_id=session.pk)


@teacher_required
def summary(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    session = selectors.session_of_teacher(request.user, assignment_id)
    return render(
        request,
        "live/summary.html",
        {
            "session": session,
            "school_class": session.assignment.school_class,
            "questions": selectors.summary(session, deck=current_deck(request)),
            "joined": session.assignment.attempts.count(),
        },
    )


# --- the pupils ----------------------------------------------------------------------


@learner_required
def join(request: AuthedRequest) -> HttpResponse:
    """The code from the projector (or its QR code: a link with the code filled in).
    Members take part at once; a pupil not in the class yet is offered to join it."""
    form = CodeForm(request.POST or request.GET or None)
    offer = None
    if request.method == "POST" and form.is_valid():
        session = selectors.session_by_code(form.cleaned_data["code"])
        if session is None:
            form.add_error("code", _("No live session is running with this code."))
        else:
            member = session.assignment.has_member(request.user.pk)
            try:
                if member:
                    services.join_live(learner=request.user, session=session)
                elif request.POST.get("join_class") == "1":
                    services.join_class_and_live(learner=request.user, session=session)
                    messages.success(
                        request,
                        _("You joined %(name)s.") % {"name": session.assignment.school_class.name},
                    )
                else:
                    offer = session
            except services.LiveError as error:
                form.add_error("code", str(error))
            else:
                if offer is None:
                    return redirect("live:pupil", assignment_id=session.pk)
    status = 400 if request.method == "POST" and form.errors else 200
    return render(request, "live/join.html", {"form": form, "offer": offer}, status=status)


def _pupil_context(request: AuthedRequest, session: LiveSession) -> dict[str, object]:
    now = timezone.now()
    stage = selectors.pupil_stage(session, request.user, deck=current_deck(request), now=now)
    if stage.question is not None and stage.open_now:
        # Asked by the teacher, shown on every phone at once: that moment, stored once,
        # times the answer, which rates a right one Easy or Good (tutor.quizzes.showing).
        quiz_services.mark_shown(stage.question)
    return {
        "session": session,
        "school_class": session.assignment.school_class,
        "stage": stage,
        "total": session.assignment.question_count,
        "number": session.position + 1,
        # Only the session moves a pupil's page; the pupil's own posts redraw it.
        "token": selectors.poll_token(session, now),
        "ticket": poll_ticket(session),
        "moved_event": MOVED_EVENT,
        "poll_seconds": POLL_SECONDS,
    }


# --- the phones' poll -------------------------------------------------------------------
# A phone asks every second whether the session moved. Through the pupil's page that
# costs the session, the user and the session's row; here it costs the row alone: the
# page hands out a signed ticket (the session's id, valid as long as a session may run,
# given only to its pupils) and this view reads neither the session nor the user. It answers only
# "moved" (204 with HX-Trigger, upon which the page fetches its stage through the
# authenticated view) or "not moved" (204): it shows nothing and changes nothing.

TICKET_SALT = "tutor.live.poll"
MOVED_EVENT = "live-moved"


def poll_ticket(session: LiveSession) -> str:
    return signing.dumps(session.pk, salt=TICKET_SALT)


def _ticket_session(ticket: str) -> int | None:
    try:
        value = signing.loads(ticket, salt=TICKET_SALT, max_age=services.LIVE_LENGTH)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None


@without_account_state
@require_GET
def poll(request: HttpRequest, assignment_id: int) -> HttpResponse:
    if _ticket_session(request.GET.get("ticket", "")) != assignment_id:
        return HttpResponse(_("This page is out of date; reload it."), status=400)
    session = selectors.pace_of(assignment_id)
    if session is None:
        return HttpResponse(status=404)
    response = HttpResponse(status=204)
    if request.GET.get("token") != selectors.poll_token(session, timezone.now()):
        response["HX-Trigger"] = MOVED_EVENT
    return response


@learner_required
def pupil(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    session = selectors.session_of_learner(request.user, assignment_id)
    if _nothing_changed(request, selectors.poll_token(session, timezone.now())):
        return HttpResponse(status=204)
    context = _pupil_context(request, session)
    return _stage_or_page(request, "live/pupil.html", context)


@learner_required
@require_POST
def enter(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    """Take part in a session of one of the learner's classes (the dashboard's button)."""
    session = selectors.session_of_learner(request.user, assignment_id)
    try:
        services.join_live(learner=request.user, session=session)
    except services.LiveError as error:
        messages.error(request, str(error))
    return redirect("live:pupil", assignment_id=session.pk)


@learner_required
@require_POST
def answer(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    session = selectors.session_of_learner(request.user, assignment_id)
    form = AnswerForm(request.POST)
    status, error, saved = 200, "", False
    if not form.is_valid():
        error, status = _("Choose one of the answers."), 400
    else:
        try:
            services.answer_live(
                learner=request.user,
                session=session,
                position=form.cleaned_data["position"],
                choice=form.cleaned_data["choice"],
            )
            saved = True
        except quiz_services.QuizError as refused:
            error, status = refused_answer(refused)
        except services.LiveError as refused:
            error, status = str(refused), 409
    if request.htmx:
        context = _pupil_context(request, session)
        context.update(error=error, saved=saved)
        return render(request, "live/pupil.html#stage", context, status=status)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("Your answer is saved."))
    return redirect("live:pupil", assignment_id=session.pk)
