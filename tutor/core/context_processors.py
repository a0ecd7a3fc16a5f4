from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import get_language

from .decks import Deck

# A visitor's deck choice lives in this cookie (accounts.views.set_deck), not in a
# session: choosing a deck must not write to the database.
DECK_COOKIE_NAME = "jass_deck"
DECK_COOKIE_AGE = 365 * 24 * 60 * 60


def language_deck(language: str | None) -> str:
    """The deck a language's readers expect before they choose: most of Romandie plays
    with French cards, German-speaking Switzerland mostly with Swiss-German ones.

    >>> language_deck("fr"), language_deck("de"), language_deck(None)
    ('french', 'swiss', 'swiss')
    """
    deck = Deck.FRENCH if (language or "")[:2] == "fr" else Deck.SWISS
    return str(deck.value)


def current_deck(request: HttpRequest) -> str:
    """The deck to draw cards with: the account's choice, else the visitor's cookie,
    else the deck of the page's language (:func:`language_deck`)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.deck:
        chosen: str = user.deck
        return chosen
    deck = request.COOKIES.get(DECK_COOKIE_NAME)
    if deck in Deck.values:
        return str(deck)
    return language_deck(get_language())


def preferences(request: HttpRequest) -> dict[str, Any]:
    return {"deck": current_deck(request), "deck_choices": Deck.choices}
