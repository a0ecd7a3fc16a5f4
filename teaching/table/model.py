"""The table trainer's data: its vocabularies, the scenario, tricks, announcements,
calls, the exchange at equal values, the reminder and the shown melds.

Every class here is a frozen dataclass whose ``to_dict()`` is plain JSON data; the
formats are documented in :mod:`teaching.table`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, TypeAlias, get_args

from rules_core import DECK, Contract, Meld, RulesError, RuleSet
from rules_core.tables import FOUR_OF_A_KIND_POINTS, SEQUENCE_POINTS

__all__ = [
    "ANNOUNCE_VALUES",
    "BLOCKS",
    "FOCUSES",
    "KINDS",
    "OUTCOMES",
    "PHASES",
    "SKILLS",
    "Announcement",
    "Block",
    "Call",
    "Exchange",
    "Focus",
    "Kind",
    "MeldWords",
    "Outcome",
    "Phase",
    "Hands",
    "Reminder",
    "RulesInput",
    "Scenario",
    "Shown",
    "Skill",
    "TableError",
    "TalkLine",
    "Trick",
    "coerce_rules",
]

Focus: TypeAlias = Literal[
    "stoeck", "weis", "kreuzweis", "undenufe", "target_weis", "target_stoeck", "target_tricks"
]
FOCUSES: tuple[Focus, ...] = get_args(Focus)
"""The skills a scenario aims at (see :func:`teaching.table.build_scenario`)."""

Skill: TypeAlias = Literal["trick", "weis_value", "who_writes", "stoeck", "target"]
SKILLS: tuple[Skill, ...] = get_args(Skill)
"""The skills a judgement feeds (the quiz kinds' names)."""

Kind: TypeAlias = Literal["play", "announce", "stoeck", "writes", "jasstafel_block", "target"]
KINDS: tuple[Kind, ...] = get_args(Kind)
"""The kinds of learner decision."""

Outcome: TypeAlias = Literal["right", "wrong", "info"]
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
Phase: TypeAlias = Literal["play", "writes", "jasstafel", "done"]
PHASES: tuple[Phase, ...] = get_args(Phase)
ANNOUNCE_VALUES: tuple[int, ...] = tuple(
    sorted(set(SEQUENCE_POINTS.values()) | set(FOUR_OF_A_KIND_POINTS.values()))
)
"""The values a meld can have (R5.1, R5.2): the only values a learner may announce
(20, 50, 100, 150, 200, 250, 300)."""

Block: TypeAlias = Literal["weis", "stoeck", "tricks"]
BLOCKS: tuple[Block, ...] = get_args(Block)

CODES = frozenset(c.code for c in DECK)
_INDEX = {c.code: c.index for c in DECK}


REFUSALS: tuple[str, ...] = (
    "move.not_object",
    "move.empty",
    "move.unknown_keys",
    "move.combination",
    "move.card",
    "move.announce_value",
    "move.stoeck_value",
    "move.writes",
    "move.jasstafel",
    "move.not_now",
    "move.round_over",
    "move.not_in_hand",
    "move.stoeck_first",
    "move.announce_first",
    "move.engine",
    "log.not_list",
    "scenario.invalid",
    "scenario.needed",
    "round.not_over",
    "round.over",
    "build.focus",
    "build.seed",
    "build.no_deal",
)
"""Every :attr:`TableError.code` (documented in :mod:`teaching.table`)."""

PHASE_WANTS = ("card", "stoeck", "announce", "writes", "jasstafel")
"""What a move brings, as ``params["wanted"]`` of ``move.not_now``."""


class TableError(RulesError):
    """A move or a scenario the referee refuses: bad JSON shape, a card not held,
    a move out of phase, or no deal found for a focus. A log that raises it is
    refused (the round is unchanged).

    ``str(err)`` says in English what is wrong; ``code`` (one of :data:`REFUSALS`)
    and ``params`` (plain JSON: cards as codes, seats 0-based, ``move`` the 0-based
    index of the move in the log) let a page say it in its own language.

    >>> err = TableError("move 1: H7 is not in your hand (S6)", "move.not_in_hand",
    ...                  {"move": 0, "card": "H7", "hand": ["S6"]})
    >>> err.code, err.params["card"], isinstance(err, ValueError)
    ('move.not_in_hand', 'H7', True)
    """

    def __init__(self, message: str, code: str, params: Mapping[str, Any] | None = None) -> None:
        if code not in REFUSALS:
            raise ValueError(f"unknown TableError code {code!r}")
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = dict(params or {})


Hands: TypeAlias = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""Four hands of card codes, by seat."""

RulesInput: TypeAlias = RuleSet | str | Mapping[str, Any] | None
"""What :func:`coerce_rules` and ``build_scenario`` take for a rule set."""


def coerce_rules(rules: RulesInput) -> RuleSet:
    """A rule set from a :class:`RuleSet`, a preset name, ``RuleSet.to_dict()`` data
    or None (the default); anything else (untrusted JSON) raises :class:`TableError`."""
    if rules is None:
        return RuleSet()
    if isinstance(rules, RuleSet):
        return rules
    try:
        if isinstance(rules, str):
            return RuleSet.preset(rules)
        if isinstance(rules, Mapping):
            return RuleSet.from_dict(rules)
    except RulesError as err:
        raise TableError(f"rules: {err}", "scenario.invalid", {"field": "rules"}) from None
    raise TableError(
        f"rules must be a RuleSet, a preset name or RuleSet.to_dict() data, "
        f"got {type(rules).__name__}",
        "scenario.invalid",
        {"field": "rules"},
    )


def _freeze(value: Any) -> Any:
    """JSON data made read-only: mappings as ``MappingProxyType``, lists as tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    """:func:`_freeze`'s data as plain JSON again (dicts and lists)."""
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


def sort_codes(codes: Any) -> tuple[str, ...]:
    """Card codes in deck order (suits D H S C, 6 up to A)."""
    return tuple(sorted(codes, key=_INDEX.__getitem__))


@dataclass(frozen=True)
class Scenario:
    """A round to play: the deal, the contract, the learner's seat, the score.

    Built by :func:`teaching.table.build_scenario`; stored as :meth:`to_dict` data.
    """

    focus: str
    seed: int
    rules: RuleSet
    contract: str
    hands: Hands
    seat: int
    before: tuple[int, int]
    target: int
    reminder: bool = False
    aim: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_scenario(self)
        # build_scenario caches its scenarios: every caller shares one aim, so the
        # aim is frozen (read-only mappings, tuples) rather than a dict to mutate.
        object.__setattr__(self, "aim", _freeze(self.aim))

    def __reduce__(self) -> tuple[type[Scenario], tuple[Any, ...]]:
        # A mapping proxy does not pickle (the site keeps pickled referee states):
        # rebuild from the fields with the aim as plain data, frozen again on the way.
        fields = (self.focus, self.seed, self.rules, self.contract, self.hands, self.seat)
        return (Scenario, (*fields, self.before, self.target, self.reminder, _thaw(self.aim)))

    @property
    def preset(self) -> str | None:
        """The rule set's preset name, or None for a custom rule set."""
        return self.rules.preset_name()

    @property
    def partner(self) -> int:
        """The learner's partner's seat."""
        return (self.seat + 2) % 4

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data; :meth:`from_dict` reads it back (equal to the original)."""
        return {
            "focus": self.focus,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "preset": self.preset,
            "contract": self.contract,
            "hands": [list(h) for h in self.hands],
            "seat": self.seat,
            "before": list(self.before),
            "target": self.target,
            "reminder": self.reminder,
            "aim": _thaw(self.aim),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Scenario:
        """Rebuild a scenario from :meth:`to_dict` data (``rules`` may also be a preset
        name; ``preset`` is ignored). Raises :class:`TableError` for bad data."""
        if not isinstance(data, Mapping):
            raise TableError(
                f"a scenario is a JSON object, got {type(data).__name__}",
                "scenario.invalid",
                {"field": "scenario"},
            )
        known = {
            "focus",
            "seed",
            "rules",
            "preset",
            "contract",
            "hands",
            "seat",
            "before",
            "target",
            "reminder",
            "aim",
        }
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise TableError(
                f"scenario: unknown field(s) {', '.join(unknown)}",
                "scenario.invalid",
                {"field": "scenario"},
            )
        missing = sorted(k for k in known - {"preset", "reminder", "aim"} if k not in data)
        if missing:
            raise TableError(
                f"scenario: missing field(s) {', '.join(missing)}",
                "scenario.invalid",
                {"field": "scenario"},
            )
        hands = data["hands"]
        if not isinstance(hands, (list, tuple)) or len(hands) != 4:
            raise TableError(
                "scenario: hands must be four lists of card codes",
                "scenario.invalid",
                {"field": "hands"},
            )
        if not all(isinstance(h, (list, tuple)) for h in hands):
            raise TableError(
                "scenario: hands must be four lists of card codes",
                "scenario.invalid",
                {"field": "hands"},
            )
        before = data["before"]
        if not isinstance(before, (list, tuple)) or len(before) != 2:
            raise TableError(
                "scenario: before must be the two teams' totals",
                "scenario.invalid",
                {"field": "before"},
            )
        aim = data.get("aim", {})
        if not isinstance(aim, Mapping):
            raise TableError(
                "scenario: aim must be a JSON object", "scenario.invalid", {"field": "aim"}
            )
        return cls(
            focus=data["focus"],
            seed=data["seed"],
            rules=coerce_rules(data["rules"]),
            contract=data["contract"],
            hands=tuple(tuple(h) for h in hands),  # type: ignore[arg-type]
            seat=data["seat"],
            before=(before[0], before[1]),
            target=data["target"],
            reminder=data.get("reminder", False),
            aim=aim,
        )


def _is_int(value: Any) -> bool:
    return type(value) is int


def _invalid(message: str, field: str) -> TableError:
    return TableError(f"scenario: {message}", "scenario.invalid", {"field": field})


def _check_scenario(s: Scenario) -> None:
    """Raise :class:`TableError` for the first field of ``s`` that is not valid."""
    for check in (_check_kind, _check_hands, _check_numbers):
        check(s)


def _check_kind(s: Scenario) -> None:
    if s.focus not in FOCUSES:
        raise _invalid(f"unknown focus {s.focus!r}; choose one of {', '.join(FOCUSES)}", "focus")
    if not _is_int(s.seed):
        raise _invalid(f"seed must be an integer, got {s.seed!r}", "seed")
    if not isinstance(s.rules, RuleSet):
        raise _invalid("rules must be a RuleSet", "rules")
    codes = [c.code for c in Contract]
    if s.contract not in codes:
        raise _invalid(
            f"contract must be one of {', '.join(codes)}, got {s.contract!r}", "contract"
        )


def _check_hands(s: Scenario) -> None:
    seen: set[str] = set()
    for seat, hand in enumerate(s.hands):
        if len(hand) != 9 or not all(isinstance(c, str) and c in CODES for c in hand):
            raise _invalid(f"hand {seat} must be nine card codes, got {list(hand)!r}", "hands")
        if tuple(hand) != sort_codes(hand):
            raise _invalid(f"hand {seat} must be in deck order", "hands")
        seen.update(hand)
    if len(s.hands) != 4 or len(seen) != len(CODES):
        raise _invalid("the four hands must hold every card once", "hands")


def _check_numbers(s: Scenario) -> None:
    if not _is_int(s.seat) or not 0 <= s.seat <= 3:
        raise _invalid(f"seat must be 0-3, got {s.seat!r}", "seat")
    if not _is_int(s.target) or s.target < 1:
        raise _invalid(f"target must be a whole number >= 1, got {s.target!r}", "target")
    if not all(_is_int(x) and 0 <= x < s.target for x in s.before):
        raise _invalid(f"before must be two totals from 0 to below {s.target}", "before")
    if type(s.reminder) is not bool:
        raise _invalid("reminder must be true or false", "reminder")


@dataclass(frozen=True)
class Trick:
    """A trick so far. ``index`` 0-8; ``leader``; ``seats`` and ``cards`` in play order;
    once complete: ``winner`` (seat), ``card_points`` (before the factor, no bonus) and
    ``points`` (written: card points + 5 on the ninth + 100 for a match, times the
    factor, as :class:`rules_core.TrickResult`); None while open."""

    index: int
    leader: int
    seats: tuple[int, ...]
    cards: tuple[str, ...]
    winner: int | None = None
    card_points: int | None = None
    points: int | None = None

    @property
    def complete(self) -> bool:
        return self.winner is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "leader": self.leader,
            "seats": list(self.seats),
            "cards": list(self.cards),
            "winner": self.winner,
            "card_points": self.card_points,
            "points": self.points,
        }


@dataclass(frozen=True)
class Announcement:
    """A Weis announcement: ``seat``, ``value``, ``play`` (the index of the card it
    came with; for a late one the last play before it), ``late``, ``counts`` (the
    claim takes part in the Weis comparison: in time, and a value the player holds),
    ``meld`` (the claim, R5.4a: the best meld of that value the player holds, as
    :meth:`rules_core.Meld.to_dict`, or None for a false Weis; hidden from the
    learner's view)."""

    seat: int
    value: int
    play: int
    late: bool
    counts: bool
    meld: Meld | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "value": self.value,
            "play": self.play,
            "late": self.late,
            "counts": self.counts,
            "meld": None if self.meld is None else self.meld.to_dict(),
        }


@dataclass(frozen=True)
class Call:
    """A «Stöck!»: ``seat``; ``said_after`` (the index of the last card on the table
    when it was said; with the card: that card); ``after_play`` (the index the engine
    gets as ``StoeckCall.after_play``, None when the call is not given to it);
    ``prompted`` (a partner's reminder came first); ``with_card``; ``move`` (the
    learner's move index, None for a site player)."""

    seat: int
    said_after: int
    after_play: int | None
    prompted: bool
    with_card: bool
    move: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "said_after": self.said_after,
            "after_play": self.after_play,
            "prompted": self.prompted,
            "with_card": self.with_card,
            "move": self.move,
        }


@dataclass(frozen=True, kw_only=True)
class MeldWords:
    """What a player says of a meld in an exchange: ``kind``, ``cards`` (how many),
    ``rank`` (the card the ladder compares, without suit), ``end`` ("top" or
    "bottom" for a sequence, None for four of a kind) and ``trump`` (a trump
    sequence)."""

    kind: str
    cards: int
    rank: str
    end: Literal["top", "bottom"] | None
    trump: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "cards": self.cards,
            "rank": self.rank,
            "end": self.end,
            "trump": self.trump,
        }


@dataclass(frozen=True, kw_only=True)
class TalkLine:
    """One line of an exchange: ``say`` "too" (with ``value``), "meld" (with
    ``meld``) or "good"."""

    seat: int
    say: Literal["too", "meld", "good"]
    value: int | None = None
    meld: MeldWords | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "say": self.say}
        if self.say == "too":
            out["value"] = self.value
        if self.meld is not None:
            out.update(self.meld.to_dict())
        return out


@dataclass(frozen=True, kw_only=True)
class Exchange:
    """W-DE's exchange when a player announces the value of an opponent's best claim
    (see :mod:`teaching.table`): ``play`` of the second announcement, ``seats``
    (first, second), ``value``, ``lines``, ``winner`` (seat) and the deciding ladder
    ``step``."""

    play: int
    seats: tuple[int, int]
    value: int
    lines: tuple[TalkLine, ...]
    winner: int
    step: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "play": self.play,
            "seats": list(self.seats),
            "value": self.value,
            "lines": [line.to_dict() for line in self.lines],
            "winner": self.winner,
            "step": self.step,
        }


@dataclass(frozen=True, kw_only=True)
class Reminder:
    """The partner's «Denk an die Stöck!»: ``seat`` (the partner), ``after_play`` (the
    last card on the table) and ``move`` (the learner's move it came after, None
    before the first)."""

    seat: int
    after_play: int
    move: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "after_play": self.after_play, "move": self.move}


@dataclass(frozen=True, kw_only=True)
class Shown:
    """The melds the writing team shows at the second trick (R5.7): ``team`` (None:
    nobody writes) and per seat the melds written (``WeisResult.written``)."""

    team: int | None
    melds: tuple[tuple[Meld, ...], ...]

    @property
    def cards(self) -> frozenset[str]:
        """Every card code the shown melds hold (public from then on)."""
        return frozenset(c.code for melds in self.melds for m in melds for c in m.cards)

    def to_dict(self) -> dict[str, Any]:
        return {"team": self.team, "melds": [[m.to_dict() for m in ms] for ms in self.melds]}
