"""``{% card c %}`` and ``{% hand cards %}``: the one way cards are drawn on the site.

Both take ``rules_core.Card`` objects or codes. ``marked`` highlights cards (for example
the cards of a meld); highlighted cards are raised and outlined, and named as such for
screen readers, so colour is never the only sign.

A card's markup depends only on the card, the language, the deck and the highlight, so
it is built once per process and reused: a feedback page can draw seventy cards, and
rendering each through a template was half the cost of the page (docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from rules_core import Suit, suit_name
from tutor.core.cards import card_view
from tutor.core.context_processors import current_deck
from tutor.core.translating import get_language
from tutor.core.translating import gettext as _

register = template.Library()

_CARD = (
    '<span class="card suit-{suit}{marked_class}" role="img" aria-label="{label}{marked_label}"'
    ' title="{label}" data-card="{code}"><svg viewBox="0 0 64 92" aria-hidden="true"'
    ' focusable="false"><rect class="card-face" x="1.5" y="1.5" width="61" height="89" rx="6"/>'
    '<text class="card-index" x="6" y="20">{index}</text>'
    '<use href="{sprite}#{symbol}" x="38" y="6" width="20" height="20"/>'
    '<use href="{sprite}#{symbol}" x="10" y="34" width="44" height="44"/>'
    '<text class="card-index card-index--foot" x="58" y="86" text-anchor="end">{index}</text>'
    "</svg></span>"
)


@cache
def _sprite() -> str:
    return static("cards/suits.svg")


@cache
def card_html(code: str, lang: str, deck: str, marked: bool) -> SafeString:
    view = card_view(code, lang, deck)
    return mark_safe(  # noqa: S308 - every value below is escaped
        _CARD.format(
            suit=escape(view.suit),
            marked_class=" card--marked" if marked else "",
            label=escape(view.label),
            marked_label=escape(" (" + _("highlighted") + ")") if marked else "",
            code=escape(view.code),
            index=escape(view.index),
            sprite=escape(_sprite()),
            symbol=escape(view.symbol),
        )
    )


def context_deck(context: template.Context) -> str:
    """The deck a Django template draws in: the context's, else the visitor's."""
    if "deck" in context:
        deck: str = context["deck"]
        return deck
    request = context.get("request")
    return current_deck(request) if request is not None else "swiss"


def _lang() -> str:
    return (get_language() or "de")[:2]


@register.simple_tag(takes_context=True)
def card(context: template.Context, card: Any, marked: bool = False) -> SafeString:
    return card_html(str(card), _lang(), context_deck(context), bool(marked))


@register.simple_tag(takes_context=True)
def hand(
    context: template.Context,
    cards: Iterable[Any],
    marked: Iterable[Any] = (),
    label: str = "",
) -> SafeString:
    return hand_html(cards, _lang(), context_deck(context), marked, label)


def hand_html(
    cards: Iterable[Any], lang: str, deck: str, marked: Iterable[Any] = (), label: str = ""
) -> SafeString:
    """A hand's markup (``{% hand %}``, and ``hand()`` in the Jinja2 templates)."""
    marked_codes = {str(c) for c in marked or ()}
    # card_html's markup is escaped already: joined as it is (format_html_join would
    # escape-check each item again, 5 % of drawing a question's feedback).
    items = "".join(
        f"<li>{card_html(code, lang, deck, code in marked_codes)}</li>" for code in map(str, cards)
    )
    label_attr = f' aria-label="{escape(label)}"' if label else ""
    return mark_safe(f'<ul class="hand"{label_attr}>{items}</ul>')  # noqa: S308 - escaped


@register.simple_tag
def suit_pairs() -> str:
    """The two decks' suits side by side, as the footer's deck switch explains them:
    "Schellen = Ecken, Rosen = Herz, ..." in the page's language (the usual pairing,
    which the site uses; Swisslos pairs them by factor, see the glossary's «factor»)."""
    lang = _lang()
    return ", ".join(
        f"{suit_name(suit, lang, 'swiss')} = {suit_name(suit, lang, 'french')}" for suit in Suit
    )
