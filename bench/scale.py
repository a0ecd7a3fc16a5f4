"""Two app servers behind HAProxy, one killed mid-quiz: ``python -m bench.scale``.

``make bench-scale`` runs it. Two gunicorn instances on different ports (as on two
machines) serve one PostgreSQL database (a fresh ``jass_bench_<pid>`` on
127.0.0.1:5432, dropped afterwards); HAProxy from Debian (installed with apt-get when
missing) balances them round-robin with a health check on ``/health/``. Then, with
``bench/web.py``'s own learners, checks and reconciliation:

1. the class run through HAProxy (logins, lessons, dashboard, an assignment answered);
2. the fault run: learners work on a second assignment; server A (master and workers)
   is SIGKILLed mid-quiz and stays dead; HAProxy takes it out of rotation and server B
   serves everyone. Each learner resumes with its session (sessions live in the shared
   database), posts again the answer that was in flight at the kill (409: it was saved,
   200: it is saved now), and finishes;
3. reconciliation: every acknowledged answer stored exactly once, nothing
   unacknowledged stored, every learner resumed at its first unanswered question.

Nothing needs Redis: sessions are in PostgreSQL, the login throttle (django-axes) too,
and the per-process caches hold only fragments that never change once stored. With
``--redis-url`` (``make bench-scale`` runs it a second time so), both servers read the
sessions from that one Redis (``REDIS_URL``: Django's cached_db over the same table),
which is emptied first; the run then also checks that the sessions really were there
and that every learner kept its session across the kill.

A request cut by the kill reaches the client as HAProxy's 502 page (or 503 when no
server is up): for the learner that is the same as a connection cut without a response
(the answer may or may not be saved), so it is treated like one.

Exit status as bench.web: 1 when an answer was lost, duplicated, stored unacknowledged,
a learner did not resume or finish, B did not take over, or a response was an error;
2 when the run could not be set up. Arguments after ``--`` go to bench.web's parser
(e.g. ``-- --learners 30 --think 1``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import web
from .client import Client, Response, wait_until_up
from .server import (
    BenchError,
    Gunicorn,
    free_port,
    postgres_database,
    production_env,
    setup_django_like,
)

HAPROXY_CONFIG = """\
global
    maxconn 4000
    stats socket {socket} mode 600 level admin

defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    option forwardfor
    option http-buffer-request
    # A connection the server refused never reached Django: safe to send elsewhere. A
    # request cut after it was sent is NOT retried (it may have been saved): 502.
    retries 3
    retry-on conn-failure
    option redispatch

frontend site
    bind 127.0.0.1:{port}
    default_backend app

backend app
    balance roundrobin
    option httpchk
    http-check send meth GET uri /health/ ver HTTP/1.1 hdr Host 127.0.0.1
    http-check expect status 200
    # A busy server answers /health/ late, a dead one refuses at once: the check may
    # wait (else load alone takes both servers out and HAProxy answers 503), while a
    # killed server is still out after 3 refused checks, about 1.5 s.
    timeout check 3s
    default-server inter 500ms fall 3 rise 2
{servers}
"""


def haproxy_program() -> str:
    """The haproxy binary; installed from Debian with apt-get when missing (needs root)."""
    program = shutil.which("haproxy") or ("/usr/sbin/haproxy" * os.path.exists("/usr/sbin/haproxy"))
    if program:
        return program
    if os.geteuid() != 0:
        raise BenchError("haproxy is not installed: sudo apt-get install -y haproxy")
    print("haproxy is missing: apt-get install -y haproxy ...", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    done = subprocess.run(
        ["apt-get", "install", "-y", "--no-install-recommends", "haproxy"],
        env=env,
        capture_output=True,
        text=True,
    )
    program = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if done.returncode != 0 or not os.path.exists(program):
        raise BenchError(f"apt-get install haproxy failed:\n{done.stdout[-1500:]}{done.stderr}")
    return program


class HAProxy:
    """HAProxy in the foreground (``-db``), in its own process group, with a stats socket."""

    def __init__(self, port: int, backends: dict[str, int], tmp: Path) -> None:
        self.port = port
        self.socket = tmp / "haproxy.sock"
        self.config = tmp / "haproxy.cfg"
        self.log_path = tmp / "haproxy.log"
        servers = "\n".join(
            f"    server {name} 127.0.0.1:{p} check" for name, p in backends.items()
        )
        self.config.write_text(
            HAPROXY_CONFIG.format(socket=self.socket, port=port, servers=servers)
        )
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        program = haproxy_program()
        check = subprocess.run([program, "-c", "-f", str(self.config)], capture_output=True)
        if check.returncode != 0:
            raise BenchError(f"haproxy refused the config: {check.stdout!r} {check.stderr!r}")
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [program, "-db", "-f", str(self.config)],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if all(state == "UP" for state in self.states().values()) and wait_until_up(
                self.port, seconds=1
            ):
                return
            time.sleep(0.2)
        raise BenchError(f"haproxy did not come up; {self.log_path}: {self.states()}")

    def command(self, text: str) -> str:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(2)
            sock.connect(str(self.socket))
            sock.sendall(text.encode() + b"\n")
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def stats(self) -> dict[str, dict[str, str]]:
        """``show stat`` per server of the backend: status, stot (sessions so far), ..."""
        try:
            lines = self.command("show stat").splitlines()
        except OSError:
            return {}
        head = lines[0].lstrip("# ").split(",")
        out = {}
        for line in lines[1:]:
            row = dict(zip(head, line.split(","), strict=False))
            if row.get("pxname") == "app" and row.get("svname") not in ("BACKEND", None):
                out[row["svname"]] = row
        return out

    def states(self) -> dict[str, str]:
        return {name: row.get("status", "?") for name, row in self.stats().items()}

    def stop(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process = None


class ProxyClient(Client):
    """bench.client.Client, except that HAProxy's own 502/503/504 page (the app server
    died with the request, or none is up) counts as no response, like a cut connection."""

    def request(self, method: str, path: str, endpoint: str, **kwargs) -> Response:
        record = kwargs.pop("record", True)
        start = time.perf_counter()
        r = super().request(method, path, endpoint, record=False, **kwargs)
        latency_ms = (time.perf_counter() - start) * 1000
        if r.status in (502, 503, 504) and r.body.startswith("<html><body><h1>"):
            return Response(status=0, failure=f"HAProxy {r.status}: no response from the app")
        if record and r.status != 0 and self.recorder is not None:
            # What Client.request records; repeated here since the proxy page is not.
            expect = kwargs.get("expect", (200,))
            self.recorder.add(endpoint, latency_ms, r.status)
            if r.status not in expect:
                self.recorder.error(endpoint, path, r.status, " ".join(r.body.split())[:200])
        return r

    def clone(self) -> ProxyClient:
        other = ProxyClient(self.port, self.recorder, timeout=self.timeout, language=self.language)
        other.cookies = dict(self.cookies)
        other.csrf = self.csrf
        return other


class Cluster:
    """What bench.web's Bench expects of its ``gunicorn``: a port to talk to, a kill and
    a "start". Here the port is HAProxy's; kill() SIGKILLs server A for good; start()
    waits until HAProxy has taken A out of rotation (server B serves meanwhile)."""

    def __init__(self, proxy: HAProxy, servers: dict[str, Gunicorn], victim: str) -> None:
        self.proxy = proxy
        self.servers = servers
        self.victim = victim
        self.port = proxy.port
        self.killed_at = 0.0
        self.sessions_at_kill: dict[str, int] = {}

    @property
    def pgid(self) -> int | None:
        return None  # CPU is not attributed per server here

    def kill(self) -> None:
        self.sessions_at_kill = {n: int(r["stot"]) for n, r in self.proxy.stats().items()}
        self.killed_at = time.monotonic()
        self.servers[self.victim].kill()

    def start(self, wait_seconds: float = 30) -> float:
        deadline = time.monotonic() + wait_seconds
        while time.monotonic() < deadline:
            if self.proxy.states().get(self.victim, "").startswith("DOWN"):
                break
            time.sleep(0.05)
        return time.monotonic() - self.killed_at

    def stop(self) -> None:
        for server in self.servers.values():
            server.stop()

    def tail(self, lines: int = 30) -> str:
        return "\n".join(s.tail(lines) for s in self.servers.values())


def redis_keys(url: str, flush: bool = False) -> int:
    """The number of keys in the Redis database at ``url`` (emptied first if ``flush``)."""
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        if flush:
            client.flushdb()
        return int(client.dbsize())
    except Exception as error:  # noqa: BLE001 - any failure means: no Redis to run with
        raise BenchError(f"no Redis at {url}: {error}") from error


def parse(argv: list[str] | None) -> tuple[argparse.Namespace, argparse.Namespace]:
    parser = argparse.ArgumentParser(
        prog="python -m bench.scale", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--database-url", default=None, help="default: $DATABASE_URL or 127.0.0.1:5432"
    )
    parser.add_argument("--server-workers", type=int, default=(os.cpu_count() or 1) + 1)
    parser.add_argument("--port", type=int, default=8200, help="first port to try")
    parser.add_argument(
        "--redis-url",
        default="",
        help="sessions in this Redis, shared by both servers (its database is emptied)",
    )
    own, rest = parser.parse_known_args(argv)
    defaults = ["--learners", "30", "--questions", "6", "--fault-questions", "8", "--think", "1"]
    args = web.parse_args([*defaults, *[a for a in rest if a != "--"]])
    args.faults, args.skip_capacity, args.no_table, args.skip_flood = True, True, True, True
    return own, args


def main(argv: list[str] | None = None) -> int:
    own, args = parse(argv)
    args.password = None
    tmp = Path(tempfile.mkdtemp(prefix="jass-scale-"))
    database = proxy = cluster = None
    started = time.monotonic()
    try:
        database = postgres_database(
            own.database_url or os.environ.get("DATABASE_URL") or web.DEFAULT_PG_URL
        )
        env = production_env(database)
        env["JASS_PROXY_COUNT"] = "1"  # HAProxy appends the client's address
        env["REDIS_URL"] = own.redis_url  # empty: unset, the sessions in the database only
        if own.redis_url:
            redis_keys(own.redis_url, flush=True)
        setup_django_like(env)
        from django.db import connections

        from .data import PASSWORD, prepare

        args.password = PASSWORD
        plan = prepare(
            learners=args.learners,
            questions=args.questions,
            fault_questions=args.fault_questions,
            practice_quizzes=0,
        )
        port_a = free_port(own.port)
        port_b = free_port(port_a + 1)
        servers = {
            name: Gunicorn(
                port=port,
                env=env,
                workers=own.server_workers,
                worker_class="sync",
                threads=1,
                log_path=tmp / f"gunicorn-{name}.log",
            )
            for name, port in (("a", port_a), ("b", port_b))
        }
        for server in servers.values():
            server.start()
        proxy = HAProxy(free_port(port_b + 1), {"a": port_a, "b": port_b}, tmp)
        proxy.start()
        cluster = Cluster(proxy, servers, victim="a")
        print(
            f"Jass tutor scale-out benchmark: {database.label}; {os.cpu_count()} CPUs; "
            f"HAProxy on 127.0.0.1:{proxy.port} -> server a :{port_a}, server b :{port_b} "
            f"(gunicorn sync x {own.server_workers} each); {args.learners} learners; "
            + (
                f"sessions shared through Redis at {own.redis_url}"
                if own.redis_url
                else "sessions in the database"
            )
        )
        web.warm_up(proxy.port, plan.lessons, own.server_workers * 6)
        web.Client = ProxyClient  # Bench's browsers talk through HAProxy: its 502 = cut
        bench = web.Bench(args, plan, cluster)  # type: ignore[arg-type]
        class_rec = bench.class_run()
        fault_rec = bench.fault_run()
        after = proxy.stats()
        cluster.stop()
        bench.cpu.stop()

        verdicts = web.report(bench, class_rec, [], fault_rec, args)
        served = {n: int(r["stot"]) - cluster.sessions_at_kill.get(n, 0) for n, r in after.items()}
        print()
        print(
            f"SCALE-OUT: server a SIGKILLed {cluster.killed_at - fault_rec.started:.1f} s into the "
            f"fault run and left dead; HAProxy marked it {after.get('a', {}).get('status', '?')} "
            f"{bench.fault.restart_seconds:.1f} s after the kill; requests after the kill: "
            f"a {served.get('a', 0)}, b {served.get('b', 0)}; before it: "
            + ", ".join(f"{n} {v}" for n, v in sorted(cluster.sessions_at_kill.items()))
        )
        verdicts["scale: both servers served before the kill"] = all(
            cluster.sessions_at_kill.get(n, 0) > 0 for n in ("a", "b")
        )
        verdicts["scale: b served after the kill"] = served.get("b", 0) > 0
        if own.redis_url:
            sessions = redis_keys(own.redis_url)
            print(f"REDIS: {sessions} session copies in {own.redis_url} after the run")
            verdicts["scale: the sessions were shared through Redis"] = sessions > 0
        learner_ids = [st.pk for st in bench.states]
        verdicts["reconciliation"] = web.report_reconciliation(learner_ids, bench.acks, None)
        connections.close_all()
        status = web.conclude(
            verdicts,
            args,
            started,
            "two servers on PostgreSQL" + (" and Redis" if own.redis_url else ""),
        )
        for name, server in servers.items():
            print(f"server {name}: " + web.log_summary(server.tail(100_000)))
        return status
    except BenchError as error:
        print(f"benchmark not run: {error}", file=sys.stderr)
        return 2
    finally:
        if cluster is not None:
            cluster.stop()
        if proxy is not None:
            proxy.stop()
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if database is not None and not args.keep:
            try:
                database.drop()
            except Exception as error:  # noqa: BLE001 - report, keep cleaning up
                print(f"could not drop the database: {error}", file=sys.stderr)
        if args.keep:
            print(f"kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
