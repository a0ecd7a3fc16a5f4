"""Turning the rules core's traces (data) into sentences a person reads.

The rules core explains itself as :class:`rules_core.TraceEntry` values: a rule ID, a
machine key and the values compared. This module is the one place that words them,
in the active language (German, English or French) and with the person's deck. Lessons, the
Weis tool and quiz feedback all render explanations through :func:`explain`.

People count from 1: the core's seats 0-3 are "Player 1 (Vorhand)" to "Player 4" and
its teams 0/1 are "Team 1 (players 1 and 3)" and "Team 2 (players 2 and 4)"; this is
the one place that adds the 1. German card names carry a hyphen ("Rosen-6"), ladder
steps read "Step 1: points" / "Stufe 1: Punkte", rule sets by their display names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import lazy

from rules_core import Card, Contract, RuleSet, TraceEntry, suit_name

from .cards import display_name
from .translating import get_language, pgettext
from .translating import gettext as _


@dataclass(frozen=True)
class Explained:
    """One explanation step ready for a template."""

    rule: str
    key: str
    text: str
    decided: bool
    step_label: str = ""


def _lang() -> str:
    return (get_language() or "de")[:2]


def seat_label(seat: int | None) -> str:
    if seat is None:
        return "?"
    if seat == 0:
        return _("Player %(n)s (Vorhand)") % {"n": seat + 1}
    return player_short(seat)


def player_short(seat: int) -> str:
    """``Player 3``: a player's number alone, where "(Vorhand)" would give an answer away."""
    return _("Player %(n)s") % {"n": seat + 1}


def team_label(team: int | None) -> str:
    if team is None:
        return _("no team")
    return _("Team %(n)s (players %(a)s and %(b)s)") % {"n": team + 1, "a": team + 1, "b": team + 3}


def team_short(team: int) -> str:
    return _("Team %(n)s") % {"n": team + 1}


def card_label(code: str | Card, deck: str) -> str:
    return display_name(code, _lang(), deck)


def contract_label(contract: Contract | str, deck: str) -> str:
    contract = Contract.parse(contract) if isinstance(contract, str) else contract
    return contract.display_name(_lang(), deck)


# Sequences by length, as W-DE names them: "Dreiblatt", "Vierblatt", ...
SEQUENCE_NAMES = {
    3: lambda: _("3-card sequence"),
    4: lambda: _("4-card sequence"),
    5: lambda: _("5-card sequence"),
    6: lambda: _("6-card sequence"),
    7: lambda: _("7-card sequence"),
    8: lambda: _("8-card sequence"),
    9: lambda: _("9-card sequence"),
}


def meld_label(meld: Any, deck: str) -> str:
    """'4-card sequence, 8 of roses to Under of roses (50)' / 'Vierblatt Rosen-8 bis
    Rosen-Under (50)' / 'four Under (200)'."""
    data = meld.to_dict() if hasattr(meld, "to_dict") else meld
    cards = data["cards"]
    if data["kind"] == "sequence":
        return _("%(name)s %(low)s to %(high)s (%(points)s)") % {
            "name": SEQUENCE_NAMES[len(cards)](),
            "low": card_label(cards[0], deck),
            "high": card_label(cards[-1], deck),
            "points": data["points"],
        }
    rank = Card.parse(cards[0]).rank
    return _("four %(rank)s (%(points)s)") % {
        "rank": rank_plural(rank, deck),
        "points": data["points"],
    }


# "four aces", "vier Könige", «quatre rois»: plurals by language and deck, keyed by rank
# code. French says the small ranks in words («quatre six», as at the table) and
# «nells» for the 9s in both decks, as German and English say "Nell".
_PLURALS = {
    ("de", "swiss"): {
        "6": "Sechser",
        "7": "Siebner",
        "8": "Achter",
        "9": "Nell",
        "10": "Banner",
        "J": "Under",
        "Q": "Ober",
        "K": "Könige",
        "A": "Asse",
    },
    ("de", "french"): {
        "6": "Sechser",
        "7": "Siebner",
        "8": "Achter",
        "9": "Nell",
        "10": "Zehner",
        "J": "Buben",
        "Q": "Damen",
        "K": "Könige",
        "A": "Asse",
    },
    ("en", "swiss"): {
        "6": "sixes",
        "7": "sevens",
        "8": "eights",
        "9": "Nell",
        "10": "tens",
        "J": "Under",
        "Q": "Ober",
        "K": "kings",
        "A": "aces",
    },
    ("en", "french"): {
        "6": "sixes",
        "7": "sevens",
        "8": "eights",
        "9": "Nell",
        "10": "tens",
        "J": "jacks",
        "Q": "queens",
        "K": "kings",
        "A": "aces",
    },
    ("fr", "swiss"): {
        "6": "six",
        "7": "sept",
        "8": "huit",
        "9": "nells",
        "10": "bannières",
        "J": "unders",
        "Q": "obers",
        "K": "rois",
        "A": "as",
    },
    ("fr", "french"): {
        "6": "six",
        "7": "sept",
        "8": "huit",
        "9": "nells",
        "10": "dix",
        "J": "valets",
        "Q": "dames",
        "K": "rois",
        "A": "as",
    },
}


def rank_plural(rank: Any, deck: str) -> str:
    code = getattr(rank, "code", str(rank))
    deck = deck if deck in ("swiss", "french") else "swiss"
    return _PLURALS[(_lang(), deck)][code]


# The comparison ladder's steps (R5.5), in order; the rules core's Step values.
LADDER_STEPS = ("points", "cards", "high_card", "trump", "seat")
_STEP_WORDS = {
    "points": lambda: pgettext("ladder step", "points"),
    "cards": lambda: pgettext("ladder step", "number of cards"),
    "high_card": lambda: pgettext("ladder step", "highest card"),
    "trump": lambda: pgettext("ladder step", "trump"),
    "seat": lambda: pgettext("ladder step", "who announced first"),
}


def _step(step: Any) -> str:
    """A step as the rules core names it: a Step, its value or its trace key."""
    value = getattr(step, "value", step)
    return str(value).removeprefix("ladder.")


def step_title(step: Any) -> str:
    """'Step 1: points' / 'Stufe 1: Punkte': a step on its own, e.g. as a heading."""
    key = _step(step)
    return _("Step %(n)s: %(name)s") % {
        "n": LADDER_STEPS.index(key) + 1,
        "name": _STEP_WORDS[key](),
    }


def step_inline(step: Any) -> str:
    """'Step 1 (points)' / 'Stufe 1 (Punkte)': a step inside a sentence."""
    key = _step(step)
    return _("Step %(n)s (%(name)s)") % {
        "n": LADDER_STEPS.index(key) + 1,
        "name": _STEP_WORDS[key](),
    }


STEP_NAMES = {f"ladder.{key}": (lambda key=key: step_title(key)) for key in LADDER_STEPS}


def preset_label(name: str | None) -> str:
    """A rule set's display name (never its id such as ``w-en``)."""
    labels = {
        "default": lambda: _("Default (Jassverband)"),
        "w-en": lambda: _("W-EN reading: four 6s to 8s score nothing, no reversal in Undenufe"),
        "ausmachregel": lambda: _("Ausmachregel: Stöck, Weis, tricks"),
        "swisslos-2500": lambda: _("Swisslos 2500: factors, target 2500"),
    }
    label = labels.get(name or "")
    return label() if label is not None else _("Own rule set")


def preset_choices() -> list[tuple[str, Any]]:
    """The rule sets for a form's choice field, by their display names (lazy, so a
    form built at import time still follows the active language)."""
    return [(name, lazy(preset_label, str)(name)) for name in RuleSet.presets()]


class _Sides:
    """How the two sides of a ladder are named: two players' melds or two teams."""

    def __init__(self, a: str, b: str) -> None:
        self.a, self.b = a, b

    def name(self, winner: int | None) -> str:
        return self.a if winner == 0 else self.b


def _is_four(meld: Any) -> bool:
    kind = getattr(meld, "kind", None)
    return getattr(kind, "value", kind) == "four_of_a_kind"


def _high_card_of_fours(v: dict[str, Any], sides: _Sides, deck: str) -> str:
    """Two fours of a kind compare by rank: "four aces against four tens", not by
    their first cards ("ace of bells against 10 of bells"), which reads as a suit."""
    names = {
        "a": rank_plural(v["a"], deck),
        "b": rank_plural(v["b"], deck),
        "side": sides.name(v.get("winner")),
    }
    if v.get("order") == "reversed":
        return (
            _(
                "Undenufe reverses the order: four %(a)s against four %(b)s; the lower rank "
                "wins, so %(side)s wins."
            )
            % names
        )
    return _("Four %(a)s against four %(b)s: the higher rank wins, so %(side)s wins.") % names


def _ladder(
    entry: TraceEntry, sides: _Sides, deck: str, melds: tuple[Any, Any] | None = None
) -> str:
    v = entry.values
    winner = v.get("winner")
    key = entry.key
    if key == "ladder.points":
        if winner is None:
            return _("%(a)s against %(b)s points: equal, so the next step decides.") % v
        return _("%(a)s against %(b)s points: %(side)s has the higher value and wins.") % {
            **v,
            "side": sides.name(winner),
        }
    if key == "ladder.cards":
        if winner is None:
            return _("%(a)s against %(b)s cards: equal, so the next step decides.") % v
        return _("%(a)s cards beat %(b)s cards: %(side)s has more cards and wins.") % {
            "a": max(v["a"], v["b"]),
            "b": min(v["a"], v["b"]),
            "side": sides.name(winner),
        }
    if key == "ladder.high_card":
        if melds is not None and all(_is_four(m) for m in melds) and winner is not None:
            return _high_card_of_fours(v, sides, deck)
        names = {"a": card_label(v["a_card"], deck), "b": card_label(v["b_card"], deck)}
        if v.get("order") == "reversed":
            if winner is None:
                return (
                    _(
                        "Undenufe: the lowest cards, %(a)s and %(b)s, are of the same rank, "
                        "so the next step decides."
                    )
                    % names
                )
            return _(
                "Undenufe reverses the order: lowest card %(a)s against %(b)s; the lower card "
                "wins, so %(side)s wins."
            ) % {**names, "side": sides.name(winner)}
        if winner is None:
            return (
                _(
                    "The highest cards, %(a)s and %(b)s, are of the same rank, so the next "
                    "step decides."
                )
                % names
            )
        return _("Highest card %(a)s against %(b)s: the higher card wins, so %(side)s wins.") % {
            **names,
            "side": sides.name(winner),
        }
    if key == "ladder.trump":
        if v.get("trump") is None:
            return _("There is no trump suit in this contract, so the next step decides.")
        trump = suit_name(v["trump"], _lang(), deck)
        if winner is None:
            return _(
                "Neither or both melds are a sequence in trump (%(trump)s); the next step decides."
            ) % {"trump": trump}
        return _("Only %(side)s is a sequence in the trump suit (%(trump)s), so it wins.") % {
            "side": sides.name(winner),
            "trump": trump,
        }
    if key == "ladder.seat":
        return _(
            "Everything else is equal: %(first)s announced before %(second)s, so the earlier "
            "meld wins."
        ) % {
            "first": seat_label(min(v["a"], v["b"])),
            "second": seat_label(max(v["a"], v["b"])),
        }
    return key


def explain_ladder(
    trace: Iterable[TraceEntry],
    deck: str,
    side_a: str,
    side_b: str,
    melds: tuple[Any, Any] | None = None,
) -> list[Explained]:
    """The ladder steps of a trace, each as a sentence; other entries are skipped.
    ``melds``: the two melds compared (side a's, side b's), where known, for words
    that depend on their kind."""
    sides = _Sides(side_a, side_b)
    out = []
    for entry in trace:
        if entry.key in STEP_NAMES:
            out.append(
                Explained(
                    rule=entry.rule,
                    key=entry.key,
                    text=_ladder(entry, sides, deck, melds),
                    decided=entry.decided,
                    step_label=STEP_NAMES[entry.key](),
                )
            )
    return out


Explainer = Callable[[TraceEntry, str], str]


def stoeck_sentence(result: Any) -> str:
    """Why Stöck came out as it did, in one sentence (rules_core.StoeckResult)."""
    reason = result.reason.value
    who = {"holder": seat_label(result.seat), "team": team_label(result.team)}
    sentences = {
        "no_trump_contract": lambda: _("No Stöck: Obenabe and Undenufe have no trump."),
        "not_held_by_one_player": lambda: _(
            "No Stöck: no single player holds both king and Ober of trump."
        ),
        "second_card_not_played": lambda: (
            _("Still possible: %(holder)s has not played the second of the two cards yet.") % who
        ),
        "still_possible": lambda: (
            _(
                "Still possible: %(holder)s has just played the second card and may say «Stöck» "
                "until the next card is played."
            )
            % who
        ),
        "valid": lambda: (
            _(
                "%(holder)s said «Stöck» with the second card, on their own: %(points)s points for "
                "%(team)s."
            )
            % {**who, "points": result.points}
        ),
        "not_declared": lambda: (
            _("Lost: %(holder)s did not say «Stöck» before the next card was played.") % who
        ),
        "declared_at_first_card": lambda: _(
            "Lost: «Stöck» was said with the first card; it counts only with the second."
        ),
        "too_late": lambda: _("Lost: «Stöck» came after the next card had been played."),
        "prompted": lambda: _(
            "Lost: «Stöck» came after the partner's reminder; the holder must say it on their own."
        ),
    }
    return sentences[reason]()


def block_label(block: str | None) -> str:
    return {
        "weis": _("Weis"),
        "stoeck": _("Stöck"),
        "tricks": _("tricks"),
        None: "",
    }[block]


def target_sentence(result: Any) -> str:
    """Who reached the target and where (rules_core.TargetResult)."""
    if result.team is None:
        return _("Nobody reaches %(target)s in this round: play goes on with the next round.") % {
            "target": result.target
        }
    values = {
        "team": team_label(result.team),
        "target": result.target,
        "block": block_label(result.block),
        "trick": (result.trick or 0) + 1,
    }
    if result.block == "tricks":
        text = _("%(team)s reaches %(target)s first, with trick %(trick)s, and wins.") % values
    else:
        text = _("%(team)s reaches %(target)s first, in the %(block)s block, and wins.") % values
    other = 1 - result.team
    if result.totals[other] > result.totals[result.team]:
        text += " " + _("The other team ends the round with more points, but it got there later.")
    return text


def suit_label(suit: str | None, deck: str) -> str:
    return suit_name(suit, _lang(), deck) if suit else ""


def stoeck_timeline(
    plays: Iterable[tuple[int, Any]],
    calls: Iterable[tuple[int, int, bool]],
    marked: set[int],
) -> list[list[dict[str, Any]]]:
    """Plays grouped by trick, each with its seat, card, whether it is marked (the
    holder's King or Ober) and the «Stöck» calls made right after it."""
    calls_after: dict[int, list[dict[str, Any]]] = {}
    for seat, after_play, prompted in calls:
        calls_after.setdefault(after_play, []).append({"seat": seat, "prompted": prompted})
    tricks: list[list[dict[str, Any]]] = []
    for index, (seat, card) in enumerate(plays):
        if index % 4 == 0:
            tricks.append([])
        tricks[-1].append(
            {
                "seat": seat,
                "card": Card.parse(card) if isinstance(card, str) else card,
                "is_pair": index in marked,
                "calls": calls_after.get(index, []),
            }
        )
    return tricks


# What a player says at the first trick: the value alone (R5.4), as W-DE's table words.
_ANNOUNCED = {
    20: lambda: pgettext("announced value", "Twenty"),
    50: lambda: pgettext("announced value", "Fifty"),
    100: lambda: pgettext("announced value", "A hundred"),
    150: lambda: pgettext("announced value", "A hundred and fifty"),
    200: lambda: pgettext("announced value", "Two hundred"),
    250: lambda: pgettext("announced value", "Two hundred and fifty"),
    300: lambda: pgettext("announced value", "Three hundred"),
}


def announced_value(value: int) -> str:
    """«Fifty» / «Fünfzig»: an announced value as said at the table, in quotes."""
    word = _ANNOUNCED.get(value)
    return "«%s»" % (word() if word is not None else value)
