"""Where gunicorn's CPU goes for a learner cycle: ``python -m bench.profile_server``.

A learner cycle is what a learner costs the server per answer: the question page
(first view) and the answer post (htmx). This script starts gunicorn with production
settings (``DJANGO_DEBUG=0``) on a fresh database, logs ``--clients`` learners in, and
runs closed-loop cycles for ``--seconds``, three times:

1. plain ``tutor.wsgi``: server CPU per cycle from /proc (master and workers);
2. the same app wrapped in :func:`application` with ``JASS_PROFILE=time``: the CPU
   spent inside Django's WSGI handler, including ``response.close()`` (where Django
   closes the database connection); the rest of the worker's CPU is gunicorn's own
   (accept, parse, write) and the interpreter;
3. with ``JASS_PROFILE=cprofile``: cProfile inside every worker; the cumulative time
   of the parts of a request (middleware, session, user, connection setup, template
   rendering, static file names, ...) as a share of the handler's time.

``--env NAME=VALUE`` (repeatable) changes a setting for the server, for an A/B of one
change in one run: ``--ab NAME=VALUE`` runs phase 1 twice, without and with it,
alternately ``--rounds`` times. See docs/performance.md, "Capacity (issue 17)".
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import cProfile
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

# --- the wrapper, imported by gunicorn as bench.profile_server:application ------------

_MODE = os.environ.get("JASS_PROFILE", "")
_OUT = os.environ.get("JASS_PROFILE_DIR", "")


def _wrap(app: Callable) -> Callable:
    profiler = cProfile.Profile() if _MODE == "cprofile" else None
    spent = [0.0, 0]  # CPU seconds inside the handler, requests

    def dump() -> None:
        if not _OUT:
            return
        out = Path(_OUT)
        with contextlib.suppress(OSError):
            (out / f"time-{os.getpid()}.txt").write_text(f"{spent[0]} {spent[1]}\n")
            if profiler is not None:
                profiler.dump_stats(out / f"prof-{os.getpid()}.pstats")

    atexit.register(dump)

    def application(environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == "/health/" and environ.get("QUERY_STRING") == "dump":
            dump()
        if not environ.get("PATH_INFO", "").startswith("/practice/"):
            return app(environ, start_response)  # logins and warm-up are not measured
        start = time.process_time()
        if profiler is not None:
            profiler.enable()
        try:
            response = app(environ, start_response)
            body = list(response)
            close = getattr(response, "close", None)
            if close is not None:
                close()  # request_finished: Django closes or keeps the DB connection here
        finally:
            if profiler is not None:
                profiler.disable()
            spent[0] += time.process_time() - start
            spent[1] += 1
        return body

    return application


if _MODE:
    from tutor.wsgi import application as _django_app

    application = _wrap(_django_app)


# --- the driver -------------------------------------------------------------------------

# (label, module path suffix, function name): cumulative time of each, as a share.
PARTS = (
    ("whole WSGI handler", "django/core/handlers/wsgi.py", "__call__"),
    (
        "  request_started signal (close_old_connections)",
        "django/db/__init__.py",
        "close_old_connections",
    ),
    ("  DB connect (+ init_command PRAGMAs / TLS)", "django/db/backends/base/base.py", "connect"),
    ("  DB connection close", "django/db/backends/base/base.py", "close"),
    ("  session load (SessionStore.load)", "django/contrib/sessions/backends/db.py", "load"),
    ("  session load (cached_db)", "django/contrib/sessions/backends/cached_db.py", "load"),
    (
        "  session load (signed_cookies)",
        "django/contrib/sessions/backends/signed_cookies.py",
        "load",
    ),
    ("  session save", "django/contrib/sessions/backends/db.py", "save"),
    ("  user load (auth.get_user)", "django/contrib/auth/__init__.py", "get_user"),
    ("  CSRF check (process_view)", "django/middleware/csrf.py", "process_view"),
    ("  CSP header (csp process_response)", "csp/middleware.py", "process_response"),
    ("  WhiteNoise process_request", "whitenoise/middleware.py", "__call__"),
    ("  locale middleware", "django/middleware/locale.py", "process_request"),
    ("  account-state middleware", "tutor/accounts/middleware.py", "__call__"),
    ("  axes middleware", "axes/middleware.py", "__call__"),
    ("  URL resolving", "django/urls/resolvers.py", "resolve"),
    ("  the view (incl. its templates)", "django/core/handlers/base.py", "_get_response"),
    ("    template rendering (Template.render)", "django/template/base.py", "render"),
    ("    template loading (get_template)", "django/template/loader.py", "get_template"),
    ("    static file names (manifest lookups)", "django/contrib/staticfiles/storage.py", "url"),
    ("    SQL execution (cursor.execute)", "django/db/backends/utils.py", "execute"),
    ("    SQL compilation (as_sql)", "django/db/models/sql/compiler.py", "execute_sql"),
    ("    gettext / translations", "django/utils/translation/trans_real.py", "gettext"),
)


def breakdown(files: list[Path]) -> list[tuple[str, float]]:
    stats = pstats.Stats(*[str(f) for f in files])
    found: dict[str, float] = {}
    for (filename, _line, name), row in stats.stats.items():  # type: ignore[attr-defined]
        cumulative = row[3]
        for label, suffix, func in PARTS:
            if name == func and filename.endswith(suffix):
                found[label] = max(found.get(label, 0.0), cumulative)
    whole = found.get(PARTS[0][0], 0.0)
    return [(label, found.get(label, 0.0) / whole if whole else 0.0) for label, _, _ in PARTS]


def run_phase(
    *,
    label: str,
    env: dict[str, str],
    wsgi: str,
    plan,
    args,
    tmp: Path,
    profile_dir: Path | None,
    quiz_offset: list[int],
) -> dict:
    from . import server
    from .client import Client, Recorder
    from .server import CpuMonitor, Gunicorn, free_port
    from .web import warm_up

    original = server.gunicorn_command

    def command(port: int, workers: int, worker_class: str, threads: int) -> list[str]:
        return [
            wsgi if part == "tutor.wsgi" else part
            for part in original(port, workers, worker_class, threads)
        ]

    server.gunicorn_command = command  # this script's wrapper instead of tutor.wsgi
    gunicorn = Gunicorn(
        port=free_port(args.port),
        env=env,
        workers=args.workers,
        worker_class="sync",
        threads=1,
        log_path=tmp / f"gunicorn-{label}.log",
    )
    try:
        gunicorn.start()
    finally:
        server.gunicorn_command = original
    try:
        warm_up(gunicorn.port, plan.lessons, args.workers * 3)
        cpu = CpuMonitor(lambda: gunicorn.pgid)
        rec = Recorder(label)
        clients = []
        for learner in plan.learners[: args.clients]:
            client = Client(gunicorn.port, rec)
            client.get("/accounts/login/", "login page", record=False)
            form = {"username": learner.username, "password": args.password, "next": ""}
            client.post("/accounts/login/", "login", form, expect=(302,), record=False)
            client.csrf = client.cookies.get("csrftoken", client.csrf)
            clients.append(client)
        # Every phase answers questions nobody has seen yet: first views, as in class.
        quizzes = [learner.practice[quiz_offset[0]] for learner in plan.learners[: args.clients]]
        quiz_offset[0] += 1
        cycles = [0]
        lock = threading.Lock()
        deadline = time.monotonic() + args.seconds

        def learner(i: int) -> None:
            client, quiz = clients[i], quizzes[i]
            for position in range(plan.practice_length):
                if time.monotonic() >= deadline:
                    return
                page = client.get(f"/practice/{quiz}/q/{position}/", "question page")
                choices = page.choices() or ["a"]
                client.htmx_post(
                    f"/practice/{quiz}/q/{position}/answer/",
                    "answer post",
                    {"choice": choices[0], "shown": page.shown()},
                    f"/practice/{quiz}/q/{position}/",
                )
                with lock:
                    cycles[0] += 1

        before = cpu.snapshot()
        rec.started = time.monotonic()
        threads = [threading.Thread(target=learner, args=(i,)) for i in range(len(clients))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        rec.finish()
        used = before.until(cpu.snapshot())
        cpu.stop()
        if profile_dir is not None:
            for _ in range(args.workers * 4):  # each worker writes its figures
                Client(gunicorn.port).get("/health/?dump", "dump", record=False)
    finally:
        gunicorn.stop()
    if rec.errors:
        print(f"  {label}: {len(rec.errors)} errors, e.g. {rec.errors[0]}", file=sys.stderr)
    n = max(1, cycles[0])
    return {
        "label": label,
        "cycles": cycles[0],
        "server_ms": used["server"] * 1000 / n,
        "db_ms": used["db"] * 1000 / n,
        "p95": {
            name: sorted(s.latency_ms for s in samples)[int(0.95 * (len(samples) - 1))]
            for name, samples in rec.samples.items()
            if samples
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.profile_server", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--port", type=int, default=8300)
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server")
    parser.add_argument("--ab", action="append", default=[], help="NAME=VALUE: A/B this change")
    parser.add_argument("--rounds", type=int, default=2, help="A/B rounds (each runs A and B)")
    parser.add_argument("--no-profile", action="store_true", help="skip phases 2 and 3")
    args = parser.parse_args(argv)

    from .server import (
        BenchError,
        postgres_database,
        production_env,
        setup_django_like,
        sqlite_database,
    )

    tmp = Path(tempfile.mkdtemp(prefix="jass-profile-"))
    database = None
    try:
        if args.db == "postgres":
            database = postgres_database(args.database_url or os.environ.get("DATABASE_URL"))
        else:
            database = sqlite_database(tmp)
        env = production_env(database)
        env.update(dict(item.split("=", 1) for item in args.env))
        setup_django_like(env)
        from .data import PASSWORD, prepare

        args.password = PASSWORD
        phases = (2 * args.rounds if args.ab else 1) + (0 if args.no_profile else 2)
        plan = prepare(
            learners=args.clients, questions=1, fault_questions=0, practice_quizzes=phases
        )
        print(
            f"learner cycle (question page + answer post), {args.clients} clients without pauses, "
            f"{args.seconds:.0f} s per phase, gunicorn sync x {args.workers}, {database.label}, "
            f"{os.cpu_count()} CPUs"
        )
        offset = [0]
        common = {"plan": plan, "args": args, "tmp": tmp, "quiz_offset": offset}
        results = []
        if args.ab:
            change = dict(item.split("=", 1) for item in args.ab)
            for _round in range(args.rounds):
                for name, extra in (("A", {}), ("B " + " ".join(args.ab), change)):
                    results.append(
                        run_phase(
                            label=name,
                            env={**env, **extra},
                            wsgi="tutor.wsgi",
                            profile_dir=None,
                            **common,
                        )
                    )
        else:
            results.append(
                run_phase(label="plain", env=env, wsgi="tutor.wsgi", profile_dir=None, **common)
            )
        print(
            f"  {'phase':<40} {'cycles':>7} {'server ms/cycle':>16} {'db ms/cycle':>12}"
            "  p95 page / answer ms"
        )
        for r in results:
            p95 = r["p95"]
            print(
                f"  {r['label']:<40} {r['cycles']:>7} {r['server_ms']:>16.2f} {r['db_ms']:>12.2f}  "
                f"{p95.get('question page', 0):.0f} / {p95.get('answer post', 0):.0f}"
            )
        if args.ab:
            for name in {r["label"] for r in results}:
                values = [r["server_ms"] + r["db_ms"] for r in results if r["label"] == name]
                print(f"  median server+db ms/cycle, {name}: {statistics.median(values):.2f}")
        if args.no_profile:
            return 0
        timing_dir = tmp / "time"
        timing_dir.mkdir()
        timed = run_phase(
            label="timed handler",
            env={**env, "JASS_PROFILE": "time", "JASS_PROFILE_DIR": str(timing_dir)},
            wsgi="bench.profile_server:application",
            profile_dir=timing_dir,
            **common,
        )
        inside = [0.0, 0]
        for f in timing_dir.glob("time-*.txt"):
            seconds, count = f.read_text().split()
            inside[0] += float(seconds)
            inside[1] += int(count)
        handler_ms = inside[0] * 1000 / max(1, timed["cycles"])
        print(
            f"  gunicorn workers: {timed['server_ms']:.2f} ms CPU per cycle, of it inside "
            f"Django's WSGI handler {handler_ms:.2f} ms ({inside[1]} requests); the rest is "
            "gunicorn itself (accept, parse, write)"
        )
        prof_dir = tmp / "prof"
        prof_dir.mkdir()
        run_phase(
            label="cProfile",
            env={**env, "JASS_PROFILE": "cprofile", "JASS_PROFILE_DIR": str(prof_dir)},
            wsgi="bench.profile_server:application",
            profile_dir=prof_dir,
            **common,
        )
        files = sorted(prof_dir.glob("prof-*.pstats"))
        if files:
            print("  share of the WSGI handler's time (cProfile, cumulative; parts overlap):")
            for label, share in breakdown(files):
                print(f"    {label:<58} {share:6.1%}")
            if os.environ.get("JASS_PROFILE_TOP"):
                pstats.Stats(*[str(f) for f in files]).sort_stats("tottime").print_stats(25)
        return 0
    except BenchError as error:
        print(f"not run: {error}", file=sys.stderr)
        return 2
    finally:
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if database is not None:
            with contextlib.suppress(Exception):
                database.drop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
