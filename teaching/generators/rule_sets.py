"""Does a question's answer depend on its rule set, and on which rule of it?

Decided by the engine, never by a table of guesses: the answer is solved again from
the same inputs under every other preset (:meth:`RuleSet.presets`). Where it comes
out different, each field the two rule sets disagree on is swapped alone into the
question's rule set and the answer solved again; the fields whose swap alone changes
the answer are the rules that made the difference (when none does alone, every
field they disagree on is named). A page then says which rule of the question's rule
set gave the answer, and what it would have been under the other preset.

>>> from teaching.generators import generate
>>> q = generate("weis_value", 4, "default")
>>> found = answer_depends_on(q.kind, q.inputs, q.rule_set())
>>> [(d.field, d.rule, d.other) for d in found]
[('low_quads_score', 'R5.2', 'w-en')]
>>> q.answer_value, found[0].other_answer
({'points': 100}, {'points': 50})
>>> q = generate("basics", 2, "default")
>>> answer_depends_on(q.kind, q.inputs, q.rule_set())
()
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from rules_core import RulesError, RuleSet

from .base import ChoiceValue, Inputs, canon

__all__ = [
    "FIELD_RULES",
    "RuleSetDifference",
    "answer_depends_on",
    "inputs_under",
    "solve_under",
    "with_field",
]

FIELD_RULES: dict[str, str] = {
    "low_quads_score": "R5.2",
    "undenufe_reverses_weis": "R5.5",
    "target_order": "R7.3",
    "factors": "R4.5",
    "target": "R7.2",
}
"""The rule-set fields (RULES section 8), in that order, with the rule each one sets."""


@dataclass(frozen=True)
class RuleSetDifference:
    """One rule of the question's rule set that the answer depends on.

    ``field``: a :class:`RuleSet` field (a key of :data:`FIELD_RULES`); ``rule``: the
    rule ID it sets; ``other``: the first preset under which the answer differs
    because of this field; ``other_answer``: the answer under that preset, or None
    when the situation breaks a rule there (four 6s in a ladder question are no meld
    under ``low_quads_score=False``), so that the question has no answer.
    """

    field: str
    rule: str
    other: str
    other_answer: ChoiceValue | None

    def to_dict(self) -> dict[str, Any]:
        """As plain JSON data, to be stored beside the question (read back with
        :meth:`from_dict`).

        >>> d = RuleSetDifference("low_quads_score", "R5.2", "w-en", {"points": 50})
        >>> RuleSetDifference.from_dict(json.loads(json.dumps(d.to_dict()))) == d
        True
        """
        return {
            "field": self.field,
            "rule": self.rule,
            "other": self.other,
            "other_answer": self.other_answer,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSetDifference:
        """Read back :meth:`to_dict` data; a ``KeyError`` names a missing field."""
        return cls(data["field"], data["rule"], data["other"], data["other_answer"])


def inputs_under(kind: str, inputs: Inputs, rules: RuleSet, other: RuleSet) -> dict[str, Any]:
    """The inputs of a question of ``rules`` as they would be under ``other``.

    Only a target question carries a rule-set value in its inputs: its ``target``,
    which the generator takes from the rule set; under ``other`` it is other's target.
    """
    data: dict[str, Any] = dict(inputs)
    if kind == "target" and data.get("target") == rules.target:
        data["target"] = other.target
    return data


def solve_under(kind: str, inputs: Mapping[str, Any], rules: RuleSet) -> ChoiceValue | None:
    """The answer of a ``kind`` question on ``inputs`` under ``rules``, or None when the
    inputs break a rule of ``rules``. Remembered for the last few hundred questions: a
    page asks it for each language, and the stem checker asks it again."""
    found = _solved(kind, json.dumps(inputs, sort_keys=True), _rules_key(rules))
    value: ChoiceValue | None = json.loads(found)
    return value


@lru_cache(maxsize=64)
def _rules_key(rules: RuleSet) -> str:
    return json.dumps(rules.to_dict())


@lru_cache(maxsize=1024)
def _solved(kind: str, inputs: str, rules: str) -> str:
    from . import get_kind  # the package's registry imports the kinds, not this module

    try:
        value = get_kind(kind).solve(json.loads(inputs), _rule_set(rules))
    except RulesError:
        return "null"
    return canon(value.value)


@lru_cache(maxsize=256)
def with_field(rules: RuleSet, field: str, value: Any) -> RuleSet:
    """``rules`` with one field changed (remembered: the same few are asked often)."""
    return replace(rules, **{field: value})


@lru_cache(maxsize=64)
def _rule_set(data: str) -> RuleSet:
    return RuleSet.from_dict(json.loads(data))


def answer_depends_on(kind: str, inputs: Inputs, rules: RuleSet) -> tuple[RuleSetDifference, ...]:
    """The rules of ``rules`` that the answer of a ``kind`` question on ``inputs``
    depends on (see the module), in the order of :data:`FIELD_RULES`."""
    answer = canon(solve_under(kind, inputs, rules))
    found: dict[str, RuleSetDifference] = {}
    for name in RuleSet.presets():
        other = RuleSet.preset(name)
        if other == rules:
            continue
        other_value = solve_under(kind, inputs_under(kind, inputs, rules, other), other)
        if canon(other_value) == answer:
            continue
        fields = [f for f in FIELD_RULES if getattr(other, f) != getattr(rules, f)]
        alone = []
        for field in fields:
            mixed = with_field(rules, field, getattr(other, field))
            mixed_inputs = inputs_under(kind, inputs, rules, mixed)
            if canon(solve_under(kind, mixed_inputs, mixed)) != answer:
                alone.append(field)
        for field in alone or fields:
            if field not in found:
                found[field] = RuleSetDifference(field, FIELD_RULES[field], name, other_value)
    return tuple(found[f] for f in FIELD_RULES if f in found)
