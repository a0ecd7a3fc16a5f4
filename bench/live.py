"""Live in class under load (issue 25, item 7): ``python -m bench.live [--db sqlite|postgres]``.

``make bench`` runs it after the web passes. gunicorn with production settings on a
fresh database (as ``bench.web``), then:

1. setup (not measured): ``bench.data.prepare`` migrates and loads the lessons; 10
   teachers, 10 classes of 30 pupils (members), everybody logged in through the login
   form (``bench.web.Bench.log_everyone_in``), one live session per class (5 questions,
   kinds mixed) waiting in the lobby;
2. the live run: every pupil's phone takes part (``/live/<id>/enter/``), loads its
   page and polls as htmx does: every second (the poller's ``hx-trigger``) the ticketed
   ``/live/<id>/poll/`` with the token of what it shows; a 204 leaves the page, a 204
   with ``HX-Trigger: live-moved`` makes the ``#stage`` fetch itself from the pupil's
   page (``HX-Request``: the new ``#stage`` and its token). The 10 projectors poll their
   page every second the same way (a 204, or the new ``#stage``). Each teacher waits for
   the 30 pupils, begins, and per question reveals once all have answered (or after
   15 s), shows the answer for 3 s and moves on; the classes run at once, each at its
   own pace. A pupil answers 1-6 s after its phone shows a new question (mostly right);
   some answers are posted again by the same tab (409 expected), some by two tabs at
   once with different choices (one 200, one 409); a few pupils drop out for 10 s
   (no requests) and come back;
3. capacity (as bench.web's): one more live session per class, mid-question and idle;
   N clients ask its phones' poll without pauses (every answer a 204), then
   ``/health/`` the same way;
   server+db CPU per request of each and their ratio;
4. reconciliation: every answer acknowledged with 200 stored once with its choice,
   nothing stored that was not acknowledged (answers posted without any response are
   listed), the pairs stored once, mastery counts, every session finished, every
   attempt handed in, every phone's final page counting what it was told.

Reveal latency: for every phone and every reveal, from the moment the teacher's reveal
post got its response to the first response of that phone showing the revealed stage
of that version (0 when the phone saw it first); a phone that never saw it counts as
infinitely late, one offline then is left out. Goal: p95 < 2 s. The same counted from
the teacher's click (the reveal post sent) is printed too.

Exit status: 1 when an answer was lost, doubled or stored unacknowledged, a session or
attempt was left open, a phone's count was wrong, or any response was an error (5xx
included); 2 when the run could not be set up. The latency goal fails the run only with
``--strict``. See docs/performance.md, "Live in class (issue 25)".
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import html
import math
import os
import platform
import random
import re
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import server, web
from .client import CHOICE_RE, Client, Recorder, Response, percentile
from .server import BenchError

KINDS = ("who_writes", "stoeck", "ladder_step", "weis_value")
REVEAL_GOAL_S = 2.0
LOBBY_LIMIT_S = 60.0  # the teacher begins then even if not everybody has joined
ASK_LIMIT_S = 15.0  # reveal once all have answered, or after this
SHOW_S = 3.0  # the answer stays on the projector this long before «Next»
OFFLINE_S = 10.0  # a pupil who drops out sends nothing for this long
THINK_S = (1.0, 6.0)  # a pupil answers this long after the phone shows the question

ENTER = "POST /live/<id>/enter/ (302)"
PAGE = "GET  /live/<id>/ (the phone's page)"
POLL = "GET  /live/<id>/poll/ (ticket; 204, moved or not)"
MOVED = "GET  /live/<id>/ htmx stage, after «moved»"
ANSWER = "POST /live/<id>/answer/ htmx"
ANSWER_AGAIN = "POST answer again, same tab (409 expected)"
ANSWER_PAIR = "POST answer by two tabs at once (200 + 409)"
PROJECTOR = "GET  /live/<id>/projector/ (page)"
PROJECTOR_POLL = "GET  /live/<id>/projector/ htmx poll"
CONTROL = "POST /live/<id>/control/ htmx"
IDLE_POLL = "GET  /live/<id>/poll/ (ticket), idle (204) alone"
HEALTH = "GET  /health/ alone"
POLLS = (POLL, MOVED, PROJECTOR_POLL)
ORDER = (
    ENTER,
    PAGE,
    POLL,
    MOVED,
    ANSWER,
    ANSWER_AGAIN,
    ANSWER_PAIR,
    PROJECTOR,
    PROJECTOR_POLL,
    CONTROL,
)
MOVED_EVENT = "live-moved"
HTMX = {"HX-Request": "true"}

# The projector's #stage polls itself every second; a phone's #stage waits for the
# «moved» event, which its poller (a ticket, no session) fires.
STAGE_RE = re.compile(
    r'<div id="stage" class="live-stage live-stage--(\w+)"\s+hx-get="[^"?]*\?token=([\w-]+)"'
    r'\s+hx-trigger="([^"]+)"'
)
POLLER_RE = re.compile(r'class="live-poller" hx-get="([^"]+)" hx-trigger="every ([\d.]+)s"')
EVERY_RE = re.compile(r"every ([\d.]+)s")
POSITION_RE = re.compile(r'name="position" value="(\d+)"')
COUNT_RE = re.compile(r'class="live-count"[^>]*>([^<]*)')


# --- what a response shows --------------------------------------------------------------


@dataclass(frozen=True)
class Stage:
    """The ``#stage`` of a phone or projector, as far as the benchmark reads it."""

    phase: str
    token: str
    interval: float
    poll_url: str = ""  # a phone's poller, which asks whether the session moved
    position: int | None = None  # the question the form takes an answer to
    choices: tuple[str, ...] = ()
    counts: tuple[int, ...] = ()  # the numbers of the first «live-count» paragraph

    @property
    def version(self) -> int:
        return int(self.token.split("-")[0])

    @property
    def extra(self) -> tuple[int, ...]:
        """The projector's token ends with the joined and answered counts."""
        return tuple(int(v) for v in self.token.split("-")[2:])


def parse_stage(body: str) -> Stage | None:
    match = STAGE_RE.search(body)
    if match is None:
        return None
    position = POSITION_RE.search(body)
    count = COUNT_RE.search(body)
    every = EVERY_RE.fullmatch(match.group(3))
    poller = POLLER_RE.search(body)
    if every is not None:
        interval = float(every.group(1))
    elif poller is not None:
        interval = float(poller.group(2))
    else:
        return None
    return Stage(
        phase=match.group(1),
        token=match.group(2),
        interval=interval,
        poll_url=html.unescape(poller.group(1)) if poller else "",
        position=int(position.group(1)) if position else None,
        choices=tuple(CHOICE_RE.findall(body)),
        counts=tuple(int(n) for n in re.findall(r"\d+", count.group(1))) if count else (),
    )


@dataclass
class RevealLatency:
    seconds: list[float] = field(default_factory=list)  # sorted; math.inf: never seen
    early: int = 0  # seen before the teacher's reveal had its response (counted as 0)
    offline: int = 0  # the phone was offline in between: left out
    missed: list[str] = field(default_factory=list)


def reveal_latency(
    reveals: Iterable[tuple[str, int, float]],
    phones: Iterable[tuple[str, str, dict[int, float], list[tuple[float, float]]]],
) -> RevealLatency:
    """``reveals``: (class, version, when the reveal post got its response);
    ``phones``: (name, class, version -> when it first showed that reveal, offline
    windows). One value per phone and reveal of its class."""
    by_class: dict[str, list[tuple[int, float]]] = {}
    for klass, version, at in reveals:
        by_class.setdefault(klass, []).append((version, at))
    out = RevealLatency()
    for name, klass, seen, offline in phones:
        for version, at in by_class.get(klass, []):
            when = seen.get(version)
            until = when if when is not None else at + SHOW_S
            if any(start <= until and end >= at for start, end in offline):
                out.offline += 1
            elif when is None:
                out.seconds.append(math.inf)
                out.missed.append(f"{name}: version {version} of {klass} never shown")
            else:
                out.early += int(when < at)
                out.seconds.append(max(0.0, when - at))
    out.seconds.sort()
    return out


# --- the people -------------------------------------------------------------------------


@dataclass
class Phone:
    st: web.LearnerState
    klass: str
    session: int
    right: list[str]  # the right answer per position (read from the session in setup)
    rng: random.Random
    drop_at: int | None = None  # drops out when this question is asked ...
    drop_after_answer: bool = False  # ... before answering it, or right after
    stage: Stage | None = None
    asked: set[int] = field(default_factory=set)
    pending: tuple[int, float, tuple[str, ...]] | None = None  # (position, when, choices)
    acked: dict[int, str] = field(default_factory=dict)  # position -> choice: 200
    cut: list[tuple[int, str]] = field(default_factory=list)  # posted, no response at all
    seen: dict[int, float] = field(default_factory=dict)  # revealed version -> first shown
    offline: list[tuple[float, float]] = field(default_factory=list)
    offline_until: float = 0.0
    final: tuple[int, ...] = ()  # the finished page's counts: answered, right


@dataclass
class Teacher:
    st: web.LearnerState
    klass: str
    session: int
    pupils: int
    stage: Stage | None = None
    since: float = 0.0  # when the session took its last step
    # (version, when the reveal was posted, when its response came)
    reveals: list[tuple[int, float, float]] = field(default_factory=list)


@dataclass
class Counts:
    answers: int = 0
    right: int = 0
    late: int = 0  # refused with 409: the question had closed meanwhile
    too_slow: int = 0  # the phone showed the reveal before the pupil answered
    doubles: int = 0
    doubles_refused: int = 0
    pairs: int = 0
    pairs_one: int = 0
    pairs_late: int = 0
    returned: int = 0  # pupils back after dropping out
    offered_again: list[str] = field(default_factory=list)  # an acked answer's form again


@dataclass
class Setup:
    plan: Any  # bench.data.Plan, with the teachers and pupils as its learners
    teachers: list[tuple[str, str, int]] = field(default_factory=list)  # (name, class, session)
    pupils: list[tuple[str, str, int, list[str]]] = field(default_factory=list)  # + answers
    classes: dict[str, int] = field(default_factory=dict)  # class -> its id
    sessions: list[int] = field(default_factory=list)


def setup(args: argparse.Namespace) -> Setup:
    """Lessons, teachers, classes of pupils, a live session per class (in this process)."""
    from django.db import connections

    from tutor.accounts.models import Role, User
    from tutor.classroom.models import SchoolClass
    from tutor.classroom.services import create_class, join_class
    from tutor.live.services import LiveSpec, start_live

    from .data import Learner, prepare

    plan = prepare(
        learners=0,
        questions=1,
        fault_questions=0,
        practice_quizzes=0,
        collectstatic=not args.no_collectstatic,
    )
    made = Setup(plan)
    people = []
    first = User.objects.get(username=plan.teacher)  # prepare's teacher has the first class
    for k in range(args.classes):
        teacher, school_class = first, SchoolClass.objects.get(pk=plan.class_id)
        if k:
            teacher = User.objects.create(
                username=f"bench-live-{k:02d}", role=Role.TEACHER, password=first.password
            )
            school_class = create_class(teacher=teacher, name=f"Live-Klasse {k + 1}")
        klass = f"class {k + 1}"
        spec = LiveSpec(kinds=KINDS, question_count=args.questions)
        session = start_live(teacher=teacher, school_class=school_class, spec=spec)
        answers = [q["answer"] for q in session.questions]
        made.classes[klass] = school_class.pk
        made.sessions.append(session.pk)
        made.teachers.append((teacher.username, klass, session.pk))
        people.append(Learner(teacher.username, teacher.pk, ()))
        for i in range(args.pupils):
            user = User.objects.create(
                username=f"live-{k:02d}-{i:02d}", role=Role.LEARNER, password=first.password
            )
            join_class(learner=user, code=school_class.join_code)
            made.pupils.append((user.username, klass, session.pk, answers))
            people.append(Learner(user.username, user.pk, ()))
    plan.learners = people
    connections.close_all()
    return made


# --- the run ----------------------------------------------------------------------------


def at_once(posts: Sequence[Callable[[], Response]], timeout: float) -> list[Response | None]:
    """Send the posts from as many threads at the same moment (two tabs)."""
    barrier = threading.Barrier(len(posts), timeout=10)
    results: list[Response | None] = [None] * len(posts)

    def go(i: int) -> None:
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait()
        results[i] = posts[i]()

    threads = [threading.Thread(target=go, args=(i,), daemon=True) for i in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return results


class LiveRun:
    def __init__(self, args: argparse.Namespace, bench: web.Bench, made: Setup) -> None:
        self.args = args
        self.bench = bench
        self.lock = threading.Lock()
        self.counts = Counts()
        states = {st.username: st for st in bench.states}
        rng = random.Random(args.seed)
        self.phones = [
            Phone(states[u], klass, session, answers, random.Random(rng.random()))
            for u, klass, session, answers in made.pupils
        ]
        for klass in made.classes:
            members = [p for p in self.phones if p.klass == klass]
            for phone in rng.sample(members, min(args.dropouts, len(members))):
                phone.drop_at = rng.randrange(args.questions)
                phone.drop_after_answer = rng.random() < 0.5
        self.teachers = [
            Teacher(states[u], klass, session, args.pupils) for u, klass, session in made.teachers
        ]
        self.deadline = 0.0

    # --- the phones -------------------------------------------------------------------

    def show(self, ph: Phone, r: Response, rec: Recorder, endpoint: str) -> bool:
        """Take a 200's ``#stage`` as the phone's page (what htmx swaps in)."""
        stage = parse_stage(r.body)
        if stage is None:
            rec.error(endpoint, f"/live/{ph.session}/", r.status, "no #stage in the response")
            return False
        now = time.monotonic()
        ph.stage = stage
        if stage.phase == "revealed":
            ph.seen.setdefault(stage.version, now)
        if stage.phase == "finished":
            ph.final = stage.counts[:2]
        p = stage.position
        if ph.pending is not None and (stage.phase != "asking" or p != ph.pending[0]):
            ph.pending = None  # the question closed before the pupil tapped
            with self.lock:
                self.counts.too_slow += 1
        if p is None or not stage.choices:
            return True
        if p in ph.acked:
            with self.lock:
                self.counts.offered_again.append(f"{ph.st.username}: question {p + 1}")
        elif p not in ph.asked:
            ph.asked.add(p)
            ph.pending = (p, now + ph.rng.uniform(*THINK_S), stage.choices)
            if p == ph.drop_at and not ph.drop_after_answer:
                self.drop_out(ph, now)
        return True

    def swap(self, ph: Phone, r: Response, rec: Recorder, endpoint: str) -> None:
        """What htmx does with a post's response (base.html's ``responseHandling``): 2xx
        and 4xx (a 409 too) replace the stage, 204 and 5xx leave it."""
        if r.status != 204 and 200 <= r.status < 500:
            self.show(ph, r, rec, endpoint)

    def drop_out(self, ph: Phone, now: float) -> None:
        ph.offline_until = now + OFFLINE_S
        ph.offline.append((now, ph.offline_until))
        if ph.pending is not None:  # answered once back, if the question is still open
            position, due, choices = ph.pending
            ph.pending = (position, max(due, ph.offline_until + ph.rng.uniform(0.5, 2)), choices)

    def post_answer(
        self, client: Client, ph: Phone, position: int, choice: str, endpoint: str
    ) -> Response:
        path = f"/live/{ph.session}/answer/"
        form = {"position": str(position), "choice": choice}
        expect = (409,) if endpoint == ANSWER_AGAIN else (200, 409)
        return client.htmx_post(
            path, endpoint, form, f"/live/{ph.session}/", target="stage", expect=expect
        )

    def acked(
        self, ph: Phone, rec: Recorder, endpoint: str, position: int, choice: str, r: Response
    ) -> bool:
        """A 200 is the acknowledgement: the stage saying the answer is saved."""
        if r.status != 200:
            return False
        if 'class="message success"' not in r.body:
            rec.error(endpoint, f"/live/{ph.session}/answer/", 200, "200 without «saved»")
        ph.acked[position] = choice
        with self.lock:
            self.counts.answers += 1
            self.counts.right += int(choice == ph.right[position])
        return True

    def answer(self, ph: Phone, rec: Recorder) -> None:
        """The pupil taps: mostly the right answer; now and then twice, or in two tabs."""
        assert ph.pending is not None
        position, _due, choices = ph.pending
        ph.pending = None
        right = ph.right[position]
        wrong = [c for c in choices if c != right] or [right]
        choice = right if ph.rng.random() < self.args.right_share else ph.rng.choice(wrong)
        roll = ph.rng.random()
        if roll < self.args.pair_share:
            other = ph.rng.choice([c for c in choices if c != choice] or [choice])
            self.pair(ph, rec, position, choice, other)
        else:
            self.single(
                ph, rec, position, choice, roll < self.args.pair_share + self.args.double_share
            )
        if position == ph.drop_at and ph.drop_after_answer:
            self.drop_out(ph, time.monotonic())

    def single(self, ph: Phone, rec: Recorder, position: int, choice: str, again: bool) -> None:
        path = f"/live/{ph.session}/answer/"
        ph.cut.append((position, choice))
        r = self.post_answer(ph.st.client, ph, position, choice, ANSWER)
        if r.status == 0:
            rec.error(ANSWER, path, 0, r.failure)
            return
        ph.cut.pop()
        saved = self.acked(ph, rec, ANSWER, position, choice, r)
        if r.status == 409:
            stage = parse_stage(r.body)
            if stage is not None and stage.position == position:
                rec.error(ANSWER, path, 409, "refused while the question was open and unanswered")
            with self.lock:
                self.counts.late += 1
        self.swap(ph, r, rec, ANSWER)
        if saved and again:
            second = self.post_answer(ph.st.client, ph, position, choice, ANSWER_AGAIN)
            self.swap(ph, second, rec, ANSWER_AGAIN)
            with self.lock:
                self.counts.doubles += 1
                self.counts.doubles_refused += int(second.status == 409)

    def pair(self, ph: Phone, rec: Recorder, position: int, first: str, second: str) -> None:
        picks = [first, second]
        posts = [
            functools.partial(
                self.post_answer, ph.st.client.clone(), ph, position, pick, ANSWER_PAIR
            )
            for pick in picks
        ]
        results = at_once(posts, self.args.request_timeout + 10)
        statuses = sorted(r.status if r else -1 for r in results)
        for pick, r in zip(picks, results, strict=True):
            if r is None or r.status == 0:
                ph.cut.append((position, pick))  # listed with the reconciliation
            else:
                self.acked(ph, rec, ANSWER_PAIR, position, pick, r)
                self.swap(ph, r, rec, ANSWER_PAIR)
        with self.lock:
            self.counts.pairs += 1
            self.counts.pairs_one += int(statuses == [200, 409])
            self.counts.pairs_late += int(statuses == [409, 409])
        if statuses not in ([200, 409], [409, 409]):
            rec.error(ANSWER_PAIR, f"/live/{ph.session}/answer/", statuses[-1], f"{statuses}")

    def phone(self, ph: Phone, rec: Recorder) -> None:
        client = ph.st.client
        client.recorder = rec
        time.sleep(ph.rng.uniform(0, self.args.enter_spread))
        client.post(f"/live/{ph.session}/enter/", ENTER, {}, expect=(302,))
        page = client.get(f"/live/{ph.session}/", PAGE)
        if page.status != 200 or not self.show(ph, page, rec, PAGE):
            return
        assert ph.stage is not None
        next_poll = time.monotonic() + ph.stage.interval
        while ph.stage.phase != "finished" and time.monotonic() < self.deadline:
            if ph.offline_until > time.monotonic():
                time.sleep(ph.offline_until - time.monotonic())
                next_poll = time.monotonic()  # the phone wakes up: htmx polls at once
                with self.lock:
                    self.counts.returned += 1
            if ph.pending is not None and ph.pending[1] <= next_poll:
                time.sleep(max(0.0, ph.pending[1] - time.monotonic()))
                self.answer(ph, rec)
                next_poll = time.monotonic() + ph.stage.interval  # a new #stage, a new timer
                continue
            time.sleep(max(0.0, next_poll - time.monotonic()))
            fired = time.monotonic()
            path = ph.stage.poll_url
            r = client.get(path, POLL, headers=HTMX, expect=(204,))
            if r.status == 204 and r.trigger == MOVED_EVENT:
                # As htmx does: the event makes the #stage fetch itself, with its token.
                path = f"/live/{ph.session}/?token={ph.stage.token}"
                r = client.get(path, MOVED, headers=HTMX, expect=(200, 204))
            if r.status == 200 and self.show(ph, r, rec, MOVED):
                next_poll = time.monotonic() + ph.stage.interval
            else:  # htmx's timer runs on; a late answer lets the next poll go at once
                if r.status == 0:
                    rec.error(POLL, path, 0, r.failure)
                next_poll = max(fired + ph.stage.interval, time.monotonic())

    # --- the teachers -----------------------------------------------------------------

    def step_due(self, t: Teacher, now: float) -> tuple[str, float]:
        """The teacher's next step and when it is due (now or later)."""
        assert t.stage is not None
        joined, answered = (t.stage.extra + (0, 0))[:2]
        if t.stage.phase == "lobby":
            return "begin", now if joined >= t.pupils else t.since + LOBBY_LIMIT_S
        if t.stage.phase == "asking":
            return "reveal", now if joined and answered >= joined else t.since + ASK_LIMIT_S
        return "next", t.since + SHOW_S

    def teacher(self, t: Teacher, rec: Recorder) -> None:
        client = t.st.client
        client.recorder = rec
        where = f"/live/{t.session}/projector/"
        page = client.get(where, PROJECTOR)
        t.stage = parse_stage(page.body)
        t.since = time.monotonic()
        if t.stage is None:
            rec.error(PROJECTOR, where, page.status, "no #stage on the projector")
            return
        next_poll = t.since + t.stage.interval
        while t.stage.phase != "finished" and time.monotonic() < self.deadline:
            action, due = self.step_due(t, time.monotonic())
            if due <= time.monotonic():
                form = {"action": action, "version": str(t.stage.version)}
                sent = time.monotonic()
                r = client.htmx_post(
                    f"/live/{t.session}/control/", CONTROL, form, where, target="stage"
                )
                done = time.monotonic()
                stage = parse_stage(r.body) if r.status in (200, 409) else None  # htmx swaps both
                if r.status in (0, 200) and stage is None:  # other statuses: the client's error
                    rec.error(CONTROL, where, r.status, f"{action}: {r.failure or 'no #stage'}")
                if stage is None:
                    stage = parse_stage(client.get(where, PROJECTOR).body) or t.stage
                t.stage, t.since = stage, done
                if action == "reveal" and r.status == 200 and stage.phase == "revealed":
                    t.reveals.append((stage.version, sent, done))
                next_poll = done + stage.interval
                continue
            time.sleep(max(0.0, min(next_poll, due) - time.monotonic()))
            if time.monotonic() < next_poll:
                continue
            fired = time.monotonic()
            r = client.get(
                f"{where}?token={t.stage.token}", PROJECTOR_POLL, headers=HTMX, expect=(200, 204)
            )
            stage = parse_stage(r.body) if r.status == 200 else None
            if r.status == 200 and stage is None:
                rec.error(PROJECTOR_POLL, where, 200, "no #stage in the response")
            if stage is not None:
                t.stage = stage
                next_poll = time.monotonic() + stage.interval
            else:
                next_poll = max(fired + t.stage.interval, time.monotonic())

    def run(self) -> Recorder:
        rec = Recorder("live run")
        per_question = ASK_LIMIT_S + SHOW_S + 5
        self.deadline = time.monotonic() + LOBBY_LIMIT_S + self.args.questions * per_question
        threads = [
            threading.Thread(target=self.phone, args=(p, rec), daemon=True) for p in self.phones
        ]
        threads += [
            threading.Thread(target=self.teacher, args=(t, rec), daemon=True) for t in self.teachers
        ]
        cpu = self.bench.cpu.snapshot()
        rec.started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=max(0.0, self.deadline - time.monotonic()) + 30)
        rec.finish()
        rec.cpu = cpu.until(self.bench.cpu.snapshot())
        return rec

    # --- capacity: idle polls against /health/ ------------------------------------------

    def capacity(self, made: Setup) -> list[Recorder]:
        """One more session per class, mid-question, nobody answering: N pupils poll it
        without pauses (every answer a 204), then N clients do the same to /health/."""
        from tutor.accounts.models import User
        from tutor.classroom.models import LiveSession, SchoolClass
        from tutor.live.services import Action, LiveSpec, advance, join_live, start_live

        n = min(self.args.capacity_clients, len(self.phones))
        chosen = [self.phones[i * len(self.phones) // n] for i in range(n)]
        spec = LiveSpec(kinds=KINDS, question_count=self.args.questions)
        idle: dict[str, int] = {}
        for username, klass, _s in made.teachers:
            teacher = User.objects.get(username=username)
            school_class = SchoolClass.objects.get(pk=made.classes[klass])
            session = start_live(teacher=teacher, school_class=school_class, spec=spec)
            for ph in chosen:
                if ph.klass == klass:
                    join_live(learner=User.objects.get(username=ph.st.username), session=session)
            advance(teacher=teacher, session=session, action=Action.BEGIN, version=session.version)
            idle[klass] = session.pk
        made.sessions += list(idle.values())
        tokens = []
        for ph in chosen:
            r = ph.st.client.get(f"/live/{idle[ph.klass]}/", "token", headers=HTMX, record=False)
            stage = parse_stage(r.body)
            if stage is None or stage.phase != "asking":
                raise BenchError(f"the idle session's page: {r.status} {r.failure}")
            tokens.append(stage.poll_url)

        def poll(i: int, rec: Recorder, deadline: float) -> None:
            client = chosen[i].st.client.clone()
            client.recorder = rec
            path = tokens[i]  # the poller's address: its ticket and the page's token
            while time.monotonic() < deadline:
                r = client.get(path, IDLE_POLL, headers=HTMX, expect=(204,))
                if r.status == 0:
                    rec.error(IDLE_POLL, path, 0, r.failure)

        def health(i: int, rec: Recorder, deadline: float) -> None:
            client = Client(self.bench.port, rec, timeout=self.args.request_timeout)
            while time.monotonic() < deadline:
                self.bench.fetch(client, rec, "/health/", HEALTH)

        everybody = self.bench.states
        self.bench.states = [ph.st for ph in chosen]  # closed_loop runs one client each
        try:
            return [
                self.bench.closed_loop("capacity: idle poll alone", poll),
                self.bench.closed_loop("capacity: /health/ alone", health),
            ]
        finally:
            self.bench.states = everybody
            for pk in idle.values():
                session = LiveSession.objects.get(pk=pk)
                teacher = User.objects.get(pk=session.assignment.school_class.teacher_id)
                advance(
                    teacher=teacher, session=session, action=Action.FINISH, version=session.version
                )


# --- report -----------------------------------------------------------------------------


def split_polls(rec: Recorder) -> tuple[Recorder, list[str]]:
    """The recorder with each poll endpoint split by status (204: nothing new, 200: the
    new #stage), and the endpoints in the order to print."""
    out = Recorder(rec.name)
    out.started, out.ended, out.cpu, out.errors = rec.started, rec.ended, rec.cpu, rec.errors
    out.sliced = rec.sliced
    order: list[str] = []
    for endpoint in ORDER:
        samples = rec.samples.get(endpoint, [])
        if endpoint not in POLLS:
            out.samples[endpoint] = samples
            order.append(endpoint)
            continue
        for status in sorted({s.status for s in samples}, key=lambda s: (s != 204, s)):
            name = f"{endpoint} -> {status}"
            out.samples[name] = [s for s in samples if s.status == status]
            order.append(name)
        order.append(endpoint)  # its errors without a response, if any
    return out, order


def cpu_ms(rec: Recorder, requests: int) -> float:
    """Server+db CPU per request of a phase, ms."""
    if rec.cpu is None or not requests:
        return math.nan
    return (rec.cpu["server"] + rec.cpu["db"]) * 1000 / requests


def report_run(
    run: LiveRun, rec: Recorder, args: argparse.Namespace
) -> tuple[dict[str, bool], str]:
    """The live run's table and counts; the verdicts and the reveal goal's line."""
    c = run.counts
    print()
    print(
        f"LIVE RUN: {args.classes} classes x {args.pupils} pupils + {args.classes} projectors "
        f"at once, {args.questions} questions each ({', '.join(KINDS)}); answers "
        f"{THINK_S[0]:.0f}-{THINK_S[1]:.0f} s after a question shows, {args.right_share:.0%} "
        f"right; reveal when all answered or after {ASK_LIMIT_S:.0f} s, next after "
        f"{SHOW_S:.0f} s; {args.dropouts} pupils per class offline for {OFFLINE_S:.0f} s. "
        f"{rec.seconds:.1f} s."
    )
    shown, order = split_polls(rec)
    print(web.table(web.rows_of(shown, order)))
    print(f"  {web.cpu_line(rec)}")
    requests = sum(len(v) for v in rec.samples.values())
    polls = sum(len(rec.samples.get(e, [])) for e in POLLS)
    print(
        f"  requests: {requests} ({requests / rec.seconds:.0f}/s), of them polls {polls} "
        f"({polls / rec.seconds:.0f}/s); server+db CPU per request (all endpoints): "
        f"{cpu_ms(rec, requests):.2f} ms"
    )
    phones = [(p.st.username, p.klass, p.seen, p.offline) for p in run.phones]
    reveals = [(t.klass, v, done) for t in run.teachers for v, _sent, done in t.reveals]
    latency = reveal_latency(reveals, phones)
    values = latency.seconds
    p50, p95 = percentile(values, 50), percentile(values, 95)
    worst = values[-1] if values else math.nan
    print(
        f"  reveal -> every phone: {len(reveals)} reveals, {len(values)} phone-reveals: p50 "
        f"{p50:.2f} s, p95 {p95:.2f} s, max {worst:.2f} s; shown before the teacher's post "
        f"had its response (counted 0): {latency.early}; left out, the phone offline: "
        f"{latency.offline}; never shown: {len(latency.missed)}"
    )
    clicks = [(t.klass, v, sent) for t in run.teachers for v, sent, _done in t.reveals]
    from_click = reveal_latency(clicks, phones).seconds
    print(
        f"    counted from the teacher's click instead (the post sent, its own latency "
        f"included): p50 {percentile(from_click, 50):.2f} s, p95 "
        f"{percentile(from_click, 95):.2f} s, max {max(from_click, default=math.nan):.2f} s"
    )
    for line in latency.missed[:5]:
        print(f"    {line}")
    print(
        f"  answers acknowledged (200): {c.answers}, {c.right} right; refused as the question "
        f"had closed (409): {c.late}; the reveal came before the tap: {c.too_slow}"
    )
    print(
        f"  posted again by the same tab: {c.doubles}, refused with 409: {c.doubles_refused}; "
        f"by two tabs at once: {c.pairs}, one 200 + one 409: {c.pairs_one}, both refused "
        f"(closed): {c.pairs_late}"
    )
    dropouts = sum(1 for p in run.phones if p.offline)
    print(
        f"  pupils offline for {OFFLINE_S:.0f} s: {dropouts}, back: {c.returned}; an "
        f"acknowledged answer's question offered again: {len(c.offered_again)}"
    )
    for line in c.offered_again[:5]:
        print(f"    {line}")
    steps = {t.stage.phase if t.stage else "?" for t in run.teachers}
    verdicts = {
        f"p95 reveal on every phone < {REVEAL_GOAL_S:.0f} s": p95 < REVEAL_GOAL_S,
        "live: doubles refused": c.doubles == c.doubles_refused,
        "live: pairs, one stored": c.pairs == c.pairs_one + c.pairs_late,
        "live: every teacher finished": steps == {"finished"},
        "live: no acknowledged answer offered again": not c.offered_again,
    }
    goal = f"  reveal on every phone, p95 < {REVEAL_GOAL_S:.0f} s: " + web.goal_text(
        p95 < REVEAL_GOAL_S,
        f"p95 {p95:.2f} s, p50 {p50:.2f} s, max {worst:.2f} s over {len(values)} phone-reveals",
    )
    return verdicts, goal


def report_capacity(capacity: list[Recorder], args: argparse.Namespace) -> dict[str, float]:
    """The idle polls and /health/ alone; server+db CPU ms per request of each."""
    if not capacity:
        return {}
    print()
    print(
        f"CAPACITY: {args.capacity_clients} clients without pauses, {args.capacity_seconds:.0f} "
        "s each: the pupils' poll of a session mid-question (nothing changes: 204), then /health/"
    )
    rows, per = [], {}
    for rec in capacity:
        for row in web.rows_of(rec, (IDLE_POLL, HEALTH)):
            rows.append(row)
            per[row["endpoint"]] = cpu_ms(rec, row["requests"])
    extra = {name: f"{ms:8.2f}" for name, ms in per.items()}
    print(web.table(rows, extra, "server+db CPU ms/request"))
    for rec in capacity:
        print(f"  {rec.name.removeprefix('capacity: ')}: {web.cpu_line(rec)}")
    return per


def ratio_lines(per: dict[str, float], live_ms: float) -> list[str]:
    """The GOALS lines of the polling's CPU against /health/'s (no goal figure is set)."""
    poll, health = per.get(IDLE_POLL), per.get(HEALTH)
    if not poll or not health:
        return ["  polling's server CPU vs /health/: not measured (--skip-capacity)"]
    return [
        f"  polling's server CPU vs /health/ (no goal set): an idle poll (204) {poll:.2f} ms / "
        f"/health/ {health:.2f} ms of server+db CPU = {poll / health:.1f}x",
        f"    (a phone polling every second while nothing changes: {poll / 10:.2f} % of a core, "
        f"{1000 / poll:.0f} phones per core; the live run's requests of every kind averaged "
        f"{live_ms:.2f} ms = {live_ms / health:.1f}x /health/)",
    ]


def reconcile_live(run: LiveRun, made: Setup) -> tuple[dict[str, bool], str]:
    """The answers against the database, the sessions and attempts, the phones' counts."""
    from tutor.classroom.models import LiveSession
    from tutor.quizzes.models import Quiz, QuizQuestion

    from .data import Ack, reconcile

    live = [s for _u, _k, s in made.teachers]
    quiz_of = {
        (learner, assignment): pk
        for learner, assignment, pk in Quiz.objects.filter(assignment_id__in=live).values_list(
            "learner_id", "assignment_id", "id"
        )
    }
    acks, cut_lines = [], []
    for ph in run.phones:
        quiz = quiz_of.get((ph.st.pk, ph.session), -1)
        acks += [Ack(ph.st.username, quiz, p, choice, "live") for p, choice in ph.acked.items()]
        for position, choice in ph.cut:
            stored = (
                QuizQuestion.objects.filter(quiz_id=quiz, position=position)
                .values_list("answered_choice", flat=True)
                .first()
            )
            cut_lines.append(
                f"{ph.st.username} question {position + 1}: posted {choice!r} without a "
                f"response; stored: {stored!r}"
            )
            if stored == choice and position not in ph.acked:
                acks.append(Ack(ph.st.username, quiz, position, choice, "live", "cut"))
    open_sessions = list(
        LiveSession.objects.filter(pk__in=made.sessions)
        .exclude(phase=LiveSession.Phase.FINISHED)
        .values_list("pk", "phase")
    )
    attempts = Quiz.objects.filter(assignment_id__in=made.sessions)
    not_handed_in = attempts.filter(submitted_at__isnull=True).count()
    joined = attempts.filter(assignment_id__in=live).count()
    wrong_counts = []
    for ph in run.phones:
        right = sum(1 for p, choice in ph.acked.items() if choice == ph.right[p])
        if ph.final != (len(ph.acked), right):
            wrong_counts.append(
                f"{ph.st.username}: told {len(ph.acked)} answers, {right} right; the finished "
                f"page says {ph.final or 'nothing (never shown)'}"
            )
    print()
    print("LIVE SESSIONS (against the database)")
    print(
        f"  sessions: {len(made.sessions)} ({len(live)} run, {len(made.sessions) - len(live)} "
        f"idle for the capacity phase), not finished: {len(open_sessions)} {open_sessions or ''}"
    )
    print(
        f"  attempts: {attempts.count()} ({joined} of {len(run.phones)} pupils joined the run), "
        f"not handed in: {not_handed_in}"
    )
    print(
        f"  phones whose finished page counts what they were told (answered, right): "
        f"{len(run.phones) - len(wrong_counts)} of {len(run.phones)}"
    )
    for line in wrong_counts[:10]:
        print(f"    {line}")
    print(f"  answer posts without any response: {len(cut_lines)}")
    for line in cut_lines:
        print(f"    {line}")
    print()
    print("RECONCILIATION (acknowledged answers against the database)")
    result = reconcile([ph.st.pk for ph in run.phones], acks, None)
    for line in result.lines():
        print(f"  {line}")
    verdicts = {
        "live: every session finished": not open_sessions,
        "live: every attempt handed in": not_handed_in == 0,
        "live: every pupil joined": joined == len(run.phones),
        "live: the phones' final counts": not wrong_counts,
        "reconciliation": result.clean,
    }
    goal = (
        f"  every acknowledged answer stored once with its choice, nothing else stored (races "
        f"included): {'OK' if result.clean else 'FAILED'} ({result.acknowledged} acknowledged, "
        f"{len(result.lost)} lost, {len(result.duplicated)} doubled, "
        f"{len(result.unacknowledged)} stored unacknowledged, {len(cut_lines)} cut without "
        "a response)"
    )
    return verdicts, goal


# --- main -------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.live", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--database-url", default=None, help="for --db postgres (default: $DATABASE_URL)"
    )
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--pupils", type=int, default=30, help="per class")
    parser.add_argument("--questions", type=int, default=5, help="per session (1..30)")
    parser.add_argument("--dropouts", type=int, default=2, help="pupils per class offline 10 s")
    parser.add_argument("--right-share", type=float, default=0.65)
    parser.add_argument("--double-share", type=float, default=0.10)
    parser.add_argument("--pair-share", type=float, default=0.05)
    parser.add_argument("--enter-spread", type=float, default=5, help="s over which pupils enter")
    parser.add_argument("--capacity-clients", type=int, default=50)
    parser.add_argument("--capacity-seconds", type=float, default=10)
    parser.add_argument("--skip-capacity", action="store_true")
    parser.add_argument("--workers", type=int, default=web.default_workers())
    parser.add_argument("--port", type=int, default=8300, help="first port to try (not 8000)")
    parser.add_argument("--request-timeout", type=float, default=30)
    parser.add_argument("--quiet-wait", type=float, default=0, help="as bench.web's")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-collectstatic", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the temp dir and PG database")
    parser.add_argument("--strict", action="store_true", help="a missed latency goal fails too")
    args = parser.parse_args(argv)
    if not 1 <= args.questions <= 30 or min(args.classes, args.pupils) < 1:
        parser.error("--questions must be 1..30, --classes and --pupils at least 1")
    return args  # free_port never takes 8000, the dev server's


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="jass-live-"))
    started = time.monotonic()
    with contextlib.ExitStack() as cleanup:
        if args.keep:
            cleanup.callback(print, f"kept: {tmp}")
        else:
            cleanup.callback(shutil.rmtree, tmp, ignore_errors=True)
        try:
            return run_all(args, tmp, started, cleanup)
        except BenchError as error:
            print(f"benchmark not run: {error}", file=sys.stderr)
            return 2
    return 2  # not reached; mypy cannot see that ExitStack does not swallow


def drop(database: server.Database) -> None:
    try:
        database.drop()
    except Exception as error:  # noqa: BLE001 - report it; the run's verdict stands
        print(f"could not drop the database: {error}", file=sys.stderr)


def run_all(
    args: argparse.Namespace, tmp: Path, started: float, cleanup: contextlib.ExitStack
) -> int:
    database: server.Database
    if args.db == "postgres":
        database = server.postgres_database(args.database_url or os.environ.get("DATABASE_URL"))
        if not args.keep:
            cleanup.callback(drop, database)
    else:
        database = server.sqlite_database(tmp)
    env = server.production_env(database)
    server.setup_django_like(env)
    import django
    from django.db import connections

    from .data import PASSWORD

    cleanup.callback(connections.close_all)
    print(
        f"Jass tutor live-in-class benchmark (issue 25): {database.label}; {os.cpu_count()} "
        f"CPUs; Python {platform.python_version()}; Django {django.get_version()}"
    )
    before = time.monotonic()
    made = setup(args)
    port = server.free_port(args.port)
    gunicorn = server.Gunicorn(port, env, args.workers, "sync", 1, tmp / "gunicorn.log")
    boot = gunicorn.start()
    cleanup.callback(gunicorn.stop)
    web.warm_up(gunicorn.port, made.plan.lessons, args.workers * 3)
    options = ["--seed", str(args.seed), "--capacity-seconds", str(args.capacity_seconds)]
    options += [
        "--quiet-wait",
        str(args.quiet_wait),
        "--request-timeout",
        str(args.request_timeout),
    ]
    bench = web.Bench(web.parse_args(options), made.plan, gunicorn)
    bench.args.password = PASSWORD
    cleanup.callback(bench.cpu.stop)
    logins = time.monotonic()
    bench.log_everyone_in()
    print(
        f"prepared in {logins - before:.1f} s: {len(made.teachers)} teachers, "
        f"{len(made.pupils)} pupils, a live session per class; server: {gunicorn.description}, "
        f"up in {boot:.1f} s; {len(bench.states)} logins through the form in "
        f"{time.monotonic() - logins:.1f} s (a password hash is {bench.hash_ms:.0f} ms here)"
    )
    run = LiveRun(args, bench, made)
    bench.wait_for_quiet("live run")
    live_rec = run.run()
    capacity = [] if args.skip_capacity else run.capacity(made)
    gunicorn.stop()
    verdicts, reveal_goal = report_run(run, live_rec, args)
    per = report_capacity(capacity, args)
    stored, stored_goal = reconcile_live(run, made)
    verdicts |= stored
    print(web.log_summary(gunicorn.tail(100_000)))
    recs = [live_rec, *capacity]
    n_errors = sum(len(r.errors) for r in recs)
    lines = web.error_lines(recs)
    if lines:
        print("\nERRORS (count x endpoint -> status: detail)")
        print("\n".join(lines))
    verdicts["no errors"] = n_errors == 0
    print()
    print("GOALS")
    print(reveal_goal)
    print(stored_goal)
    live_ms = cpu_ms(live_rec, sum(len(v) for v in live_rec.samples.values()))
    print("\n".join(ratio_lines(per, live_ms)))
    print(f"  no error responses: {web.goal_text(n_errors == 0, f'{n_errors} errors')}")
    return web.conclude(verdicts, args, started, f"live in class, {database.kind}")


if __name__ == "__main__":
    sys.exit(main())
