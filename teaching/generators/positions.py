"""Questions at a table position (issue 25, live in class): "what should player 3
announce, write, play now?", asked at the moments of one round of the table trainer.

The round is the trainer's own: ``teaching.table.build_scenario(focus, seed, rules)``,
played by the reference learner (the site players' card policy, the best meld
announced with the first card, the right ``writes``). It stops at the learner's
moments, one question per ask (the first position of the round that gives one):

- ``announce``: a player's first card (trick 1), the trainer's learner first, then
  the others in playing order: a ``weis_value`` question on that player's nine cards.
- ``writes``: the first trick gathered: a ``who_writes`` question on the four hands
  (every player announced their best meld, so ``resolve_weis`` without claims gives
  what the trainer's ``writes`` judgement expects).
- ``play``: a card of tricks 6 and 7 (at most four cards in hand, as the ``legal``
  questions have), in playing order, whose player holds a card they may not play: a
  ``trick`` question of the sub-type ``legal``.

Each is a question of an existing kind, built by that kind's own ``*_draft`` function
with the kind's slips, so a page, the mastery and the results take it as any other.
Its seed is the round's; its prompt adds ``"case"`` (what :func:`case_of` reads) and
``"table"``: ``{"focus", "seed", "ask", "round", "trick", "seat"}`` (0-based; ``round``
is the round's place in the session, ``seat`` the player asked about, None for
``writes``), the facts a page states about the position; :func:`check_position`
plays the round again and checks them and the question's inputs against it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rules_core import RuleSet, legal_cards, parse_cards, resolve_weis
from teaching.table import Scenario, build_scenario, replay_state, step

from .base import Draft, Question, QuizError, Retry, question_from_draft
from .trick import legal_draft
from .weis import weis_value_case, weis_value_draft, who_writes_case, who_writes_draft

ASKS = ("announce", "writes", "play")
"""What a position question asks, in the order the moments come in a round."""

ASK_KINDS = {"announce": "weis_value", "writes": "who_writes", "play": "trick"}
"""The question kind of each ask."""

ROUNDS_TRIED = 200
"""Rounds (consecutive seeds) tried for one that has a position for every ask."""

PLAY_TRICKS = range(5, 7)
"""The tricks (0-based) of a ``play`` position: at most four cards in hand."""


class PositionError(QuizError):
    """No round fits the request (an unknown ask, or no round in reach has a position
    for every ask)."""


@dataclass(frozen=True)
class Position:
    """A moment of a played round: who is asked (None: the table), in which trick
    (0-based), what they hold and the cards of the trick before theirs."""

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

    def held(self, seat: int, before: int) -> tuple[str, ...]:
        """The cards ``seat`` holds before play ``before``, in deck order."""
        gone = {card for s, card in self.plays[:before] if s == seat}
        return tuple(c for c in self.scenario.hands[seat] if c not in gone)

    def positions(self, ask: str) -> Iterator[Position]:
        """The moments of ``ask`` in this round, in the order they are tried."""
        scenario = self.scenario
        if ask == "announce":
            for seat in (scenario.seat, *(s for s in range(4) if s != scenario.seat)):
                yield Position(ask, 0, seat, scenario.hands[seat])
        elif ask == "writes":
            yield Position(ask, 0, None)
        else:
            for index in range(4 * PLAY_TRICKS.start, 4 * PLAY_TRICKS.stop):
                seat = self.plays[index][0]
                start = index - index % 4
                trick = tuple(card for _s, card in self.plays[start:index])
                held = self.held(seat, index)
                yield Position(ask, index // 4, seat, held, trick, self.plays[start][0])


def played_round(focus: str, seed: int, rules: RuleSet) -> PlayedRound:
    """The trainer's round of ``(focus, seed)`` played by the reference learner."""
    scenario = build_scenario(focus, seed, rules)
    state = replay_state(scenario, [])
    while state.phase in ("play", "writes"):
        step(state, state.reference_move().to_dict())
    return PlayedRound(scenario, tuple((seat, card.code) for seat, card in state.plays))


def _draft(game: PlayedRound, at: Position, rng: random.Random) -> Draft[Any] | None:
    contract, rules = game.scenario.contract, game.scenario.rules
    if at.ask == "announce":
        return weis_value_draft(rng, at.hand, contract, rules)
    if at.ask == "writes":
        return who_writes_draft(rng, game.scenario.hands, contract, rules)
    if not at.played or set(legal_cards(at.hand, at.played, contract)) == set(parse_cards(at.hand)):
        return None  # every card may be played: nothing to ask
    return legal_draft(rng, at.hand, at.played, contract, at.leader, rules)


def _case(game: PlayedRound, at: Position) -> str:
    """The case of the question's kind (``Kind.cases``) the position shows."""
    contract, rules = game.scenario.contract, game.scenario.rules
    if at.ask == "announce":
        return weis_value_case(at.hand, contract, rules)
    if at.ask == "writes":
        return who_writes_case(resolve_weis(game.scenario.hands, contract, rules), contract)
    return "legal"


def _question(
    game: PlayedRound, at: Position, round_index: int, rng: random.Random
) -> Question | None:
    draft = _draft(game, at, rng)
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
        "round": round_index,
        "trick": at.trick,
        "seat": at.seat,
    }
    prompt = {**question.prompt, "case": _case(game, at), "table": table}
    return dataclasses.replace(question, prompt=prompt)


def round_questions(
    focus: str, seed: int, rules: RuleSet, asks: Sequence[str] = ASKS, round_index: int = 0
) -> list[Question] | None:
    """The questions of the round of ``(focus, seed)`` at each of ``asks``, in the
    order the moments come; None when the round has no position for one of them.

    >>> [q.kind for q in round_questions("kreuzweis", 7, RuleSet())]
    ['weis_value', 'who_writes', 'trick']
    """
    game = played_round(focus, seed, rules)
    questions = []
    for ask in (a for a in ASKS if a in asks):
        rng = random.Random(f"table_position:{focus}:{seed}:{ask}")
        found = (_question(game, at, round_index, rng) for at in game.positions(ask))
        question = next((q for q in found if q is not None), None)
        if question is None:
            return None
        questions.append(question)
    return questions


def position_questions(
    focus: str, seed: int, rules: RuleSet, asks: Sequence[str], count: int
) -> list[Question]:
    """``count`` questions at table positions: the questions of the rounds of
    ``(focus, seed)``, ``(focus, seed + 1)`` ... that have a position for every ask,
    round after round, cut at ``count``. Raises :class:`PositionError` for an unknown
    ask, or when no round in reach fits.

    >>> qs = position_questions("kreuzweis", 7, RuleSet(), ["writes", "play"], 3)
    >>> [(q.kind, q.prompt["table"]["round"]) for q in qs]
    [('who_writes', 0), ('trick', 0), ('who_writes', 1)]
    """
    unknown = [a for a in asks if a not in ASKS]
    if unknown or not asks:
        raise PositionError(f"ask one of {', '.join(ASKS)}, got {', '.join(unknown) or 'none'}")
    questions: list[Question] = []
    rounds = tried = 0
    while len(questions) < count:
        found = round_questions(focus, seed, rules, asks, round_index=rounds)
        seed += 1
        if found is None:
            tried += 1
            if tried >= ROUNDS_TRIED:
                raise PositionError(f"no round of focus {focus!r} has a position for every ask")
            continue
        questions += found
        rounds, tried = rounds + 1, 0
    return questions[:count]


def check_position(question: Question) -> list[str]:
    """What is wrong with a position question: its round played again, the facts of
    ``prompt["table"]`` and the question's inputs compared with the position (an
    empty list: all true)."""
    table = question.prompt.get("table")
    if not isinstance(table, dict):
        return ["no table position in the prompt"]
    rules = question.rule_set()
    game = played_round(table["focus"], table["seed"], rules)
    at = next(
        (
            p
            for p in game.positions(table["ask"])
            if p.seat == table["seat"]
            and p.trick == table["trick"]
            and (table["ask"] != "play" or sorted(p.played) == sorted(question.inputs["trick"]))
        ),
        None,
    )
    if at is None:
        return [f"the round has no {table['ask']} position of player {table['seat']}"]
    problems = []
    inputs = question.inputs
    if inputs["contract"] != game.scenario.contract:
        problems.append(f"contract {inputs['contract']} is not the round's")
    if question.kind != ASK_KINDS[at.ask]:
        problems.append(f"a {question.kind} question cannot ask {at.ask}")
    if at.ask == "writes":
        if [sorted(h) for h in inputs["hands"]] != [sorted(h) for h in game.scenario.hands]:
            problems.append("the hands are not the round's")
    elif sorted(inputs["hand"]) != sorted(at.hand):
        problems.append(f"player {at.seat} does not hold {' '.join(inputs['hand'])} there")
    if at.ask == "play":
        if list(inputs["trick"]) != list(at.played) or inputs["leader"] != at.leader:
            problems.append("the trick on the table is not the round's")
        if question.prompt.get("seat") != at.seat:
            problems.append("the player to play is not the round's")
    return problems
