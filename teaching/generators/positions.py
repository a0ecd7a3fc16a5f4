"""Questions at a table position (issue 25, live in class): "does player 3's
announcement count, which card may player 2 play, what does Team 1 write now?", asked
at the moments of rounds of the table trainer.

The round is the trainer's own: ``teaching.table.build_scenario(focus, seed, rules)``,
played by the reference learner (the site players' card policy, the best meld
announced with the first card, the right ``writes``). One question per ask, at the
first moment of the round that gives one:

- ``announce``: the first trick as it was played; a player holding a meld announces its
  value with their card, after a later card, or (the last player) after the gathering:
  does it count? An ``announce`` question of the sub-type ``deadline``.
- ``play``: a card of tricks 2 to 8 (from a trick drawn for the round on, in playing
  order) whose player holds two cards of two other suits that they may not play: which
  of three cards may they play? A ``trick`` question of the sub-type ``may_play``.
- ``jasstafel``: all nine tricks played: what does a team write for the round (Weis,
  Stöck and tricks)? A ``jasstafel`` question on the round as it was played, with the
  Stöck called as the trainer's players call it (the round needs a trump contract,
  King and Ober of trump in one hand, and a team writing Weis).

Each is a question of an existing kind, built by that kind's own ``*_draft`` function
with the kind's slips, so a page, the mastery and the results take it as any other.
The choices must not give the answer away (issue 12): what decides a question's right
choice is drawn first and kept until a round gives it, as the generators draw it before
they deal (the moment of the announcement; the rank of the card that may be played
among the three offered, of three suits; which of the Jasstafel's blocks the team
writes). Its seed is the round's; its prompt
adds ``"case"`` (what :func:`case_of` reads) and ``"table"``: ``{"focus", "seed",
"ask", "round", "trick", "seat"}`` (0-based; ``round`` is the round's place in the
session, ``seat`` the player to play, None for ``announce`` and ``jasstafel``), the facts
a page states about the position; :func:`check_position` plays the round again and
checks them and the question's inputs against it.

Why not "what does player 3 announce?" (the value of the best meld) or "which team
writes Weis, and how much?" after the first trick: a dealt hand's slips rarely reach
the values the right answers take, so the values themselves told the answer (a pupil
remembering which values had been right won 30 and 17 points above chance); the
``weis_value`` and ``who_writes`` generators plant their hands to avoid that.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules_core import RuleSet, best_meld
from teaching.table import Scenario, build_scenario, replay_state, step

from .announce import DEADLINES, deadline_draft
from .base import Draft, Question, QuizError, Retry, question_from_draft
from .jasstafel import CASES, jasstafel_draft
from .trick import may_play_draft

ASKS = ("announce", "play", "jasstafel")
"""What a position question asks, in the order the moments come in a round."""

ASK_KINDS = {"announce": "announce", "play": "trick", "jasstafel": "jasstafel"}
"""The question kind of each ask."""

ROUNDS_TRIED = 400
"""Rounds (consecutive seeds) tried for one that has a position for an ask."""

PLACES = ("lowest", "middle", "highest")
"""Where the card that may be played stands among the three offered, by rank."""

AIMS: dict[str, tuple[str, ...]] = {"announce": DEADLINES, "play": PLACES, "jasstafel": CASES}
"""What is drawn evenly for a question of an ask before a round is looked at."""

PLAY_TRICKS = range(1, 8)
"""The tricks (0-based) of a ``play`` position: not the first (the moment to announce)
nor the last (one card left)."""


def asks_for(focus: str) -> tuple[str, ...]:
    """The asks the rounds of ``focus`` can give: no ``jasstafel`` in Undenufe, which
    has no trump and so no Stöck (R6.1).

    >>> asks_for("undenufe")
    ('announce', 'play')
    """
    return tuple(a for a in ASKS if not (a == "jasstafel" and focus == "undenufe"))


class PositionError(QuizError):
    """No round fits the request (an unknown ask, or no round in reach has a position
    for an ask)."""


@dataclass(frozen=True)
class Position:
    """A moment of a played round: who is to play (None: not asked about one player),
    in which trick (0-based), what they hold and the cards of the trick before theirs."""

    ask: str
    trick: int
    seat: int | None
    hand: tuple[str, ...] = ()
    played: tuple[str, ...] = ()
    leader: int = 0


@dataclass(frozen=True)
class PlayedRound:
    """A trainer round played to the end by the reference learner."""

    scenario: Scenario
    plays: tuple[tuple[int, str], ...]
    calls: tuple[tuple[int, int, bool], ...]  # the Stöck calls the engine got

    def held(self, seat: int, before: int) -> tuple[str, ...]:
        """The cards ``seat`` holds before play ``before``, in deck order."""
        gone = {card for s, card in self.plays[:before] if s == seat}
        return tuple(c for c in self.scenario.hands[seat] if c not in gone)

    def positions(self, ask: str, start: int = PLAY_TRICKS.start) -> Iterator[Position]:
        """The moments of ``ask`` in this round, in the order they are tried (``play``:
        from trick ``start`` on, then the earlier ones)."""
        if ask == "announce":
            yield Position(ask, 0, None)
            return
        if ask == "jasstafel":
            yield Position(ask, 8, None)  # after the ninth trick
            return
        tricks = [*range(start, PLAY_TRICKS.stop), *range(PLAY_TRICKS.start, start)]
        for index in (4 * t + i for t in tricks for i in range(1, 4)):
            seat = self.plays[index][0]
            first = index - index % 4
            trick = tuple(card for _s, card in self.plays[first:index])
            yield Position(
                ask, index // 4, seat, self.held(seat, index), trick, self.plays[first][0]
            )


@lru_cache(maxsize=512)
def played_round(focus: str, seed: int, rules: RuleSet) -> PlayedRound:
    """The trainer's round of ``(focus, seed)`` played by the reference learner."""
    scenario = build_scenario(focus, seed, rules)
    state = replay_state(scenario, [])
    while state.phase in ("play", "writes"):
        step(state, state.reference_move().to_dict())
    table = state.table()
    calls = tuple(
        (c.seat, c.after_play, c.prompted) for c in table.calls if c.after_play is not None
    )
    return PlayedRound(scenario, tuple((seat, card.code) for seat, card in state.plays), calls)


Aim = str | None
"""What a question is drawn to have before a round is looked at (:data:`AIMS`): the
deadline that decides an ``announce``, the place of the card that may be played, the
blocks the team writes besides its tricks (a case of the ``jasstafel`` kind)."""


def _draft(game: PlayedRound, at: Position, rng: random.Random, aim: Aim) -> Draft[Any] | None:
    scenario = game.scenario
    contract, rules = scenario.contract, scenario.rules
    if at.ask == "announce":
        first = [list(play) for play in game.plays[:4]]
        return deadline_draft(rng, str(aim), first, scenario.hands, contract, rules)
    if at.ask == "jasstafel":
        plays = [list(p) for p in game.plays]
        calls = [list(c) for c in game.calls]
        return jasstafel_draft(str(aim), scenario.hands, contract, plays, calls, rules)
    place = None if aim is None else PLACES.index(aim)
    return may_play_draft(rng, at.hand, at.played, contract, at.leader, rules, place)


def _case(at: Position, aim: Aim) -> str:
    """The case of the question's kind (``Kind.cases``) the position shows: the aim it
    was drawn for (the deadline that decides an ``announce``, the Jasstafel case), and
    for the card question the ``legal`` case of its rules."""
    return "legal" if at.ask == "play" else str(aim)


def _question(game: PlayedRound, at: Position, rng: random.Random, aim: Aim) -> Question | None:
    draft = _draft(game, at, rng, aim)
    if draft is None:
        return None
    scenario = game.scenario
    try:
        question = question_from_draft(ASK_KINDS[at.ask], scenario.seed, scenario.rules, draft, rng)
    except Retry:
        return None
    table = {
        "focus": scenario.focus,
        "seed": scenario.seed,
        "ask": at.ask,
        "round": 0,
        "trick": at.trick,
        "seat": at.seat,
    }
    prompt = {**question.prompt, "case": _case(at, aim), "table": table}
    return dataclasses.replace(question, prompt=prompt)


def round_question(
    focus: str, seed: int, rules: RuleSet, ask: str, aim: Aim = None
) -> Question | None:
    """The question of the round of ``(focus, seed)`` at its first moment of ``ask``
    that gives one with ``aim`` (``announce``: the deadline that decides it;
    ``jasstafel``: the blocks the team writes besides its tricks, a case of
    ``jasstafel.CASES``; drawn when None), or None. Its ``table["round"]`` is 0 until
    :func:`position_questions` numbers the rounds of a session.

    >>> round_question("stoeck", 4, RuleSet(), "jasstafel", "both").answer_value["points"] > 0
    True
    """
    game = played_round(focus, seed, rules)
    rng = random.Random(f"table_position:{focus}:{seed}:{ask}")
    if aim is None and ask in AIMS:
        aim = rng.choice(AIMS[ask])
    start = rng.randrange(PLAY_TRICKS.start, PLAY_TRICKS.stop)
    found = (_question(game, at, rng, aim) for at in game.positions(ask, start))
    return next((q for q in found if q is not None), None)


def _asked(focus: str, seed: int, rules: RuleSet, ask: str) -> Iterator[Question]:
    """The questions of ``ask`` in the rounds from ``(focus, seed)`` on, skipping the
    rounds without one (:class:`PositionError` after :data:`ROUNDS_TRIED` in a row).

    What decides the right choice is drawn first, evenly, and kept until a round gives
    it (:data:`AIMS`): left to the rounds, some choices would be right far more often
    than others (most Jasstafel rounds give one case), and a pupil would learn which."""
    aims = random.Random(f"table_position:{focus}:{seed}:{ask}:aims")
    while True:
        aim = aims.choice(AIMS[ask]) if ask in AIMS else None
        for _tried in range(ROUNDS_TRIED):
            question = round_question(focus, seed, rules, ask, aim)
            seed += 1
            if question is not None:
                yield question
                break
        else:
            raise PositionError(
                f"no round of focus {focus!r} before seed {seed} has a {ask} position"
            )


def position_questions(
    focus: str, seed: int, rules: RuleSet, asks: Sequence[str], count: int
) -> list[Question]:
    """``count`` questions at table positions, the asks in turn (in the order their
    moments come in a round): each ask's from the rounds ``(focus, seed)``,
    ``(focus, seed + 1)`` ... that have one. The rounds are numbered in the order the
    session meets them (``table["round"]``; a round met again keeps its number).
    Raises :class:`PositionError` for an unknown ask, or when no round in reach fits.

    >>> qs = position_questions("stoeck", 7, RuleSet(), ["jasstafel", "announce"], 3)
    >>> [q.kind for q in qs]
    ['announce', 'jasstafel', 'announce']
    """
    unknown = [a for a in asks if a not in asks_for(focus)]
    if unknown or not asks:
        raise PositionError(f"ask one of {', '.join(ASKS)}, got {', '.join(unknown) or 'none'}")
    streams = [_asked(focus, seed, rules, ask) for ask in ASKS if ask in asks]
    drawn = [next(streams[i % len(streams)]) for i in range(count)]
    rounds: dict[int, int] = {}
    questions = []
    for q in drawn:
        number = rounds.setdefault(q.prompt["table"]["seed"], len(rounds))
        table = {**q.prompt["table"], "round": number}
        questions.append(dataclasses.replace(q, prompt={**q.prompt, "table": table}))
    return questions


def check_position(question: Question) -> list[str]:
    """What is wrong with a position question: its round played again, the facts of
    ``prompt["table"]`` and the question's inputs compared with the position (an
    empty list: all true)."""
    table = question.prompt.get("table")
    if not isinstance(table, dict):
        return ["no table position in the prompt"]
    ask = table["ask"]
    if ask not in ASKS or question.kind != ASK_KINDS[ask]:
        return [f"a {question.kind} question cannot ask {ask}"]
    game = played_round(table["focus"], table["seed"], question.rule_set())
    inputs = question.inputs
    problems = []
    if inputs["contract"] != game.scenario.contract:
        problems.append(f"contract {inputs['contract']} is not the round's")
    if ask == "announce":
        problems += _announce_problems(game, inputs, question.rule_set())
    elif ask == "jasstafel":
        if [sorted(h) for h in inputs["hands"]] != [sorted(h) for h in game.scenario.hands]:
            problems.append("the hands are not the round's")
        if [tuple(p) for p in inputs["plays"]] != list(game.plays):
            problems.append("the cards played are not the round's")
        if [tuple(c) for c in inputs["calls"]] != list(game.calls):
            problems.append("the Stöck calls are not the round's")
    else:
        problems += _play_problems(game, question, table)
    return problems


def _announce_problems(game: PlayedRound, inputs: dict[str, Any], rules: RuleSet) -> list[str]:
    problems = []
    if [tuple(p) for p in inputs["plays"]] != list(game.plays[:4]):
        problems.append("the first trick is not the round's")
    contract = game.scenario.contract
    for seat, value, _after in inputs["announcements"]:
        meld = best_meld(game.scenario.hands[seat], contract, rules)
        if meld is None or meld.points != value:
            problems.append(f"player {seat + 1} announces {value}, not their best meld")
    return problems


def _play_problems(game: PlayedRound, question: Question, table: dict[str, Any]) -> list[str]:
    inputs = question.inputs
    at = next(
        (
            p
            for p in game.positions("play")
            if p.seat == table["seat"] and p.trick == table["trick"]
        ),
        None,
    )
    if at is None:
        return [f"player {table['seat']} does not play in trick {table['trick']}"]
    problems = []
    if sorted(inputs["hand"]) != sorted(at.hand):
        problems.append(f"player {at.seat} does not hold {' '.join(inputs['hand'])} there")
    if list(inputs["trick"]) != list(at.played) or inputs["leader"] != at.leader:
        problems.append("the trick on the table is not the round's")
    if question.prompt.get("seat") != at.seat:
        problems.append("the player to play is not the round's")
    return problems
