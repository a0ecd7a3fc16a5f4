from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from .decks import Deck


def current_deck(request: HttpRequest) -> str:
    """The deck to draw cards with: the account's choice, else the session's, else Swiss."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user.deck
    deck = request.session.get("deck") if hasattr(request, "session") else None
    return deck if deck in Deck.values else Deck.SWISS


def preferences(request: HttpRequest) -> dict[str, Any]:
    return {"deck": current_deck(request), "deck_choices": Deck.choices}
