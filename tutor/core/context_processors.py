from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from .decks import Deck

# A visitor's deck choice lives in this cookie (accounts.views.set_deck), not in a
# session: choosing a deck must not write to the database.
DECK_COOKIE_NAME = "jass_deck"
DECK_COOKIE_AGE = 365 * 24 * 60 * 60


def current_deck(request: HttpRequest) -> str:
    """The deck to draw cards with: the account's choice, else the visitor's cookie,
    else Swiss."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        chosen: str = user.deck
        return chosen
    deck = request.COOKIES.get(DECK_COOKIE_NAME)
    return deck if deck in Deck.values else Deck.SWISS


def preferences(request: HttpRequest) -> dict[str, Any]:
    return {"deck": current_deck(request), "deck_choices": Deck.choices}
