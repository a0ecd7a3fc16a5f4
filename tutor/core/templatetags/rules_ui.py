"""Template helpers that word rules-core results; the wording lives in core/explain.py."""

from __future__ import annotations

from typing import Any

from django import template

from tutor.core import explain as ex

register = template.Library()


def _deck(context: template.Context) -> str:
    return context.get("deck") or "swiss"


@register.simple_tag(takes_context=True)
def ladder_steps(
    context: template.Context,
    trace: Any,
    side_a: str,
    side_b: str,
    meld_a: Any = None,
    meld_b: Any = None,
) -> list[ex.Explained]:
    """The ladder's steps as sentences; ``meld_a``/``meld_b`` (the melds compared, where
    the page has them) let two fours of a kind be compared by rank."""
    melds = (meld_a, meld_b) if meld_a and meld_b else None
    return ex.explain_ladder(trace, _deck(context), side_a, side_b, melds)


@register.simple_tag(takes_context=True)
def meld_label(context: template.Context, meld: Any) -> str:
    return ex.meld_label(meld, _deck(context))


@register.simple_tag(takes_context=True)
def card_label(context: template.Context, card: Any) -> str:
    return ex.card_label(card, _deck(context))


@register.simple_tag(takes_context=True)
def suit_label(context: template.Context, suit: Any) -> str:
    return ex.suit_label(getattr(suit, "code", suit), _deck(context))


@register.simple_tag(takes_context=True)
def contract_label(context: template.Context, contract: Any) -> str:
    return ex.contract_label(contract, _deck(context))


@register.simple_tag
def meld_cards(melds: Any) -> set[Any]:
    """Every card that is part of one of the melds (a Kreuzweis card counts once)."""
    return {card for meld in melds for card in meld.cards}


@register.filter
def team_short(team: int) -> str:
    return ex.team_short(team)


@register.filter
def seat_label(seat: int | None) -> str:
    return ex.seat_label(seat)


@register.filter
def player_short(seat: int) -> str:
    return ex.player_short(seat)


@register.filter
def team_label(team: int | None) -> str:
    return ex.team_label(team)


@register.filter
def team_of(seat: int) -> int:
    return seat % 2


@register.simple_tag
def stoeck_sentence(result: Any) -> str:
    return ex.stoeck_sentence(result)


@register.simple_tag
def stoeck_view(scenario: Any) -> list[list[dict[str, Any]]]:
    """A Stöck scenario's plays by trick, marking the holder's pair and the calls."""
    return ex.stoeck_timeline(
        scenario.plays,
        [(c.seat, c.after_play, c.prompted) for c in scenario.calls],
        {scenario.first_index, scenario.second_index},
    )


@register.simple_tag
def target_sentence(result: Any) -> str:
    return ex.target_sentence(result)


@register.filter
def block_label(block: str | None) -> str:
    return ex.block_label(block)


@register.filter
def preset_label(name: str | None) -> str:
    """A rule set's display name from its preset id ("w-en" -> "W-EN reading: ...")."""
    return ex.preset_label(name)


@register.filter
def plus1(value: int) -> int:
    return value + 1
