"""The table pages: thin views over ``services`` and ``selectors``.

Every page renders from ``learner_view(table)`` (what the learner may know), never
from the table itself. Every action is a plain form POST that redirects back to the
table (no JavaScript needed); with htmx the same POST returns the round's partial.
Status codes: 200 for a move made (also an illegal card: it is judged, not played),
400 for a move refused (the form or the referee; nothing stored), 403 for a move in
a round whose assignment takes no more work from the learner (left the class, or
past a due date that refuses late work), 409 for a stale or double POST (nothing
changes).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template import engines
from django.template.backends.utils import csrf_input
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules_core import RuleSet
from teaching.table import Table, learner_view
from tutor.accounts.http import AuthedRequest
from tutor.accounts.permissions import learner_required
from tutor.core.context_processors import current_deck
from tutor.core.jinja import url

from . import selectors, services
from .forms import JasstafelForm, StartForm, WritesForm, move_form
from .models import TableRound
from .presenters import focus_label, present, refusal_text


@learner_required
def start(request: AuthedRequest) -> HttpResponse:
    form = StartForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                round_ = services.start_round(
                    learner=request.user,
                    focus=form.cleaned_data["focus"],
                    rules=RuleSet.preset(form.cleaned_data["rules"]),
                )
            except services.RoundError as err:
                form.add_error(None, str(err))
            else:
                return redirect("table:round", round_id=round_.pk)
        status = 400
    return render(
        request,
        "table/start.html",
        {
            "form": form,
            "open_rounds": [(r, focus_label(r.focus)) for r in selectors.open_rounds(request.user)],
            "finished": [
                (r, focus_label(r.focus), *_right_of_judged(r))
                for r in selectors.finished_rounds(request.user, limit=5)
            ],
        },
        status=status,
    )


def _right_of_judged(round_: TableRound) -> tuple[int, int]:
    counts = selectors.skill_counts(round_)
    return sum(c.right for c in counts), sum(c.judged for c in counts)


def _context(
    request: HttpRequest,
    round_: TableRound,
    table: Table | None = None,
    *,
    every_decision: bool | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The page's context; ``table``: the round's table when the caller has it (the
    move just made, or the audit replay), else the kept state's; ``every_decision``:
    see :func:`present`."""
    if table is None:
        table = services.table_of(round_)
    view = learner_view(table)
    deck = current_deck(request)
    t = present(
        view,
        deck=deck,
        last_move=round_.move_count - 1 if round_.move_count else None,
        just_called=services.just_called(table),
        every_decision=every_decision,
    )
    context: dict[str, Any] = {
        "round": round_,
        "t": t,
        "deck": deck,
        "card_lang": (get_language() or "de")[:2],  # the cards' names, once per page
        "n": round_.move_count,
        "move_url": url("table:move", round_.pk),
        "writes_form": None,
        "jasstafel_form": None,
        "error": "",
        "moved": False,
        # An assignment's round that takes no more moves shows why instead of its forms.
        "locked": services.locked_reason(round_) if t.phase != "done" else "",
        **extra,
    }
    if t.phase == "jasstafel":
        context["slate"] = _slate(context["jasstafel_form"])
    return context


# The part of the round page a move changes: Jinja2, drawn on every move
# (tutor/core/jinja.py); the page around it is a Django template.
ROUND_TEMPLATE = "table/round.jinja"


def _round_html(
    request: HttpRequest, context: dict[str, Any], *, summary_only: bool = False
) -> SafeString:
    template = engines["jinja2"].get_template(ROUND_TEMPLATE)
    # One masked CSRF token for the round's forms, as {% csrf_token %} gives (Django's
    # Jinja2 csrf_input masks a new one at every use).
    fields = {"summary_only": summary_only, "csrf_field": csrf_input(request)}
    html = template.render({**context, **fields}, request)
    return mark_safe(html)  # noqa: S308 - Jinja2 escaped every value (autoescape)


def _page(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    context["round_html"] = _round_html(request, context)
    return render(request, "table/round.html", context, status=status)


def _slate(form: JasstafelForm | None) -> list[dict[str, Any]]:
    """The Jasstafel's rows with their two inputs (refilled after a refused entry)."""
    data = form.data if form is not None else {}
    labels = {"weis": "Weis", "stoeck": "Stöck", "tricks": _("Tricks")}
    return [
        {
            "block": block,
            "label": label,
            "cells": [
                {
                    "team": team,
                    "name": f"t{team}_{block}",
                    "value": data.get(f"t{team}_{block}", ""),
                }
                for team in (1, 2)
            ],
        }
        for block, label in labels.items()
    ]


@learner_required
def round_page(request: AuthedRequest, round_id: int) -> HttpResponse:
    round_ = selectors.round_of(request.user, round_id)
    return _page(request, _context(request, round_))


@learner_required
@require_POST
def move(request: AuthedRequest, round_id: int) -> HttpResponse:
    form = move_form(request.POST)
    valid = form is not None and form.is_valid()
    expected = form.cleaned_data["n"] if form is not None and valid else None
    found = services.round_to_move(request.user, round_id, expected)
    round_ = found.round
    error, status = "", 200
    extra: dict[str, Any] = {}
    table: Table | None = None  # the table after the move, when it was made
    if form is None or not valid:
        error = _form_error(form)
        status = 400
        if isinstance(form, WritesForm):
            extra["writes_form"] = form
        elif isinstance(form, JasstafelForm):
            extra["jasstafel_form"] = form
        # A form rendered for an older table is stale whatever else is wrong with it.
        if form is not None and _stale(form, round_):
            error, status = services.stale_message(), 409
            extra = {}
    else:
        try:
            table = services.play_move(
                learner=request.user,
                round_=round_,
                move=form.move(),
                expected_count=form.cleaned_data["n"],
                row_kept=found.kept,
            ).table
        except services.StaleMove as stale:
            round_ = selectors.round_of(request.user, round_.pk)  # as it is now (or 404)
            error, status = str(stale), 409
        except services.MoveRefused as refused:
            error, status = refusal_message(refused, current_deck(request)), 400
        except services.RoundLocked as locked:
            error, status = str(locked), 403
    if request.htmx:
        context = _context(request, round_, table, error=error, moved=status == 200, **extra)
        return HttpResponse(_round_html(request, context), status=status)
    if status == 409:
        messages.error(request, error)
    elif status in (400, 403):
        return _page(request, _context(request, round_, error=error, **extra), status)
    url = reverse("table:round", args=[round_.pk])
    return redirect(f"{url}#feedback" if status == 200 else url)


def refusal_message(refused: services.MoveRefused, deck: str) -> str:
    """The refusal in the page's language: the referee's by its code (cards named in
    the learner's deck), the site's own as it is."""
    err = refused.refusal
    if err is None:
        return str(refused)
    reason = refusal_text(err.code, err.params, deck)
    return _("The table refused this move: %(reason)s") % {"reason": reason}


def _stale(form: Any, round_: TableRound) -> bool:
    value = form.data.get("n", "")
    return str(value).isdigit() and int(value) != round_.move_count


def _form_error(form: Any) -> str:
    if form is None:
        return _("That is not an action of the table.")
    errors = form.errors.get("__all__") or next(iter(form.errors.values()), None)
    if form.errors.get("n"):
        return _("The form is missing the state of the table; reload the page.")
    return str(errors[0]) if errors else _("Check your entries.")


@learner_required
def summary(request: AuthedRequest, round_id: int) -> HttpResponse:
    round_ = selectors.round_of(request.user, round_id)
    # The summary lists every decision: it is drawn from the audit, the whole log
    # replayed from the deal, never from the kept state.
    context = _context(request, round_, services.audit(round_), every_decision=True)
    context["summary_html"] = _round_html(request, context, summary_only=True)
    return render(request, "table/summary.html", context)
