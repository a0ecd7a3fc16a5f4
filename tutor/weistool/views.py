from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from rules_core import DECK
from tutor.classroom.selectors import assignment_barring_tools
from tutor.core.context_processors import current_deck
from tutor.core.http import HtmxHttpRequest

from .forms import SEATS, WeisToolForm
from .services import evaluate


def _seats(form: WeisToolForm, cleaned: dict[str, Any], errors: list[int]) -> list[dict[str, Any]]:
    """Each player's text field and card picker; a card another player holds shows who
    (players count from 1)."""
    owner = cleaned.get("owner", {})
    hands = cleaned.get("hands", ((),) * len(SEATS))
    seats = []
    for seat in SEATS:
        picked = {card.code for card in hands[seat]}
        taken = {code: other + 1 for code, other in owner.items() if other != seat}
        seats.append(
            {
                "seat": seat,
                "text": form.text_field(seat),
                "count": len(picked),
                "has_error": seat in errors,
                "picker": [(card, card.code in picked, taken.get(card.code)) for card in DECK],
            }
        )
    return seats


def weis_tool(request: HtmxHttpRequest) -> HttpResponse:
    """A GET form: computing changes nothing, and the URL can be shared at the table."""
    lang, deck = (get_language() or "de")[:2], current_deck(request)
    bound = bool(request.GET)
    form = WeisToolForm(request.GET if bound else None, lang=lang, deck=deck)
    result = None
    barred_by = assignment_barring_tools(request.user)
    valid = bound and form.is_valid()
    if barred_by is None and valid and any(form.cleaned_data["hands"]):
        data = form.cleaned_data
        result = evaluate(data["hands"], data["contract"], data["rules"])
    cleaned = form.cleaned_data if bound else {}
    errors = [seat for seat in SEATS if form.text_field(seat).errors] if bound else []
    context = {
        "form": form,
        "seats": _seats(form, cleaned, errors),
        "owner": cleaned.get("owner", {}),
        # Open the first player whose cards need correcting, else the one being edited.
        "edit": errors[0] if errors else (cleaned.get("edit") or 0),
        "result": result,
        "barred_by": barred_by,
        "hands": result.hands if result else (),
    }
    template = "weistool/tool.html"
    if request.htmx and not request.htmx.history_restore_request:
        template += "#results"
        context["oob"] = True
    response = render(request, template, context)
    # One URL, two bodies (the page, or htmx's partial): caches must keep them apart.
    patch_vary_headers(response, ("HX-Request", "HX-History-Restore-Request"))
    return response
