"""The parts every question kind shares: the :class:`Question` value, errors,
the kind registry record, and how choices are drawn up (internal to the package;
the public names are re-exported by :mod:`teaching.generators`).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Generic, TypeAlias, TypedDict, TypeVar

from rules_core import RoundScore, RulesError, RuleSet, score_round
from rules_core.trace import TraceEntry

__all__ = [
    "KEYS",
    "MAX_CHOICES",
    "MIN_CHOICES",
    "CardValue",
    "CardsValue",
    "Choice",
    "ChoiceValue",
    "DeadlineValue",
    "Draft",
    "Inputs",
    "JSONObject",
    "Kind",
    "PointsValue",
    "Question",
    "QuizError",
    "Retry",
    "SeatValue",
    "Solved",
    "StepValue",
    "StoeckValue",
    "TargetValue",
    "TeamPointsValue",
    "assemble_choices",
    "canon",
    "pick_around",
    "ranks_within_reach",
    "plain",
    "question_from_draft",
    "rule_key",
    "trace_dicts",
]

KEYS = ("a", "b", "c", "d", "e")
MIN_CHOICES = 3
MAX_CHOICES = 5

JSONObject: TypeAlias = dict[str, Any]
"""A JSON object (what ``json.loads`` gives): a question's rules, inputs, prompt, a
trace entry. Its shape depends on the kind (see :mod:`teaching.generators`)."""

Inputs: TypeAlias = Mapping[str, Any]
"""A question's stored inputs as a solver reads them (JSON data of the kind's shape)."""


# The values of the choices, by kind (formats: see teaching.generators).


class PointsValue(TypedDict):
    """``weis_value`` and ``trick``/``points``."""

    points: int


class TeamPointsValue(TypedDict):
    """``who_writes``: the writing team (None: nobody) and its written points."""

    team: int | None
    points: int


class StepValue(TypedDict):
    """``ladder_step``: the deciding step (a ``Step`` value) and the winning seat."""

    step: str
    winner: int


class StoeckValue(TypedDict):
    """``stoeck``: a ``StoeckReason``'s status and value."""

    status: str
    reason: str


class TargetValue(TypedDict):
    """``target``: the team that reaches the target and the block (None, None: nobody yet)."""

    team: int | None
    block: str | None


class CardsValue(TypedDict):
    """``trick``/``legal``: card codes in deck order."""

    cards: list[str]


class CardValue(TypedDict):
    """``trick``/``winner``: a card code."""

    card: str


class SeatValue(TypedDict):
    """``basics``/``seat``: a seat, 0-3 in playing order from the Vorhand."""

    seat: int


class DeadlineValue(TypedDict):
    """``announce``/``deadline``: whether an announcement counts (``in_time``) or why it
    is too late (``next_card_played``, ``trick_gathered``)."""

    deadline: str


ChoiceValue: TypeAlias = (
    PointsValue
    | TeamPointsValue
    | StepValue
    | StoeckValue
    | TargetValue
    | CardsValue
    | CardValue
    | SeatValue
    | DeadlineValue
)
"""The value of a choice (and of an answer) of any kind."""

V = TypeVar("V", bound=ChoiceValue, covariant=True)
T = TypeVar("T")


class Choice(TypedDict):
    """One choice of a question, as stored: its key ``a`` .. ``e`` and its value."""

    key: str
    value: ChoiceValue


class QuizError(RulesError):
    """Bad input for the quiz generators: an unknown kind, a seed that is not a
    whole number, a stored question that cannot be read. A :class:`RulesError`,
    hence a ``ValueError``."""


class Retry(Exception):  # noqa: N818 - a control-flow signal, not an error for callers
    """Raised inside a builder when a drawn situation does not fit; the generator
    draws again from the same (seeded) random stream, so it stays deterministic."""


def plain(value: object) -> Any:
    """``value`` as JSON data: lists for tuples, string keys, objects via ``to_dict``."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None:
        return plain(to_dict())
    return str(value)


def canon(value: object) -> str:
    """A canonical text of a choice value, to compare values for equality."""
    return json.dumps(plain(value), sort_keys=True, separators=(",", ":"))


def trace_dicts(trace: Iterable[TraceEntry | Mapping[str, Any]]) -> list[JSONObject]:
    """A rules_core trace (tuple of TraceEntry, or already dicts) as plain dicts."""
    return [e.to_dict() if isinstance(e, TraceEntry) else plain(e) for e in trace]


def score_of(inputs: Mapping[str, Any], rules: RuleSet) -> RoundScore:
    """rules_core's ``score_round`` of a stored round (``inputs`` with ``hands``,
    ``contract``, ``plays`` and ``calls`` as JSON lists)."""
    return score_round(
        inputs["hands"],
        inputs["contract"],
        [tuple(p) for p in inputs["plays"]],
        [tuple(c) for c in inputs["calls"]],
        rules,
    )


@dataclass(frozen=True)
class Question:
    """One generated question; every field is plain JSON data.

    ``kind``, ``seed``: what it was generated from; ``rules``: ``RuleSet.to_dict()``;
    ``inputs``: the situation, enough to recompute the answer with rules_core
    (see :func:`teaching.generators.recompute`); ``prompt``: what a template
    needs to phrase the question; ``choices``: ``[{"key": "a", "value": ...}, ...]``
    in their display order; ``answer``: the key of the one correct choice;
    ``mistakes``: ``{key: mistake_name}`` for every other choice; ``explanation``:
    the rules_core trace as plain dicts; ``rules_tested``: rule IDs.

    Build one with :func:`~teaching.generators.generate`; store
    :meth:`to_dict` and read it back with :meth:`from_dict`. Not hashable (its
    fields are lists and dicts); compares by value.
    """

    kind: str
    seed: int
    rules: JSONObject
    inputs: JSONObject
    prompt: JSONObject
    choices: list[Choice]
    answer: str
    mistakes: dict[str, str]
    explanation: list[JSONObject]
    rules_tested: list[str]

    # the fields are lists and dicts: equal questions need not hash alike, so none do
    __hash__ = None  # type: ignore[assignment]  # dataclass hashing switched off on purpose

    def to_dict(self) -> JSONObject:
        """All fields as a new plain dict (safe to store in a JSON field)."""
        data: JSONObject = json.loads(
            json.dumps({f.name: getattr(self, f.name) for f in fields(self)})
        )
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Question:
        """Rebuild a question from :meth:`to_dict` data; checks its shape.

        Raises :class:`QuizError` when a field is missing or unknown, or the
        choices, answer and mistakes do not fit together.
        """
        if not isinstance(data, Mapping):
            raise QuizError(f"a stored question must be a mapping, got {type(data).__name__}")
        names = [f.name for f in fields(cls)]
        missing = [n for n in names if n not in data]
        unknown = [str(k) for k in data if k not in names]
        if missing or unknown:
            raise QuizError(
                "cannot read the stored question: "
                + "; ".join(
                    part
                    for part in (
                        f"missing field(s) {', '.join(missing)}" if missing else "",
                        f"unknown field(s) {', '.join(unknown)}" if unknown else "",
                    )
                    if part
                )
            )
        try:
            copied = json.loads(json.dumps({n: data[n] for n in names}))
        except (TypeError, ValueError) as err:
            raise QuizError(f"a stored question must be JSON data: {err}") from None
        question = cls(**copied)
        question.check()
        return question

    def check(self) -> None:
        """Raise :class:`QuizError` unless the choices, answer and mistakes fit."""
        if type(self.seed) is not int:
            raise QuizError(f"seed must be a whole number, got {self.seed!r}")
        keys = [c.get("key") for c in self.choices if isinstance(c, dict)]
        if len(keys) != len(self.choices) or keys != list(KEYS[: len(keys)]):
            raise QuizError(f"choices must be keyed a, b, c ... in order, got {keys}")
        if not MIN_CHOICES <= len(keys) <= MAX_CHOICES:
            raise QuizError(
                f"a question has {MIN_CHOICES} to {MAX_CHOICES} choices, got {len(keys)}"
            )
        if self.answer not in keys:
            raise QuizError(f"the answer {self.answer!r} is not one of the choice keys {keys}")
        if sorted(self.mistakes) != sorted(k for k in keys if k != self.answer):
            raise QuizError("every choice but the answer must name its mistake")
        if len({canon(c.get("value")) for c in self.choices}) != len(keys):
            raise QuizError("two choices have the same value")

    # -- reading a question ---------------------------------------------------------

    def value_of(self, key: str) -> ChoiceValue:
        """The value of the choice ``key``; :class:`QuizError` for an unknown key."""
        for choice in self.choices:
            if choice["key"] == key:
                return choice["value"]
        raise QuizError(
            f"no choice {key!r}; choose one of {', '.join(c['key'] for c in self.choices)}"
        )

    @property
    def answer_value(self) -> ChoiceValue:
        """The value of the correct choice."""
        return self.value_of(self.answer)

    def is_correct(self, key: str) -> bool:
        """True iff ``key`` is the correct choice (unknown keys are simply wrong)."""
        return key == self.answer

    def mistake_of(self, key: str) -> str | None:
        """The mistake a wrong choice stands for; None for the answer or an unknown key."""
        return self.mistakes.get(key)

    def rule_set(self) -> RuleSet:
        """The :class:`RuleSet` the question was generated with."""
        return RuleSet.from_dict(self.rules)

    def public_dict(self) -> JSONObject:
        """What a page may show before the learner answers: no answer, no mistakes,
        no explanation."""
        data = self.to_dict()
        for name in ("answer", "mistakes", "explanation"):
            del data[name]
        return data


@dataclass(frozen=True)
class Solved(Generic[V]):
    """What :func:`solve` of a kind computes from the inputs: the answer value and
    the rules_core trace explaining it."""

    value: V
    explanation: list[JSONObject]


@dataclass(frozen=True)
class Draft(Generic[V]):
    """A built question before its choices are shuffled and keyed: the answer and
    the wrong choices, each with its mistake, in order of preference."""

    inputs: JSONObject
    prompt: JSONObject
    answer: V
    distractors: Sequence[tuple[V, str]]
    explanation: list[JSONObject]
    rules_tested: list[str]


@dataclass(frozen=True)
class Kind:
    """A question kind of the registry.

    ``build(rng, seed, rules) -> Draft``; ``solve(inputs, rules) -> Solved`` (rules_core
    only: the stored answer and the recomputed one both come from it); ``mistakes``:
    every mistake name its questions may carry; ``cases``: what ``build`` aims at for a
    seed, by ``seed % len(cases)`` (a name may repeat where one case takes several
    residues), so that a caller can ask for a case by choosing the seed.
    """

    name: str
    skill: str
    build: Callable[[random.Random, int, RuleSet], Draft[ChoiceValue]]
    solve: Callable[[Inputs, RuleSet], Solved[ChoiceValue]]
    mistakes: tuple[str, ...] = ()
    cases: tuple[str, ...] = ()

    def case_of(self, seed: int) -> str:
        """The case ``build`` aims at for ``seed`` (``cases[seed % len(cases)]``)."""
        return self.cases[seed % len(self.cases)]

    def seeds_of(self, case: str) -> tuple[int, ...]:
        """The residues ``seed % len(cases)`` that aim at ``case`` (empty for an
        unknown case)."""
        return tuple(i for i, name in enumerate(self.cases) if name == case)


def rule_key(rule: str) -> tuple[Any, ...]:
    """``"R6.4a"`` -> ``(6, 4, "a")``: rule IDs in document order."""
    return tuple(int(p) if p.isdigit() else p for p in re.findall(r"\d+|[a-z]+", rule))


def question_from_draft(
    kind: str, seed: int, rules: RuleSet, draft: Draft[Any], rng: random.Random
) -> Question:
    """The question of a built draft: its choices shuffled with ``rng`` and keyed
    (:func:`assemble_choices`; raises :class:`Retry` with too few distinct mistakes)."""
    choices, answer, mistakes = assemble_choices(rng, draft.answer, draft.distractors)
    return Question(
        kind=kind,
        seed=seed,
        rules=rules.to_dict(),
        inputs=plain(draft.inputs),
        prompt=plain(draft.prompt),
        choices=choices,
        answer=answer,
        mistakes=mistakes,
        explanation=plain(draft.explanation),
        rules_tested=sorted(set(draft.rules_tested), key=rule_key),
    )


def assemble_choices(
    rng: random.Random, answer: ChoiceValue, distractors: Sequence[tuple[ChoiceValue, str]]
) -> tuple[list[Choice], str, dict[str, str]]:
    """Choices from the answer and the mistakes' answers, in priority order.

    A distractor equal to the answer or to an earlier distractor is dropped; at
    most four are kept. Fewer than two raises :class:`Retry`. The order is
    shuffled with ``rng`` and keys are given after shuffling.
    """
    seen = {canon(answer)}
    picked: list[tuple[ChoiceValue, str | None]] = []
    for value, mistake in distractors:
        text = canon(value)
        if text in seen:
            continue
        seen.add(text)
        picked.append((plain(value), mistake))
        if len(picked) == MAX_CHOICES - 1:
            break
    if len(picked) < MIN_CHOICES - 1:
        raise Retry("not enough distinct mistakes")
    entries: list[tuple[ChoiceValue, str | None]] = [(plain(answer), None), *picked]
    rng.shuffle(entries)
    choices: list[Choice] = []
    mistakes: dict[str, str] = {}
    answer_key = ""
    for key, (value, tag) in zip(KEYS, entries, strict=False):
        choices.append({"key": key, "value": value})
        if tag is None:
            answer_key = key
        else:
            mistakes[key] = tag
    return choices, answer_key, mistakes


def ranks_within_reach(
    answer: float,
    pool: Sequence[tuple[T, str]],
    key: Callable[[T], float],
    size: int,
) -> list[int]:
    """The places the answer can take among ``size`` choices drawn from ``pool``
    (0 = the smallest), given how many distinct values lie below and above it."""
    keys = {key(value) for value, _tag in pool} - {answer}
    below = sum(1 for k in keys if k < answer)
    above = len(keys) - below
    return [r for r in range(size) if r <= below and size - 1 - r <= above]


def pick_around(
    rng: random.Random,
    answer: float,
    pool: Sequence[tuple[T, str]],
    key: Callable[[T], float],
    size: int,
    rank: int,
    must: Sequence[tuple[T, str]] = (),
    *,
    avoid_midpoint: bool = False,
) -> list[tuple[T, str]] | None:
    """``size - 1`` wrong choices from ``pool`` such that the answer is the
    ``rank``-th smallest (0 = the smallest) of the ``size`` choices, drawn at random
    on each side, ``must`` among them; None when the pool has too few values below
    or above the answer (or, with ``avoid_midpoint``, only sets where the answer is
    halfway between two others: where the mistakes shift the answer by the same
    amounts either way, a pupil would look for that).

    Drawing ``rank`` evenly and keeping it while the situation is drawn again makes
    the answer's place among the sorted choices tell nothing. Values equal to the
    answer's key (or to each other) are left out.
    """
    seen = {answer}
    below: list[tuple[T, str]] = []
    above: list[tuple[T, str]] = []
    fixed_below: list[tuple[T, str]] = []
    fixed_above: list[tuple[T, str]] = []
    for i, (value, tag) in enumerate([*must, *pool]):
        k = key(value)
        if k in seen:
            continue
        seen.add(k)
        fixed = i < len(must)
        if k < answer:
            (fixed_below if fixed else below).append((value, tag))
        else:
            (fixed_above if fixed else above).append((value, tag))
    need_below = rank - len(fixed_below)
    need_above = size - 1 - rank - len(fixed_above)
    if len(fixed_below) + len(fixed_above) < len(must):
        return None  # a must equals the answer or another must
    if need_below < 0 or need_above < 0 or len(below) < need_below or len(above) < need_above:
        return None
    for _ in range(8 if avoid_midpoint else 1):
        picked = (
            fixed_below
            + rng.sample(below, need_below)
            + fixed_above
            + rng.sample(above, need_above)
        )
        keys = [key(v) for v, _tag in picked]
        if not avoid_midpoint or not any(
            2 * answer == x + y for i, x in enumerate(keys) for y in keys[i + 1 :]
        ):
            return picked
    return None
