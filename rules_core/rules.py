"""Rule sets (RULES section 8): the defaults and the named variants.

>>> RuleSet() == RuleSet.preset("default")
True
>>> RuleSet.presets()
('default', 'w-en', 'ausmachregel', 'swisslos-2500')
>>> rules = RuleSet.preset("swisslos-2500")
>>> rules.factor("S"), rules.factor("H"), rules.factor("obenabe"), rules.target
(2, 1, 3, 2500)
>>> RuleSet.from_dict(rules.to_dict()) == rules
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ._tables import WeisTablesAndFactor
from .contracts import Contract
from .errors import RulesError

__all__ = ["BLOCKS", "DEFAULT_RULES", "RuleSet"]

BLOCKS = ("weis", "stoeck", "tricks")
"""The three blocks of a round's written score, in the default counting order (R7.1, R7.3)."""

Factors = tuple[tuple[str, int], ...]

_CODES = tuple(c.code for c in Contract)


def _factors_tuple(values: Mapping[Any, int] | Iterable[tuple[Any, int]] | None) -> Factors:
    """Normalise factors to ``(("D", f), ("H", f), ..., ("undenufe", f))``; missing ones are 1."""
    if values is None:
        return tuple((code, 1) for code in _CODES)
    if isinstance(values, Mapping):
        items = list(values.items())
    elif isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise RulesError(
            "factors must map contracts to integers, e.g. {'S': 2, 'obenabe': 3}, "
            f"got {type(values).__name__}"
        )
    else:
        items = []
        for item in values:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise RulesError(f"factors: expected (contract, factor) pairs, got {item!r}")
            items.append((item[0], item[1]))
    found: dict[str, int] = {}
    for key, factor in items:
        try:
            code = Contract.parse(key).code
        except RulesError:
            raise RulesError(f"factors: unknown contract {key!r}") from None
        if code in found:
            raise RulesError(f"factors: contract {code} is given twice")
        if type(factor) is not int or factor < 1:
            raise RulesError(
                f"factors: the factor of {code} must be a whole number >= 1, got {factor!r}"
            )
        found[code] = factor
    return tuple((code, found.get(code, 1)) for code in _CODES)


@dataclass(frozen=True)
class RuleSet:
    """The rule choices a round is scored with (R8, RULES section 8).

    - ``low_quads_score``: four 6s, 7s or 8s score 100 (True, W-DE) or nothing (W-EN) (R5.2).
    - ``undenufe_reverses_weis``: in Undenufe the HIGH_CARD step prefers the lower
      meld (True, W-DE) or keeps the natural order (False, W-EN) (R5.5).
    - ``target_order``: the order the blocks count towards the target (R7.3).
    - ``factors``: the factor of each contract (R4.5), a tuple of ``(code, factor)``
      pairs in contract order; a mapping like ``{"S": 2}`` is accepted and
      normalised (missing contracts get 1). Use :meth:`factor` to read one.
    - ``target``: the points to reach (R7.2).

    >>> RuleSet(factors={"S": 2}).factor("S"), RuleSet(factors={"S": 2}).factor("H")
    (2, 1)
    >>> RuleSet(target=0)
    Traceback (most recent call last):
      ...
    rules_core.errors.RulesError: target must be a whole number >= 1, got 0
    """

    low_quads_score: bool = True
    undenufe_reverses_weis: bool = True
    target_order: tuple[str, str, str] = BLOCKS
    factors: Factors = tuple((code, 1) for code in _CODES)
    target: int = 1000
    # derived data for the hot paths (no effect on ==, hash, repr; not in to_dict)
    _factor_by_index: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _weis_tables: list[WeisTablesAndFactor | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("low_quads_score", "undenufe_reverses_weis"):
            if type(getattr(self, name)) is not bool:
                raise RulesError(f"{name} must be True or False, got {getattr(self, name)!r}")
        given: object = self.target_order
        if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
            raise RulesError(f"target_order must list the blocks {BLOCKS}, got {given!r}")
        order = tuple(given)
        if not all(isinstance(b, str) for b in order) or sorted(order) != sorted(BLOCKS):
            raise RulesError(
                f"target_order must name each of {', '.join(BLOCKS)} once, got {order!r}"
            )
        object.__setattr__(self, "target_order", order)
        factors = _factors_tuple(self.factors)
        object.__setattr__(self, "factors", factors)
        if type(self.target) is not int or self.target < 1:
            raise RulesError(f"target must be a whole number >= 1, got {self.target!r}")
        object.__setattr__(self, "_factor_by_index", tuple(f for _, f in factors))
        object.__setattr__(self, "_weis_tables", [None] * len(_CODES))  # by rules_core.weis

    def factor(self, contract: Contract | str) -> int:
        """The factor every written score of a round in ``contract`` is multiplied by (R4.5).

        >>> RuleSet().factor("H"), RuleSet.preset("swisslos-2500").factor("undenufe")
        (1, 3)
        """
        return self._factor_by_index[Contract.parse(contract).index]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a JSON field; :meth:`from_dict` reads it back.

        >>> RuleSet.preset("ausmachregel").to_dict()["target_order"]
        ['stoeck', 'weis', 'tricks']
        """
        return {
            "low_quads_score": self.low_quads_score,
            "undenufe_reverses_weis": self.undenufe_reverses_weis,
            "target_order": list(self.target_order),
            "factors": dict(self.factors),
            "target": self.target,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build a rule set from :meth:`to_dict` data; missing fields take their default.

        >>> RuleSet.from_dict({"target": 2500}).target
        2500
        >>> RuleSet.from_dict({"trumps": 1})  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
          ...
        rules_core.errors.RulesError: unknown rule set field(s): trumps; known:
        low_quads_score, undenufe_reverses_weis, target_order, factors, target
        """
        if not isinstance(data, Mapping):
            raise RulesError(f"a rule set must be a mapping, got {type(data).__name__}")
        names = [f.name for f in fields(cls) if f.init]
        unknown = [str(k) for k in data if k not in names]
        if unknown:
            raise RulesError(
                f"unknown rule set field(s): {', '.join(unknown)}; known: {', '.join(names)}"
            )
        return cls(**dict(data))

    @classmethod
    def presets(cls) -> tuple[str, ...]:
        """The names of the named rule sets."""
        return tuple(_PRESETS)

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """The named rule set (case-insensitive).

        - ``default``: RULES section 8 defaults.
        - ``w-en``: four 6s/7s/8s score nothing, Undenufe keeps the natural Weis order.
        - ``ausmachregel``: blocks count Stöck, Weis, tricks (Swiss lottery, TV).
        - ``swisslos-2500``: factors H and C 1, S and D 2, Obenabe and Undenufe 3;
          target 2500; blocks count Stöck, Weis, tricks.

        >>> RuleSet.preset("W-EN").low_quads_score
        False
        >>> RuleSet.preset("schieber")  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
          ...
        rules_core.errors.RulesError: unknown rule set 'schieber'; choose one of:
        default, w-en, ausmachregel, swisslos-2500
        """
        if not isinstance(name, str):
            raise RulesError(f"a rule set name must be a string, got {type(name).__name__}")
        key = name.strip().lower()
        if key not in _PRESETS:
            raise RulesError(f"unknown rule set {name!r}; choose one of: {', '.join(_PRESETS)}")
        return _PRESETS[key]

    def preset_name(self) -> str | None:
        """The name of the preset equal to this rule set, or None.

        >>> RuleSet(target=2500).preset_name(), RuleSet().preset_name()
        (None, 'default')
        """
        for name, rules in _PRESETS.items():
            if rules == self:
                return name
        return None


DEFAULT_RULES = RuleSet()

_PRESETS: dict[str, RuleSet] = {
    "default": DEFAULT_RULES,
    "w-en": RuleSet(low_quads_score=False, undenufe_reverses_weis=False),
    "ausmachregel": RuleSet(target_order=("stoeck", "weis", "tricks")),
    "swisslos-2500": RuleSet(
        factors=_factors_tuple({"H": 1, "C": 1, "S": 2, "D": 2, "obenabe": 3, "undenufe": 3}),
        target=2500,
        target_order=("stoeck", "weis", "tricks"),
    ),
}
