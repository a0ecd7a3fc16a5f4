"""The wrong answers picked, worded and named by their mistake (results and item analysis)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from tutor.quizzes.mistakes import mistake_text
from tutor.quizzes.presenters import choice_label

from .. import charts
from .common import _percent

# --- the wrong answers picked (assignment results and item analysis) -------------


@dataclass(frozen=True)
class WrongChoice:
    """A wrong answer picked (or offered) for one kind or question, named by the mistake
    behind it."""

    mistake: str
    text: str
    count: int
    label: str  # the choice worded, e.g. "Team 2 writes 150"; "" when it cannot be worded
    label_is_example: bool  # the picks had different values; ``label`` is the commonest
    key: str = ""  # the choice's key, for one question; "" when grouped by mistake
    share: int | None = None  # per cent of the questions counted (right, wrong, unanswered)
    letter: str = ""  # its key in a picture's legend: A, B, ...

    @property
    def short(self) -> str:
        """The mistake sentence's first sentence: a name for it in a legend."""
        return mistake_short(self.text)


def mistake_short(text: str) -> str:
    """'This answer adds up all the melds. In fact ...' -> 'This answer adds up all the melds.'"""
    head, dot, _rest = text.partition(". ")
    return head + "." if dot else text


def _choice_text(kind: str, data: dict[str, Any], key: str, deck: str) -> str:
    """The wording the learner saw for choice ``key``; '' if it cannot be worded."""
    value = next((c["value"] for c in data.get("choices", []) if c.get("key") == key), None)
    if value is None:
        return ""
    try:
        return str(choice_label(kind, value, data.get("prompt", {}), deck)["text"])
    except (LookupError, TypeError, ValueError):  # odd stored data: the sentence remains
        return ""


Pick = tuple[str, str, str, dict[str, Any]]  # (kind, mistake, chosen key, question data)


def _wrong_choices(picks: list[Pick], deck: str, questions: int = 0) -> list[WrongChoice]:
    """Every mistake in ``picks`` (the wrong answers of one kind), most picked first;
    equal counts by name, so the page does not change between loads. ``questions``:
    how many questions the shares are of (0: no shares)."""
    counts = Counter(mistake for _kind, mistake, _key, _data in picks)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    choices = []
    for index, (mistake, count) in enumerate(ranked):
        values: Counter[str] = Counter()
        example: dict[str, tuple[str, str, dict[str, Any]]] = {}
        for kind, name, key, data in picks:
            if name != mistake:
                continue
            value = next((c["value"] for c in data.get("choices", []) if c.get("key") == key), None)
            token = json.dumps(value, sort_keys=True)
            values[token] += 1
            example.setdefault(token, (kind, key, data))
        token, _n = min(values.items(), key=lambda item: (-item[1], item[0]))
        kind, key, data = example[token]
        choices.append(
            WrongChoice(
                mistake=mistake,
                text=mistake_text(mistake),
                count=count,
                label=_choice_text(kind, data, key, deck),
                label_is_example=len(values) > 1,
                share=_percent(count, questions) if questions else None,
                letter=charts.letter(index),
            )
        )
    return choices
