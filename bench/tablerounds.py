"""The table-round phase of the web benchmark (issue 14); ``bench.web`` runs it.

Every learner (logged in already) opens ``/table/``, starts a round (the seven focuses
and the four rule sets in turn) and plays it to the end through the move endpoint:
most the way htmx does (``HX-Request``: the answer is the round's partial, whose
``data-n`` must be the new move count), every fifth learner without JavaScript (a plain
POST: 302 to ``/table/<id>/#feedback`` for a move made, to ``/table/<id>/`` for one
refused as stale, then the page, as a browser follows the redirect).

The moves are the reference learner's (``teaching.table.reference_move``) on the
round's scenario, which the client reads once from the database after the start (the
page shows only the learner's own cards; the read is not part of any measured
request). Some are wrong on purpose: an illegal card (judged wrong and not played; it
stays in the log), a forgotten «Stöck!», a wrong "who writes". Some moves are posted
a second time by the same tab with the same move count (must be refused: 409, or the
redirect without ``#feedback``), some by two tabs at once with different moves
(exactly one may be made). Each move made and each refusal goes into the round's
``data.TableLog``; ``data.reconcile_tables`` compares them with the database.
"""

from __future__ import annotations

import contextlib
import random
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .client import Client, Recorder, Response

if TYPE_CHECKING:  # data.py needs Django set up, which web.py does at run time
    from .data import TableLog
    from .web import Bench, LearnerState

TABLE_HOME = "GET  /table/"
TABLE_START = "POST /table/ (start a round)"
TABLE_PAGE = "GET  /table/<id>/"
TABLE_MOVE = "POST /table/<id>/move/ htmx"
TABLE_MOVE_PLAIN = "POST /table/<id>/move/ without JS (302)"
TABLE_AGAIN = "POST move again, same tab (refused)"
TABLE_PAIR = "POST move by two tabs at once (one made)"
TABLE_SUMMARY = "GET  /table/<id>/summary/"
TABLE_ENDPOINTS = (
    TABLE_HOME,
    TABLE_START,
    TABLE_PAGE,
    TABLE_MOVE,
    TABLE_MOVE_PLAIN,
    TABLE_AGAIN,
    TABLE_PAIR,
    TABLE_SUMMARY,
)
# The goal "a move under 100 ms" is about the first post of each move, with or without
# JavaScript; the deliberate doubles and pairs are shown apart.
MOVE_ENDPOINTS = (TABLE_MOVE, TABLE_MOVE_PLAIN)

ROUND_URL = re.compile(r"^/table/(\d+)/$")
DATA_N = re.compile(r'id="table-round"[^>]*\bdata-n="(\d+)"')
CARD_RADIO = re.compile(r'name="card" value="([^"]+)"')
PRESETS = ("default", "w-en", "ausmachregel", "swisslos-2500")
MAX_STEPS = 60  # a round takes 11 moves, a few more with wrong cards


def choose(
    table: Any, rng: random.Random, wrong_share: float, tried: Sequence[dict[str, Any]] = ()
) -> tuple[dict[str, Any], str]:
    """The next move and what it is: "reference", or a deliberate mistake, never one of
    ``tried`` (the mistakes made since the table last changed: the site refuses a card
    tried again at the same moment with a 400, issue 22, and tells the learner so)."""
    from teaching.table import reference_move

    move = reference_move(table)
    if rng.random() >= wrong_share:
        return move, "reference"
    wrong, kind = _mistake(table, rng, move)
    return (move, "reference") if wrong in tried else (wrong, kind)


def _mistake(table: Any, rng: random.Random, move: dict[str, Any]) -> tuple[dict[str, Any], str]:
    if table.phase == "play":
        if move.get("stoeck"):  # rarer than a chance of an illegal card: first
            return {k: v for k, v in move.items() if k != "stoeck"}, "forgotten Stöck"
        illegal = [c for c in table.hand if c not in table.legal]
        if illegal:
            return {"play": rng.choice(illegal)}, "illegal card"
    if table.phase == "writes":
        w = move["writes"]
        if w["team"] is None:
            return {"writes": {"team": 1, "points": 20}}, "wrong writes"
        return {"writes": {"team": w["team"], "points": w["points"] + 10}}, "wrong writes"
    return move, "reference"


def alternative(table: Any, move: dict[str, Any]) -> dict[str, Any]:
    """Another move for a second tab: another legal card where there is one."""
    if table.phase == "play" and "play" in move:
        others = [c for c in table.legal if c != move["play"]]
        if others:
            other = {"play": others[0]}
            if "announce" in move:
                other["announce"] = move["announce"]
            return other
    if table.phase == "writes":
        w = move["writes"]
        return {"writes": {"team": None, "points": 0} if w["team"] else {"team": 1, "points": 20}}
    return move


@dataclass
class TableCounts:
    started: int = 0
    finished: int = 0
    plain_learners: int = 0
    moves_made: int = 0
    wrong: dict[str, int] = field(default_factory=dict)  # deliberate mistakes by kind
    doubles: int = 0
    doubles_refused: int = 0
    pairs: int = 0
    pairs_one_made: int = 0
    page_checks: int = 0  # responses whose data-n was compared with the client's count
    page_mismatches: int = 0


class TablePhase:
    """Fifty learners at the table at once (see the module docstring)."""

    def __init__(self, bench: Bench) -> None:
        self.bench = bench
        self.args = bench.args
        self.port = bench.port
        self.lock = threading.Lock()
        self.db_lock = threading.Lock()  # one scenario read at a time: one extra connection
        self.logs: list[TableLog] = []
        self.counts = TableCounts()
        self.recorder: Recorder | None = None

    def run(self) -> Recorder:
        from teaching.table import FOCUSES

        self.bench.log_everyone_in()
        self.bench.wait_for_quiet("table rounds")
        rec = Recorder("table rounds")
        self.recorder = rec
        deadline = time.monotonic() + self.args.duration
        states = self.bench.states
        threads = []
        for i, st in enumerate(states):
            focus = FOCUSES[i % len(FOCUSES)]
            preset = PRESETS[(i // len(FOCUSES)) % len(PRESETS)]
            htmx = i % 5 != 4
            rng = random.Random(self.args.seed * 4099 + i)
            threads.append(
                threading.Thread(
                    target=self.learner,
                    args=(st, rec, deadline, i, focus, preset, htmx, rng),
                    daemon=True,
                )
            )
        cpu = self.bench.cpu.snapshot()
        rec.started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()) + 60)
        rec.finish()
        rec.cpu = cpu.until(self.bench.cpu.snapshot())
        return rec

    # --- one learner -------------------------------------------------------------------

    def learner(
        self,
        st: LearnerState,
        rec: Recorder,
        deadline: float,
        index: int,
        focus: str,
        preset: str,
        htmx: bool,
        rng: random.Random,
    ) -> None:
        from teaching.table import Scenario, referee

        from .data import TableLog, round_scenario

        client = st.client.clone()  # its own tab; the session is the learner's
        client.recorder = rec
        time.sleep(self.args.table_ramp * index / max(1, len(self.bench.states)))
        page = self.bench.fetch(client, rec, "/table/", TABLE_HOME)
        if page.status != 200:
            return
        form = {"focus": focus, "rules": preset}
        r = client.post("/table/", TABLE_START, form, expect=(302,))
        if r.status == 0:
            self.bench.no_response(rec, TABLE_START, "/table/", r)
            return
        match = ROUND_URL.match(r.location)
        if r.status != 302 or not match:
            if r.status == 302:
                rec.error(TABLE_START, "/table/", 302, f"redirected to {r.location!r}")
            return
        round_id = int(match.group(1))
        log = TableLog(st.username, st.pk, round_id, focus)
        with self.lock:
            self.logs.append(log)
            self.counts.started += 1
            self.counts.plain_learners += int(not htmx)
        with self.db_lock:
            data = round_scenario(round_id, st.pk)
        if data is None:
            rec.error(TABLE_START, "/table/", 302, f"round {round_id} is not this learner's")
            return
        scenario = Scenario.from_dict(data)
        body = self.page(client, rec, round_id, 0)
        moves: list[dict[str, Any]] = []
        tried: list[dict[str, Any]] = []  # illegal cards tried since the table last changed
        for _step in range(MAX_STEPS):
            table = referee(scenario, moves)
            if table.phase == "done":
                log.finished = True
                break
            if time.monotonic() > deadline:
                return
            move, kind = choose(table, rng, self.args.table_wrong_share, tried)
            if kind != "reference":
                with self.lock:
                    self.counts.wrong[kind] = self.counts.wrong.get(kind, 0) + 1
            offered = CARD_RADIO.findall(body)
            if "play" in move and offered and move["play"] not in offered:
                rec.error(TABLE_PAGE, f"/table/{round_id}/", 200, f"{move['play']} not offered")
            self.bench.think(rng)
            roll = rng.random()
            if roll < self.args.pair_share:
                shown = self.pair(client, rec, log, moves, [move, alternative(table, move)], htmx)
                if shown is None:
                    return
                body = shown
                made_illegal = kind == "illegal card" and moves and moves[-1] == move
                tried = [*tried, move] if made_illegal else []
                continue
            endpoint = TABLE_MOVE if htmx else TABLE_MOVE_PLAIN
            n = len(moves)
            r = self.post(client, round_id, move, n, endpoint, htmx, (200,) if htmx else (302,))
            outcome = self.outcome(rec, endpoint, round_id, r, htmx, n)
            if outcome != "made":
                if outcome == "refused":
                    rec.error(endpoint, f"/table/{round_id}/move/", r.status, "refused")
                return
            self.made(log, moves, n, move)
            # An illegal card changes nothing at the table; every other move does.
            tried = [*tried, move] if kind == "illegal card" else []
            body = r.body
            if roll < self.args.pair_share + self.args.double_share:
                self.again(client, rec, log, moves, n, move, htmx)
            if not htmx:  # the browser follows the (last) redirect
                body = self.page(client, rec, round_id, len(moves))
        else:
            rec.error(TABLE_MOVE, f"/table/{round_id}/move/", 0, f"not done after {MAX_STEPS}")
        if log.finished:
            with self.lock:
                self.counts.finished += 1
            self.bench.fetch(client, rec, f"/table/{round_id}/summary/", TABLE_SUMMARY)

    # --- requests ----------------------------------------------------------------------

    @staticmethod
    def post(
        client: Client,
        round_id: int,
        move: dict[str, Any],
        n: int,
        endpoint: str,
        htmx: bool,
        expect: tuple[int, ...],
    ) -> Response:
        from tutor.table.forms import post_data  # Django is set up by then

        path = f"/table/{round_id}/move/"
        form = post_data(move, n)
        if htmx:
            current = f"/table/{round_id}/"
            return client.htmx_post(
                path, endpoint, form, current, target="table-round", expect=expect
            )
        return client.post(path, endpoint, form, expect=expect)

    def outcome(
        self, rec: Recorder, endpoint: str, round_id: int, r: Response, htmx: bool, n: int
    ) -> str:
        """ "made", "refused" (stale or double) or "failed" (recorded as an error)."""
        path = f"/table/{round_id}/move/"
        if r.status == 0:
            self.bench.no_response(rec, endpoint, path, r)
            return "failed"
        if htmx:
            if r.status == 409:
                return "refused"
            if r.status != 200:
                return "failed"  # the client counted the status already
            if "<html" in r.body[:500].lower():
                rec.error(endpoint, path, 200, "htmx request answered with a whole page")
            self.check_n(rec, endpoint, path, r.body, n + 1)
            return "made"
        if r.status == 302 and r.location == f"/table/{round_id}/":
            return "made" if r.fragment == "feedback" else "refused"
        if r.status == 302:
            rec.error(endpoint, path, 302, f"redirected to {r.location!r}")
        return "failed"

    def check_n(self, rec: Recorder, endpoint: str, path: str, body: str, want: int) -> None:
        """The table the response shows must be the one after the client's moves."""
        shown = DATA_N.search(body)
        with self.lock:
            self.counts.page_checks += 1
            if shown and int(shown.group(1)) == want:
                return
            self.counts.page_mismatches += 1
        got = shown.group(1) if shown else "no table"
        rec.error(endpoint, path, 200, f"shows move count {got}, the client made {want}")

    def page(self, client: Client, rec: Recorder, round_id: int, n: int) -> str:
        """GET the round page (after the start, and after each redirect without JS)."""
        path = f"/table/{round_id}/"
        r = self.bench.fetch(client, rec, path, TABLE_PAGE)
        if r.status == 200:
            self.check_n(rec, TABLE_PAGE, path, r.body, n)
        return r.body

    def made(self, log: TableLog, moves: list, n: int, move: dict[str, Any]) -> None:
        log.acked.append((n, move))
        moves.append(move)
        with self.lock:
            self.counts.moves_made += 1

    def again(
        self,
        client: Client,
        rec: Recorder,
        log: TableLog,
        moves: list,
        n: int,
        move: dict[str, Any],
        htmx: bool,
    ) -> None:
        """The same tab posts the move it just made once more (a double click)."""
        with self.lock:
            self.counts.doubles += 1
        r = self.post(client, log.round_id, move, n, TABLE_AGAIN, htmx, (409,) if htmx else (302,))
        outcome = self.outcome(rec, TABLE_AGAIN, log.round_id, r, htmx, n)
        if outcome == "refused":
            log.refused.append((n, move))
            with self.lock:
                self.counts.doubles_refused += 1
        elif outcome == "made":
            # Made twice: keep the client's log in step with the server's; the
            # reconciliation reports it.
            self.made(log, moves, n, move)
            if not htmx:
                rec.error(TABLE_AGAIN, f"/table/{log.round_id}/move/", 302, "made a second time")

    def pair(
        self,
        client: Client,
        rec: Recorder,
        log: TableLog,
        moves: list,
        picks: list[dict[str, Any]],
        htmx: bool,
    ) -> str | None:
        """Two tabs post two moves for the same move count at once; one may be made.
        Returns the page the learner sees then, or None when no move was made."""
        n = len(moves)
        tabs = [client.clone(), client.clone()]
        barrier = threading.Barrier(2, timeout=10)
        results: list[Response | None] = [None, None]
        expect = (200, 409) if htmx else (302,)

        def go(i: int) -> None:
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait()
            results[i] = self.post(tabs[i], log.round_id, picks[i], n, TABLE_PAIR, htmx, expect)

        threads = [threading.Thread(target=go, args=(i,), daemon=True) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=self.args.request_timeout + 10)
        outcomes = [
            self.outcome(rec, TABLE_PAIR, log.round_id, r, htmx, n) if r else "failed"
            for r in results
        ]
        for i, outcome in enumerate(outcomes):
            if outcome == "made":
                self.made(log, moves, n, picks[i])
            elif outcome == "refused":
                log.refused.append((n, picks[i]))
        ok = sorted(outcomes) == ["made", "refused"]
        with self.lock:
            self.counts.pairs += 1
            self.counts.pairs_one_made += int(ok)
        if not ok:
            path = f"/table/{log.round_id}/move/"
            statuses = [r.status if r else -1 for r in results]
            rec.error(TABLE_PAIR, path, max(statuses), f"{outcomes} ({statuses}), not one made")
        if "made" not in outcomes:
            return None
        if not htmx:
            return self.page(client, rec, log.round_id, len(moves))
        winner = results[outcomes.index("made")]
        return winner.body if winner else ""
