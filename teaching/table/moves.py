"""The moves of the log as typed values, parsed once from their JSON (formats in
:mod:`teaching.table`).

A move is one of :class:`PlayMove`, :class:`StoeckMove`, :class:`AnnounceMove`,
:class:`WritesMove` and :class:`JasstafelMove`; :func:`parse_move` reads the JSON a
form or a stored log holds and refuses a bad shape with the :class:`TableError` the
referee has always given; ``to_dict()`` writes the same JSON back, so stored logs
stay readable. Inside, teams and tricks count from 0 like the rest of the Python
API; the JSON counts them from 1, as the learner types them.

>>> move = parse_move({"writes": {"team": 2, "points": 50}}, 0)
>>> move
WritesMove(writes=WritesAnswer(team=1, points=50))
>>> move.to_dict()
{'writes': {'team': 2, 'points': 50}}
>>> parse_move({"play": "H7", "announce": 20}, 0).to_dict()
{'play': 'H7', 'announce': 20}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from rules_core import DECK, Card

from .model import ANNOUNCE_VALUES, BLOCKS, Block, TableError

__all__ = [
    "AnnounceMove",
    "BlockPoints",
    "JasstafelAnswer",
    "JasstafelMove",
    "Move",
    "MoveKind",
    "PlayMove",
    "StoeckMove",
    "TargetAnswer",
    "WritesAnswer",
    "WritesMove",
    "move_kind",
    "parse_move",
]

MoveKind: TypeAlias = Literal["play", "announce", "stoeck", "writes", "jasstafel"]

_BY_CODE = {c.code: c for c in DECK}
_MOVE_KEYS = ("play", "announce", "stoeck", "writes", "jasstafel")
_ALONE: tuple[MoveKind, ...] = ("writes", "jasstafel", "stoeck", "announce")


def _int(value: Any) -> bool:
    return type(value) is int


def _plus1(value: int | None) -> int | None:
    return None if value is None else value + 1


@dataclass(frozen=True, kw_only=True)
class PlayMove:
    """A card (``{"play": "H7"}``), with the announcement made with it (``announce``:
    None when the move has no ``announce`` key, 0 for "no Weis"; JSON ``null`` reads
    as 0, the same judgement) and «Stöck!» said with it (``stoeck``: None when the
    move has no ``stoeck`` key)."""

    card: Card
    announce: int | None = None
    stoeck: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"play": self.card.code}
        if self.announce is not None:
            out["announce"] = self.announce
        if self.stoeck is not None:
            out["stoeck"] = self.stoeck
        return out


@dataclass(frozen=True)
class StoeckMove:
    """«Stöck!» on its own: ``{"stoeck": true}``."""

    def to_dict(self) -> dict[str, Any]:
        return {"stoeck": True}


@dataclass(frozen=True)
class AnnounceMove:
    """An announcement on its own (always late): ``{"announce": 50}``."""

    value: int

    def to_dict(self) -> dict[str, Any]:
        return {"announce": self.value}


@dataclass(frozen=True, kw_only=True)
class WritesAnswer:
    """Which team writes Weis (0-based, None: nobody) and how many points."""

    team: int | None
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"team": _plus1(self.team), "points": self.points}


@dataclass(frozen=True)
class WritesMove:
    """``{"writes": {"team": 1 | 2 | null, "points": int}}``."""

    writes: WritesAnswer

    def to_dict(self) -> dict[str, Any]:
        return {"writes": self.writes.to_dict()}


@dataclass(frozen=True, kw_only=True)
class BlockPoints(Mapping[str, int]):
    """One team's three blocks on the Jasstafel (written points): typed fields, and a
    read-only mapping by block name for the engine's functions that take blocks
    (``rules_core.resolve_target_blocks``).

    >>> b = BlockPoints(weis=50, stoeck=20, tricks=87)
    >>> b.weis, b["stoeck"], b.total, dict(b)
    (50, 20, 157, {'weis': 50, 'stoeck': 20, 'tricks': 87})
    """

    weis: int
    stoeck: int
    tricks: int

    def __getitem__(self, block: str) -> int:
        if block not in BLOCKS:
            raise KeyError(block)
        value: int = getattr(self, block)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(BLOCKS)

    def __len__(self) -> int:
        return len(BLOCKS)

    @property
    def total(self) -> int:
        return self.weis + self.stoeck + self.tricks

    def to_dict(self) -> dict[str, int]:
        return {"weis": self.weis, "stoeck": self.stoeck, "tricks": self.tricks}


@dataclass(frozen=True, kw_only=True)
class TargetAnswer:
    """Who reaches the target in this round: ``team`` (0-based) and ``block``, both
    None for nobody; ``trick`` (0-based) with the tricks block only."""

    team: int | None
    block: Block | None
    trick: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"team": _plus1(self.team), "block": self.block, "trick": _plus1(self.trick)}


@dataclass(frozen=True, kw_only=True)
class JasstafelAnswer:
    """The learner's Jasstafel: both teams' blocks (team 0 first) and the target."""

    blocks: tuple[BlockPoints, BlockPoints]
    target: TargetAnswer

    def to_dict(self) -> dict[str, Any]:
        return {
            "blocks": {"1": self.blocks[0].to_dict(), "2": self.blocks[1].to_dict()},
            "target": self.target.to_dict(),
        }


@dataclass(frozen=True)
class JasstafelMove:
    """``{"jasstafel": {"blocks": {"1": {...}, "2": {...}}, "target": {...}}}``."""

    jasstafel: JasstafelAnswer

    def to_dict(self) -> dict[str, Any]:
        return {"jasstafel": self.jasstafel.to_dict()}


Move: TypeAlias = PlayMove | StoeckMove | AnnounceMove | WritesMove | JasstafelMove


def move_kind(move: Any, i: int) -> MoveKind:
    where = f"move {i + 1}"
    if not isinstance(move, Mapping):
        raise TableError(
            f'{where}: a move is a JSON object like {{"play": "H7"}}, got {type(move).__name__}',
            "move.not_object",
            {"move": i},
        )
    keys = set(move)
    unknown = sorted(str(k) for k in keys if k not in _MOVE_KEYS)
    if unknown:
        raise TableError(
            f"{where}: unknown key(s) {', '.join(unknown)}; a move has play, announce, "
            "stoeck, writes or jasstafel",
            "move.unknown_keys",
            {"move": i, "keys": unknown},
        )
    if "play" in keys:
        if keys - {"play", "announce", "stoeck"}:
            raise TableError(
                f"{where}: a card goes only with announce and stoeck",
                "move.combination",
                {"move": i, "keys": sorted(keys)},
            )
        return "play"
    for kind in _ALONE:
        if keys == {kind}:
            return kind
    if not keys:
        raise TableError(f"{where}: the move is empty", "move.empty", {"move": i})
    raise TableError(
        f"{where}: {' and '.join(sorted(keys))} cannot go together without a card",
        "move.combination",
        {"move": i, "keys": sorted(keys)},
    )


def _card(value: Any, i: int) -> Card:
    if not isinstance(value, str) or value not in _BY_CODE:
        raise TableError(
            f"move {i + 1}: play must be a card code like H7 or S10, got {value!r}",
            "move.card",
            {"move": i},
        )
    return _BY_CODE[value]


def _announce(value: Any, i: int, *, alone: bool) -> int:
    if value is None:
        value = 0
    allowed = ANNOUNCE_VALUES if alone else (0, *ANNOUNCE_VALUES)
    if not _int(value) or value not in allowed:
        raise TableError(
            f"move {i + 1}: announce must be "
            + ("" if alone else "0, null or ")
            + f"a meld value ({', '.join(map(str, ANNOUNCE_VALUES))}), got {value!r}",
            "move.announce_value",
            {"move": i, "values": list(ANNOUNCE_VALUES)},
        )
    return int(value)


def _team(value: Any, what: str, code: str, params: dict[str, Any]) -> int | None:
    if value is None:
        return None
    if not _int(value) or value not in (1, 2):
        raise TableError(f"{what} must be 1, 2 or null, got {value!r}", code, params)
    return int(value)


def _points(value: Any, what: str, code: str, params: dict[str, Any]) -> int:
    if not _int(value) or value < 0:
        raise TableError(f"{what} must be a whole number >= 0, got {value!r}", code, params)
    return int(value)


def _minus1(value: int | None) -> int | None:
    return None if value is None else value - 1


def _writes(value: Any, i: int) -> WritesAnswer:
    where = f"move {i + 1}: writes"
    code = "move.writes"
    if not isinstance(value, Mapping) or set(value) != {"team", "points"}:
        raise TableError(
            f'{where} must be {{"team": 1, 2 or null, "points": a number}}',
            code,
            {"move": i, "field": "shape"},
        )
    team = _team(value["team"], f"{where} team", code, {"move": i, "field": "team"})
    points = _points(value["points"], f"{where} points", code, {"move": i, "field": "points"})
    return WritesAnswer(team=_minus1(team), points=points)


class _Jasstafel:
    """Reads a Jasstafel entry, refusing it with ``move.jasstafel`` and its field."""

    def __init__(self, i: int) -> None:
        self.i = i
        self.where = f"move {i + 1}: jasstafel"

    def refuse(self, text: str, field: str) -> TableError:
        return TableError(
            f"{self.where} {text}", "move.jasstafel", {"move": self.i, "field": field}
        )

    def read(self, value: Any) -> JasstafelAnswer:
        if not isinstance(value, Mapping) or set(value) != {"blocks", "target"}:
            raise self.refuse("must hold blocks and target", "shape")
        rows = self.blocks(value["blocks"])
        return JasstafelAnswer(blocks=(rows["1"], rows["2"]), target=self.target(value["target"]))

    def blocks(self, blocks: Any) -> dict[str, BlockPoints]:
        if not isinstance(blocks, Mapping) or len(blocks) != 2:
            raise self.refuse('blocks must be {"1": {...}, "2": {...}}', "blocks")
        rows: dict[str, BlockPoints] = {}
        for key, row in blocks.items():
            name = str(key)
            if name not in ("1", "2") or name in rows or not isinstance(key, (int, str)):
                raise self.refuse('blocks must be {"1": {...}, "2": {...}}', "blocks")
            if not isinstance(row, Mapping) or set(row) != set(BLOCKS):
                raise self.refuse(f"team {name} needs weis, stoeck and tricks", "blocks")
            params = {"move": self.i, "field": "points"}
            points = {
                b: _points(row[b], f"{self.where} team {name} {b}", "move.jasstafel", params)
                for b in BLOCKS
            }
            rows[name] = BlockPoints(**points)
        return rows

    def target(self, target: Any) -> TargetAnswer:
        if not isinstance(target, Mapping) or set(target) != {"team", "block", "trick"}:
            raise self.refuse("target must hold team, block and trick", "target")
        params = {"move": self.i, "field": "team"}
        team = _team(target["team"], f"{self.where} target team", "move.jasstafel", params)
        block = target["block"]
        if block is not None and block not in BLOCKS:
            raise self.refuse("target block must be weis, stoeck, tricks or null", "block")
        trick = target["trick"]
        if trick is not None and (not _int(trick) or not 1 <= trick <= 9):
            raise self.refuse(f"target trick must be 1-9 or null, got {trick!r}", "trick")
        if (team is None) != (block is None):
            raise self.refuse("target: give a team and its block, or neither", "block")
        if (block == "tricks") != (trick is not None):
            raise self.refuse("target: a trick number goes with the tricks block only", "trick")
        return TargetAnswer(team=_minus1(team), block=block, trick=_minus1(trick))


def _play(move: Mapping[str, Any], i: int) -> PlayMove:
    card = _card(move["play"], i)
    announce = _announce(move["announce"], i, alone=False) if "announce" in move else None
    stoeck = move.get("stoeck")
    if "stoeck" in move and type(stoeck) is not bool:
        raise TableError(
            f"move {i + 1}: stoeck must be true or false, got {stoeck!r}",
            "move.stoeck_value",
            {"move": i},
        )
    return PlayMove(card=card, announce=announce, stoeck=stoeck)


def _stoeck(value: Any, i: int) -> StoeckMove:
    if value is not True:
        raise TableError(
            f'move {i + 1}: a call on its own is {{"stoeck": true}}',
            "move.stoeck_value",
            {"move": i},
        )
    return StoeckMove()


def parse_move(move: Any, i: int) -> Move:
    """The typed move of ``move`` (JSON), the ``i``-th (0-based) of its log.

    Raises :class:`TableError` for a bad shape or value (``move.*`` codes, see
    :mod:`teaching.table`); whether the move fits the table is the referee's.

    >>> parse_move({"jasstafel": {"blocks": {"1": {"weis": 0, "stoeck": 0, "tricks": 57},
    ...     "2": {"weis": 50, "stoeck": 20, "tricks": 100}},
    ...     "target": {"team": 2, "block": "tricks", "trick": 3}}}, 0).jasstafel.target
    TargetAnswer(team=1, block='tricks', trick=2)
    >>> parse_move({"play": "H7", "writes": {}}, 4)
    Traceback (most recent call last):
      ...
    teaching.table.model.TableError: move 5: a card goes only with announce and stoeck
    """
    kind = move_kind(move, i)
    if kind == "play":
        return _play(move, i)
    if kind == "stoeck":
        return _stoeck(move["stoeck"], i)
    if kind == "announce":
        return AnnounceMove(_announce(move["announce"], i, alone=True))
    if kind == "writes":
        return WritesMove(_writes(move["writes"], i))
    return JasstafelMove(_Jasstafel(i).read(move["jasstafel"]))
