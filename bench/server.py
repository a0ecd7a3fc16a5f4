"""The server side of the benchmark: a fresh database, the environment, and gunicorn.

Only 127.0.0.1 is used: the site binds there, and a PostgreSQL URL pointing anywhere
else is refused (the benchmark creates and drops a database on that server).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from .client import wait_until_up

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_PG_URL = "postgres://postgres@127.0.0.1:5432/bench"
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", ""}


class BenchError(Exception):
    """The benchmark cannot go on (setup failed, server would not start, ...)."""


def free_port(start: int, tries: int = 100) -> int:
    """The first port from ``start`` that nobody listens on (never 8000)."""
    for port in range(start, start + tries):
        if port == 8000:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn does
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise BenchError(f"No free port in {start}..{start + tries - 1}.")


@dataclass
class Database:
    """Where the run's data lives; ``env`` is what Django needs to find it."""

    kind: str  # "sqlite" or "postgres"
    label: str
    env: dict[str, str]
    _drop: tuple[str, str] | None = None  # (maintenance URL, database name)

    def drop(self) -> None:
        if self._drop is None:
            return
        admin_url, name = self._drop
        import psycopg

        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self._drop = None


def sqlite_database(tmpdir: Path) -> Database:
    path = tmpdir / "bench.sqlite3"
    return Database(
        kind="sqlite",
        label=f"SQLite {path}",
        env={"DJANGO_SQLITE_PATH": str(path), "DATABASE_URL": ""},
    )


def postgres_database(url: str | None) -> Database:
    """A new, empty database ``jass_bench_<pid>`` on the server of ``url``."""
    import psycopg

    url = url or DEFAULT_PG_URL
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise BenchError(f"Not a PostgreSQL URL: {url!r}")
    if (parts.hostname or "") not in LOCAL_HOSTS:
        raise BenchError(f"The benchmark only uses 127.0.0.1, not {parts.hostname!r}.")
    name = f"jass_bench_{os.getpid()}"
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    try:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
            version = conn.execute("SHOW server_version").fetchone()[0]
    except psycopg.Error as error:
        raise BenchError(f"PostgreSQL at {parts.hostname}:{parts.port} failed: {error}") from None
    run_url = urlunsplit(parts._replace(path=f"/{name}"))
    return Database(
        kind="postgres",
        label=f"PostgreSQL {version}, database {name}",
        env={"DATABASE_URL": run_url},
        _drop=(admin_url, name),
    )


def setup_django_like(env: dict[str, str]) -> None:
    """Set up Django in this process with ``env`` (an empty value unsets the variable),
    so that the setup and the reconciliation see what the servers see."""
    for key, value in env.items():
        if value:
            os.environ[key] = value
        else:
            os.environ.pop(key, None)
    import django

    django.setup()


def production_env(database: Database) -> dict[str, str]:
    """Production settings, as ``make serve`` runs them, minus the TLS redirect.

    Nothing is weakened: the cookies stay ``Secure`` (the client copes), HSTS and
    manifest static files stay on. Only the redirect to https is off, as the README
    documents for a site behind a proxy that redirects already.
    """
    env = {
        "DJANGO_SETTINGS_MODULE": "tutor.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }
    env.update(database.env)
    return env


def gunicorn_command(port: int, workers: int, worker_class: str, threads: int) -> list[str]:
    venv_gunicorn = Path(sys.executable).with_name("gunicorn")
    program = str(venv_gunicorn) if venv_gunicorn.exists() else shutil.which("gunicorn")
    if not program:
        raise BenchError("gunicorn is not installed (make install).")
    command = [
        program,
        "tutor.wsgi",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        worker_class,
        "--timeout",
        "60",
        "--graceful-timeout",
        "5",
        "--log-level",
        "warning",
    ]
    if worker_class == "gthread":
        command += ["--threads", str(threads)]
    return command


@dataclass
class Gunicorn:
    """gunicorn in its own process group, so a fault can kill master and workers at once."""

    port: int
    env: dict[str, str]
    workers: int
    worker_class: str
    threads: int
    log_path: Path
    process: subprocess.Popen | None = None
    starts: int = 0
    pids: list[int] = field(default_factory=list)

    @property
    def description(self) -> str:
        extra = f", {self.threads} threads each" if self.worker_class == "gthread" else ""
        return f"gunicorn {self.worker_class}, {self.workers} workers{extra}, 127.0.0.1:{self.port}"

    def start(self, wait_seconds: float = 60) -> float:
        """Start and wait for /health/; returns the seconds it took."""
        if self.process is not None and self.process.poll() is None:
            raise BenchError("gunicorn is already running")
        started = time.monotonic()
        log = self.log_path.open("ab")
        env = {**os.environ, **self.env}
        self.process = subprocess.Popen(
            gunicorn_command(self.port, self.workers, self.worker_class, self.threads),
            cwd=BASE_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killpg reaches the workers
        )
        log.close()
        self.starts += 1
        self.pids.append(self.process.pid)
        if not wait_until_up(self.port, seconds=wait_seconds):
            self.stop()
            raise BenchError(
                f"gunicorn did not answer /health/; see {self.log_path}:\n{self.tail()}"
            )
        return time.monotonic() - started

    def kill(self) -> None:
        """SIGKILL the master and every worker (the whole process group)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self._wait_group_gone(self.process.pid, 10)

    def stop(self) -> None:
        """SIGTERM (graceful), then SIGKILL whatever is left of the group."""
        if self.process is None:
            return
        pgid = self.process.pid
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pgid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        self._wait_group_gone(pgid, 10)
        self.process = None

    @staticmethod
    def _wait_group_gone(pgid: int, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)

    @property
    def pgid(self) -> int | None:
        return self.process.pid if self.process else None

    def tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


def _processes():
    """(pid, name, process group, CPU ticks) of every live process (Linux /proc)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        # After the name: state ppid pgrp ... utime (14th field) stime (15th), 1-based.
        yield int(entry.name), name, int(fields[2]), int(fields[11]) + int(fields[12])


@dataclass
class CpuSnapshot:
    """CPU used so far: per process for gunicorn and PostgreSQL, totals for the rest."""

    server: dict[int, int]  # pid -> ticks, gunicorn's process group
    db: dict[int, int]  # pid -> ticks, processes named "postgres"
    client: float  # seconds, this process
    machine: float  # busy seconds of all cores (steal not included)
    steal: float  # seconds the hypervisor gave our cores to somebody else

    @classmethod
    def take(cls, server_pgid: int | None) -> CpuSnapshot:
        server, db = {}, {}
        for pid, name, group, ticks in _processes():
            if server_pgid is not None and group == server_pgid:
                server[pid] = ticks
            elif name == "postgres":
                db[pid] = ticks
        times = os.times()
        machine, steal = _machine_seconds()
        return cls(server, db, times.user + times.system, machine, steal)

    def until(self, later: CpuSnapshot) -> dict[str, float]:
        """CPU seconds used between the two snapshots, by kind."""
        tick = os.sysconf("SC_CLK_TCK")

        def grown(before: dict[int, int], after: dict[int, int]) -> float:
            return sum(max(0, t - before.get(pid, 0)) for pid, t in after.items()) / tick

        return {
            "server": grown(self.server, later.server),
            "db": grown(self.db, later.db),
            "client": later.client - self.client,
            "machine": later.machine - self.machine,
            "steal": later.steal - self.steal,
        }


class CpuMonitor:
    """Samples /proc twice a second so processes that exit mid-phase still count.

    PostgreSQL backends end when Django drops a connection older than CONN_MAX_AGE
    (60 s here); a snapshot at the end of a phase alone would lose their CPU time.
    Each process's last sample is kept until the next :meth:`snapshot`.
    """

    def __init__(self, server_pgid: Callable[[], int | None], interval: float = 0.5) -> None:
        self.server_pgid = server_pgid
        self.interval = interval
        self._seen_server: dict[int, int] = {}
        self._seen_db: dict[int, int] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _sample(self) -> CpuSnapshot:
        now = CpuSnapshot.take(self.server_pgid())
        with self._lock:
            self._seen_server.update(now.server)
            self._seen_db.update(now.db)
            return CpuSnapshot(
                dict(self._seen_server), dict(self._seen_db), now.client, now.machine, now.steal
            )

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self._sample()

    def snapshot(self) -> CpuSnapshot:
        return self._sample()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)


def _machine_seconds() -> tuple[float, float]:
    """(busy, steal) CPU seconds of the whole machine since boot, from /proc/stat."""
    try:
        with open("/proc/stat") as stat:
            values = [int(v) for v in stat.readline().split()[1:]] + [0] * 8
    except OSError:
        return 0.0, 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = values[:8]
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, steal / tick
