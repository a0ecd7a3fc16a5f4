"""What the table page shows, built from :func:`teaching.table.learner_view` only.

:func:`present` turns the learner's view (never the whole table: hidden hands and
judgements still to come are not in it) into objects the template draws: the four
players around the table with the learner at the bottom, the trick on the table,
the learner's hand and the actions the phase allows, and every judgement as a
:class:`Decision` with its sentences, its rule and the data of the shared rule
partials (Stöck verdict, ladder, target table).

People count from 1 here: seats, teams and tricks are shown +1 (the view, like the
rest of the Python API, is 0-based), through :mod:`tutor.core.explain`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from rules_core import Contract, StoeckReason, TraceEntry
from teaching.table import ANNOUNCE_VALUES
from tutor.core import explain as ex
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
    stoeck: Any = None  # namespace for components/rules.html#stoeck-verdict
    ladder: list[ex.Explained] = field(default_factory=list)  # worded ladder steps
    target: Any = None  # namespace for components/rules.html#target-table
    rows: list[Decision] = field(default_factory=list)  # a Jasstafel's six blocks
    lesson_url: str = ""  # the lesson section that teaches ``rule``
    row: dict[str, Any] | None = None  # a Jasstafel block: team, block, given, expected

    @property
    def right(self) -> bool:
        return self.outcome == "right"

    @property
    def wrong(self) -> bool:
        return self.outcome == "wrong"


@dataclass
class TableView:
    focus: str
    focus_label: str
    preset: str | None
    contract: str
    factor: int
    before: list[int]
    target: int
    phase: str
    seat: int
    seats: dict[str, SeatView]
    hand: list[str]
    trick: dict[str, Any] | None  # the open trick, by place
    last_trick: dict[str, Any] | None
    tricks: list[dict[str, Any]]
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
    hands: list[dict[str, Any]] | None
    score: dict[str, Any] | None
    jasstafel: dict[str, Any] | None
    result: Any = None  # the round's TargetResult as a namespace, once done
    stoeck_result: Any = None

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
}


def _talk_line(line: dict[str, Any], deck: str) -> str:
    say = line["say"]
    if say == "too":
        return _("«%(value)s too»") % {"value": line["value"]}
    if say == "good":
        return _("«Good»")
    deck = deck if deck in ("swiss", "french") else "swiss"
    if line["kind"] == "four_of_a_kind":
        text = _("four %(rank)s") % {"rank": ex.rank_plural(line["rank"], deck)}
    else:
        text = "%s %s" % (  # noqa: UP031 - two translated parts
            ex.SEQUENCE_NAMES[line["cards"]](),
            _RANK_FROM[(_lang(), deck)][line["rank"]],
        )
        if line.get("trump"):
            text = _("%(meld)s in trump") % {"meld": text}
    return f"«{text[:1].upper()}{text[1:]}»"


def _talk(view: dict[str, Any], deck: str) -> list[dict[str, str]]:
    lines = []
    for exchange in view["exchanges"]:
        for line in exchange["lines"]:
            lines.append({"who": ex.seat_label(line["seat"]), "text": _talk_line(line, deck)})
    return lines


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


def _meld(data: dict[str, Any] | None, deck: str) -> str:
    return ex.meld_label(data, deck) if data else ""


def _announce_sentences(j: dict[str, Any], deck: str) -> list[str]:
    v = j["verdict"]
    key = j["key"]
    value = j["given"]["announce"]
    if key == "announce.late":
        return [
            _(
                "Too late: a Weis is announced with your first card, before the next player "
                "plays. This announcement does not count."
            )
        ]
    best = v["best"]
    choice = v.get("choice") or {}
    meld = _meld(choice.get("best"), deck)
    # the claim (R5.4a): the best meld of the announced value, the first of that value
    claim = next((m for m in choice.get("melds", []) if m["points"] == value), None)
    values = {"value": value, "best": best, "meld": meld, "claim": _meld(claim, deck)}
    if key == "announce.best":
        return [
            _(
                "You announced %(value)s with your first card: the value of your best meld, "
                "%(meld)s."
            )
            % values
        ]
    if key == "announce.none":
        return [_("You hold no meld, so there was nothing to announce.")]
    claimed = _(
        "Your claim is what you announced: %(claim)s takes part in the comparison, not "
        "your %(best)s (R5.4a). Should your team write, it writes all your melds."
    )
    if key == "announce.not_best":
        return [
            _(
                "You announced %(value)s, a meld you hold, but your best is worth %(best)s "
                "(%(meld)s). The rules let each player choose which Weis to announce; "
                "usually it is the best one."
            )
            % values,
            claimed % values,
        ]
    if key == "announce.not_best_strict":
        return [
            _(
                "You announced %(value)s, but your best meld is worth %(best)s (%(meld)s). "
                "Under this rule set the strongest meld is announced."
            )
            % values,
            claimed % values,
        ]
    if key == "announce.none_with_meld":
        return [
            _(
                "You announced nothing, though you hold %(meld)s. Announcing is up to you, "
                "but a Weis you keep quiet about does not count: it is not compared and not "
                "written, even when your partner's claim wins (R5.4b)."
            )
            % values
        ]
    # announce.not_held
    held = [_meld(m, deck) for m in choice.get("melds", [])]
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


def _stoeck_ns(data: dict[str, Any] | None) -> Any:
    """A StoeckResult's to_dict() as the object the rule partials read."""
    if not data or "reason" not in data:
        return None
    reason = StoeckReason(data["reason"])
    return SimpleNamespace(
        status=data["status"],
        reason=reason,
        team=data["team"],
        seat=data["seat"],
        points=data["points"],
    )


def _stoeck_sentences(j: dict[str, Any], contract: str, deck: str) -> list[str]:
    key = j["key"]
    v = j["verdict"]
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
        if v.get("after_trick"):
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
        if j["outcome"] == "info":
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


def _writes_text(data: dict[str, Any] | None) -> str:
    if not data or data.get("team") is None:
        return _("nobody writes Weis")
    return _("%(team)s writes %(points)s") % {
        "team": ex.team_short(data["team"] - 1),
        "points": data["points"],
    }


def _claims_text(claims: list[int | None]) -> str:
    """«Player 1 (Vorhand): 20 · Player 2: 50 · Player 3: nothing · ...»: the values
    announced with the first card, which everybody at the table heard."""
    return " · ".join(
        "%s: %s" % (ex.seat_label(seat), _("nothing") if value is None else value)  # noqa: UP031
        for seat, value in enumerate(claims)
    )


def _own_claim_sentences(v: dict[str, Any], me: int) -> list[str]:
    """What the learner's own announcement did in the comparison (R5.4a, R5.4b, R5.7),
    and who would have written with their best meld (the engine's ``if_best``)."""
    status = v["status"][me]
    value = v["claims"][me]
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
    elif status == "silent" and v["if_best"] is not None:
        out.append(
            _("You announced nothing, so none of your melds is compared or written (R5.4b).")
        )
    other = v["if_best"]
    weis = v["weis"]
    # the learner's best meld is a claim, so with it some team always writes
    if other is not None and (other["team"], other["scored"]) != (weis["team"], weis["scored"]):
        out.append(
            _("With %(value)s announced, %(team)s would have written the Weis: %(points)s.")
            % {
                "value": other["value"],
                "team": ex.team_short(other["team"]),
                "points": other["scored"],
            }
        )
    return out


def _writes_sentences(j: dict[str, Any], me: int) -> list[str]:
    v = j["verdict"]
    weis = v["weis"]
    out = []
    if j["outcome"] == "right":
        out.append(_("Right: %(answer)s.") % {"answer": _writes_text(j["expected"])})
    else:
        out.append(
            _("You said: %(given)s. Right is: %(expected)s.")
            % {"given": _writes_text(j["given"]), "expected": _writes_text(j["expected"])}
        )
    out.append(
        _("Announced with the first card: %(claims)s.") % {"claims": _claims_text(v["claims"])}
    )
    out.extend(_own_claim_sentences(v, me))
    if weis["team"] is None:
        out.append(_("No announced meld counts, so neither team writes Weis."))
        return out
    out.append(
        _(
            "The team with the best claim (R5.4a: the best meld of the value announced) writes "
            "every meld of its players who announced, also the melds they did not announce; "
            "the other team writes none (R5.6)."
        )
    )
    if weis["factor"] != 1:
        out.append(
            _("%(points)s points × factor %(factor)s = %(scored)s.")
            % {"points": weis["points"], "factor": weis["factor"], "scored": weis["scored"]}
        )
    return out


def _ladder(trace: list[dict[str, Any]], deck: str) -> list[ex.Explained]:
    """The Weis comparison's ladder steps in words (R5.5). A card the learner has not
    seen (the losing team's meld is never shown) is not named: the step says which
    side's card is higher without it."""
    sides = (ex.team_label(0), ex.team_label(1))
    steps = []
    for e in trace:
        if not e["key"].startswith("ladder."):
            continue
        entry = TraceEntry(e["rule"], e["key"], e["values"], e["decided"])
        values = e["values"]
        if e["key"] == "ladder.high_card" and None in (values.get("a_card"), values.get("b_card")):
            winner = values.get("winner")
            if winner is None:
                text = _("The highest cards are of the same rank, so the next step decides.")
            elif values.get("order") == "reversed":
                text = _("Undenufe reverses the order: the lower card wins, so %(side)s wins.") % {
                    "side": sides[winner]
                }
            else:
                text = _("The higher card wins, so %(side)s wins.") % {"side": sides[winner]}
            steps.append(
                ex.Explained(
                    rule=entry.rule,
                    key=entry.key,
                    text=text,
                    decided=entry.decided,
                    step_label=ex.step_title(entry.key),
                )
            )
        else:
            steps.extend(ex.explain_ladder([entry], deck, *sides))
    return steps


def _tricks_formula(v: dict[str, Any]) -> str:
    tricks = v["tricks"]
    if not tricks:
        return _("no tricks: 0")
    cards = sum(t["card_points"] for t in tricks)
    parts = [_("%(n)s card points") % {"n": cards}]
    last = sum(t["last_trick_bonus"] for t in tricks)
    match = sum(t["match_bonus"] for t in tricks)
    if last:
        parts.append(_("%(n)s for the last trick") % {"n": last})
    if match:
        parts.append(_("%(n)s for the match") % {"n": match})
    text = " + ".join(parts)
    if v["factor"] != 1:
        text = f"({text}) × {v['factor']}"
    numbers = ", ".join(str(t["index"] + 1) for t in tricks)
    return _("tricks %(numbers)s: %(formula)s = %(written)s") % {
        "numbers": numbers,
        "formula": text,
        "written": v["written"],
    }


def _block_explanation(j: dict[str, Any]) -> str:
    v = j["verdict"]
    block = j["given"]["block"]
    if block == "weis":
        weis = v["weis"]
        if weis["team"] is None:
            return _("Nobody writes Weis.")
        if weis["team"] != j["given"]["team"] - 1:
            return _("The other team writes the Weis.")
        return (
            _(
                "Every meld of the team's players who announced: %(points)s × %(factor)s = "
                "%(scored)s."
            )
            % weis
        )
    if block == "stoeck":
        ns = _stoeck_ns(v.get("stoeck"))
        if ns is None:
            return ""
        text = ex.stoeck_sentence(ns)
        if ns.status == "scored" and ns.team != j["given"]["team"] - 1:
            text += " " + _("So this team writes no Stöck.")
        return text
    return _tricks_formula(v)


def _target_ns(data: dict[str, Any]) -> Any:
    return SimpleNamespace(
        team=data["team"],
        block=data["block"],
        trick=data["trick"],
        totals=tuple(data["totals"]),
        target=data["target"],
        trace=data["trace"],
    )


def _target_text(data: dict[str, Any] | None) -> str:
    if not data or data.get("team") is None:
        return _("nobody reaches the target in this round")
    values = {
        "team": ex.team_short(data["team"] - 1),
        "block": ex.block_label(data["block"]),
        "trick": data["trick"],
    }
    if data["block"] == "tricks":
        return _("%(team)s, with trick %(trick)s") % values
    return _("%(team)s, in the %(block)s block") % values


def _given_text(j: dict[str, Any], deck: str) -> str:
    kind, given = j["kind"], j["given"]
    if kind == "play":
        return ex.card_label(given["play"], deck) if given.get("play") else "?"
    if kind == "announce":
        value = given["announce"]
        return _("Weis %(value)s") % {"value": value} if value else _("no Weis")
    if kind == "stoeck":
        if not given.get("stoeck"):
            return _("no «Stöck!»")
        if given.get("with_card"):
            return _("«Stöck!» with the card")
        return _("«Stöck!» on its own")
    if kind == "writes":
        return _writes_text(given)
    if kind == "jasstafel_block":
        return "%s, %s: %s" % (  # noqa: UP031
            ex.team_short(given["team"] - 1),
            ex.block_label(given["block"]),
            given["points"],
        )
    return _target_text(given)


TITLES = {
    "play": lambda: _("Your card"),
    "announce": lambda: _("Your Weis announcement"),
    "stoeck": lambda: "Stöck",
    "writes": lambda: _("Who writes Weis"),
    "jasstafel_block": lambda: _("Jasstafel"),
    "target": lambda: _("The target"),
}


def decision(j: dict[str, Any], number: int, contract: str, deck: str, me: int) -> Decision:
    kind = j["kind"]
    d = Decision(
        move=j["move"],
        number=number,
        kind=kind,
        outcome=j["outcome"],
        rule=j["rule"],
        skill=j["skill"],
        key=j["key"],
        title=TITLES[kind](),
        given=_given_text(j, deck),
        sentences=[],
    )
    if kind == "play":
        d.card = j["given"]["play"]
        values = next(
            (e["values"] for e in j["verdict"]["trace"] if e["values"].get("card") == d.card),
            {"card": d.card},
        )
        d.sentences.append(_play_sentence(j["key"], values, deck))
        if j["outcome"] == "wrong":
            d.sentences.append(_("The card stays in your hand: choose another one."))
    elif kind == "announce":
        d.sentences = _announce_sentences(j, deck)
    elif kind == "stoeck":
        d.sentences = _stoeck_sentences(j, contract, deck)
        d.stoeck = _stoeck_ns(j["verdict"].get("result"))
        if d.stoeck is not None and d.stoeck.status == "none":
            d.stoeck = None
    elif kind == "writes":
        d.sentences = _writes_sentences(j, me)
        d.ladder = _ladder(j["verdict"]["trace"], deck)
    elif kind == "jasstafel_block":
        d.sentences = [_block_explanation(j)]
        d.row = {
            "team": ex.team_short(j["given"]["team"] - 1),
            "block": ex.block_label(j["given"]["block"]).capitalize(),
            "given": j["given"]["points"],
            "expected": j["expected"]["points"],
        }
    else:  # target
        result = _target_ns(j["verdict"]["target"])
        d.target = result
        if j["outcome"] == "wrong":
            d.sentences.append(
                _("You said: %(given)s. Right is: %(expected)s.")
                % {"given": _target_text(j["given"]), "expected": _target_text(j["expected"])}
            )
        d.sentences.append(ex.target_sentence(result))
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
# The whole page


def present(
    view: dict[str, Any],
    *,
    deck: str,
    last_move: int | None = None,
    just_called: bool = False,
) -> TableView:
    """The page for the learner's view of a table (``learner_view(table)``);
    ``feedback`` holds the judgements of move ``last_move`` (the latest, 0-based).

    «Stöck!» is offered in every trump contract to every learner, holder or not,
    with every card and on its own (R6.4: the holder calls on their own, so the offer
    must not remind anybody); on its own once a card is on the table, and not again
    right after a call on its own (``just_called``: nothing has happened since)."""
    me = view["seat"]
    contract = view["contract"]
    plays = [
        (seat, card)
        for t in view["tricks"]
        for seat, card in zip(t["seats"], t["cards"], strict=True)
    ]
    played_by = [sum(1 for s, _c in plays if s == seat) for seat in range(4)]
    won = [sum(1 for t in view["tricks"] if t["winner"] == seat) for seat in range(4)]

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
            cards_left=9 - played_by[seat],
            tricks_won=won[seat],
        )
    by_seat = {s.seat: s for s in seats.values()}
    for a in view["announcements"]:
        by_seat[a["seat"]].announcement = {"value": a["value"], "late": a["late"]}
    for c in view["calls"]:
        by_seat[c["seat"]].calls.append("«Stöck!»")
    if view["reminder"]:
        by_seat[view["reminder"]["seat"]].reminder = True
    shown = view["shown"]
    if shown:
        for seat, melds in enumerate(shown["melds"]):
            by_seat[seat].shown = [ex.meld_label(m, deck) for m in melds]
            by_seat[seat].shown_cards = list(dict.fromkeys(c for m in melds for c in m["cards"]))

    tricks = view["tricks"]
    open_trick = tricks[-1] if tricks and tricks[-1]["winner"] is None else None
    complete = [t for t in tricks if t["winner"] is not None]
    trick_view = None
    if open_trick is not None:
        cards = dict(zip(open_trick["seats"], open_trick["cards"], strict=True))
        for s in seats.values():
            s.card = cards.get(s.seat)
            s.lead = s.seat == open_trick["leader"]
        trick_view = {"number": open_trick["index"] + 1, "leader": open_trick["leader"]}

    def trick_row(t: dict[str, Any]) -> dict[str, Any]:
        return {
            "number": t["index"] + 1,
            "plays": list(zip(t["seats"], t["cards"], strict=True)),
            "winner": t["winner"],
            "card_points": t["card_points"],
            "points": t["points"],
            "yours": t["winner"] is not None and t["winner"] % 2 == me % 2,
        }

    last_trick = trick_row(complete[-1]) if complete else None
    history = [trick_row(t) for t in complete]
    number = open_trick["index"] + 1 if open_trick is not None else min(len(complete) + 1, 9)

    trump = Contract.parse(contract).trump is not None
    hand = list(view["hand"])
    phase = view["phase"]
    learner_played = any(s == me for s, _c in plays)
    judgements = view["judgements"]

    decisions = [decision(j, i + 1, contract, deck, me) for i, j in enumerate(judgements)]
    links = dict(lessons_for(sorted({d.rule for d in decisions})))
    for d in decisions:
        d.lesson_url = links.get(d.rule, "")
    feedback = [d for d in decisions if last_move is not None and d.move == last_move]
    decisions = _group_jasstafel(decisions)
    feedback = _group_jasstafel(feedback)

    own_announced = any(a["seat"] == me and a["value"] for a in view["announcements"])
    hands = None
    if view["hands"] is not None:
        hands = [
            {"seat": s, "label": ex.seat_label(s), "cards": view["hands"][s]} for s in range(4)
        ]
    score = view["score"]
    tv = TableView(
        focus=view["focus"],
        focus_label=focus_label(view["focus"]),
        preset=view["preset"],
        contract=contract,
        factor=view["factor"],
        before=view["before"],
        target=view["target"],
        phase=phase,
        seat=me,
        seats=seats,
        hand=hand,
        trick=trick_view,
        last_trick=last_trick,
        tricks=history,
        trick_number=number,
        first_card=phase == "play" and not learner_played,
        stoeck_box=trump and phase == "play",
        stoeck_button=(
            trump and phase in ("play", "writes", "jasstafel") and bool(plays) and not just_called
        ),
        late_announce=phase == "writes" and not own_announced,
        show_melds=phase in ("writes", "jasstafel") or number <= 2,
        talk=_talk(view, deck),
        shown_team=shown["team"] if shown else None,
        feedback=feedback,
        decisions=decisions,
        hands=hands,
        score=score,
        jasstafel=view["jasstafel"],
    )
    if score is not None:
        tv.result = _target_ns(score["target"])
        stoeck = _stoeck_ns(score["stoeck"])
        tv.stoeck_result = stoeck if stoeck is not None and stoeck.status != "none" else None
    return tv
