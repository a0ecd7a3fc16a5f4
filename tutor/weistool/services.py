"""What the Weis tool computes: every player's melds, who writes Weis, Stöck holders."""

from __future__ import annotations

from dataclasses import dataclass

from rules_core import Card, Contract, RuleSet, WeisResult, resolve_weis, stoeck_holder


@dataclass(frozen=True)
class WeisToolResult:
    hands: tuple[tuple[Card, ...], ...]
    contract: Contract
    rules: RuleSet
    weis: WeisResult
    stoeck_seat: int | None


def evaluate(
    hands: tuple[tuple[Card, ...], ...], contract_code: str, preset: str
) -> WeisToolResult:
    contract = Contract.parse(contract_code)
    rules = RuleSet.preset(preset)
    return WeisToolResult(
        hands=hands,
        contract=contract,
        rules=rules,
        weis=resolve_weis(hands, contract, rules),
        stoeck_seat=stoeck_holder(hands, contract),
    )
