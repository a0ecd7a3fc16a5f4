"""What a quiz page shows of a stored question.

:func:`present` returns a :class:`QuestionView`. Before the learner answers
(``reveal=False``) it carries only the situation and the choices; nothing in it
depends on the stored answer, its mistakes or its explanation, so no page, attribute
or response can leak them (a test renders a question with its answer swapped and
compares the HTML). After answering it adds the verdict and a fresh explanation:
rules_core recomputes the result from the question's inputs, and the same partials
as the lessons draw it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rules_core import (
    Card,
    Contract,
    Meld,
    RuleSet,
    Step,
    StoeckCall,
    Suit,
    check_stoeck,
    compare_melds,
    explain_best_meld,
    explain_card_points,
    explain_legal_cards,
    explain_trick_winner,
    resolve_target,
    resolve_weis,
    score_round,
    team_of,
)
from teaching.generators import get_kind
from teaching.generators.announce import GATHERED, ClaimsResult, deadline_of, solve_claims
from teaching.generators.base import score_of
from teaching.generators.rule_sets import RuleSetDifference, answer_depends_on
from tutor.core import explain as ex
from tutor.core.translating import gettext as _

from .mistakes import MistakeContext, mistake_text
from .models import QuizQuestion, Skill

# -- what a question states, as typed facts -----------------------------------------------
#
# Each kind's body is a frozen value built from the question's inputs with rules_core:
# every fact a stem sentence states (who was dealt which card, the trump, the player to
# play, the factor ...) is a field here, so the templates only word it and the stem
# checker (tutor.quizzes.stem_check) verifies each field against rules_core.


@dataclass(frozen=True)
class BasicsBody:
    """``basics``: a trump name (R1.3) or a question about the four players (R2.1-R2.3)."""

    sub: str
    name: str | None
    question: str | None
    asked: int | None
    chooser: int  # who must choose after the Vorhand pushes: the Vorhand's partner (R2.3)


@dataclass(frozen=True)
class HandBody:
    """``weis_value``: one player's nine cards."""

    hand: tuple[Card, ...]


@dataclass(frozen=True)
class WhoWritesBody:
    """``who_writes``: the four hands and the contract's factor under the rule set."""

    hands: tuple[tuple[Card, ...], ...]
    factor: int


@dataclass(frozen=True)
class SeatMeld:
    seat: int
    meld: Meld


@dataclass(frozen=True)
class LadderBody:
    """``ladder_step``: two players' melds, lower seat first."""

    melds: tuple[SeatMeld, ...]


@dataclass(frozen=True)
class StoeckBody:
    """``stoeck``: the King and Ober at issue, whom the deal gave each of them, and the
    round so far. ``trump`` is the contract's trump suit (None in Obenabe and
    Undenufe); a stem names it only when there is one and says nothing of a single
    holder: each card's receiver is stated, which is true whether one player holds
    both or two players share them."""

    king: Card
    ober: Card
    king_seat: int
    ober_seat: int
    trump: Suit | None
    timeline: list[list[dict[str, Any]]]
    complete: bool

    @property
    def suit(self) -> Suit:
        return self.king.suit

    @property
    def holder(self) -> int | None:
        """The player dealt both cards, or None when they went to two players."""
        return self.king_seat if self.king_seat == self.ober_seat else None


@dataclass(frozen=True)
class Blocks:
    weis: int
    stoeck: int
    tricks: int


@dataclass(frozen=True)
class WonTrick:
    index: int
    team: int
    points: int


@dataclass(frozen=True)
class TargetBody:
    """``target``: the target, the totals before the round, the round's written blocks
    per team and its tricks in the order they were won."""

    target: int
    before: tuple[int, int]
    blocks: tuple[Blocks, Blocks]
    tricks: tuple[WonTrick, ...]


@dataclass(frozen=True)
class TrickBody:
    """``trick``: the cards on the table (with the seat of each), and for ``legal`` and
    ``may_play`` the hand of the player to play (``seat``); for ``points`` the trick's
    number."""

    sub: str
    hand: tuple[Card, ...]
    trick: tuple[tuple[int, Card], ...]
    seat: int | None
    trick_number: int | None
    last: bool


Body = BasicsBody | HandBody | WhoWritesBody | LadderBody | StoeckBody | TargetBody | TrickBody


@dataclass(frozen=True)
class RuleSetNote:
    """The answer depends on a rule of the question's rule set (decided by the engine,
    :func:`teaching.generators.rule_sets.answer_depends_on`), worded for the feedback."""

    field: str
    rule: str
    text: str


@dataclass(frozen=True)
class TablePosition:
    """Where a question asked at a table position (issue 25) stands in its round, from
    ``prompt["table"]`` (made and checked by ``teaching.generators.positions``):
    what it asks (``announce``, ``play``, ``jasstafel``), the round's place in the
    session, the trick and the player to play (0-based; None for ``announce``
    and ``jasstafel``)."""

    ask: str
    round: int
    trick: int
    seat: int | None


def table_position(prompt: dict[str, Any]) -> TablePosition | None:
    table = prompt.get("table")
    if not isinstance(table, dict):
        return None
    return TablePosition(table["ask"], table["round"], table["trick"], table["seat"])


@dataclass
class QuestionView:
    kind: str
    skill_label: str
    rules: RuleSet
    preset: str
    contract: Contract | None
    body: Body | dict[str, Any]  # a dict for the newer kinds (_new_body)
    choices: list[dict[str, Any]]
    revealed: bool = False
    chosen: str = ""
    answer: str = ""
    correct: bool | None = None
    mistake: str = ""
    solution: dict[str, Any] = field(default_factory=dict)
    rules_tested: list[str] = field(default_factory=list)
    rule_set_notes: tuple[RuleSetNote, ...] = ()
    position: TablePosition | None = None


STOECK_CHOICES = {
    "valid": lambda: _("Valid: the Stöck counts"),
    "not_declared": lambda: _("Lost: not called in time"),
    "declared_at_first_card": lambda: _("Lost: called with the first card only"),
    "too_late": lambda: _("Lost: called too late"),
    "prompted": lambda: _("Lost: called only after the partner's reminder"),
    "still_possible": lambda: _("Still possible: the holder may still call"),
    "second_card_not_played": lambda: _("Still possible: the second card is not played yet"),
    "no_trump_contract": lambda: _("No Stöck: there is no trump"),
    "not_held_by_one_player": lambda: _("No Stöck: no player holds both cards"),
}


_CARDS = {card.code: card for card in (Card.parse(f"{s}{r}") for s in "DHSC" for r in (
    "6", "7", "8", "9", "10", "J", "Q", "K", "A"))}  # fmt: skip


def _cards(codes: list[str]) -> tuple[Card, ...]:
    return tuple(_CARDS[code] for code in codes)


@lru_cache(maxsize=64)
def _rule_set(key: str) -> RuleSet:
    """A stored rule set (``RuleSet.to_dict()``, as canonical JSON) as a RuleSet."""
    return RuleSet.from_dict(json.loads(key))


def rule_set_of(data: dict[str, Any]) -> RuleSet:
    """The RuleSet of a stored question's data."""
    return _rule_set(json.dumps(data["rules"], sort_keys=True))


def choice_label(
    kind: str, value: dict[str, Any], prompt: dict[str, Any], deck: str
) -> dict[str, Any]:
    """A choice as text (and cards where the answer is cards)."""
    if kind in NEW_KINDS:
        return _new_choice_label(kind, value)
    cards: tuple[Card, ...] = ()
    if kind in ("weis_value",) or (kind == "trick" and "points" in value):
        points = value["points"]
        text = _("%(n)s points") % {"n": points} if points else _("No Weis (0)")
        if kind == "trick":
            text = _("%(n)s points") % {"n": points}
    elif kind == "who_writes":
        if value["team"] is None:
            text = _("Nobody writes Weis")
        else:
            text = _("%(team)s writes %(points)s") % {
                "team": ex.team_short(value["team"]),
                "points": value["points"],
            }
    elif kind == "ladder_step":
        text = _("%(step)s decides; %(player)s wins") % {
            "step": ex.step_inline(value["step"]),
            "player": ex.seat_label(value["winner"]),
        }
    elif kind == "stoeck":
        text = STOECK_CHOICES[value["reason"]]()
    elif kind == "target":
        if value["team"] is None:
            text = _("Nobody yet: play goes on")
        else:
            text = _("%(team)s wins, in the %(block)s block") % {
                "team": ex.team_short(value["team"]),
                "block": ex.block_label(value["block"]),
            }
    elif "seat" in value:
        text = ex.player_short(value["seat"])
    elif "card" in value:
        cards = _cards([value["card"]])
        text = ex.card_label(value["card"], deck)
    elif "cards" in value:
        cards = _cards(value["cards"])
        text = ", ".join(ex.card_label(c, deck) for c in value["cards"]) or _("no card")
    else:  # pragma: no cover - every kind is handled above
        text = str(value)
    return {"text": text, "cards": cards}


def _body(kind: str, inputs: dict[str, Any], prompt: dict[str, Any]) -> Body | dict[str, Any]:
    """The situation a question describes, as the facts the templates word."""
    if kind in NEW_KINDS:
        return _new_body(kind, inputs, prompt)
    if kind == "basics":
        return BasicsBody(
            sub=inputs["sub"],
            name=inputs.get("name"),
            question=inputs.get("question"),
            asked=inputs.get("asked"),
            chooser=next(s for s in (1, 2, 3) if team_of(s) == team_of(0)),
        )
    if kind == "weis_value":
        return HandBody(_cards(inputs["hand"]))
    if kind == "who_writes":
        return WhoWritesBody(tuple(_cards(h) for h in inputs["hands"]), prompt.get("factor", 1))
    if kind == "ladder_step":
        return LadderBody(
            tuple(SeatMeld(m["seat"], Meld.of(_cards(m["cards"]))) for m in inputs["melds"])
        )
    if kind == "stoeck":
        return _stoeck_body(inputs, prompt)
    if kind == "target":
        blocks = prompt["blocks"]
        return TargetBody(
            target=prompt["target"],
            before=(prompt["before"][0], prompt["before"][1]),
            blocks=(Blocks(**blocks[0]), Blocks(**blocks[1])),
            tricks=tuple(WonTrick(t["index"], t["team"], t["points"]) for t in prompt["tricks"]),
        )
    if kind == "trick":
        trick = _cards(inputs.get("trick", []))
        leader = inputs.get("leader", 0)
        return TrickBody(
            sub=inputs["sub"],
            hand=_cards(inputs.get("hand", [])),
            trick=tuple(((leader + i) % 4, card) for i, card in enumerate(trick)),
            seat=prompt.get("seat"),
            trick_number=prompt.get("trick_number"),
            last=prompt.get("last", False),
        )
    raise ValueError(f"unknown kind {kind}")


def _stoeck_body(inputs: dict[str, Any], prompt: dict[str, Any]) -> StoeckBody:
    """Whom the deal gave the King and the Ober at issue, read from the dealt hands (not
    from the prompt's seat in focus, which for a split pair is the player of the second
    card and holds only one of them)."""
    king, ober = _cards(prompt["pair"])
    seat_of = {code: seat for seat, hand in enumerate(inputs["hands"]) for code in hand}
    plays = inputs["plays"]
    marked = {i for i, (_seat, code) in enumerate(plays) if code in (king.code, ober.code)}
    return StoeckBody(
        king=king,
        ober=ober,
        king_seat=seat_of[king.code],
        ober_seat=seat_of[ober.code],
        trump=Contract.parse(inputs["contract"]).trump,
        timeline=ex.stoeck_timeline(plays, inputs.get("calls", []), marked),
        complete=prompt.get("complete", len(plays) == 36),
    )


def _solution(kind: str, inputs: dict[str, Any], rules: RuleSet, deck: str) -> dict[str, Any]:
    """The result, recomputed by rules_core from the inputs, for the explanation."""
    if kind in NEW_KINDS:
        return _new_solution(kind, inputs, rules)
    if kind == "basics":
        # The kind's own solver: rules_core's trump_name (R1.3) and team_of (R2.1).
        solved = get_kind("basics").solve(inputs, rules)
        return {"entry": solved.explanation[0], **solved.value}
    contract = Contract.parse(inputs["contract"])
    if kind == "weis_value":
        choice = explain_best_meld(_cards(inputs["hand"]), contract, rules)
        return {"choice": choice, "marked": choice.best.cards if choice.best else ()}
    if kind == "who_writes":
        hands = [_cards(h) for h in inputs["hands"]]
        return {"result": resolve_weis(hands, contract, rules), "hands": hands}
    if kind == "ladder_step":
        a, b = inputs["melds"]
        comparison = compare_melds(
            Meld.of(_cards(a["cards"])),
            a["seat"],
            Meld.of(_cards(b["cards"])),
            b["seat"],
            contract,
            rules,
        )
        return {"comparison": comparison}
    hands = [_cards(h) for h in inputs.get("hands", [])]
    plays = [(seat, code) for seat, code in inputs.get("plays", [])]
    calls = [StoeckCall(seat, after, prompted) for seat, after, prompted in inputs.get("calls", [])]
    if kind == "stoeck":
        return {"stoeck": check_stoeck(hands, contract, plays, calls, rules)}
    if kind == "target":
        score = score_round(hands, contract, plays, calls, rules)
        return {"result": resolve_target(inputs["before"], score, inputs["target"], rules)}
    if kind == "trick":
        return _trick_solution(inputs, contract, rules, deck)
    raise ValueError(f"unknown kind {kind}")


def _trick_solution(
    inputs: dict[str, Any], contract: Contract, rules: RuleSet, deck: str
) -> dict[str, Any]:
    """``trick``: the engine's verdict on each card (legal, may_play), the winner, or
    the points of each card, the last-trick bonus and the factor."""
    sub = inputs["sub"]
    trick = _cards(inputs.get("trick", []))
    if sub in ("legal", "may_play"):
        legal = explain_legal_cards(_cards(inputs["hand"]), trick, contract)
        # may_play: the engine's verdict on the three cards offered only
        shown = set(inputs.get("offered") or inputs["hand"])
        return {
            "legal": legal,
            "verdicts": [
                _play_sentence(e, contract, deck)
                for e in legal.verdicts
                if e.values["card"] in shown
            ],
        }
    if sub == "winner":
        return {"winner": explain_trick_winner(trick, contract)}
    entries = [explain_card_points(card, contract) for card in trick]
    card_sum = sum(e["points"] for e in entries)
    last = 5 if inputs.get("index") == 8 else 0
    factor = rules.factor(contract)
    return {
        "points": entries,
        "card_sum": card_sum,
        "last_bonus": last,
        "factor": factor,
        "total": (card_sum + last) * factor,
    }


_PLAY_SENTENCES: dict[str, Callable[[], str]] = {
    "play.lead": lambda: _("%(card)s: the leader may lead any card."),
    "play.follows_suit": lambda: _("%(card)s follows the led suit (%(led)s)."),
    "play.must_follow_suit": lambda: _(
        "%(card)s: the player holds %(led)s and must follow suit (or trump)."
    ),
    "play.trump_allowed": lambda: _("%(card)s is a trump; trumping is always allowed."),
    "play.over_trump": lambda: _("%(card)s is a trump higher than %(high)s: allowed."),
    "play.under_trump": lambda: _(
        "%(card)s is a trump lower than %(high)s: under-trumping is not allowed."
    ),
    "play.only_trumps": lambda: _(
        "%(card)s would under-trump, but the hand holds only trumps: allowed."
    ),
    "play.cannot_follow": lambda: _(
        "%(card)s: the player cannot follow %(led)s, so any card goes."
    ),
    "play.follows_trump": lambda: _("%(card)s follows the trump lead."),
    "play.must_play_trump": lambda: _(
        "%(card)s: trump was led and the player holds another trump, which must be played."
    ),
    "play.puur_exception": lambda: _(
        "%(card)s: the only trump in hand is the Puur, which need not be played."
    ),
}
# Obenabe and Undenufe have no trump: following suit is the only duty (R3.1).
_NO_TRUMP_PLAY_SENTENCES: dict[str, Callable[[], str]] = {
    "play.must_follow_suit": lambda: _("%(card)s: the player holds %(led)s and must follow suit."),
}


def _play_sentence(entry: Any, contract: Contract, deck: str) -> dict[str, Any]:
    v = entry.values
    names = {
        "card": ex.card_label(v["card"], deck),
        "led": ex.suit_label(v.get("led"), deck),
        "high": ex.card_label(v["highest_trump"], deck) if v.get("highest_trump") else "",
    }
    sentence = (contract.trump is None and _NO_TRUMP_PLAY_SENTENCES.get(entry.key)) or (
        _PLAY_SENTENCES.get(entry.key)
    )
    text = sentence() % names if sentence else entry.key
    return {"text": text, "legal": v["legal"], "rule": entry.rule, "card": Card.parse(v["card"])}


# --- announce and jasstafel (issue 21): new kinds, kept apart from the ones above -------

NEW_KINDS = ("announce", "jasstafel")

DEADLINE_CHOICES = {
    "in_time": lambda: _("It counts: it came in time"),
    "next_card_played": lambda: _("Too late: the next player had already played"),
    "trick_gathered": lambda: _("Too late: the trick had already been gathered"),
}


def _new_choice_label(kind: str, value: dict[str, Any]) -> dict[str, Any]:
    if kind == "jasstafel":
        text = _("%(n)s points") % {"n": value["points"]}
    elif "deadline" in value:
        text = DEADLINE_CHOICES[value["deadline"]]()
    elif value["team"] is None:
        text = _("Nobody writes Weis")
    else:
        text = _("%(team)s writes %(points)s") % {
            "team": ex.team_short(value["team"]),
            "points": value["points"],
        }
    return {"text": text, "cards": ()}


def announce_timeline(inputs: dict[str, Any], asked: int | None = None) -> list[dict[str, Any]]:
    """The first trick as rows: each card with what was said right after it (the player's
    own word first), then, when anybody spoke after it, the gathering of the trick."""
    said_after: dict[int, list[dict[str, Any]]] = {}
    for seat, value, after in inputs["announcements"]:
        said_after.setdefault(after, []).append(
            {
                "seat": seat,
                "value": value,
                "word": ex.announced_value(value),
                "asked": seat == asked,
            }
        )
    rows: list[dict[str, Any]] = [
        {"seat": seat, "card": Card.parse(code), "said": said_after.get(index, [])}
        for index, (seat, code) in enumerate(inputs["plays"])
    ]
    if GATHERED in said_after:
        rows.append({"gathered": True, "said": said_after[GATHERED]})
    return rows


def _new_body(kind: str, inputs: dict[str, Any], prompt: dict[str, Any]) -> dict[str, Any]:
    if kind == "jasstafel":
        return {
            "team": prompt["team"],
            "factor": prompt.get("factor", 1),
            "weis_team": prompt["weis_team"],
            "weis_points": prompt["weis_points"],
            "stoeck_seat": prompt["stoeck_seat"],
            "stoeck_status": prompt["stoeck_status"],
            "stoeck_reason": prompt["stoeck_reason"],
            "tricks": prompt["tricks"],
        }
    body: dict[str, Any] = {
        "sub": inputs["sub"],
        "asked": inputs.get("asked"),
        "timeline": announce_timeline(inputs, inputs.get("asked")),
    }
    if inputs["sub"] == "writes":
        melds = prompt.get("melds", [[] for _hand in inputs["hands"]])
        body["seats"] = [
            {"hand": _cards(hand), "marked": {c for meld in seat_melds for c in _cards(meld)}}
            for hand, seat_melds in zip(inputs["hands"], melds, strict=True)
        ]
        body["factor"] = prompt.get("factor", 1)
    return body


def _new_solution(kind: str, inputs: dict[str, Any], rules: RuleSet) -> dict[str, Any]:
    """The result recomputed by the kind's own solver (rules_core underneath)."""
    if kind == "jasstafel":
        score = score_of(inputs, rules)
        team = inputs["team"]
        tricks = [
            {
                "team": t,
                "card_points": sum(r.card_points for r in score.tricks if r.team == t),
                "last": score.tricks[8].team == t,
                "match": score.match == t,
                "block": score.blocks[t]["tricks"],
            }
            for t in (0, 1)
        ]
        return {
            "score": score,
            "team": team,
            "tricks": tricks,
            "total": score.totals[team],
            "blocks": score.blocks[team],
        }
    if inputs["sub"] == "deadline":
        solved = get_kind("announce").solve(inputs, rules)
        entry = solved.explanation[0]["values"]
        said = {seat: value for seat, value, _after in inputs["announcements"]}
        return {
            "deadline": entry["deadline"],
            "seat": entry["seat"],
            "word": ex.announced_value(said[entry["seat"]]),
            "next_seat": entry["seat"] + 1 if entry["seat"] < 3 else None,
        }
    result, _trace = solve_claims(inputs, rules)
    said = {seat: (value, after) for seat, value, after in inputs["announcements"]}
    rows: list[dict[str, Any]] = []
    for seat in range(4):
        value, after = said.get(seat, (None, None))
        rows.append(
            {
                "seat": seat,
                "word": ex.announced_value(value) if value is not None else "",
                "in_time": value is not None
                and after is not None
                and deadline_of(seat, after) == "in_time",
                "claim": result.claims[seat],
                # a smaller value announced than the hand's best meld (R5.4a)
                "better": _better_than_claim(result, seat),
                "melds": result.melds[seat],
                "written": result.team is not None
                and seat % 2 == result.team
                and result.claims[seat] is not None,
            }
        )
    # the writing team's players whose melds are not written: no claim in time (R5.4b)
    unwritten = [
        row["seat"]
        for row in rows
        if result.team is not None
        and row["seat"] % 2 == result.team
        and not row["written"]
        and row["melds"]
    ]
    return {"claims": result, "rows": rows, "unwritten": unwritten}


def _better_than_claim(result: ClaimsResult, seat: int) -> Meld | None:
    """The hand's best meld when the player claimed a meld worth less (R5.4a)."""
    claim, melds = result.claims[seat], result.melds[seat]
    if claim is None or not melds or melds[0].points <= claim.points:
        return None
    return melds[0]


def _field_facts(field: str, rules: RuleSet, contract: Contract | None, deck: str) -> str:
    """What ``rules`` says on ``field``, as a clause ("four 6s, 7s or 8s score 100")."""
    if field == "low_quads_score":
        if rules.low_quads_score:
            return _("four 6s, 7s or 8s score 100")
        return _("four 6s, 7s or 8s score nothing")
    if field == "undenufe_reverses_weis":
        if rules.undenufe_reverses_weis:
            return _("in Undenufe the meld whose lowest card is lower wins at Step 3")
        return _("in Undenufe the meld with the higher top card wins at Step 3")
    if field == "target_order":
        return _("the blocks count in the order %(order)s") % {
            "order": ", ".join(str(ex.block_label(b)) for b in rules.target_order)
        }
    if field == "factors":
        assert contract is not None  # only a contract has a factor
        return _("%(contract)s counts with factor %(factor)s") % {
            "contract": ex.contract_label(contract, deck),
            "factor": rules.factor(contract),
        }
    if field == "target":
        return _("the target is %(target)s") % {"target": rules.target}
    raise ValueError(f"unknown rule-set field {field!r}")


def _rule_set_note(
    kind: str,
    difference: RuleSetDifference,
    rules: RuleSet,
    contract: Contract | None,
    prompt: dict[str, Any],
    deck: str,
) -> RuleSetNote:
    other = RuleSet.preset(difference.other)
    values = {
        "rule_set": ex.preset_label(rules.preset_name()),
        "here": _field_facts(difference.field, rules, contract, deck),
        "rule": difference.rule,
        "other": ex.preset_label(difference.other),
        "there": _field_facts(difference.field, other, contract, deck),
    }
    if difference.other_answer is None:
        text = (
            _(
                "In the rule set of this quiz, «%(rule_set)s», %(here)s (%(rule)s). With "
                "«%(other)s» %(there)s, and this question would have no answer."
            )
            % values
        )
    else:
        answer = choice_label(kind, dict(difference.other_answer), prompt, deck)["text"]
        text = _(
            "In the rule set of this quiz, «%(rule_set)s», %(here)s (%(rule)s). With "
            "«%(other)s» %(there)s, and the answer would be «%(answer)s»."
        ) % {**values, "answer": answer}
    return RuleSetNote(difference.field, difference.rule, text)


def rule_set_notes(
    kind: str,
    inputs: dict[str, Any],
    prompt: dict[str, Any],
    rules: RuleSet,
    deck: str,
    differences: tuple[RuleSetDifference, ...] | None = None,
) -> tuple[RuleSetNote, ...]:
    """Where the answer depends on the rule set, which of its rules made the difference
    (``differences``: as stored with the question; solved here when None)."""
    contract = Contract.parse(inputs["contract"]) if "contract" in inputs else None
    if differences is None:
        differences = answer_depends_on(kind, inputs, rules)
    return tuple(_rule_set_note(kind, d, rules, contract, prompt, deck) for d in differences)


def stored_differences(question: QuizQuestion) -> tuple[RuleSetDifference, ...] | None:
    """The rule-set differences stored with ``question`` (None: stored before they were)."""
    stored = question.rule_set_differences
    if stored is None:
        return None
    return tuple(RuleSetDifference.from_dict(d) for d in stored)


def mistake_context(data: dict[str, Any], deck: str) -> MistakeContext:
    """What a stored question's mistake sentences may state: its contract and rule set."""
    inputs = data["inputs"]
    contract = Contract.parse(inputs["contract"]) if "contract" in inputs else None
    return MistakeContext(contract, rule_set_of(data), deck, tuple(inputs.get("trick", ())))


def feedback_mistake(data: dict[str, Any], key: str, deck: str) -> str:
    """The sentence for the mistake behind choice ``key`` of a stored question ("" for
    the right choice)."""
    if key == data["answer"]:
        return ""
    return mistake_text(data["mistakes"].get(key, ""), mistake_context(data, deck))


def present(question: QuizQuestion, *, reveal: bool, deck: str = "swiss") -> QuestionView:
    data = question.question
    inputs, prompt = data["inputs"], data["prompt"]
    rules = rule_set_of(data)
    view = QuestionView(
        kind=question.kind,
        skill_label=str(Skill(question.kind).label),
        rules=rules,
        preset=rules.preset_name() or "custom",
        contract=Contract.parse(inputs["contract"]) if "contract" in inputs else None,
        body=_body(question.kind, inputs, prompt),
        position=table_position(prompt),
        choices=[
            {"key": c["key"], **choice_label(question.kind, c["value"], prompt, deck)}
            for c in data["choices"]
        ],
    )
    if reveal and question.answered:
        view.revealed = True
        view.chosen = question.answered_choice
        view.answer = data["answer"]
        view.correct = bool(question.correct)
        if not view.correct:
            view.mistake = feedback_mistake(data, question.answered_choice, deck)
        view.solution = _solution(question.kind, inputs, rules, deck)
        view.rule_set_notes = rule_set_notes(
            question.kind, inputs, prompt, rules, deck, stored_differences(question)
        )
        # The page links each rule to the lesson that teaches it (the lessons app's
        # lesson_links helper of the Jinja2 templates: lessons sit above quizzes).
        view.rules_tested = list(data["rules_tested"])
    return view


class LazyView:
    """:func:`present`'s view of a question, made only when a template first reads it
    (a cached card reads nothing). Unlike Django's ``SimpleLazyObject``, each attribute
    read is then kept on this object: a card reads the view a hundred times and more,
    and going through the proxy every time cost more than the reads themselves.

    >>> calls = []
    >>> view = LazyView(lambda: calls.append(1) or QuestionView(
    ...     "basics", "Basics", RuleSet(), "default", None, {}, []))
    >>> len(calls)
    0
    >>> view.kind, view.kind, view.revealed, len(calls)
    ('basics', 'basics', False, 1)
    """

    def __init__(self, make: Callable[[], QuestionView]) -> None:
        self._make = make
        self._view: QuestionView | None = None

    def __getattr__(self, name: str) -> Any:
        # Called only for what is not on this object yet: the view's fields.
        if name.startswith("_"):
            raise AttributeError(name)
        if self._view is None:
            self._view = self._make()
        value = getattr(self._view, name)
        setattr(self, name, value)
        return value


__all__ = [
    "Body",
    "LazyView",
    "QuestionView",
    "RuleSetNote",
    "Step",
    "feedback_mistake",
    "mistake_context",
    "present",
    "rule_set_notes",
    "rule_set_of",
    "stored_differences",
]
