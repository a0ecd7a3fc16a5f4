"""Starting rounds at the table and appending moves: each move is stored exactly once.

A round's truth is its scenario and its move log. The referee's state after the log
is kept in this process (:data:`KEPT`, live objects, see :mod:`tutor.core.kept`),
keyed by the round, the log's length and a digest of the scenario and the log, so a
move takes the kept state, applies one referee step to it and keeps the result,
instead of replaying the whole log; a state whose log is not exactly the stored one is
never used, and a miss (another worker, a restart, an evicted entry, a move that
failed after taking it) replays the log from the deal: only slower, never different,
since the replay is the same step applied move by move (:func:`teaching.table.step`).
:func:`audit` always replays the whole log (the round summary uses it).

:func:`play_move` appends one move with a conditional UPDATE on the move count the
page was rendered for, so a double or stale POST (two tabs, the back button, a double
click) is refused and changes nothing; a move the referee refuses (``TableError``) is
refused before anything is written. The judgements a move produces count towards the
learner's mastery in the same transaction, once each (``TableRound.recorded``);
``info`` judgements do not count.

A round dealt by a teacher's assignment is played only while the assignment takes
work and the learner is still in its class (:func:`check_can_play`, like
``tutor.quizzes.services.check_can_answer``); otherwise :class:`RoundLocked` (403).

An illegal card is a move too: the referee judges it wrong (with the R3 reason) and
does not play it, and the learner plays again. It stays in the log, so the round can
be replayed and re-judged exactly and the wrong card counts once for mastery.

«Stöck!» on its own is offered to every learner in every trump contract, so it must
not fill the log: it does not count toward :data:`MAX_MOVES` (cards, announcements,
writes and the Jasstafel do). And a move that tries again what the learner tried since
their last card (the same refused card, a call or an announcement on its own) is
refused and not stored (:func:`repeated`): nothing at the table changed, so it would
change nothing. Between two cards there are then at most the hand's other cards, one
announcement and one call, so no round can reach the cap: every round can be
finished.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules_core import RuleSet
from teaching.table import (
    Judgement,
    RefereeState,
    Scenario,
    Table,
    TableError,
    build_scenario,
    referee,
    replay_state,
    step,
)
from tutor.accounts.models import User
from tutor.core.assignment_policy import WorkRefused, check_work
from tutor.core.kept import KeptStates
from tutor.core.prepared import PreparedQuery
from tutor.quizzes.services import record_skills

from .models import Focus, TableRound
from .selectors import round_of
from .signals import announce_finished

# A round needs about a dozen moves; far more is a client posting in a loop. Counted:
# every move but «Stöck!» on its own (see the module docstring).
MAX_MOVES = 120
SEED_TRIES = 5
# Bump STATE_VERSION when the referee changes what a state holds.
STATE_VERSION = 1
# The referee's states after rounds' latest moves, in this process: one per round in
# play (about 30 kB each, measured with tracemalloc: at most ~30 MB per worker), the
# least recently used dropped first.
KEPT: KeptStates[RefereeState] = KeptStates(max_entries=1000)
# The rows as this process's last move of them wrote them, by (learner, round): the next
# move's guess instead of a read (:func:`round_to_move`).
ROWS: KeptStates[TableRound] = KeptStates(max_entries=1000)


class RoundError(Exception):
    """A request about a round that cannot be carried out; the message is for the user."""


class StaleMove(RoundError):
    """The page the move came from was not the table's latest state (409)."""


class MoveRefused(RoundError):
    """The referee or the form refused the move (400); nothing was stored.
    ``refusal``: the referee's :class:`TableError` (its code and parameters let the
    page word it in its language), None for a refusal of the site's own."""

    def __init__(self, message: str, refusal: TableError | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal


class RoundLocked(WorkRefused, RoundError):
    """The round's assignment takes no more work from this learner (403)."""


@dataclass(frozen=True)
class MoveOutcome:
    round: TableRound
    table: Table
    judgements: tuple[Judgement, ...]  # the ones this move made


def new_seed() -> int:
    return secrets.randbelow(2**31)


def scenario_of(round_: TableRound) -> Scenario:
    return Scenario.from_dict(round_.scenario)


def table_of(round_: TableRound, moves: list[Any] | None = None) -> Table:
    """The table after the round's moves (from the kept state, see :func:`state_of`),
    or after ``moves`` (e.g. a prefix; always replayed)."""
    if moves is None:
        return state_of(round_).table()
    return referee(scenario_of(round_), moves)


def audit(round_: TableRound) -> Table:
    """The table after the round's stored log, replayed from the deal: never from the
    cache, so what it shows is what the log says."""
    return referee(scenario_of(round_), round_.moves)


def state_key(round_: TableRound, moves: Sequence[Any]) -> str:
    """The cache key of the referee's state after ``moves`` of this round: the round,
    the log's length and a digest of the scenario and the log (sorted keys, since
    PostgreSQL's jsonb does not keep the order a move was posted in)."""
    data = json.dumps(moves, sort_keys=True, separators=(",", ":"))
    log = f"{_deal_digest(round_)}:{data}"
    digest = hashlib.blake2b(log.encode(), digest_size=16).hexdigest()
    return f"table-state:{STATE_VERSION}:{round_.pk}:{len(moves)}:{digest}"


def _deal_digest(round_: TableRound) -> str:
    """A digest of the round's stored scenario, made once per scenario object: a
    stored deal never changes, and a move asks for two keys of it (about 20 µs each
    to serialise). Kept beside the object it was made of, so a scenario replaced on
    the row is digested again."""
    made = round_.__dict__.get("_deal_digest")
    if made is not None and made[0] is round_.scenario:
        return str(made[1])
    data = json.dumps(round_.scenario, sort_keys=True, separators=(",", ":"))
    digest = hashlib.blake2b(data.encode(), digest_size=16).hexdigest()
    round_.__dict__["_deal_digest"] = (round_.scenario, digest)
    return digest


def _kept_state(round_: TableRound, key: str, *, take: bool) -> RefereeState | None:
    """The kept state for the stored log (taken out of :data:`KEPT` when ``take``), or
    None when there is none to trust: not a referee state, or one of another log
    (length or moves) or another deal."""
    state = KEPT.take(key) if take else KEPT.peek(key)
    if not isinstance(state, RefereeState):
        return None
    moves = round_.moves
    deal = round_.scenario
    if (
        len(state.moves) != len(moves)
        or len(moves) != round_.move_count
        or state.moves != moves
        or state.me != deal.get("seat")
        or [list(h) for h in state.scenario.hands] != deal.get("hands")
    ):
        return None
    return state


def state_of(round_: TableRound, *, keep: bool = True) -> RefereeState:
    """The referee's state after the round's stored log, to read (freeze it with
    ``.table()``; never step it): the kept one when this process has it for exactly
    this log, else a replay from the deal (kept for the next request unless ``keep``
    is False)."""
    key = state_key(round_, round_.moves)
    state = _kept_state(round_, key, take=False)
    if state is None:
        state = replay_state(scenario_of(round_), round_.moves)
        if keep:
            KEPT.put(key, state)
    return state


def _state_to_step(round_: TableRound, key: str) -> RefereeState:
    """The referee's state after the stored log, for this request alone to step: the
    kept one, taken out, or a fresh replay."""
    state = _kept_state(round_, key, take=True)
    if state is None:
        state = replay_state(scenario_of(round_), round_.moves)
    return state


@dataclass(frozen=True)
class RoundToMove:
    round: TableRound
    kept: bool  # the row as this process's last move wrote it (not read)


def round_to_move(learner: User, round_id: int, expected_count: int | None) -> RoundToMove:
    """The learner's round for a move posted from a page of ``expected_count`` moves:
    the row as this process's last move of it wrote it (:data:`ROWS`), when that is the
    count, else read (:func:`~tutor.table.selectors.round_of`: 404 for anybody else's).
    A kept row is only a guess: :func:`play_move` appends with an UPDATE that holds only
    while the stored row has that count (and the learner), so a row changed or deleted
    meanwhile refuses the move as stale. Its assignment is read afresh (it may have
    closed since)."""
    kept = ROWS.take((learner.pk, round_id))
    if kept is not None and expected_count is not None and kept.move_count == expected_count:
        names = [f.attname for f in TableRound._meta.concrete_fields]
        # A new instance: no related object (the assignment) cached from before.
        fresh = TableRound.from_db(kept._state.db, names, [getattr(kept, n) for n in names])
        if "_deal_digest" in kept.__dict__:  # the same scenario object: its digest holds
            fresh.__dict__["_deal_digest"] = kept.__dict__["_deal_digest"]
        return RoundToMove(fresh, kept=True)
    return RoundToMove(round_of(learner, round_id), kept=False)


def start_round(
    *,
    learner: User,
    focus: str,
    rules: RuleSet | None = None,
    seed: int | None = None,
    seeds: Sequence[int] = (),
    assignment: Any = None,
    assignment_index: int | None = None,
    same_as: TableRound | None = None,
) -> TableRound:
    """A new round aimed at ``focus``; with ``seed`` None a fresh one is drawn (and a
    few more tried should the builder find no deal for one).

    ``same_as``: a classmate's round of the same assignment whose deal this one copies
    (its seed and stored scenario), so an update of the scenario builders between two
    pupils' starts does not deal them different rounds.

    ``seeds``: candidates tried in order instead (the first with a deal wins), so a
    caller that derives seeds gets the same deal every time. ``assignment`` and
    ``assignment_index`` (0-based) mark a round dealt by a teacher's assignment; the
    caller checks that the learner may start it. A second round with the same index
    raises ``IntegrityError`` (the unique constraint), which the caller resolves.
    """
    if not learner.is_learner:
        raise RoundError(_("Only learners play at the table."))
    if focus not in Focus.values:
        raise RoundError(_("Choose one of the focuses shown."))
    rules = rules or RuleSet()
    if same_as is not None:
        return TableRound.objects.create(
            learner=learner,
            focus=focus,
            seed=same_as.seed,
            rules=rules.to_dict(),
            scenario=same_as.scenario,
            assignment=assignment,
            assignment_index=assignment_index,
        )
    if seeds:
        candidates = list(seeds)
    elif seed is not None:
        candidates = [seed]
    else:
        candidates = [new_seed() for _ in range(SEED_TRIES)]
    for candidate in candidates:
        try:
            scenario = build_scenario(focus, candidate, rules)
        except TableError:
            continue
        return TableRound.objects.create(
            learner=learner,
            focus=focus,
            seed=candidate,
            rules=rules.to_dict(),
            scenario=scenario.to_dict(),
            assignment=assignment,
            assignment_index=assignment_index,
        )
    raise RoundError(_("No deal could be found for this focus; please try again."))


def check_can_play(round_: TableRound, now: datetime) -> None:
    """Raise :class:`RoundLocked` when the round's assignment takes no more moves from
    its learner: they left the class, or the due date passed with late work refused.
    A practice round (no assignment) is always playable.

    The assignment comes through the round's foreign key (tutor.table does not import
    the classroom app); ``tutor.core.assignment_policy`` decides.
    """
    if round_.assignment is not None:
        check_work(round_.assignment, round_.learner_id, now, error=RoundLocked)


def locked_reason(round_: TableRound, now: datetime | None = None) -> str:
    """Why the round takes no more moves from its learner, or '' when it does."""
    try:
        check_can_play(round_, now or timezone.now())
    except RoundLocked as locked:
        return str(locked)
    if counted_moves(round_.moves) >= MAX_MOVES:
        # Repeats are refused, so a learner cannot get here; an old log might.
        return _(
            "This round takes no more moves: its log is full. Start a new round from the "
            "page «At the table»."
        )
    return ""


def lone_call(move: Any) -> bool:
    """``{"stoeck": true}``: «Stöck!» said on its own, without a card."""
    return isinstance(move, dict) and set(move) == {"stoeck"}


def counted_moves(moves: Sequence[Any]) -> int:
    """The moves that count toward :data:`MAX_MOVES`: all but calls on their own."""
    return sum(1 for m in moves if not lone_call(m))


def lone_announcement(move: Any) -> bool:
    """``{"announce": 50}``: an announcement on its own, without a card."""
    return isinstance(move, dict) and set(move) == {"announce"}


def _attempt(move: Any) -> tuple[str, ...] | None:
    """What a move tries, for telling a repeat: the card, a call on its own or an
    announcement on its own (its value aside: any later one is late alike); None for
    the rest (the writes and the Jasstafel happen once anyway)."""
    if not isinstance(move, dict):
        return None
    if isinstance(move.get("play"), str):
        return ("play", move["play"])
    if lone_call(move):
        return ("stoeck",)
    if lone_announcement(move):
        return ("announce",)
    return None


def _moments(table: Table) -> dict[int, int]:
    """Per move of the log, how many cards lay on the table when it was made (the
    referee's ``at_play`` of its judgements)."""
    moments: dict[int, int] = {}
    for j in table.judgements:
        moments.setdefault(j.move, j.at_play)
    return moments


def repeated(table: Table) -> bool:
    """The log's last move tries again what the learner tried at the same moment, no
    card played since: the same card (refused then, so refused again), «Stöck!» or an
    announcement on its own. It would change nothing; :func:`play_move` refuses it and
    stores nothing. With that, the moves at one moment are at most the hand's cards, one
    announcement and one call, so no round can fill :data:`MAX_MOVES`."""
    if not table.moves:
        return False
    *earlier, move = table.moves
    attempt = _attempt(move)
    moments = _moments(table)
    now = moments.get(len(earlier))
    return (
        attempt is not None
        and now is not None
        and any(_attempt(m) == attempt and moments.get(i) == now for i, m in enumerate(earlier))
    )


def just_called(table: Table) -> bool:
    """«Stöck!» on its own was said at this moment already (no card played since):
    saying it again would change nothing."""
    moments = _moments(table)
    # a call on its own is judged "said after" the last card on the table
    last_card = len(table.plays) - 1
    return any(lone_call(m) and moments.get(i) == last_card for i, m in enumerate(table.moves))


def _tally(tally: dict[str, Any], judgements: tuple[Judgement, ...]) -> dict[str, Any]:
    out = {skill: dict(counts) for skill, counts in tally.items()}
    for j in judgements:
        counts = out.setdefault(j.skill, {"right": 0, "wrong": 0, "info": 0})
        counts[j.outcome] = counts.get(j.outcome, 0) + 1
    return out


# A move's write, compiled once (tutor.core.prepared): it holds only while the round is
# still what the move was judged on.
_UNCHANGED_ROUND = PreparedQuery(
    lambda pk, learner_id, move_count, recorded: TableRound.objects.filter(
        pk=pk, learner_id=learner_id, move_count=move_count, recorded=recorded
    ),
    pk=int,
    learner_id=int,
    move_count=int,
    recorded=int,
)


def play_move(
    *,
    learner: User,
    round_: TableRound,
    move: dict[str, Any],
    expected_count: int,
    row_kept: bool = False,
) -> MoveOutcome:
    """Append ``move`` to the round's log, if the log still has ``expected_count``
    moves (the count the learner's page showed); judge it and count its judgements
    towards mastery, all at once or not at all. ``row_kept``: ``round_`` is the row
    this process's last move wrote (:func:`round_to_move`), so the learner's skill
    states were most likely written here last too (``record_skills``).

    Raises :class:`StaleMove` when the log has moved on (nothing changes) and
    :class:`MoveRefused` when the referee refuses the move (nothing is stored).
    """
    if round_.learner_id != learner.pk:
        raise RoundError("This round belongs to another learner.")
    check_can_play(round_, timezone.now())
    if expected_count != round_.move_count:
        raise StaleMove(stale_message())
    if not lone_call(move) and counted_moves(round_.moves) >= MAX_MOVES:
        raise MoveRefused(_("This round takes no more moves."))
    # The move as the stored log will hold it (JSON: string keys, lists), so the step
    # judges what a replay of the log judges and the kept state's log is the stored
    # one. Not JSON data at all: the referee refuses it below.
    with contextlib.suppress(TypeError, ValueError):
        move = json.loads(json.dumps(move))
    # Taken out of KEPT: if anything below fails, it is not put back (it may be
    # half-stepped) and the next request replays the log.
    before = state_key(round_, round_.moves)
    state = _state_to_step(round_, before)
    moves = [*round_.moves, move]
    try:
        step(state, move)
    except TableError as err:
        raise MoveRefused(str(err), err) from None
    table = state.table()
    if repeated(table):
        raise MoveRefused(_repeat_message(move))
    new = table.judgements[round_.recorded :]
    now = timezone.now()
    finished = now if table.phase == "done" else None
    tally = _tally(round_.tally, new)
    with transaction.atomic():
        # The condition makes the append happen once even when two requests race.
        updated = _UNCHANGED_ROUND.update(
            {
                "moves": moves,
                "move_count": expected_count + 1,
                "recorded": len(table.judgements),
                "tally": tally,
                "last_move_at": now,
                "finished_at": finished,
            },
            pk=round_.pk,
            learner_id=learner.pk,
            move_count=expected_count,
            recorded=round_.recorded,
        )
        if not updated:
            raise StaleMove(stale_message())
        record_skills(
            learner,
            [(j.skill, j.right) for j in new if j.right or j.wrong],
            now,
            likely_current=row_kept,
        )
    round_.moves, round_.move_count = moves, expected_count + 1
    round_.recorded, round_.tally = len(table.judgements), tally
    round_.last_move_at, round_.finished_at = now, finished
    KEPT.put(state_key(round_, moves), state)
    KEPT.discard(before)  # kept again by a page read while this move held the state
    ROWS.put((learner.pk, round_.pk), round_)
    if finished is not None and round_.assignment_id is not None:
        announce_finished(round_.pk)
    return MoveOutcome(round=round_, table=table, judgements=tuple(new))


def _repeat_message(move: Any) -> str:
    if lone_call(move):
        return _(
            "You have said «Stöck!» already and nothing has happened at the table since: "
            "saying it again would change nothing."
        )
    if lone_announcement(move):
        return _(
            "You have announced already since your last card: announcing again would "
            "change nothing."
        )
    return _(
        "You have tried this card already and nothing has changed at the table since: it "
        "is still not allowed here (see why above). Choose another card."
    )


def stale_message() -> str:
    return _(
        "This move came from an older view of the table (another tab, the back button "
        "or a double click), so it was not made. Here is the table as it is now."
    )
