"""A small browser for the benchmark: ``http.client``, a cookie jar, and a recorder.

The site runs with production settings, so its cookies carry the ``Secure`` flag. A
browser would not send them back over plain http; this client keeps and sends every
cookie regardless of the flag, so the settings stay as they are in production and
the benchmark can still talk to gunicorn on 127.0.0.1 without TLS.

Every request opens a fresh connection and asks the server to close it: gunicorn's
sync workers close after each response anyway, and a request that failed can never
be confused with a stale keep-alive connection (which matters when the server is
killed in the middle of an answer).
"""

from __future__ import annotations

import contextlib
import http.client
import math
import re
import socket
import threading
import time
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from http.cookies import CookieError, SimpleCookie
from urllib.parse import urlencode, urlsplit

CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CHOICE_RE = re.compile(r'<input type="radio" name="choice" value="([^"]+)"')
SHOWN_RE = re.compile(r'name="shown" value="([^"]*)"')

# Connection failures: the server is down, restarting, or was killed mid-request.
CONNECTION_ERRORS = (
    ConnectionError,  # refused, reset, aborted, RemoteDisconnected
    http.client.HTTPException,  # BadStatusLine, IncompleteRead
    socket.timeout,
    OSError,
)


@dataclass
class Response:
    status: int  # 0 when no response arrived (see ``failure``)
    body: str = ""
    location: str = ""
    failure: str = ""  # the exception, when the request got no response
    fragment: str = ""  # of the Location header ("feedback" in /table/7/#feedback)
    trigger: str = ""  # the HX-Trigger header (an event htmx fires on the page)

    @property
    def ok(self) -> bool:
        return self.status != 0

    def csrf_token(self) -> str | None:
        match = CSRF_RE.search(self.body)
        return match.group(1) if match else None

    def choices(self) -> list[str]:
        return CHOICE_RE.findall(self.body)

    def shown(self) -> str:
        """The answer form's note of when it was drawn (tutor.quizzes.showing), which
        a browser posts with the answer; "" without one."""
        match = SHOWN_RE.search(self.body)
        return match.group(1) if match else ""


@dataclass
class Sample:
    latency_ms: float
    status: int
    ended: float  # time.monotonic() at the end


@dataclass
class ErrorRecord:
    endpoint: str
    path: str
    status: int
    detail: str


@dataclass
class Recorder:
    """Latencies per endpoint and every unexpected answer, for one phase of the run."""

    name: str
    samples: dict[str, list[Sample]] = field(default_factory=dict)
    errors: list[ErrorRecord] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    # CPU seconds used during the phase: "server" (gunicorn), "client" (this process),
    # "db" (PostgreSQL backends), "machine" (everything, busy time of all cores).
    cpu: dict[str, float] | None = None
    # A phase measured in slices (the capacity phases, interleaved): their seconds.
    sliced: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, endpoint: str, latency_ms: float, status: int) -> None:
        with self._lock:
            self.samples.setdefault(endpoint, []).append(
                Sample(latency_ms, status, time.monotonic())
            )

    def error(self, endpoint: str, path: str, status: int, detail: str) -> None:
        with self._lock:
            self.errors.append(ErrorRecord(endpoint, path, status, detail[:300]))

    def finish(self) -> None:
        self.ended = time.monotonic()

    @property
    def seconds(self) -> float:
        if self.sliced:
            return self.sliced
        return max(1e-9, (self.ended or time.monotonic()) - self.started)

    def errors_of(self, endpoint: str) -> int:
        return sum(1 for e in self.errors if e.endpoint == endpoint)


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of an already sorted list (nan when empty)."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


class Client:
    """One browser: its own cookies, the last CSRF token it saw, one request at a time."""

    def __init__(
        self,
        port: int,
        recorder: Recorder | None = None,
        *,
        timeout: float = 30.0,
        language: str = "de",
    ) -> None:
        self.host = "127.0.0.1"
        self.port = port
        self.recorder = recorder
        self.timeout = timeout
        self.language = language
        self.cookies: dict[str, str] = {}
        self.csrf: str | None = None
        self._lock = threading.Lock()

    def clone(self) -> Client:
        """A second tab of the same browser (same session), for concurrent requests."""
        other = Client(self.port, self.recorder, timeout=self.timeout, language=self.language)
        with self._lock:
            other.cookies = dict(self.cookies)
        other.csrf = self.csrf
        return other

    # --- cookies -------------------------------------------------------------

    def _store_cookies(self, headers: list[str]) -> None:
        for header in headers:
            jar = SimpleCookie()
            try:
                jar.load(header)
            except CookieError:
                continue
            for name, morsel in jar.items():
                expired = morsel["max-age"] == "0"
                if morsel["expires"]:
                    with contextlib.suppress(TypeError, ValueError):
                        expired = expired or parsedate_to_datetime(
                            morsel["expires"]
                        ).timestamp() < (time.time())
                # Deliberately ignored: morsel["secure"]. See the module docstring.
                with self._lock:
                    if expired:
                        self.cookies.pop(name, None)
                    else:
                        self.cookies[name] = morsel.value

    def _cookie_header(self) -> str:
        with self._lock:
            return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    # --- requests ------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        endpoint: str,
        *,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        expect: tuple[int, ...] = (200,),
        record: bool = True,
    ) -> Response:
        """Send one request; record its latency under ``endpoint`` and flag surprises.

        A response whose status is not in ``expect`` is an error of the phase. A
        request that got no response at all is returned with status 0 and is *not*
        recorded: the caller knows whether the server was meant to be down.
        """
        body = urlencode(form).encode() if form is not None else None
        sent = {
            "Host": f"{self.host}:{self.port}",
            "Accept-Language": self.language,
            "Connection": "close",
            "User-Agent": "jass-bench/1",
        }
        cookie = self._cookie_header()
        if cookie:
            sent["Cookie"] = cookie
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        sent.update(headers or {})
        start = time.perf_counter()
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            conn.request(method, path, body=body, headers=sent)
            raw = conn.getresponse()
            data = raw.read()
            status = raw.status
            set_cookies = raw.msg.get_all("Set-Cookie") or []
            location = raw.getheader("Location", "")
            trigger = raw.getheader("HX-Trigger", "")
        except CONNECTION_ERRORS as error:
            return Response(status=0, failure=f"{type(error).__name__}: {error}")
        finally:
            conn.close()
        latency_ms = (time.perf_counter() - start) * 1000
        self._store_cookies(set_cookies)
        text = data.decode("utf-8", errors="replace")
        target = urlsplit(location)
        response = Response(
            status=status,
            body=text,
            location=target.path,
            fragment=target.fragment,
            trigger=trigger,
        )
        token = response.csrf_token()
        if token:
            self.csrf = token
        if record and self.recorder is not None:
            self.recorder.add(endpoint, latency_ms, status)
            if status not in expect:
                snippet = " ".join(re.sub(r"<[^>]+>", " ", text).split())[:200]
                self.recorder.error(endpoint, path, status, snippet)
        return response

    def get(self, path: str, endpoint: str, **kwargs) -> Response:
        return self.request("GET", path, endpoint, **kwargs)

    def post(self, path: str, endpoint: str, form: dict[str, str], **kwargs) -> Response:
        """A form post with the CSRF token, as the page's form would send it."""
        form = {"csrfmiddlewaretoken": self.csrf or "", **form}
        return self.request("POST", path, endpoint, form=form, **kwargs)

    def htmx_post(
        self,
        path: str,
        endpoint: str,
        form: dict[str, str],
        current_url: str,
        *,
        target: str = "question-card",
        **kwargs,
    ) -> Response:
        """What htmx sends for ``hx-post``: the form, its token, and the htmx headers."""
        headers = {
            "HX-Request": "true",
            "HX-Current-URL": f"http://{self.host}:{self.port}{current_url}",
            "HX-Target": target,
            "X-CSRFToken": self.csrf or "",
        }
        return self.post(path, endpoint, form, headers=headers, **kwargs)


def wait_until_up(port: int, *, seconds: float, stop: threading.Event | None = None) -> bool:
    """Poll /health/ until it answers "ok" (True) or the time is up (False)."""
    deadline = time.monotonic() + seconds
    probe = Client(port, None, timeout=2.0)
    while time.monotonic() < deadline:
        if stop is not None and stop.is_set():
            return False
        response = probe.get("/health/", "probe", record=False)
        if response.status == 200 and response.body.strip() == "ok":
            return True
        time.sleep(0.2)
    return False
