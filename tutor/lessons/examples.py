"""Live examples in lessons: a fenced ``jass KIND`` block, evaluated by the rules core
every time the page renders, so a lesson can never contradict the engine.

Kinds and keys (card lists are codes separated by spaces; ``contract`` is D H S C,
obenabe or undenufe; ``rules`` a preset name, default ``default``; ``caption`` free):

- ``cards``: ``cards``
- ``melds``: ``hand``, ``contract``
- ``compare``: ``a``, ``a_seat``, ``b``, ``b_seat``, ``contract``
- ``weis``: ``seat0`` .. ``seat3``, ``contract``
- ``points``: ``contract``
- ``legal``: ``hand``, ``trick``, ``contract``
- ``trick``: ``cards``, ``contract``
- ``stoeck``: ``contract``, ``holder``, ``first``, ``second``, ``call``
- ``target``: ``before``, ``weis``, ``stoeck``, ``tricks`` (each "team1 team2"),
  ``target``; or ``decides`` (weis, stoeck, tricks, nobody) and ``seed`` for a
  generated round whose scores before it make that block decide
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules_core import (
    Card,
    Contract,
    Meld,
    RulesError,
    RuleSet,
    card_points,
    compare_melds,
    explain_best_meld,
    legal_cards,
    parse_cards,
    resolve_target_blocks,
    resolve_weis,
    trick_winner,
)
from rules_core.cards import Rank, Suit

from .content import ExampleSpec, LessonFile

# Tests swap this to show that lessons follow the rule set (a live example is never
# typed in by hand).
DEFAULT_PRESET = "default"


class ExampleError(RulesError):
    """A live example cannot be evaluated; the message says which key is wrong."""


@dataclass(frozen=True)
class Evaluated:
    kind: str
    data: dict[str, Any]
    caption: str


def _rules(params: dict[str, str]) -> RuleSet:
    return RuleSet.preset(params.get("rules") or DEFAULT_PRESET)


def _contract(params: dict[str, str], default: str | None = None) -> Contract:
    text = params.get("contract") or default
    if not text:
        raise ExampleError("needs 'contract'")
    return Contract.parse(text)


def _cards(params: dict[str, str], key: str, *, required: bool = True) -> tuple[Card, ...]:
    text = params.get(key, "")
    if not text:
        if required:
            raise ExampleError(f"needs {key!r}")
        return ()
    return parse_cards(text)


def _int(params: dict[str, str], key: str) -> int:
    try:
        return int(params[key])
    except KeyError:
        raise ExampleError(f"needs {key!r}") from None
    except ValueError:
        raise ExampleError(f"{key!r} must be a whole number, not {params[key]!r}") from None


def _pair(params: dict[str, str], key: str) -> tuple[int, int]:
    parts = params.get(key, "0 0").split()
    if len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
        raise ExampleError(f"{key!r} must be two whole numbers 'team1 team2'")
    return int(parts[0]), int(parts[1])


def _cards_example(params: dict[str, str]) -> dict[str, Any]:
    return {"cards": _cards(params, "cards")}


def _melds_example(params: dict[str, str]) -> dict[str, Any]:
    hand = _cards(params, "hand")
    contract = _contract(params)
    rules = _rules(params)
    choice = explain_best_meld(hand, contract, rules)
    return {
        "hand": hand,
        "contract": contract,
        "rules": rules,
        "choice": choice,
        "factor": rules.factor(contract),
        "marked": choice.best.cards if choice.best else (),
    }


def _compare_example(params: dict[str, str]) -> dict[str, Any]:
    contract = _contract(params)
    rules = _rules(params)
    a = Meld.of(_cards(params, "a"))
    b = Meld.of(_cards(params, "b"))
    comparison = compare_melds(
        a, _int(params, "a_seat"), b, _int(params, "b_seat"), contract, rules
    )
    return {"comparison": comparison, "contract": contract, "rules": rules}


def _weis_example(params: dict[str, str]) -> dict[str, Any]:
    contract = _contract(params)
    rules = _rules(params)
    hands = tuple(_cards(params, f"seat{seat}", required=False) for seat in range(4))
    result = resolve_weis(hands, contract, rules)
    return {"hands": hands, "result": result, "contract": contract, "rules": rules}


def _points_example(params: dict[str, str]) -> dict[str, Any]:
    contract = _contract(params)
    rules = _rules(params)
    trump = contract.trump
    other = next(s for s in Suit if s is not trump)
    rows = []
    for suit, label in ((trump, "trump"), (other, "other")) if trump else ((other, "all"),):
        rows.append(
            {
                "which": label,
                "cards": [
                    (Card(suit, rank), card_points(Card(suit, rank), contract)) for rank in Rank
                ],
            }
        )
    return {"contract": contract, "rows": rows, "rules": rules, "factor": rules.factor(contract)}


def _legal_example(params: dict[str, str]) -> dict[str, Any]:
    contract = _contract(params)
    hand = _cards(params, "hand")
    trick = _cards(params, "trick", required=False)
    legal = set(legal_cards(hand, trick, contract))
    return {
        "hand": hand,
        "trick": trick,
        "contract": contract,
        "legal": [c for c in hand if c in legal],
        "illegal": [c for c in hand if c not in legal],
    }


def _trick_example(params: dict[str, str]) -> dict[str, Any]:
    contract = _contract(params)
    cards = _cards(params, "cards")
    if not 1 <= len(cards) <= 4:
        raise ExampleError("a trick has one to four cards")
    winner = trick_winner(cards, contract)
    return {
        "cards": cards,
        "contract": contract,
        "winner": winner,
        "winning_card": cards[winner],
        "winning_card_list": (cards[winner],),
        "points": sum(card_points(c, contract) for c in cards),
    }


def _stoeck_example(params: dict[str, str]) -> dict[str, Any]:
    from tutor.quizzes.scenarios import stoeck_scenario

    contract = _contract(params)
    scenario = stoeck_scenario(
        contract.code,
        _int(params, "holder"),
        _int(params, "first"),
        _int(params, "second"),
        params.get("call", "second"),
        rules=_rules(params),
    )
    return {"scenario": scenario, "contract": contract, "rules": _rules(params)}


def _target_example(params: dict[str, str]) -> dict[str, Any]:
    """Either written blocks (``before``, ``weis``, ``stoeck``, ``tricks``, optional
    ``target``) or a generated round (``decides``, optional ``seed``)."""
    from tutor.core.explain import block_label
    from tutor.quizzes.scenarios import target_scenario

    rules = _rules(params)
    order_text = ", ".join(str(block_label(b)) for b in rules.target_order)
    if "decides" in params:
        seed = _int(params, "seed") if "seed" in params else 0
        scenario = target_scenario(params["decides"], seed, rules)
        return {
            "result": scenario.result,
            "contract": scenario.round.contract,
            "rules": rules,
            "order_text": order_text,
        }
    blocks = [
        {name: _pair(params, name)[team] for name in ("weis", "stoeck", "tricks")}
        for team in (0, 1)
    ]
    target = _int(params, "target") if "target" in params else rules.target
    result = resolve_target_blocks(_pair(params, "before"), blocks, target, rules)
    return {"result": result, "contract": None, "rules": rules, "order_text": order_text}


EVALUATORS: dict[str, Callable[[dict[str, str]], dict[str, Any]]] = {
    "cards": _cards_example,
    "melds": _melds_example,
    "compare": _compare_example,
    "weis": _weis_example,
    "points": _points_example,
    "legal": _legal_example,
    "trick": _trick_example,
    "stoeck": _stoeck_example,
    "target": _target_example,
}


def evaluate(spec: ExampleSpec) -> Evaluated:
    evaluator = EVALUATORS.get(spec.kind)
    if evaluator is None:
        raise ExampleError(f"unknown example kind {spec.kind!r}; use one of {sorted(EVALUATORS)}")
    return Evaluated(
        kind=spec.kind, data=evaluator(spec.params), caption=spec.params.get("caption", "")
    )


def check_examples(lesson: LessonFile) -> None:
    """Evaluate every example of a lesson file; raise with file and line on the first error."""
    for spec in lesson.examples:
        try:
            evaluate(spec)
        except RulesError as error:
            raise ExampleError(f"{spec.where(lesson.path)}: jass {spec.kind}: {error}") from None
