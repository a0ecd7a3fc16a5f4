"""The Weis tool's form: up to nine cards for each of four players, typed or tapped."""

from __future__ import annotations

import ast
import re
from typing import Any, cast

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules_core import DECK, Card, Contract, RulesError, parse_cards
from tutor.core.explain import preset_choices

SEATS = range(4)
CARD_CHOICES = [(card.code, card.code) for card in DECK]
MAX_TEXT = 400


# rules_core explains an unreadable card in English ("cannot read 'Rosen Zwölf' as a
# card: unknown rank 'Zwölf' (write ...)"); the form says it in the page's language.
_CARD_ERROR = re.compile(
    r"cannot read (?P<text>'[^\n]*'|\"[^\n]*\") as a card: (?P<why>it is empty|unknown rank"
    r"|unknown suit|unknown word|no suit given|no rank given|give one suit and one rank)"
    r"(?: (?P<word>'[^\n]*?'|\"[^\n]*?\"))? \("
)
_HINT = gettext_lazy("Write a code like H7 or a name like Rosen-Ass.")
_CARD_REASONS = {
    "it is empty": gettext_lazy("«%(text)s» is not a card: there is nothing to read."),
    "unknown rank": gettext_lazy("«%(text)s» is not a card: «%(word)s» is not a known rank."),
    "unknown suit": gettext_lazy("«%(text)s» is not a card: «%(word)s» is not a known suit."),
    "unknown word": gettext_lazy(
        "«%(text)s» is not a card: «%(word)s» is neither a suit nor a rank."
    ),
    "unknown word alone": gettext_lazy("«%(text)s» is neither a card nor a suit nor a rank."),
    "no suit given": gettext_lazy("«%(text)s» is not a card: the suit is missing."),
    "no rank given": gettext_lazy("«%(text)s» is not a card: the rank is missing."),
    "give one suit and one rank": gettext_lazy(
        "«%(text)s» is not a card: give one suit and one rank."
    ),
}


def card_error(error: RulesError) -> str:
    """The reason a typed card cannot be read, in the current language, naming the
    text and the word that could not be read."""
    match = _CARD_ERROR.search(str(error))
    if match is None:  # a message this form does not know: still no English
        return str(_("These cards cannot be read. %(hint)s") % {"hint": _HINT})
    text = ast.literal_eval(match["text"])
    word = ast.literal_eval(match["word"]) if match["word"] else ""
    why = "unknown word alone" if match["why"] == "unknown word" and word == text else match["why"]
    reason = _CARD_REASONS[why] % {"text": text, "word": word}
    return f"{reason} {_HINT}"


def contract_choices(lang: str, deck: str) -> list[tuple[str, str]]:
    return [(c.code, c.display_name(lang, deck)) for c in Contract]


class WeisToolForm(forms.Form):
    contract = forms.ChoiceField(label=gettext_lazy("Contract"))
    rules = forms.ChoiceField(label=gettext_lazy("Rule set"), initial="default")
    edit = forms.TypedChoiceField(
        choices=[(s, s) for s in SEATS], coerce=int, required=False, initial=0
    )

    def __init__(self, *args: Any, lang: str = "de", deck: str = "swiss", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # `fields` holds Field; these two are the ChoiceFields declared above.
        cast(forms.ChoiceField, self.fields["contract"]).choices = contract_choices(lang, deck)
        cast(forms.ChoiceField, self.fields["rules"]).choices = preset_choices()
        for seat in SEATS:
            self.fields[f"seat{seat}_text"] = forms.CharField(
                label=_("Cards of Player %(n)s") % {"n": seat + 1},
                required=False,
                max_length=MAX_TEXT,
                help_text=_("Codes or names, e.g. H6 H7 H8 or Rosen-Ober, Schilten-Ass"),
            )
            self.fields[f"seat{seat}"] = forms.MultipleChoiceField(
                choices=CARD_CHOICES, required=False
            )

    def text_field(self, seat: int) -> forms.BoundField:
        return self[f"seat{seat}_text"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean() returns (its stub allows None)
        hands: list[tuple[Card, ...]] = []
        owner: dict[Any, int] = {}
        for seat in SEATS:
            field = f"seat{seat}_text"
            text = data.get(field, "")
            try:
                typed = parse_cards(text) if text.strip() else ()
            except RulesError as error:
                self.add_error(field, card_error(error))
                typed = ()
            picked = parse_cards(" ".join(data.get(f"seat{seat}", [])))
            cards = tuple(dict.fromkeys((*typed, *picked)))
            if len(cards) > 9:
                self.add_error(
                    field,
                    _("Player %(n)s has %(count)s cards; a hand has at most nine.")
                    % {"n": seat + 1, "count": len(cards)},
                )
            for card in cards:
                if card in owner:
                    self.add_error(
                        field,
                        _(
                            "%(card)s is already in the hand of Player %(other)s; "
                            "each card exists once."
                        )
                        % {"card": card.code, "other": owner[card] + 1},
                    )
                else:
                    owner[card] = seat
            hands.append(cards)
        data["hands"] = tuple(hands)
        data["owner"] = {card.code: seat for card, seat in owner.items()}
        return data
