"""The forms of the table: starting a round, and one form per kind of move.

Every move form carries ``n``, the number of moves the page was rendered for, and
``action``; :func:`move_form` picks the form and :meth:`MoveForm.move` turns it into
the move object of :mod:`teaching.table` (whether the move fits the table is the
referee's decision, so a tampered value gets the same refusal as any other).
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from rules_core import DECK
from teaching.table import (
    ANNOUNCE_VALUES,
    BLOCKS,
    AnnounceMove,
    BlockPoints,
    JasstafelAnswer,
    JasstafelMove,
    PlayMove,
    StoeckMove,
    TargetAnswer,
    WritesAnswer,
    WritesMove,
)
from tutor.core.explain import preset_choices

from .models import Focus

TEAM_CHOICES = [("1", _("Team 1")), ("2", _("Team 2")), ("none", _("Nobody"))]
BLOCK_CHOICES = [("", "—"), ("weis", _("Weis")), ("stoeck", _("Stöck")), ("tricks", _("Tricks"))]
MAX_POINTS = 10_000


class StartForm(forms.Form):
    focus = forms.ChoiceField(
        label=_("Focus"), choices=Focus.choices, initial=Focus.STOECK, widget=forms.RadioSelect
    )
    rules = forms.ChoiceField(label=_("Rule set"), initial="default")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["rules"]).choices = preset_choices()


_CARDS = {c.code: c for c in DECK}


class MoveForm(forms.Form):
    n = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def move(self) -> dict[str, Any]:  # pragma: no cover - every form below has its own
        raise NotImplementedError


def _announce_choices() -> list[tuple[str, Any]]:
    return [("0", _("No Weis"))] + [(str(v), str(v)) for v in ANNOUNCE_VALUES]


class PlayForm(MoveForm):
    card = forms.CharField(max_length=3, error_messages={"required": _("Choose a card.")})
    announce = forms.TypedChoiceField(
        choices=_announce_choices, coerce=int, required=False, empty_value=None
    )
    stoeck = forms.BooleanField(required=False)

    def move(self) -> dict[str, Any]:
        data = self.cleaned_data
        card = data["card"]
        if not isinstance(card, str) or card not in _CARDS:
            # the referee words the refusal of a card code it does not know
            return {"play": card}
        return PlayMove(
            card=_CARDS[card], announce=data.get("announce"), stoeck=data.get("stoeck") or None
        ).to_dict()


class StoeckForm(MoveForm):
    def move(self) -> dict[str, Any]:
        return StoeckMove().to_dict()


class AnnounceForm(MoveForm):
    announce = forms.TypedChoiceField(
        choices=[(str(v), str(v)) for v in ANNOUNCE_VALUES],
        coerce=int,
        error_messages={"required": _("Choose a value.")},
    )

    def move(self) -> dict[str, Any]:
        return AnnounceMove(self.cleaned_data["announce"]).to_dict()


def _points_field(label: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=MAX_POINTS,
        error_messages={"required": _("Write a number (0 when there is nothing).")},
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "step": 1}),
    )


def _team(value: str) -> int | None:
    """The form's team (1 or 2, or "none") as the moves count it: 0-based."""
    return None if value == "none" else int(value) - 1


class WritesForm(MoveForm):
    team = forms.ChoiceField(
        label=_("Which team writes (scores) Weis?"),
        choices=TEAM_CHOICES,
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose a team, or nobody.")},
    )
    points = forms.IntegerField(
        label=_("How many points?"),
        min_value=0,
        max_value=MAX_POINTS,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "step": 1}),
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean() returns (its stub allows None)
        if data.get("team") not in (None, "none") and data.get("points") is None:
            self.add_error("points", _("Write how many points the team writes."))
        return data

    def move(self) -> dict[str, Any]:
        team = _team(self.cleaned_data["team"])
        # Nobody writes: nothing to write, whatever the box says.
        points = 0 if team is None else self.cleaned_data["points"]
        return WritesMove(WritesAnswer(team=team, points=points)).to_dict()


class JasstafelForm(MoveForm):
    """The drawn Jasstafel: three blocks per team, then who reached the target."""

    t1_weis = _points_field(_("Team 1, Weis"))
    t1_stoeck = _points_field(_("Team 1, Stöck"))
    t1_tricks = _points_field(_("Team 1, tricks"))
    t2_weis = _points_field(_("Team 2, Weis"))
    t2_stoeck = _points_field(_("Team 2, Stöck"))
    t2_tricks = _points_field(_("Team 2, tricks"))
    target_team = forms.ChoiceField(
        label=_("Who reaches the target first?"),
        choices=TEAM_CHOICES,
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose a team, or nobody.")},
    )
    target_block = forms.ChoiceField(
        label=_("In which block?"), choices=BLOCK_CHOICES, required=False
    )
    target_trick = forms.TypedChoiceField(
        label=_("With which trick?"),
        choices=[("", "—")] + [(str(i), str(i)) for i in range(1, 10)],
        coerce=int,
        required=False,
        empty_value=None,
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean() returns (its stub allows None)
        team = data.get("target_team")
        if team in (None, "none"):
            return data
        block = data.get("target_block")
        if not block:
            self.add_error("target_block", _("Choose the block in which the team gets there."))
        elif block == "tricks" and data.get("target_trick") is None:
            self.add_error("target_trick", _("Give the number of the trick that gets it there."))
        return data

    def move(self) -> dict[str, Any]:
        data = self.cleaned_data
        team = _team(data["target_team"])
        block = None if team is None else data["target_block"]
        trick = data["target_trick"] - 1 if block == "tricks" else None
        blocks = tuple(BlockPoints(**{b: data[f"t{t}_{b}"] for b in BLOCKS}) for t in (1, 2))
        target = TargetAnswer(team=team, block=block, trick=trick)
        return JasstafelMove(
            JasstafelAnswer(blocks=(blocks[0], blocks[1]), target=target)
        ).to_dict()


FORMS: dict[str, type[MoveForm]] = {
    "play": PlayForm,
    "stoeck": StoeckForm,
    "announce": AnnounceForm,
    "writes": WritesForm,
    "jasstafel": JasstafelForm,
}


def move_form(data: Any) -> MoveForm | None:
    """The bound form for the POST's ``action``, or None for an unknown action."""
    form_class = FORMS.get(str(data.get("action", "")))
    return None if form_class is None else form_class(data)


def post_data(move: dict[str, Any], n: int) -> dict[str, str]:
    """What the round page's forms post for ``move`` (a move object of
    :mod:`teaching.table`) on a table of ``n`` moves: the inverse of
    ``move_form(data).move()``, for tests and the load benchmark, which play rounds
    without reading the forms off the page."""
    count = str(n)
    if "play" in move:
        data = {"action": "play", "card": move["play"], "n": count}
        if "announce" in move:
            data["announce"] = str(move["announce"] or 0)
        if move.get("stoeck"):
            data["stoeck"] = "on"
        return data
    if "writes" in move:
        w = move["writes"]
        team = "none" if w["team"] is None else str(w["team"])
        return {"action": "writes", "team": team, "points": str(w["points"]), "n": count}
    if "stoeck" in move:
        return {"action": "stoeck", "n": count}
    if "announce" in move:
        return {"action": "announce", "announce": str(move["announce"]), "n": count}
    j = move["jasstafel"]
    data = {"action": "jasstafel", "n": count}
    for team in ("1", "2"):
        for block, value in j["blocks"][team].items():
            data[f"t{team}_{block}"] = str(value)
    target = j["target"]
    data["target_team"] = "none" if target["team"] is None else str(target["team"])
    data["target_block"] = target["block"] or ""
    data["target_trick"] = "" if target["trick"] is None else str(target["trick"])
    return data
