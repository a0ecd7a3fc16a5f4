"""The teacher's pupil accounts: paste names, check, create; new passwords; the login
cards (shown once).

Thin views: the rules are in :mod:`tutor.classroom.roster`; every class comes through
``class_of_teacher`` and every pupil through ``pupil_of_class_or_404``, so
another teacher's ids are a 404.

The one-time passwords reach the cards page sealed (``accounts.login_cards.seal``): the
post that makes them puts the sealed passwords in the session and the key in a signed
cookie of the teacher's browser that lasts five minutes; the cards page joins them once
and drops both (a reload finds none). Neither the database nor the browser alone ever
holds a password in clear; the database keeps only the hashes.
"""

from __future__ import annotations

import hashlib
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tutor.accounts.http import AuthedRequest
from tutor.accounts.login_cards import CARD_KEY_MAX_AGE, login_card, seal, unseal
from tutor.accounts.models import User
from tutor.accounts.permissions import teacher_required
from tutor.core.fields import IdMultipleChoiceField

from . import roster
from .models import SchoolClass
from .results.access import class_of_teacher
from .services import ClassroomError

CARDS_SESSION_KEY = "login_cards"
CARD_KEY_COOKIE = "login_cards_key"


class RosterForm(forms.Form):
    names = forms.CharField(
        label=gettext_lazy("Names of the pupils"),
        max_length=roster.MAX_PASTE_LENGTH,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "autocomplete": "off"}),
        # Not ``gettext_lazy(...) % ...``: that would translate once, at import.
        help_text=lazy(
            lambda: (
                gettext(
                    "One name per line («Anna Meier» or «Meier, Anna»), or a table copied from "
                    "the school's software or saved as CSV, with a first row that names the "
                    "columns (Name, or Vorname and Nachname). At most %(max)d names at once."
                )
                % {"max": roster.MAX_NAMES}
            ),
            str,
        )(),
        strip=False,
    )


class ResetForm(forms.Form):
    pupils = IdMultipleChoiceField(
        queryset=User.objects.none(),
        label=gettext_lazy("Pupils"),
        error_messages={
            "required": gettext_lazy("Choose at least one pupil."),
            "invalid_choice": gettext_lazy("This learner is not in the class."),
            "invalid_pk_value": gettext_lazy("This learner is not in the class."),
        },
    )

    def __init__(self, school_class: SchoolClass, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # `fields` holds Field; this one is the IdMultipleChoiceField declared above.
        pupils = cast(IdMultipleChoiceField, self.fields["pupils"])
        pupils.queryset = roster.resettable_pupils(school_class)


def _digest(text: str) -> str:
    """Ties "create" to the text that was checked: an edited list is checked again."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def _to_cards(
    request: HttpRequest, school_class: SchoolClass, cards: list[roster.NewPassword]
) -> HttpResponse:
    """The redirect to the cards page, carrying the new passwords sealed: the box in the
    session, the key in a short-lived cookie (see the module doc)."""
    sealed = seal([c.password for c in cards])
    request.session[CARDS_SESSION_KEY] = {
        "class_id": school_class.pk,
        "cards": [[c.user_id, c.name, c.username] for c in cards],
        "box": sealed.box,
    }
    response = redirect("roster:cards", class_id=school_class.pk)
    response.set_signed_cookie(
        CARD_KEY_COOKIE,
        sealed.key,
        salt=CARD_KEY_COOKIE,
        max_age=CARD_KEY_MAX_AGE,
        path=reverse("roster:cards", args=[school_class.pk]),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Strict",
    )
    return response


def _page(request: HttpRequest, school_class: SchoolClass, **context: Any) -> HttpResponse:
    context.setdefault("form", RosterForm())
    context.setdefault("reset_form", ResetForm(school_class))
    status = context.pop("status", 200)
    return render(
        request,
        "classroom/roster/roster.html",
        {
            "school_class": school_class,
            "pupils": roster.resettable_pupils(school_class),
            "max_names": roster.MAX_NAMES,
            **context,
        },
        status=status,
    )


@teacher_required
def roster_page(request: AuthedRequest, class_id: int) -> HttpResponse:
    """Paste names; "Check" shows what would be made, "Create" makes it."""
    school_class = class_of_teacher(request.user, class_id)
    if request.method != "POST":
        return _page(request, school_class)
    form = RosterForm(request.POST)
    if not form.is_valid():
        return _page(request, school_class, form=form)
    text = form.cleaned_data["names"]
    digest = _digest(text)
    if request.POST.get("confirm") == digest:
        try:
            cards = roster.create_pupils(teacher=request.user, school_class=school_class, text=text)
        except ClassroomError as error:
            form.add_error("names", str(error))
        else:
            messages.success(
                request,
                ngettext(
                    "%(n)d account made and added to the class.",
                    "%(n)d accounts made and added to the class.",
                    len(cards),
                )
                % {"n": len(cards)},
            )
            return _to_cards(request, school_class, cards)
    plan = roster.plan_roster(school_class, text)
    # Not `error`: the `except ... as error` above unbinds that name.
    for problem in plan.errors:
        form.add_error("names", problem)
    return _page(request, school_class, form=form, plan=plan, digest=digest)


@teacher_required
@require_POST
def reset_many(request: AuthedRequest, class_id: int) -> HttpResponse:
    school_class = class_of_teacher(request.user, class_id)
    form = ResetForm(school_class, request.POST)
    if not form.is_valid():
        return _page(request, school_class, reset_form=form, status=400)
    cards = roster.reset_passwords(
        teacher=request.user, school_class=school_class, pupils=form.cleaned_data["pupils"]
    )
    return _to_cards(request, school_class, cards)


@teacher_required
def reset_one(request: AuthedRequest, class_id: int, learner_id: int) -> HttpResponse:
    """A new one-time password for one pupil: asks first (the old one stops working)."""
    school_class = class_of_teacher(request.user, class_id)
    pupil = roster.pupil_of_class_or_404(school_class, learner_id)
    if request.method == "POST":
        cards = roster.reset_passwords(
            teacher=request.user, school_class=school_class, pupils=[pupil]
        )
        return _to_cards(request, school_class, cards)
    return render(
        request, "classroom/roster/reset.html", {"school_class": school_class, "pupil": pupil}
    )


@never_cache
@teacher_required
def cards(request: AuthedRequest, class_id: int) -> HttpResponse:
    """The login cards, once: the sealed passwords leave the session and the key's
    cookie is dropped as the page is made."""
    school_class = class_of_teacher(request.user, class_id)
    # Taken out whichever class they were for: nothing stays in the session longer.
    stored = request.session.pop(CARDS_SESSION_KEY, None)
    key = request.get_signed_cookie(
        CARD_KEY_COOKIE, default=None, salt=CARD_KEY_COOKIE, max_age=CARD_KEY_MAX_AGE
    )
    login_cards = []
    expired = False
    if stored and stored.get("class_id") == school_class.pk:
        passwords = unseal(stored.get("box", ""), key) if key else None
        if passwords is None or len(passwords) != len(stored["cards"]):
            expired = True  # the key's five minutes are over (or it was another post's)
        else:
            login_cards = [
                login_card(request.build_absolute_uri, name=name, username=username, password=pw)
                for (_user_id, name, username), pw in zip(stored["cards"], passwords, strict=True)
            ]
    response = render(
        request,
        "classroom/roster/cards.html",
        {
            "school_class": school_class,
            "cards": login_cards,
            "expired": expired,
            "minutes": CARD_KEY_MAX_AGE // 60,
        },
    )
    response.delete_cookie(CARD_KEY_COOKIE, path=reverse("roster:cards", args=[school_class.pk]))
    return response
