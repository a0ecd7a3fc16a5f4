"""Template helpers that word rules-core results; the wording lives in core/explain.py."""

from __future__ import annotations

from typing import Any

from django import template

from tutor.core import explain as ex

register = template.Library()


def _deck(context: template.Context) -> str:
    return context.get("deck") or "swiss"


@register.simple_tag(takes_context=True)
def meld_label(context: template.Context, meld: Any) -> str:
    return ex.meld_label(meld, _deck(context))


@register.simple_tag(takes_context=True)
def card_label(context: template.Context, card: Any) -> str:
    return ex.card_label(card, _deck(context))


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
def team_label(team: int | None) -> str:
    return ex.team_label(team)


@register.filter
def team_of(seat: int) -> int:
    return seat % 2


@register.filter
def preset_label(name: str | None) -> str:
    """A rule set's display name from its preset id ("w-en" -> "W-EN reading: ...")."""
    return ex.preset_label(name)


@register.filter
def plus1(value: int) -> int:
    return value + 1
