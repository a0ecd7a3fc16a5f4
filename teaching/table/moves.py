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
    for kind in ("writes", "jasstafel", "stoeck", "announce"):
        if keys == {kind}:
            return kind
    if not keys:
        raise TableError(f"{where}: the move is empty", "move.empty", {"move": i})
    raise TableError(
        f"{where}: {' and '.join(sorted(keys))} cannot go together without a card",
        "move.combination",
        {"move": i, "keys": sorted(keys)},
    )


def card_of(value: Any, i: int) -> Card:
    if not isinstance(value, str) or value not in _BY_CODE:
        raise TableError(
            f"move {i + 1}: play must be a card code like H7 or S10, got {value!r}",
            "move.card",
            {"move": i},
        )
    return _BY_CODE[value]


def announce_value(value: Any, i: int, *, alone: bool) -> int:
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


def writes_of(value: Any, i: int) -> dict[str, Any]:
    where = f"move {i + 1}: writes"
    code = "move.writes"
    if not isinstance(value, Mapping) or set(value) != {"team", "points"}:
        raise TableError(
            f'{where} must be {{"team": 1, 2 or null, "points": a number}}',
            code,
            {"move": i, "field": "shape"},
        )
    return {
        "team": _team(value["team"], f"{where} team", code, {"move": i, "field": "team"}),
        "points": _points(value["points"], f"{where} points", code, {"move": i, "field": "points"}),
    }


def jasstafel_of(value: Any, i: int) -> dict[str, Any]:
    where = f"move {i + 1}: jasstafel"

    def refuse(text: str, field: str) -> TableError:
        return TableError(f"{where} {text}", "move.jasstafel", {"move": i, "field": field})

    if not isinstance(value, Mapping) or set(value) != {"blocks", "target"}:
        raise refuse("must hold blocks and target", "shape")
    blocks = value["blocks"]
    if not isinstance(blocks, Mapping) or len(blocks) != 2:
        raise refuse('blocks must be {"1": {...}, "2": {...}}', "blocks")
    rows: dict[str, dict[str, int]] = {}
    for key, row in blocks.items():
        name = str(key)
        if name not in ("1", "2") or name in rows or (not _int(key) and not isinstance(key, str)):
            raise refuse('blocks must be {"1": {...}, "2": {...}}', "blocks")
        if not isinstance(row, Mapping) or set(row) != set(BLOCKS):
            raise refuse(f"team {name} needs weis, stoeck and tricks", "blocks")
        params = {"move": i, "field": "points"}
        rows[name] = {
            b: _points(row[b], f"{where} team {name} {b}", "move.jasstafel", params) for b in BLOCKS
        }
    target = value["target"]
    if not isinstance(target, Mapping) or set(target) != {"team", "block", "trick"}:
        raise refuse("target must hold team, block and trick", "target")
    team = _team(
        target["team"], f"{where} target team", "move.jasstafel", {"move": i, "field": "team"}
    )
    block = target["block"]
    if block is not None and block not in BLOCKS:
        raise refuse("target block must be weis, stoeck, tricks or null", "block")
    trick = target["trick"]
    if trick is not None and (not _int(trick) or not 1 <= trick <= 9):
        raise refuse(f"target trick must be 1-9 or null, got {trick!r}", "trick")
    if (team is None) != (block is None):
        raise refuse("target: give a team and its block, or neither", "block")
    if (block == "tricks") != (trick is not None):
        raise refuse("target: a trick number goes with the tricks block only", "trick")
    return {
        "blocks": {"1": rows["1"], "2": rows["2"]},
        "target": {"team": team, "block": block, "trick": trick},
    }
