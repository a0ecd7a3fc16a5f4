"""``{% card c %}`` and ``{% hand cards %}``: the one way cards are drawn on the site.

Both take ``rules_core.Card`` objects or codes. ``marked`` is a collection of cards
to highlight (for example the cards of a meld); highlighted cards are raised and
outlined, and named as such for screen readers, so colour is never the only sign.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.translation import get_language

from tutor.core.cards import card_view
from tutor.core.context_processors import current_deck

register = template.Library()


def _deck(context: template.Context) -> str:
    if "deck" in context:
        return context["deck"]
    request = context.get("request")
    return current_deck(request) if request is not None else "swiss"


def _lang() -> str:
    return (get_language() or "de")[:2]


@register.inclusion_tag("components/card.html", takes_context=True)
def card(context: template.Context, card: Any, marked: bool = False) -> dict[str, Any]:
    return {"c": card_view(card, _lang(), _deck(context)), "marked": marked}


@register.inclusion_tag("components/hand.html", takes_context=True)
def hand(
    context: template.Context,
    cards: Iterable[Any],
    marked: Iterable[Any] = (),
    label: str = "",
) -> dict[str, Any]:
    lang, deck = _lang(), _deck(context)
    marked_codes = {str(c) for c in marked or ()}
    views = [card_view(c, lang, deck) for c in cards]
    return {
        "cards": [(v, v.code in marked_codes) for v in views],
        "label": label,
    }
