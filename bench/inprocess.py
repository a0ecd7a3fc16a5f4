"""CPU per request, in one process: ``python -m bench.inprocess``.

The web benchmark measures the site under gunicorn with fifty clients on the same two
cores, which is realistic but noisy (runs differ by ±25 %). This probe answers the
narrower question "what does one request of each kind cost?" in a few seconds, well
enough to compare two versions of the code: it builds a fresh SQLite database with
the benchmark's own data (production settings, ``DJANGO_DEBUG=0``), logs one learner
in with Django's test client and times each endpoint with ``time.process_time``
(CPU of this process only, so other programs on the machine matter little).

Each question is shown and answered for the first time, as in class; "revisit" shows
answered questions again (then the cached feedback is used). The table (issue 14):
"table start" posts the start form (focuses in turn), "table page" shows a round in
the middle of its play, "table move (htmx)" posts the reference learner's next move
of rounds started beforehand (each move computed before the clock starts).

Prints the median and mean CPU ms and the SQL queries of the first and the last
request per endpoint; ``--profile NAME`` adds a cProfile listing for one endpoint and
``--sql NAME`` the SQL of its last request.

To compare with an older commit: ``git worktree add /tmp/old <commit>``, then run
``.venv/bin/python -m bench.inprocess --root /tmp/old`` and without
``--root``, alternately, a few times each.

``--db postgres`` runs the same on a fresh database ``jass_bench_<pid>`` of the
PostgreSQL server of ``--database-url`` (default: ``$DATABASE_URL``, else the
benchmark's local server), and adds to each request's CPU what its PostgreSQL backend
spent meanwhile (``/proc/<pid>/schedstat``, in ns): the database's share that a
statement saved or added, which the web benchmark's ±25 % hides.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

from bench.server import postgres_database

ENDPOINTS = (
    "health",
    "home",
    "lesson (cold)",
    "lesson (warm)",
    "dashboard",
    "resume redirect",
    "question page",
    "question card (htmx)",
    "answer post (htmx)",
    "question revisit",
    "table start",
    "table page",
    "table move (htmx)",
)


def configure(root: Path, tmp: Path, database_url: str | None = None) -> None:
    """Production settings for the checkout ``root``; SQLite in ``tmp``, or the
    PostgreSQL database ``database_url``."""
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "tutor.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "in-process-probe-" + "x" * 40,
            "DJANGO_ALLOWED_HOSTS": "testserver",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_SQLITE_PATH": str(tmp / "probe.sqlite3"),
        }
    )
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
    sys.path.insert(0, str(root))
    os.chdir(root)
    # `python -m` imported this checkout's `tutor` package already; with --root the
    # site must come from the other checkout.
    for name in [m for m in sys.modules if m == "tutor" or m.startswith("tutor.")]:
        del sys.modules[name]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("-n", type=int, default=50, help="requests per endpoint (max 50)")
    parser.add_argument("--profile", choices=ENDPOINTS, help="cProfile one endpoint")
    parser.add_argument("--sql", choices=ENDPOINTS, help="the SQL of one endpoint's last request")
    parser.add_argument(
        "--profile-file", type=Path, help="with --profile: also write the stats here (pstats)"
    )
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL") or None,
        help="with --db postgres: the server (default: $DATABASE_URL, else the benchmark's)",
    )
    args = parser.parse_args(argv)
    n = max(2, min(args.n, 50))
    tmp = Path(tempfile.mkdtemp(prefix="jass-probe-"))
    database = postgres_database(args.database_url) if args.db == "postgres" else None
    try:
        configure(args.root.resolve(), tmp, database.env["DATABASE_URL"] if database else None)
        return probe(n, args.root, args.profile, args.sql, args.profile_file)
    finally:
        if database is not None:
            from django.db import connections

            connections.close_all()
            database.drop()
        shutil.rmtree(tmp, ignore_errors=True)


def probe(
    n: int,
    root: Path,
    profile: str | None,
    sql: str | None = None,
    profile_file: Path | None = None,
) -> int:

    import django

    django.setup()
    from django.core.cache import caches
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from bench.client import SHOWN_RE
    from bench.data import prepare
    from teaching.table import FOCUSES, referee, reference_move
    from tutor.accounts.models import User
    from tutor.quizzes import showing
    from tutor.quizzes.models import QuizQuestion
    from tutor.table.models import TableRound
    from tutor.table.services import play_move, scenario_of, start_round, table_of

    global _backend_cpu
    if connection.vendor == "postgresql":
        _backend_cpu = _postgres_backend_cpu
    call_command("collectstatic", interactive=False, verbosity=0)
    plan = prepare(
        learners=3, questions=12, fault_questions=0, practice_quizzes=6, collectstatic=False
    )
    learner = plan.learners[0]
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(User.objects.get(pk=learner.pk))
    shown, answered, spare, cycle, full_cycle, card = learner.practice
    keys = dict(QuizQuestion.objects.filter(quiz_id=answered).values_list("position", "question"))
    lessons = plan.lessons
    user = User.objects.get(pk=learner.pk)
    # The goals below interleave a quiz and the table: two pupils, as in a class (one
    # pupil's quiz answer would make the other's next table move read its skills again).
    player = User.objects.get(pk=plan.learners[1].pk)
    player_client = Client(HTTP_ACCEPT_LANGUAGE="de")
    player_client.force_login(player)
    cold_player = User.objects.get(pk=plan.learners[2].pk)
    cold_client = Client(HTTP_ACCEPT_LANGUAGE="de")
    cold_client.force_login(cold_player)

    # Rounds and their whole move logs, made before anything is timed.
    def rounds_of_moves(seed: int, owner: User = user) -> list[tuple[int, int, dict]]:
        """(round, move count, move): the reference learner's moves of fresh rounds."""
        moves: list[tuple[int, int, dict]] = []
        for i in range(n // 11 + 2):
            round_ = start_round(learner=owner, focus=FOCUSES[i % len(FOCUSES)], seed=seed + i)
            log: list[dict] = []
            table = referee(scenario_of(round_), log)
            while table.phase != "done":
                moves.append((round_.pk, len(log), move := reference_move(table)))
                log.append(move)
                table = referee(scenario_of(round_), log)
        return moves

    table_moves = rounds_of_moves(0)
    goal_moves = rounds_of_moves(1000, player)  # for the interleaved goals below
    cold_moves = rounds_of_moves(2000, cold_player)  # as another worker sees them
    mid_round = start_round(learner=user, focus="stoeck", seed=99)
    for _ in range(5):  # in the middle of the play: the Weis and four tricks behind it
        play_move(
            learner=user,
            round_=mid_round,
            move=reference_move(table_of(mid_round)),
            expected_count=mid_round.move_count,
        )

    def form_post(path: str, data: dict[str, str], via: Client = client, **kwargs):
        # As browsers and htmx post a form (the test client's default is multipart).
        return via.post(
            path, urlencode(data), content_type="application/x-www-form-urlencoded", **kwargs
        )

    def table_move(i: int, moves: list[tuple[int, int, dict]] = table_moves, via: Client = client):
        from tutor.table.forms import post_data

        round_id, count, move = moves[i]
        return form_post(
            f"/table/{round_id}/move/",
            post_data(move, count),
            via,
            headers={"HX-Request": "true", "HX-Target": "table-round"},
        )

    def forget_cold_round(i: int) -> None:
        # As a worker that did not make the round's last move meets it: nothing kept
        # (the referee's state, the round's row, the skill states): under gunicorn
        # with W workers, about W - 1 moves in W. Done before the clock starts.
        from tutor.quizzes.services import _WRITTEN
        from tutor.table import services as table_services

        round_id = cold_moves[i][0]
        stored = TableRound.objects.get(pk=round_id)
        table_services.KEPT.discard(table_services.state_key(stored, stored.moves))
        table_services.ROWS.discard((cold_player.pk, round_id))
        _WRITTEN.discard(cold_player.pk)

    def lesson_cold(i: int):
        for cache in caches.all():
            cache.clear()
        return client.get(f"/lessons/{lessons[i % len(lessons)]}/")

    cycle_keys = dict(
        QuizQuestion.objects.filter(quiz_id=cycle).values_list("position", "question")
    )
    full_keys = dict(
        QuizQuestion.objects.filter(quiz_id=full_cycle).values_list("position", "question")
    )

    # The note of when each question's form was drawn (tutor.quizzes.showing), which
    # its answer posts as a browser does: taken from the card the cycle drew, or made
    # before the clock starts for an answer posted alone.
    notes: dict[tuple[int, int], str] = {
        (answered, i): showing.note(answered, i, timezone.now()) for i in range(n)
    }

    def keep_note(response, quiz: int, i: int):
        found = SHOWN_RE.search(response.content.decode())
        notes[quiz, i] = found.group(1) if found else ""
        return response

    def answer(i: int, quiz: int = answered, keys: dict = keys, via: Client = client):
        choice = keys[i]["choices"][0]["key"]
        return form_post(
            f"/practice/{quiz}/q/{i}/answer/",
            {"choice": choice, "shown": notes.pop((quiz, i), "")},
            via,
            headers={"HX-Request": "true", "HX-Target": "question-card"},
        )

    # A classmate given the same questions (an assignment's default), answering each
    # right after the learner above and with the same choice: what the page kept of
    # the learner's question serves the classmate.
    from tutor.quizzes.services import create_quiz

    cycle_rows = QuizQuestion.objects.filter(quiz_id=cycle).order_by("position")
    mate_quiz = create_quiz(
        learner=cold_player,
        kinds=[q.kind for q in cycle_rows],
        seeds=[q.seed for q in cycle_rows],
        stored={q.position: q.question for q in cycle_rows},
    ).pk

    work: dict[str, Callable[[int], object]] = {
        "health": lambda i: client.get("/health/"),
        "home": lambda i: client.get("/"),
        "lesson (cold)": lesson_cold,
        "lesson (warm)": lambda i: client.get(f"/lessons/{lessons[i % len(lessons)]}/"),
        "dashboard": lambda i: client.get("/dashboard/"),
        "resume redirect": lambda i: client.get(f"/practice/{spare}/"),
        "question page": lambda i: client.get(f"/practice/{shown}/q/{i}/"),
        "question card (htmx)": lambda i: client.get(
            f"/practice/{card}/q/{i}/", headers={"HX-Request": "true"}
        ),
        "answer post (htmx)": answer,
        "question revisit": lambda i: client.get(f"/practice/{answered}/q/{i}/"),
        "table start": lambda i: form_post(
            "/table/", {"focus": FOCUSES[i % len(FOCUSES)], "rules": "default"}
        ),
        "table page": lambda i: client.get(f"/table/{mid_round.pk}/"),
        "table move (htmx)": table_move,
    }
    for name in ("health", "home", "dashboard"):  # imports, template compilation
        work[name](0)
    where = (
        f"PostgreSQL {connection.pg_version}, with its backend's CPU"
        if connection.vendor == "postgresql"
        else "SQLite"
    )
    print(f"in-process CPU per request, {n} requests each; {root}; {where}")
    print(f"  {'endpoint':<22} {'p50 ms':>8} {'mean ms':>8} {'SQL 1st/last':>11} {'status':>7}")
    profiler = cProfile.Profile()
    for name in ENDPOINTS:
        times = []
        for i in range(n):
            profiling = name == profile
            with CaptureQueriesContext(connection) as queries:
                start = time.process_time()
                if profiling:
                    profiler.enable()
                response = work[name](i)
                if profiling:
                    profiler.disable()
                times.append((time.process_time() - start) * 1000)
            if i == 0:
                first = (len(queries.captured_queries), response.status_code)
        last = len(queries.captured_queries)
        if name == sql:
            sql_text = [q["sql"] for q in queries.captured_queries]
        print(
            f"  {name:<22} {statistics.median(times):8.2f} {statistics.mean(times):8.2f} "
            f"{f'{first[0]}/{last}':>11} {first[1]:7d}"
        )
    goals(
        n,
        floor=work["resume redirect"],
        # «Next question» with htmx: the card alone, then its answer (htmx too).
        cycle=(
            lambda i: keep_note(
                client.get(f"/practice/{cycle}/q/{i}/", headers={"HX-Request": "true"}), cycle, i
            ),
            lambda i: answer(i, cycle, cycle_keys),
        ),
        # Without JavaScript the question comes as a whole page.
        full_cycle=(
            lambda i: keep_note(client.get(f"/practice/{full_cycle}/q/{i}/"), full_cycle, i),
            lambda i: answer(i, full_cycle, full_keys),
        ),
        mate_cycle=(
            lambda i: keep_note(
                cold_client.get(f"/practice/{mate_quiz}/q/{i}/", headers={"HX-Request": "true"}),
                mate_quiz,
                i,
            ),
            lambda i: answer(i, mate_quiz, cycle_keys, cold_client),
        ),
        move=lambda i: table_move(i, goal_moves, player_client),
        cold_move=(forget_cold_round, lambda i: table_move(i, cold_moves, cold_client)),
    )
    if sql:
        print(f"SQL of the last {sql!r}:")
        for number, text in enumerate(sql_text, 1):
            print(f"  {number:2d}. {text}")
    if profile:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
        if profile_file:
            profiler.dump_stats(profile_file)
    return 0


def _no_backend() -> float:
    return 0.0


# The CPU seconds the database's own process has spent (PostgreSQL: the connection's
# backend; SQLite runs in this process).
_backend_cpu: Callable[[], float] = _no_backend


def _postgres_backend_cpu() -> float:
    from django.db import connection

    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    with open(f"/proc/{pid}/schedstat") as stat:
        return int(stat.read().split()[0]) / 1e9


def _cpu_ms(call: Callable[[int], object], i: int) -> float:
    backend = _backend_cpu()
    start = time.process_time()
    call(i)
    spent = time.process_time() - start
    # The connection lives on (CONN_MAX_AGE), so the backend is the same one.
    return (spent + _backend_cpu() - backend) * 1000


def goals(
    n: int,
    *,
    floor: Callable[[int], object],
    cycle: tuple[Callable[[int], object], Callable[[int], object]],
    full_cycle: tuple[Callable[[int], object], Callable[[int], object]],
    mate_cycle: tuple[Callable[[int], object], Callable[[int], object]],
    move: Callable[[int], object],
    cold_move: tuple[Callable[[int], None], Callable[[int], object]],
) -> None:
    """The goals of issue 24 as ratios to the logged-in floor, every kind of request
    interleaved (floor, question card, answer post, whole question page, its answer,
    table move, a table move nothing was kept for, floor, ...) so that every ratio is
    measured on the same machine at the same moment: a slower minute slows them
    alike, while the table above times each endpoint in its own second. The learner
    cycle is one question shown and answered (first time), as a
    browser with htmx makes it (the card alone, then the answer); a classmate then
    does the same with the same question (informational: what a class gains)."""
    floors, cycles, full, mates, moves, cold = [], [], [], [], [], []
    page, post = cycle
    mate_page, mate_post = mate_cycle
    full_page, full_post = full_cycle
    forget, cold_post = cold_move
    for i in range(n):
        floors.append(_cpu_ms(floor, i))
        cycles.append(_cpu_ms(page, i) + _cpu_ms(post, i))
        mates.append(_cpu_ms(mate_page, i) + _cpu_ms(mate_post, i))
        full.append(_cpu_ms(full_page, i) + _cpu_ms(full_post, i))
        moves.append(_cpu_ms(move, i))
        forget(i)  # not timed
        cold.append(_cpu_ms(cold_post, i))
    base = statistics.median(floors)
    print(f"GOALS (interleaved, p50 ms of CPU; floor = resume redirect {base:.2f} ms)")
    for name, times, goal in (("learner cycle", cycles, 3.0), ("table move", moves, 2.0)):
        p50 = statistics.median(times)
        ratio = p50 / base
        verdict = "met" if ratio <= goal else "MISSED"
        print(f"  {name:<14} {p50:7.2f} ms  {ratio:4.2f}x the floor (goal <= {goal}x): {verdict}")
    for label, times in (
        ("(learner cycle without JavaScript: the question as a whole page)", full),
        ("(learner cycle, a classmate's same question, same choice, answered before)", mates),
        ("(table move, nothing kept: another worker made the last move)", cold),
    ):
        p50 = statistics.median(times)
        print(f"  {label} {p50:.2f} ms, {p50 / base:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
