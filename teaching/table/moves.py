"""The move log's shapes: every move is checked here before the referee uses it
(formats in :mod:`teaching.table`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_core import DECK, Card

from .model import ANNOUNCE_VALUES, BLOCKS, TableError

__all__ = ["announce_value", "card_of", "jasstafel_of", "move_kind", "writes_of"]

_BY_CODE = {c.code: c for c in DECK}
_MOVE_KEYS = ("play", "announce", "stoeck", "writes", "jasstafel")


def _int(value: Any) -> bool:
    return type(value) is int


def move_kind(move: Any, i: int) -> str:
    where = f"move {i + 1}"
    if not isinstance(move, Mapping):
        raise TableError(
            f'{where}: a move is a JSON object like {{"play": "H7"}}, got {type(move).__name__}'
        )
    keys = set(move)
    unknown = sorted(str(k) for k in keys if k not in _MOVE_KEYS)
    if unknown:
        raise TableError(
            f"{where}: unknown key(s) {', '.join(unknown)}; a move has play, announce, "
            "stoeck, writes or jasstafel"
        )
    if "play" in keys:
        if keys - {"play", "announce", "stoeck"}:
            raise TableError(f"{where}: a card goes only with announce and stoeck")
        return "play"
    for kind in ("writes", "jasstafel", "stoeck", "announce"):
        if keys == {kind}:
            return kind
    if not keys:
        raise TableError(f"{where}: the move is empty")
    raise TableError(f"{where}: {' and '.join(sorted(keys))} cannot go together without a card")


def card_of(value: Any, i: int) -> Card:
    if not isinstance(value, str) or value not in _BY_CODE:
        raise TableError(f"move {i + 1}: play must be a card code like H7 or S10, got {value!r}")
    return _BY_CODE[value]


def announce_value(value: Any, i: int, *, alone: bool) -> int:
    if value is None:
        value = 0
    allowed = ANNOUNCE_VALUES if alone else (0, *ANNOUNCE_VALUES)
    if not _int(value) or value not in allowed:
        raise TableError(
            f"move {i + 1}: announce must be "
            + ("" if alone else "0, null or ")
            + f"a meld value ({', '.join(map(str, ANNOUNCE_VALUES))}), got {value!r}"
        )
    return int(value)


def _team(value: Any, what: str) -> int | None:
    if value is None:
        return None
    if not _int(value) or value not in (1, 2):
        raise TableError(f"{what} must be 1, 2 or null, got {value!r}")
    return int(value)


def _points(value: Any, what: str) -> int:
    if not _int(value) or value < 0:
        raise TableError(f"{what} must be a whole number >= 0, got {value!r}")
    return int(value)


def writes_of(value: Any, i: int) -> dict[str, Any]:
    where = f"move {i + 1}: writes"
    if not isinstance(value, Mapping) or set(value) != {"team", "points"}:
        raise TableError(f'{where} must be {{"team": 1, 2 or null, "points": a number}}')
    return {
        "team": _team(value["team"], f"{where} team"),
        "points": _points(value["points"], f"{where} points"),
    }


def jasstafel_of(value: Any, i: int) -> dict[str, Any]:
    where = f"move {i + 1}: jasstafel"
    if not isinstance(value, Mapping) or set(value) != {"blocks", "target"}:
        raise TableError(f"{where} must hold blocks and target")
    blocks = value["blocks"]
    if not isinstance(blocks, Mapping) or len(blocks) != 2:
        raise TableError(f'{where} blocks must be {{"1": {{...}}, "2": {{...}}}}')
    rows: dict[str, dict[str, int]] = {}
    for key, row in blocks.items():
        name = str(key)
        if name not in ("1", "2") or name in rows or (not _int(key) and not isinstance(key, str)):
            raise TableError(f'{where} blocks must be {{"1": {{...}}, "2": {{...}}}}')
        if not isinstance(row, Mapping) or set(row) != set(BLOCKS):
            raise TableError(f"{where} team {name} needs weis, stoeck and tricks")
        rows[name] = {b: _points(row[b], f"{where} team {name} {b}") for b in BLOCKS}
    target = value["target"]
    if not isinstance(target, Mapping) or set(target) != {"team", "block", "trick"}:
        raise TableError(f"{where} target must hold team, block and trick")
    team = _team(target["team"], f"{where} target team")
    block = target["block"]
    if block is not None and block not in BLOCKS:
        raise TableError(f"{where} target block must be weis, stoeck, tricks or null")
    trick = target["trick"]
    if trick is not None and (not _int(trick) or not 1 <= trick <= 9):
        raise TableError(f"{where} target trick must be 1-9 or null, got {trick!r}")
    if (team is None) != (block is None):
        raise TableError(f"{where} target: give a team and its block, or neither")
    if (block == "tricks") != (trick is not None):
        raise TableError(f"{where} target: a trick number goes with the tricks block only")
    return {
        "blocks": {"1": rows["1"], "2": rows["2"]},
        "target": {"team": team, "block": block, "trick": trick},
    }
