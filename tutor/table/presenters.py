"""What the table page shows, built from :func:`teaching.table.learner_view` only.

:func:`present` turns the learner's view (a :class:`teaching.table.LearnerView`:
never the whole table, so hidden hands and judgements still to come are not in it)
into objects the template draws: the four players around the table with the learner
at the bottom, the trick on the table, the learner's hand and the actions the phase
allows, and every judgement as a :class:`Decision` with its sentences, its rule and
the engine's results for the shared rule partials (Stöck verdict, ladder, target
table). Everything is read by attribute from typed values.

People count from 1 here: seats, teams and tricks are shown +1 (the view, like the
rest of the Python API, is 0-based), through :mod:`tutor.core.explain`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules_core import Meld, StoeckResult, TargetResult, TraceEntry
from teaching.table import (
    ANNOUNCE_VALUES,
    AnnounceAnswer,
    AnnounceVerdict,
    BlockAnswer,
    CardGiven,
    Judgement,
    LearnerView,
    PlayVerdict,
    StoeckAnswer,
    StoeckBlockVerdict,
    StoeckVerdict,
    TalkLine,
    TargetAnswer,
    TargetVerdict,
    Trick,
    TricksBlockVerdict,
    WeisBlockVerdict,
    WritesAnswer,
    WritesVerdict,
)
from tutor.core import explain as ex
from tutor.core.translating import get_language
from tutor.core.translating import gettext as _
from tutor.lessons.selectors import lessons_for

from .models import Focus

PLACES = ("bottom", "right", "top", "left")  # play goes round to the right


def _lang() -> str:
    return (get_language() or "de")[:2]


# ---------------------------------------------------------------------------
# Data for the template


@dataclass
class SeatView:
    seat: int
    place: str
    label: str
    team: int
    you: bool
    partner: bool
    cards_left: int
    tricks_won: int
    announcement: dict[str, Any] | None = None
    calls: list[str] = field(default_factory=list)
    reminder: bool = False
    card: str | None = None  # the player's card in the current trick
    lead: bool = False  # led the current trick
    shown: list[str] = field(default_factory=list)  # meld labels shown at the second trick
    shown_cards: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class BlockRow:
    """One block of a Jasstafel decision, worded: team, block, written and right."""

    team: str
    block: str
    given: int
    expected: int


_MARKS = {"right": "✓", "wrong": "✗"}
_VERDICT_LABELS: dict[str, Callable[[], str]] = {
    "right": lambda: _("Right"),
    "wrong": lambda: _("Not right"),
}


@dataclass
class Decision:
    """One judgement, worded."""

    move: int
    number: int  # 1-based, in the round's order
    kind: str
    outcome: str
    rule: str
    skill: str
    key: str
    title: str
    given: str
    sentences: list[str]
    card: str | None = None
    stoeck: StoeckResult | None = None  # for stoeck_verdict in components/rules.jinja
    ladder: list[ex.Explained] = field(default_factory=list)  # worded ladder steps
    target: TargetResult | None = None  # for target_table in components/rules.jinja
    rows: list[Decision] = field(default_factory=list)  # a Jasstafel's six blocks
    lesson_url: str = ""  # the lesson section that teaches ``rule``
    row: BlockRow | None = None  # a Jasstafel block

    @property
    def right(self) -> bool:
        return self.outcome == "right"

    @property
    def wrong(self) -> bool:
        return self.outcome == "wrong"

    @property
    def mark(self) -> str:
        """✓, ✗ or i (a note)."""
        return _MARKS.get(self.outcome, "i")

    @property
    def verdict_label(self) -> str:
        """«Right», «Not right» or «Note»."""
        return _VERDICT_LABELS.get(self.outcome, lambda: _("Note"))()


@dataclass(frozen=True)
class TrickSpot:
    """The open trick: its number (1-based) and who led it."""

    number: int
    leader: int


@dataclass(frozen=True)
class TrickRow:
    """A complete trick for the history: number (1-based), plays, winner, points and
    whether the learner's team took it."""

    number: int
    plays: tuple[tuple[int, str], ...]
    winner: int | None
    card_points: int | None
    points: int | None
    yours: bool


@dataclass(frozen=True)
class HandRow:
    """A hand as dealt, shown once the round is done."""

    seat: int
    label: str
    cards: tuple[str, ...]


@dataclass
class TableView:
    focus: str
    focus_label: str
    preset: str | None
    contract: str
    factor: int
    before: tuple[int, int]
    target: int
    phase: str
    seat: int
    seats: dict[str, SeatView]
    hand: list[str]
    trick: TrickSpot | None  # the open trick
    last_trick: TrickRow | None
    tricks: list[TrickRow]
    trick_number: int
    first_card: bool  # the learner's first card is still to come (announce with it)
    stoeck_box: bool  # the «Stöck!» checkbox beside the card
    stoeck_button: bool  # «Stöck!» on its own
    show_melds: bool  # the shown melds beside their players (until the second trick ends)
    late_announce: bool
    talk: list[dict[str, str]]
    shown_team: int | None
    feedback: list[Decision]
    decisions: list[Decision]
    hands: list[HandRow] | None
    score: Any  # teaching.table.TableScore once done (its blocks and totals are drawn)
    result: TargetResult | None = None  # the round's target, once done
    stoeck_result: StoeckResult | None = None

    @property
    def announce_values(self) -> tuple[int, ...]:
        return ANNOUNCE_VALUES

    @property
    def right_count(self) -> int:
        return sum(1 for d in self.decisions if d.outcome == "right")

    @property
    def wrong_count(self) -> int:
        return sum(1 for d in self.decisions if d.outcome == "wrong")


def focus_label(focus: str) -> str:
    return str(Focus(focus).label) if focus in Focus.values else focus


# ---------------------------------------------------------------------------
# Table talk


_RANK_FROM = {
    ("de", "swiss"): {
        "6": "vom Sechser",
        "7": "vom Siebner",
        "8": "vom Achter",
        "9": "vom Nell",
        "10": "vom Banner",
        "J": "vom Under",
        "Q": "vom Ober",
        "K": "vom König",
        "A": "vom Ass",
    },
    ("de", "french"): {
        "6": "vom Sechser",
        "7": "vom Siebner",
        "8": "vom Achter",
        "9": "vom Nell",
        "10": "vom Zehner",
        "J": "vom Buben",
        "Q": "von der Dame",
        "K": "vom König",
        "A": "vom Ass",
    },
    ("en", "swiss"): {
        "6": "to the six",
        "7": "to the seven",
        "8": "to the eight",
        "9": "to the Nell",
        "10": "to the Banner",
        "J": "to the Under",
        "Q": "to the Ober",
        "K": "to the king",
        "A": "to the ace",
    },
    ("en", "french"): {
        "6": "to the six",
        "7": "to the seven",
        "8": "to the eight",
        "9": "to the Nell",
        "10": "to the ten",
        "J": "to the jack",
        "Q": "to the queen",
        "K": "to the king",
        "A": "to the ace",
    },
    # «Suite de cinq cartes jusqu'à la dame», as the French lesson 14 glosses
    # "Fünfblatt vom Ober".
    ("fr", "swiss"): {
        "6": "jusqu'au six",
        "7": "jusqu'au sept",
        "8": "jusqu'au huit",
        "9": "jusqu'au nell",
        "10": "jusqu'à la bannière",
        "J": "jusqu'à l'under",
        "Q": "jusqu'à l'ober",
        "K": "jusqu'au roi",
        "A": "jusqu'à l'as",
    },
    ("fr", "french"): {
        "6": "jusqu'au six",
        "7": "jusqu'au sept",
        "8": "jusqu'au huit",
        "9": "jusqu'au nell",
        "10": "jusqu'au dix",
        "J": "jusqu'au valet",
        "Q": "jusqu'à la dame",
        "K": "jusqu'au roi",
        "A": "jusqu'à l'as",
    },
}


def _talk_line(line: TalkLine, deck: str) -> str:
    if line.say == "too":
        return _("«%(value)s too»") % {"value": line.value}
    if line.say == "good" or line.meld is None:
        return _("«Good»")
    deck = deck if deck in ("swiss", "french") else "swiss"
    meld = line.meld
    if meld.kind == "four_of_a_kind":
        text = _("four %(rank)s") % {"rank": ex.rank_plural(meld.rank, deck)}
    else:
        text = "%s %s" % (  # noqa: UP031 - two translated parts
            ex.SEQUENCE_NAMES[meld.cards](),
            _RANK_FROM[(_lang(), deck)][meld.rank],
        )
        if meld.trump:
            text = _("%(meld)s in trump") % {"meld": text}
    return f"«{text[:1].upper()}{text[1:]}»"


def _talk(view: LearnerView, deck: str) -> list[dict[str, str]]:
    return [
        {"who": ex.seat_label(line.seat), "text": _talk_line(line, deck)}
        for exchange in view.exchanges
        for line in exchange.lines
    ]


# ---------------------------------------------------------------------------
# Judgements in words


def _play_sentence(key: str, values: dict[str, Any], deck: str) -> str:
    names = {
        "card": ex.card_label(values["card"], deck),
        "led": ex.suit_label(values.get("led"), deck),
        "high": ex.card_label(values["highest_trump"], deck) if values.get("highest_trump") else "",
    }
    sentences = {
        "play.lead": lambda: _("You lead this trick: any card may be led."),
        "play.follows_suit": lambda: _("%(card)s follows the suit led (%(led)s)."),
        "play.must_follow_suit": lambda: _(
            "%(card)s may not be played: you hold %(led)s, so you must follow suit (or play "
            "a trump)."
        ),
        "play.trump_allowed": lambda: _("%(card)s is a trump: trumping is always allowed."),
        "play.over_trump": lambda: _(
            "%(card)s is a trump higher than %(high)s: over-trumping is allowed."
        ),
        "play.under_trump": lambda: _(
            "%(card)s may not be played: it is a trump lower than %(high)s, and you may not "
            "under-trump while you hold other cards."
        ),
        "play.only_trumps": lambda: _(
            "%(card)s is lower than %(high)s, but you hold nothing but trumps: allowed."
        ),
        "play.cannot_follow": lambda: _("You cannot follow %(led)s, so %(card)s may be played."),
        "play.follows_trump": lambda: _("%(card)s follows the trump led."),
        "play.must_play_trump": lambda: _(
            "%(card)s may not be played: trump was led and you hold a trump besides the Puur, "
            "so you must play trump."
        ),
        "play.puur_exception": lambda: _(
            "%(card)s: trump was led, but your only trump is the Puur, which you need not play."
        ),
    }
    sentence = sentences.get(key)
    return sentence() % names if sentence else key


def _meld(meld: Meld | None, deck: str) -> str:
    return ex.meld_label(meld, deck) if meld else ""


def _announce_sentences(j: Judgement, deck: str) -> list[str]:
    v = j.verdict
    if not isinstance(v, AnnounceVerdict) or not isinstance(j.given, AnnounceAnswer):
        return [
            _(
                "Too late: a Weis is announced with your first card, before the next player "
                "plays. This announcement does not count."
            )
        ]
    key, value = j.key, j.given.value
    # the claim (R5.4a): the best meld of the announced value, the first of that value
    claim = next((m for m in v.choice.melds if m.points == value), None)
    values = {
        "value": value,
        "best": v.best,
        "meld": _meld(v.choice.best, deck),
        "claim": _meld(claim, deck),
    }
    sentences = _ANNOUNCE_SENTENCES.get(key)
    if sentences is not None:
        return [text() % values for text in sentences]
    # announce.not_held
    held = [_meld(m, deck) for m in v.choice.melds]
    out = [
        _(
            "You hold no meld worth %(value)s. A false Weis is struck out: your melds take "
            "no part in the comparison."
        )
        % values
    ]
    if held:
        out.append(_("Your hand holds: %(melds)s.") % {"melds": "; ".join(held)})
    else:
        out.append(_("Your hand holds no meld."))
    return out


def _claimed() -> str:
    return _(
        "Your claim is what you announced: %(claim)s takes part in the comparison, not "
        "your %(best)s (R5.4a). Should your team write, it writes all your melds."
    )


_ANNOUNCE_SENTENCES: dict[str, tuple[Callable[[], str], ...]] = {
    "announce.best": (
        lambda: _(
            "You announced %(value)s with your first card: the value of your best meld, %(meld)s."
        ),
    ),
    "announce.none": (lambda: _("You hold no meld, so there was nothing to announce."),),
    "announce.not_best": (
        lambda: _(
            "You announced %(value)s, a meld you hold, but your best is worth %(best)s "
            "(%(meld)s). The rules let each player choose which Weis to announce; "
            "usually it is the best one."
        ),
        _claimed,
    ),
    "announce.not_best_strict": (
        lambda: _(
            "You announced %(value)s, but your best meld is worth %(best)s (%(meld)s). "
            "Under this rule set the strongest meld is announced."
        ),
        _claimed,
    ),
    "announce.none_with_meld": (
        lambda: _(
            "You announced nothing, though you hold %(meld)s. Announcing is up to you, "
            "but a Weis you keep quiet about does not count: it is not compared and not "
            "written, even when your partner's claim wins (R5.4b)."
        ),
    ),
}


def _stoeck_sentences(j: Judgement, contract: str, deck: str) -> list[str]:
    key = j.key
    v = j.verdict
    if key == "stoeck.counts":
        return [_("«Stöck!» with the second of king and Ober of trump, on your own: it counts.")]
    if key == "stoeck.prompted":
        return [
            _(
                "Your partner reminded you first («Denk an die Stöck!»). After a reminder the "
                "Stöck do not count; here that is not held against you, but next time say it "
                "on your own."
            )
        ]
    if key == "stoeck.first_card":
        return [
            _(
                "Too early: «Stöck!» is said with the second of king and Ober of trump, not "
                "with the first. Say it again when you play the second card."
            )
        ]
    if key == "stoeck.too_early":
        return [
            _(
                "Too early: «Stöck!» between your two cards counts for nothing. Say it with "
                "the second card."
            )
        ]
    if key == "stoeck.too_late":
        if isinstance(v, StoeckVerdict) and v.after_trick:
            return [
                _(
                    "Too late: «Stöck!» is said as the second card goes down; waiting until "
                    "the trick is gathered is too late."
                )
            ]
        return [
            _(
                "Too late: «Stöck!» must be said with the second card, before the next card "
                "is played."
            )
        ]
    if key == "stoeck.not_holder":
        return [_("You do not hold both king and Ober of trump, so you have no Stöck to call.")]
    if key == "stoeck.no_trump":
        return [
            _("There is no trump in %(contract)s, so there is no Stöck.")
            % {"contract": ex.contract_label(contract, deck)}
        ]
    if key == "stoeck.forgotten":
        if j.outcome == "info":
            return [
                _(
                    "You did not say «Stöck!» with your second card; after your partner's "
                    "reminder it would not have counted anyway."
                )
            ]
        return [
            _(
                "You played the second of king and Ober of trump without saying «Stöck!». "
                "Once the next card was down, the Stöck was lost."
            )
        ]
    if key == "stoeck.repeated":
        return [
            _(
                "You have said «Stöck!» before; saying it again changes nothing and is not "
                "judged again."
            )
        ]
    return [key]


def _writes_text(answer: WritesAnswer | None) -> str:
    if answer is None or answer.team is None:
        return _("nobody writes Weis")
    return _("%(team)s writes %(points)s") % {
        "team": ex.team_short(answer.team),
        "points": answer.points,
    }


def _claims_text(claims: Sequence[int | None]) -> str:
    """«Player 1 (Vorhand): 20 · Player 2: 50 · Player 3: nothing · ...»: the values
    announced with the first card, which everybody at the table heard."""
    return " · ".join(
        "%s: %s" % (ex.seat_label(seat), _("nothing") if value is None else value)  # noqa: UP031
        for seat, value in enumerate(claims)
    )


def _own_claim_sentences(v: WritesVerdict, me: int) -> list[str]:
    """What the learner's own announcement did in the comparison (R5.4a, R5.4b, R5.7),
    and who would have written with their best meld (the engine's ``if_best``)."""
    status = v.status[me]
    value = v.claims[me]
    out = []
    if status == "smaller":
        out.append(
            _(
                "You announced %(value)s: your claim was the meld of %(value)s, not your best "
                "meld, and only the claim was compared (R5.4a)."
            )
            % {"value": value}
        )
    elif status == "false":
        out.append(
            _(
                "You announced %(value)s, a value you hold no meld of: a false Weis is struck "
                "out (R5.7)."
            )
            % {"value": value}
        )
    elif status == "silent" and v.if_best is not None:
        out.append(
            _("You announced nothing, so none of your melds is compared or written (R5.4b).")
        )
    other = v.if_best
    # the learner's best meld is a claim, so with it some team always writes
    if other is not None and (other.team, other.scored) != (v.weis.team, v.weis.scored):
        out.append(
            _("With %(value)s announced, %(team)s would have written the Weis: %(points)s.")
            % {
                "value": other.value,
                "team": ex.team_short(other.team) if other.team is not None else "",
                "points": other.scored,
            }
        )
    return out


def _writes_sentences(j: Judgement, v: WritesVerdict, me: int) -> list[str]:
    given = j.given if isinstance(j.given, WritesAnswer) else None
    expected = j.expected if isinstance(j.expected, WritesAnswer) else None
    out = []
    if j.outcome == "right":
        out.append(_("Right: %(answer)s.") % {"answer": _writes_text(expected)})
    else:
        out.append(
            _("You said: %(given)s. Right is: %(expected)s.")
            % {"given": _writes_text(given), "expected": _writes_text(expected)}
        )
    out.append(_("Announced with the first card: %(claims)s.") % {"claims": _claims_text(v.claims)})
    out.extend(_own_claim_sentences(v, me))
    weis = v.weis
    if weis.team is None:
        out.append(_("No announced meld counts, so neither team writes Weis."))
        return out
    out.append(
        _(
            "The team with the best claim (R5.4a: the best meld of the value announced) writes "
            "every meld of its players who announced, also the melds they did not announce; "
            "the other team writes none (R5.6)."
        )
    )
    if weis.factor != 1:
        out.append(
            _("%(points)s points × factor %(factor)s = %(scored)s.")
            % {"points": weis.points, "factor": weis.factor, "scored": weis.scored}
        )
    return out


def _unseen_high_card(e: TraceEntry, sides: tuple[str, str]) -> ex.Explained:
    """The high-card step when a card of it is one the learner has not seen."""
    winner = e.get("winner")
    if winner is None:
        text = _("The highest cards are of the same rank, so the next step decides.")
    elif e.get("order") == "reversed":
        text = _("Undenufe reverses the order: the lower card wins, so %(side)s wins.") % {
            "side": sides[winner]
        }
    else:
        text = _("The higher card wins, so %(side)s wins.") % {"side": sides[winner]}
    return ex.Explained(
        rule=e.rule, key=e.key, text=text, decided=e.decided, step_label=ex.step_title(e.key)
    )


def _ladder(trace: Sequence[TraceEntry], deck: str) -> list[ex.Explained]:
    """The Weis comparison's ladder steps in words (R5.5). A card the learner has not
    seen (the losing team's meld is never shown) is not named: the step says which
    side's card is higher without it."""
    sides = (ex.team_label(0), ex.team_label(1))
    steps = []
    for e in trace:
        if not e.key.startswith("ladder."):
            continue
        if e.key == "ladder.high_card" and None in (e.get("a_card"), e.get("b_card")):
            steps.append(_unseen_high_card(e, sides))
        else:
            steps.extend(ex.explain_ladder([e], deck, *sides))
    return steps


def _tricks_formula(v: TricksBlockVerdict) -> str:
    tricks = v.tricks
    if not tricks:
        return _("no tricks: 0")
    parts = [_("%(n)s card points") % {"n": sum(t.card_points for t in tricks)}]
    last = sum(t.last_trick_bonus for t in tricks)
    match = sum(t.match_bonus for t in tricks)
    if last:
        parts.append(_("%(n)s for the last trick") % {"n": last})
    if match:
        parts.append(_("%(n)s for the match") % {"n": match})
    text = " + ".join(parts)
    if v.factor != 1:
        text = f"({text}) × {v.factor}"
    numbers = ", ".join(str(t.index + 1) for t in tricks)
    return _("tricks %(numbers)s: %(formula)s = %(written)s") % {
        "numbers": numbers,
        "formula": text,
        "written": v.written,
    }


def _weis_block(v: WeisBlockVerdict, team: int) -> str:
    if v.team is None:
        return _("Nobody writes Weis.")
    if v.team != team:
        return _("The other team writes the Weis.")
    return _(
        "Every meld of the team's players who announced: %(points)s × %(factor)s = %(scored)s."
    ) % {"points": v.points, "factor": v.factor, "scored": v.scored}


def _stoeck_block(v: StoeckBlockVerdict, team: int) -> str:
    result = v.stoeck
    text = ex.stoeck_sentence(result)
    if result.status == "scored" and result.team != team:
        text += " " + _("So this team writes no Stöck.")
    return text


def _block_explanation(j: Judgement) -> str:
    v, given = j.verdict, j.given
    team = given.team if isinstance(given, BlockAnswer) else -1
    if isinstance(v, WeisBlockVerdict):
        return _weis_block(v, team)
    if isinstance(v, StoeckBlockVerdict):
        return _stoeck_block(v, team)
    return _tricks_formula(v) if isinstance(v, TricksBlockVerdict) else ""


def _target_text(answer: TargetAnswer | None) -> str:
    if answer is None or answer.team is None:
        return _("nobody reaches the target in this round")
    values = {
        "team": ex.team_short(answer.team),
        "block": ex.block_label(answer.block),
        "trick": None if answer.trick is None else answer.trick + 1,
    }
    if answer.block == "tricks":
        return _("%(team)s, with trick %(trick)s") % values
    return _("%(team)s, in the %(block)s block") % values


def _stoeck_given(given: StoeckAnswer) -> str:
    if not given.stoeck:
        return _("no «Stöck!»")
    if given.with_card:
        return _("«Stöck!» with the card")
    return _("«Stöck!» on its own")


def _given_text(j: Judgement, deck: str) -> str:
    given = j.given
    if isinstance(given, CardGiven):
        return ex.card_label(given.card, deck) if given.card else "?"
    if isinstance(given, AnnounceAnswer):
        return _("Weis %(value)s") % {"value": given.value} if given.value else _("no Weis")
    if isinstance(given, StoeckAnswer):
        return _stoeck_given(given)
    if isinstance(given, WritesAnswer):
        return _writes_text(given)
    if isinstance(given, BlockAnswer):
        return "%s, %s: %s" % (  # noqa: UP031
            ex.team_short(given.team),
            ex.block_label(given.block),
            given.points,
        )
    return _target_text(given)


TITLES: dict[str, Callable[[], str]] = {
    "play": lambda: _("Your card"),
    "announce": lambda: _("Your Weis announcement"),
    "stoeck": lambda: "Stöck",
    "writes": lambda: _("Who writes Weis"),
    "jasstafel_block": lambda: _("Jasstafel"),
    "target": lambda: _("The target"),
}


def _play_decision(d: Decision, j: Judgement, v: PlayVerdict, deck: str) -> None:
    d.card = v.card
    values = next((e.values for e in v.legal.verdicts if e.get("card") == d.card), {"card": d.card})
    d.sentences.append(_play_sentence(j.key, values, deck))
    if j.outcome == "wrong":
        d.sentences.append(_("The card stays in your hand: choose another one."))


def _stoeck_decision(d: Decision, j: Judgement, contract: str, deck: str) -> None:
    d.sentences = _stoeck_sentences(j, contract, deck)
    v = j.verdict
    if isinstance(v, StoeckVerdict) and v.result.status != "none":
        d.stoeck = v.result


def _block_decision(d: Decision, j: Judgement) -> None:
    d.sentences = [_block_explanation(j)]
    given, expected = j.given, j.expected
    if isinstance(given, BlockAnswer) and isinstance(expected, BlockAnswer):
        d.row = BlockRow(
            team=ex.team_short(given.team),
            block=ex.block_label(given.block).capitalize(),
            given=given.points,
            expected=expected.points,
        )


def _target_decision(d: Decision, j: Judgement, v: TargetVerdict) -> None:
    d.target = v.target
    if j.outcome == "wrong":
        given = j.given if isinstance(j.given, TargetAnswer) else None
        expected = j.expected if isinstance(j.expected, TargetAnswer) else None
        d.sentences.append(
            _("You said: %(given)s. Right is: %(expected)s.")
            % {"given": _target_text(given), "expected": _target_text(expected)}
        )
    d.sentences.append(ex.target_sentence(v.target))


def decision(j: Judgement, number: int, contract: str, deck: str, me: int) -> Decision:
    d = Decision(
        move=j.move,
        number=number,
        kind=j.kind,
        outcome=j.outcome,
        rule=j.rule,
        skill=j.skill,
        key=j.key,
        title=TITLES[j.kind](),
        given=_given_text(j, deck),
        sentences=[],
    )
    v = j.verdict
    if isinstance(v, PlayVerdict):
        _play_decision(d, j, v, deck)
    elif j.kind == "announce":
        d.sentences = _announce_sentences(j, deck)
    elif j.kind == "stoeck":
        _stoeck_decision(d, j, contract, deck)
    elif isinstance(v, WritesVerdict):
        d.sentences = _writes_sentences(j, v, me)
        d.ladder = _ladder(v.trace, deck)
    elif j.kind == "jasstafel_block":
        _block_decision(d, j)
    elif isinstance(v, TargetVerdict):
        _target_decision(d, j, v)
    return d


def _group_jasstafel(decisions: list[Decision]) -> list[Decision]:
    """The six block judgements of a Jasstafel as one decision with six rows."""
    out: list[Decision] = []
    for d in decisions:
        if d.kind != "jasstafel_block":
            out.append(d)
            continue
        if not out or out[-1].kind != "jasstafel" or out[-1].move != d.move:
            out.append(
                Decision(
                    move=d.move,
                    number=d.number,
                    kind="jasstafel",
                    outcome="right",
                    rule=d.rule,
                    skill=d.skill,
                    key="jasstafel",
                    title=d.title,
                    given="",
                    sentences=[],
                    lesson_url=d.lesson_url,
                )
            )
        group = out[-1]
        group.rows.append(d)
        if d.outcome == "wrong":
            group.outcome = "wrong"
    return out


# ---------------------------------------------------------------------------
# Refusals (teaching.table's TableError codes, worded in the page's language)


_MOVE_PARTS = {
    "play": lambda: _("a card"),
    "announce": lambda: _("a Weis announcement"),
    "stoeck": lambda: _("«Stöck!»"),
    "writes": lambda: _("who writes Weis"),
    "jasstafel": lambda: _("the Jasstafel"),
}
_WANTED = {"card": "play", "stoeck": "stoeck", "announce": "announce", "writes": "writes",
           "jasstafel": "jasstafel"}  # fmt: skip
_WAITING = {
    "play": lambda: _("your card"),
    "writes": lambda: _("who writes Weis"),
    "jasstafel": lambda: _("the Jasstafel"),
    "done": lambda: _("nothing: the round is over"),
}


def _parts(keys: Any) -> str:
    return ", ".join(str(_MOVE_PARTS[k]()) if k in _MOVE_PARTS else str(k) for k in (keys or []))


REFUSAL_TEXTS = {
    "move.not_object": lambda p, d: _("The move is not in a form the table can read."),
    "move.empty": lambda p, d: _("The move is empty: choose a card or another action."),
    "move.unknown_keys": lambda p, d: (
        _("The move holds something the table does not know.")
        if not p.get("keys")
        else _("The move holds something the table does not know: %(keys)s.")
        % {"keys": ", ".join(map(str, p["keys"]))}
    ),
    "move.combination": lambda p, d: (
        _("These do not go together in one move: %(parts)s.") % {"parts": _parts(p.get("keys"))}
    ),
    "move.card": lambda p, d: _("That is not a card: choose one from your hand."),
    "move.announce_value": lambda p, d: (
        _("A Weis is announced by its value: %(values)s (or no Weis, with your first card).")
        % {"values": ", ".join(map(str, p.get("values") or ANNOUNCE_VALUES))}
    ),
    "move.stoeck_value": lambda p, d: _(
        "«Stöck!» is either said or not; there is no other choice."
    ),
    "move.writes": lambda p, d: _(
        "Who writes Weis needs a team (or nobody) and a whole number of points."
    ),
    "move.jasstafel": lambda p, d: _(
        "The Jasstafel needs a whole number in every block, and for the target a team with "
        "its block (and its trick for the tricks block), or nobody."
    ),
    "move.not_now": lambda p, d: (
        _("This is not the moment for %(wanted)s: the table waits for %(waiting)s.")
        % {
            "wanted": _MOVE_PARTS[_WANTED.get(p.get("wanted"), "play")](),
            "waiting": _WAITING.get(p.get("waiting"), _WAITING["play"])(),
        }
    ),
    "move.round_over": lambda p, d: _("The round is over: it takes no more moves."),
    "move.not_in_hand": lambda p, d: (
        _("%(card)s is not in your hand.")
        % {"card": ex.card_label(p["card"], d) if p.get("card") else "?"}
    ),
    "move.stoeck_first": lambda p, d: _(
        "No card is on the table yet: say «Stöck!» together with a card."
    ),
    "move.announce_first": lambda p, d: _("Announce your Weis together with your first card."),
    "move.engine": lambda p, d: _("The rules engine could not accept this move."),
    "log.not_list": lambda p, d: _("The stored moves of this round cannot be read."),
    "scenario.invalid": lambda p, d: _("The stored cards of this round cannot be read."),
    "scenario.needed": lambda p, d: _("No cards are dealt in this round."),
    "round.not_over": lambda p, d: _("The round is not over yet."),
    "round.over": lambda p, d: _("The round is over: it takes no more moves."),
    "build.focus": lambda p, d: _("Choose one of the focuses shown."),
    "build.seed": lambda p, d: _("The number that deals the cards must be a whole number."),
    "build.no_deal": lambda p, d: _("No deal could be found for this focus; please try again."),
}
"""One sentence per ``teaching.table.REFUSALS`` code: ``(params, deck) -> text``."""


def refusal_text(code: str, params: dict[str, Any], deck: str) -> str:
    """A refusal of the referee in the page's language (cards named in the deck)."""
    text = REFUSAL_TEXTS.get(code)
    return str(text(params, deck)) if text else _("The table cannot take this move.")


# ---------------------------------------------------------------------------
# The whole page, region by region


def _seats(view: LearnerView, deck: str) -> dict[str, SeatView]:
    """The four players around the table, the learner at the bottom."""
    me = view.seat
    played_by = [sum(1 for s, _c in view.plays if s == seat) for seat in range(4)]
    won = [sum(1 for t in view.tricks if t.winner == seat) for seat in range(4)]
    hand_size = len(view.dealt)  # every hand is dealt as many cards as the learner's
    seats: dict[str, SeatView] = {}
    for offset, place in enumerate(PLACES):
        seat = (me + offset) % 4
        seats[place] = SeatView(
            seat=seat,
            place=place,
            label=ex.seat_label(seat),
            team=seat % 2,
            you=seat == me,
            partner=offset == 2,
            cards_left=hand_size - played_by[seat],
            tricks_won=won[seat],
        )
    _say(view, {s.seat: s for s in seats.values()}, deck)
    return seats


def _say(view: LearnerView, by_seat: dict[int, SeatView], deck: str) -> None:
    """What each player said and showed: announcements, calls, the reminder, melds."""
    for a in view.announcements:
        by_seat[a.seat].announcement = {"value": a.value, "late": a.late}
    for c in view.calls:
        by_seat[c.seat].calls.append("«Stöck!»")
    if view.reminder is not None:
        by_seat[view.reminder.seat].reminder = True
    if view.shown is not None:
        for seat, melds in enumerate(view.shown.melds):
            by_seat[seat].shown = [ex.meld_label(m, deck) for m in melds]
            by_seat[seat].shown_cards = list(dict.fromkeys(c.code for m in melds for c in m.cards))


def _trick_row(t: Trick, me: int) -> TrickRow:
    return TrickRow(
        number=t.index + 1,
        plays=tuple(zip(t.seats, t.cards, strict=True)),
        winner=t.winner,
        card_points=t.card_points,
        points=t.points,
        yours=t.winner is not None and t.winner % 2 == me % 2,
    )


@dataclass(frozen=True)
class _Tricks:
    spot: TrickSpot | None
    last: TrickRow | None
    history: list[TrickRow]
    number: int  # the trick being played, 1-based


def _tricks(view: LearnerView, seats: dict[str, SeatView]) -> _Tricks:
    """The open trick (its cards before their players), the last and every complete
    trick, and the number of the trick being played."""
    open_trick = next((t for t in view.tricks if t.winner is None), None)
    complete = [t for t in view.tricks if t.winner is not None]
    spot = None
    if open_trick is not None:
        cards = dict(zip(open_trick.seats, open_trick.cards, strict=True))
        for s in seats.values():
            s.card = cards.get(s.seat)
            s.lead = s.seat == open_trick.leader
        spot = TrickSpot(number=open_trick.index + 1, leader=open_trick.leader)
    history = [_trick_row(t, view.seat) for t in complete]
    last_number = len(view.dealt)  # a round has as many tricks as a hand has cards
    number = spot.number if spot is not None else min(len(complete) + 1, last_number)
    return _Tricks(spot=spot, last=history[-1] if history else None, history=history, number=number)


def _decisions(
    view: LearnerView, deck: str, last_move: int | None, every: bool
) -> tuple[list[Decision], list[Decision]]:
    """Every decision so far (worded only when ``every``: the summary shows them, a
    move's page only its feedback), and the feedback on move ``last_move``; a
    Jasstafel's six blocks grouped into one."""
    wanted = [
        (i, j)
        for i, j in enumerate(view.judgements)
        if every or (last_move is not None and j.move == last_move)
    ]
    decisions = [decision(j, i + 1, view.contract, deck, view.seat) for i, j in wanted]
    links = dict(lessons_for(sorted({d.rule for d in decisions})))
    for d in decisions:
        d.lesson_url = links.get(d.rule, "")
    feedback = [d for d in decisions if last_move is not None and d.move == last_move]
    return _group_jasstafel(decisions) if every else [], _group_jasstafel(feedback)


@dataclass(frozen=True)
class _Actions:
    first_card: bool
    stoeck_box: bool
    stoeck_button: bool
    late_announce: bool


def _actions(view: LearnerView, just_called: bool) -> _Actions:
    """What the learner may do now. «Stöck!» is offered in every trump contract to
    every learner, holder or not (R6.4: the offer must not remind anybody)."""
    phase, me = view.phase, view.seat
    learner_played = any(s == me for s, _c in view.plays)
    own_announced = any(a.seat == me and a.value for a in view.announcements)
    in_round = phase in ("play", "writes", "jasstafel")
    return _Actions(
        first_card=phase == "play" and not learner_played,
        stoeck_box=view.trump and phase == "play",
        stoeck_button=view.trump and in_round and bool(view.plays) and not just_called,
        late_announce=phase == "writes" and not own_announced,
    )


def present(
    view: LearnerView,
    *,
    deck: str,
    last_move: int | None = None,
    just_called: bool = False,
    every_decision: bool | None = None,
) -> TableView:
    """The page for the learner's view of a table (``learner_view(table)``);
    ``feedback`` holds the judgements of move ``last_move`` (the latest, 0-based).

    «Stöck!» is offered in every trump contract to every learner, holder or not,
    with every card and on its own (R6.4: the holder calls on their own, so the offer
    must not remind anybody); on its own once a card is on the table, and not again
    right after a call on its own (``just_called``: nothing has happened since).

    ``decisions`` (every decision so far, worded) is filled when ``every_decision``,
    by default once the round is done: a page in the middle of the play shows only the
    last move's feedback."""
    seats = _seats(view, deck)
    tricks = _tricks(view, seats)
    every = view.phase == "done" if every_decision is None else every_decision
    decisions, feedback = _decisions(view, deck, last_move, every)
    actions = _actions(view, just_called)
    score = view.score
    hands = None
    if view.hands is not None:
        hands = [HandRow(seat=s, label=ex.seat_label(s), cards=h) for s, h in enumerate(view.hands)]
    return TableView(
        focus=view.focus,
        focus_label=focus_label(view.focus),
        preset=view.preset,
        contract=view.contract,
        factor=view.factor,
        before=view.before,
        target=view.target,
        phase=view.phase,
        seat=view.seat,
        seats=seats,
        hand=list(view.hand),
        trick=tricks.spot,
        last_trick=tricks.last,
        tricks=tricks.history,
        trick_number=tricks.number,
        first_card=actions.first_card,
        stoeck_box=actions.stoeck_box,
        stoeck_button=actions.stoeck_button,
        late_announce=actions.late_announce,
        show_melds=view.phase in ("writes", "jasstafel") or tricks.number <= 2,
        talk=_talk(view, deck),
        shown_team=None if view.shown is None else view.shown.team,
        feedback=feedback,
        decisions=decisions,
        hands=hands,
        score=score,
        result=None if score is None else score.target,
        stoeck_result=None if score is None or score.stoeck.status == "none" else score.stoeck,
    )
