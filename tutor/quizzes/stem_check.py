"""The stem checker: every sentence a question states about its position is true.

A question states facts in its stem (who was dealt which card, the contract and its
trump, the player to play, the factor, the rule set ...), in its choices, in the
feedback for each choice and in the explanation. The lesson checker guards the
lessons' prose; this guards the questions, in two independent ways:

1. **Facts.** The presenter builds each kind's stem from typed facts
   (:mod:`tutor.quizzes.presenters`: ``StoeckBody``, ``TrickBody`` ...). The kind's
   entry in :data:`FACT_CHECKS` verifies every field against rules_core, computed
   afresh from the question's inputs; :func:`check_rule_set` verifies the rule set
   shown and the rule-set notes of the feedback (the answer recomputed under the
   other presets), and :data:`PRESUPPOSES` what each mistake sentence takes for
   granted (a Stöck split between two players, a rule set without low quads ...).
2. **Text.** The parts a person reads (the rule-set line, title, body, choices, the
   explanation, the rule-set notes and every wrong choice's mistake sentence) are
   rendered in German and English and scanned (:func:`scan`): no trump, Puur or Nell
   in a sentence of an Obenabe or Undenufe question unless it says there is no
   trump; every rule ID cited applies in the contract (R4.1 only with trump, R4.2
   only in Obenabe, R4.3 only in Undenufe, R1.3, R3.2-R3.4 and R6.2-R6.5 never
   without trump); players 1-4 and teams 1-2 only, "Player 3" and "Team 1"
   capitalised in English, a team's players the right ones; the trump suit named is
   the contract's; a player said to hold or be dealt a card was dealt it; written-out
   sums and the tables of points add up; the rule-set line names the question's rule
   set.

Adding a question kind is one entry in :data:`FACT_CHECKS` (a test fails until it is
there). ``tests/quizzes/test_stem_check.py`` runs the checker over 500 seeds of
every kind under every preset in both languages, and plants false sentences to show
that it bites.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from copy import copy
from dataclasses import dataclass
from html import unescape
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from rules_core import (
    DECK,
    Card,
    Contract,
    RuleSet,
    card_points,
    check_stoeck,
    legal_cards,
    resolve_weis,
    stoeck_holder,
    team_of,
)
from rules_core.scoring import LAST_TRICK_BONUS
from teaching.generators import Question, get_kind
from teaching.generators.base import canon, score_of
from teaching.generators.positions import check_position
from teaching.generators.rule_sets import FIELD_RULES, inputs_under, solve_under, with_field
from tutor.core import explain as ex
from tutor.core.cards import display_name
from tutor.core.jinja import macros

from .mistakes import mistake_text
from .presenters import (
    BasicsBody,
    HandBody,
    LadderBody,
    QuestionView,
    StoeckBody,
    TargetBody,
    TrickBody,
    WhoWritesBody,
    feedback_mistake,
    present,
    rule_set_of,
)
from .services import unsaved_question

LANGS = ("de", "en", "fr")


@dataclass(frozen=True)
class Problem:
    """A false or unsupported statement, with where it was found."""

    kind: str
    seed: int
    preset: str
    lang: str
    where: str
    message: str

    def __str__(self) -> str:
        return (
            f"{self.kind} seed {self.seed} rule set {self.preset} lang {self.lang} "
            f"[{self.where}]: {self.message}"
        )


# -- rendering ----------------------------------------------------------------------------

PARTS = {
    "rule-set": "rule_set",
    "title": "title",
    "body": "body",
    "solution": "solution",
    "rule-set-notes": "rule_set_notes",
}
"""The parts of a question a question page and an in-lesson question draw (the
rule-set line, the question, the situation; after answering the explanation and the
rule-set notes), with their macros in ``quizzes/kinds.jinja``."""

Draw = Callable[[QuestionView, str], str]
"""One part drawn: (view, deck) -> HTML."""


def default_templates() -> dict[str, Draw]:
    """The parts as the site draws them (the macros of ``quizzes/kinds.jinja``)."""

    def drawer(macro: str) -> Draw:
        def draw(view: QuestionView, deck: str) -> str:
            return str(getattr(macros("quizzes/kinds.jinja", deck), macro)(view))

        return draw

    return {part: drawer(macro) for part, macro in PARTS.items()}


_SVG = re.compile(r"<svg\b.*?</svg>", re.DOTALL)
_BLOCK = re.compile(
    r"</?(?:p|li|h[1-6]|td|th|caption|div|section|ul|ol|table|tr|figure)\b[^>]*>", re.IGNORECASE
)
_TAG = re.compile(r"<[^>]*>")


def readable_lines(html: str) -> list[str]:
    """The text nodes of ``html`` a person reads, one line per block element (a card
    picture's inner SVG text, "K" or "10", is left out: the card's name is its label).
    Regular expressions, not an HTML parser: the site's own markup, thousands of times."""
    text = unescape(_TAG.sub("", _BLOCK.sub("\n", _SVG.sub("", html))))
    return [line for line in _SPACE.sub(" ", text).split("\n") if line.strip()]


_SPACE = re.compile(r"[^\S\n]+")


_ROW = re.compile(r"<tr\b[^>]*>(.*?)</tr>", re.DOTALL)
_CELL = re.compile(r"<t[dh]\b[^>]*>(.*?)</t[dh]>", re.DOTALL)


def table_rows(html: str, css_class: str) -> list[list[str]]:
    """The rows of the tables of class ``css_class`` in ``html``, as cell texts."""
    rows = []
    pattern = rf'<table class="[^"]*\b{re.escape(css_class)}\b[^"]*"[^>]*>(.*?)</table>'
    for table in re.findall(pattern, html, re.DOTALL):
        for row in _ROW.findall(table):
            cells = [_TAG.sub("", _SVG.sub("", cell)) for cell in _CELL.findall(row)]
            rows.append([re.sub(r"\s+", " ", unescape(cell)).strip() for cell in cells])
    return rows


@dataclass(frozen=True)
class Rendered:
    """One question in one language: its view after answering and, by part, the HTML
    of each partial and the text of every choice and mistake sentence."""

    question: Question
    lang: str
    deck: str
    view: QuestionView
    html: dict[str, str]
    text: dict[str, list[str]]

    @property
    def rules(self) -> RuleSet:
        return self.view.rules

    @property
    def contract(self) -> Contract | None:
        return self.view.contract


def render(
    question: Question,
    lang: str,
    deck: str = "swiss",
    templates: Mapping[str, Draw] | None = None,
) -> Rendered:
    """Render what a person reads of ``question`` in ``lang``: the unanswered question
    (rule set, title, body, choices) and the feedback (explanation, rule-set notes,
    each wrong choice's mistake sentence). The explanation and the notes do not depend
    on the choice, so they are rendered once, for the right answer."""
    templates = templates or default_templates()
    answered = unsaved_question(question, question.answer)
    unanswered = copy(answered)  # the same stored data, not yet answered
    unanswered.answered_choice, unanswered.correct, unanswered.answered_at = "", None, None
    data = answered.question
    with translation.override(lang):
        before = present(unanswered, reveal=False, deck=deck)
        after = present(answered, reveal=True, deck=deck)
        html: dict[str, str] = {}
        for part in PARTS:
            view = before if part in ("rule-set", "title", "body") else after
            html[part] = templates[part](view, deck)
        text = {part: readable_lines(markup) for part, markup in html.items()}
        text["choices"] = [str(c["text"]) for c in before.choices]
        for key in question.mistakes:
            text[f"mistake {key}"] = [feedback_mistake(data, key, deck)]
    return Rendered(question, lang, deck, after, html, text)


# -- the facts ---------------------------------------------------------------------------

FactCheck = Callable[[Question, QuestionView], Iterable[str]]


def _rules(q: Question) -> RuleSet:
    return rule_set_of({"rules": q.rules})


def _contract(q: Question) -> Contract:
    return Contract.parse(q.inputs["contract"])


def _codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


def _facts_basics(q: Question, view: QuestionView) -> Iterator[str]:
    body = view.body
    assert isinstance(body, BasicsBody)
    if body.sub == "trump_name" and _contract(q).trump is None:
        yield "a Puur or Nell question in a contract without trump"
    if not (body.chooser != 0 and team_of(body.chooser) == team_of(0)):
        yield f"the player said to choose after a push, seat {body.chooser}, is not the partner"


def _facts_weis_value(q: Question, view: QuestionView) -> Iterator[str]:
    body = view.body
    assert isinstance(body, HandBody)
    if _codes(body.hand) != q.inputs["hand"]:
        yield "the hand shown is not the question's hand"


def _facts_who_writes(q: Question, view: QuestionView) -> Iterator[str]:
    body = view.body
    assert isinstance(body, WhoWritesBody)
    if [_codes(h) for h in body.hands] != q.inputs["hands"]:
        yield "the hands shown are not the question's hands"
    factor = _rules(q).factor(_contract(q))
    if body.factor != factor:
        yield f"the stem states factor {body.factor}; the rule set gives {factor}"


def _facts_ladder_step(q: Question, view: QuestionView) -> Iterator[str]:
    body = view.body
    assert isinstance(body, LadderBody)
    shown = [(m.seat, _codes(m.meld.cards)) for m in body.melds]
    stored = [(m["seat"], sorted(m["cards"], key=_deck_index)) for m in q.inputs["melds"]]
    if [(s, sorted(c, key=_deck_index)) for s, c in shown] != stored:
        yield "the melds or players shown are not the question's"
    if len({team_of(m.seat) for m in body.melds}) != 2:
        yield "the two melds compared belong to one team"


def _deck_index(code: str) -> int:
    return [c.code for c in DECK].index(code)


def _facts_stoeck(q: Question, view: QuestionView) -> Iterator[str]:
    body = view.body
    assert isinstance(body, StoeckBody)
    hands = q.inputs["hands"]
    contract = _contract(q)
    if body.king.rank.code != "K" or body.ober.rank.code != "Q" or body.king.suit != body.ober.suit:
        yield f"{body.king.code} and {body.ober.code} are not the King and Ober of one suit"
    for card, seat in ((body.king, body.king_seat), (body.ober, body.ober_seat)):
        if card.code not in hands[seat]:
            yield f"the stem says seat {seat} was dealt {card.code}; it was not"
    if body.trump != contract.trump:
        yield f"the stem's trump {body.trump} is not the contract's {contract.trump}"
    if contract.trump is not None and body.suit != contract.trump:
        yield "the King and Ober asked about are not of the trump suit"
    if body.complete != (len(q.inputs["plays"]) == 36):
        yield "the stem says the round is over when it is not, or the other way round"
    marked = [
        (play["seat"], play["card"].code)
        for trick in body.timeline
        for play in trick
        if play["is_pair"]
    ]
    played = [
        (seat, code) for seat, code in q.inputs["plays"] if code in (body.king.code, body.ober.code)
    ]
    if marked != [(s, c) for s, c in played]:
        yield "the cards marked in the round are not the King and Ober asked about"


def _facts_target(q: Question, view: QuestionView) -> Iterator[str]:
    body = view.body
    assert isinstance(body, TargetBody)
    inputs = q.inputs
    rules = _rules(q)
    if body.target != inputs["target"] or list(body.before) != list(inputs["before"]):
        yield "the target or the totals before the round are not the question's"
    score = score_of(inputs, rules)
    for team in (0, 1):
        shown = body.blocks[team]
        engine = score.blocks[team]
        if (shown.weis, shown.stoeck, shown.tricks) != (
            engine["weis"],
            engine["stoeck"],
            engine["tricks"],
        ):
            yield f"Team {team + 1}'s blocks shown {shown} are not the engine's {dict(engine)}"
    won = [(t.index, t.team, t.points) for t in body.tricks]
    if won != [(t.index, t.team, t.points) for t in score.tricks]:
        yield "the tricks shown are not the round's tricks in the order won"


def _facts_trick(q: Question, view: QuestionView) -> Iterator[str]:
    body = view.body
    assert isinstance(body, TrickBody)
    inputs = q.inputs
    leader = inputs["leader"]
    if [(s, c.code) for s, c in body.trick] != [
        ((leader + i) % 4, code) for i, code in enumerate(inputs["trick"])
    ]:
        yield "the cards or players of the trick shown are not the question's"
    if body.sub in ("legal", "may_play"):
        if body.seat != (leader + len(inputs["trick"])) % 4:
            yield f"the stem names seat {body.seat} to play; it is not that player's turn"
        if _codes(body.hand) != inputs["hand"]:
            yield "the hand shown is not the question's hand"
    if body.sub == "points":
        index = inputs["index"]
        if body.trick_number != index + 1 or body.last != (index == 8):
            yield f"the stem numbers the trick {body.trick_number}; it is trick {index + 1}"
        yield from _points_solution(q, view)


def _points_solution(q: Question, view: QuestionView) -> Iterator[str]:
    s = view.solution
    contract = _contract(q)
    rules = _rules(q)
    for entry, code in zip(s["points"], q.inputs["trick"], strict=True):
        card = Card.parse(code)
        shown = entry.values["points"]
        if entry.values["card"] != code or shown != card_points(card, contract):
            yield f"the explanation gives {code} {shown} points"
    bonus = LAST_TRICK_BONUS if q.inputs["index"] == 8 else 0
    if s["last_bonus"] != bonus or s["factor"] != rules.factor(contract):
        yield "the explanation's last-trick bonus or factor is wrong"
    answer = get_kind("trick").solve(q.inputs, rules).value
    if s["total"] != answer.get("points"):
        yield f"the explanation's total {s['total']} is not the answer {answer}"


def _timeline_facts(q: Question, body: dict[str, Any]) -> Iterator[str]:
    """The first trick shown card by card, and every announcement once, after its card."""
    inputs = q.inputs
    rows = [row for row in body["timeline"] if not row.get("gathered")]
    if [(row["seat"], row["card"].code) for row in rows] != [tuple(p) for p in inputs["plays"]]:
        yield "the first trick shown is not the question's"
    shown = sorted(
        (said["seat"], said["value"], index)
        for index, row in enumerate(body["timeline"])
        for said in row["said"]
    )
    if shown != sorted(tuple(a) for a in inputs["announcements"]):
        yield "the announcements shown are not the question's, or not after their cards"
    if "hands" in inputs:  # the cards are a legal first trick from the hands dealt
        contract = _contract(q)
        trick: list[Card] = []
        for seat, code in inputs["plays"]:
            card = Card.parse(code)
            hand = [Card.parse(c) for c in inputs["hands"][seat]]
            if card not in legal_cards(hand, trick, contract):
                yield f"{code} of seat {seat} is not a legal card in the trick shown"
            trick.append(card)


def _facts_announce(q: Question, view: QuestionView) -> Iterator[str]:
    body = view.body
    assert isinstance(body, dict)
    inputs = q.inputs
    if body["asked"] != inputs.get("asked"):
        yield "the title names another player than the question asks about"
    yield from _timeline_facts(q, body)
    solution = view.solution
    if body["sub"] == "deadline":
        yield from _deadline_facts(inputs, solution)
        return
    if [_codes(seat["hand"]) for seat in body["seats"]] != inputs["hands"]:
        yield "the hands shown are not the question's hands"
    if body["factor"] != _rules(q).factor(_contract(q)):
        yield f"the stem states factor {body['factor']}; the rule set gives another"
    if solution:
        yield from _announced_claims_facts(q, solution)


def _deadline_facts(inputs: dict[str, Any], solution: Any) -> Iterator[str]:
    seat = int(inputs["asked"])
    after = next(a for s, _v, a in inputs["announcements"] if s == seat)
    # R5.4: with the player's own card; the last player's word waits until the
    # trick is gathered, anybody else's until the next card.
    truth = "in_time" if after == seat else "trick_gathered" if seat == 3 else "next_card_played"
    if solution and solution["deadline"] != truth:
        yield f"the explanation says {solution['deadline']}; R5.4 gives {truth}"


def _announced_claims_facts(q: Question, solution: Any) -> Iterator[str]:
    """Who writes, whose melds and which claims the explanation states, against
    resolve_weis over the claims announced in time (R5.4a)."""
    inputs = q.inputs
    claims: list[int | None] = [None] * 4
    for seat, value, after in inputs["announcements"]:
        if after == seat:  # in time (R5.4)
            claims[seat] = value
    engine = resolve_weis(inputs["hands"], inputs["contract"], _rules(q), claims=claims)
    shown = solution["claims"]
    if (shown.team, shown.scored) != (engine.team, engine.scored):
        yield (
            f"the explanation says team {shown.team} writes {shown.scored}; the engine says "
            f"team {engine.team} writes {engine.scored}"
        )
    for row in solution["rows"]:
        seat = row["seat"]
        if row["written"] != bool(engine.written[seat]) and engine.melds[seat]:
            said = "written" if row["written"] else "not written"
            yield f"the explanation says seat {seat}'s melds are {said}; the engine disagrees"
        claimed = engine.claimed[seat]
        if (row["claim"] is None) != (claimed is None) or (
            claimed is not None and row["claim"].cards != claimed.cards
        ):
            yield f"the explanation's claim of seat {seat} is not the engine's"
    for seat in solution["unwritten"]:
        if engine.written[seat] or engine.team is None or seat % 2 != engine.team:
            yield f"the explanation says seat {seat}'s melds are not written; the engine disagrees"


def _facts_jasstafel(q: Question, view: QuestionView) -> Iterator[str]:
    body = view.body
    assert isinstance(body, dict)
    inputs = q.inputs
    rules = _rules(q)
    score = score_of(inputs, rules)
    if body["team"] != inputs["team"]:
        yield "the stem asks about another team than the question's"
    if body["factor"] != rules.factor(_contract(q)):
        yield "the stem's factor is not the rule set's"
    if (body["weis_team"], body["weis_points"]) != (score.weis.team, score.weis.points):
        yield "the Weis stated (team and value) is not the engine's"
    holder = stoeck_holder(inputs["hands"], inputs["contract"])
    if body["stoeck_seat"] != holder:
        yield f"the stem names seat {body['stoeck_seat']} as the Stöck holder; it is {holder}"
    if (body["stoeck_status"], body["stoeck_reason"]) != (
        score.stoeck.status,
        score.stoeck.reason.value,
    ):
        yield "the Stöck call stated is not the engine's verdict"
    tricks = [(t["index"], t["winner"], t["team"], t["points"]) for t in body["tricks"]]
    if tricks != [(t.index, t.winner, t.team, t.card_points) for t in score.tricks]:
        yield "the nine tricks shown are not the round's"
    solution = view.solution
    if solution and solution["total"] != score.totals[inputs["team"]]:
        yield f"the explanation's total {solution['total']} is not the engine's"


FACT_CHECKS: dict[str, FactCheck] = {
    "announce": _facts_announce,
    "jasstafel": _facts_jasstafel,
    "basics": _facts_basics,
    "weis_value": _facts_weis_value,
    "who_writes": _facts_who_writes,
    "ladder_step": _facts_ladder_step,
    "stoeck": _facts_stoeck,
    "target": _facts_target,
    "trick": _facts_trick,
}
"""Per kind: the facts its stem states, each checked against rules_core."""


def _stoeck_reason(q: Question) -> str:
    i = q.inputs
    result = check_stoeck(
        i["hands"],
        i["contract"],
        [tuple(p) for p in i["plays"]],
        [tuple(c) for c in i["calls"]],
        _rules(q),
    )
    return result.reason.value


_CALLED = ("valid", "too_late", "prompted", "declared_at_first_card")
_HELD: tuple[str, ...] = ("valid", "not_declared", "declared_at_first_card", "too_late", "prompted")
_HELD += ("still_possible", "second_card_not_played")

Presupposition = Callable[[Question, QuestionView], bool]


def _no_trump(q: Question, v: QuestionView) -> bool:
    return v.contract is not None and v.contract.trump is None


def _trump(q: Question, v: QuestionView) -> bool:
    return v.contract is not None and v.contract.trump is not None


def _reason_in(*reasons: str) -> Presupposition:
    return lambda q, v: _stoeck_reason(q) in reasons


def _split(q: Question, v: QuestionView) -> bool:
    return isinstance(v.body, StoeckBody) and v.body.holder is None and _trump(q, v)


def _trumps_in_trick(q: Question) -> list[str]:
    trump = Contract.parse(q.inputs["contract"]).trump
    return [c for c in q.inputs.get("trick", []) if trump is not None and c[0] == trump.code]


def _led_plain_trumped(q: Question, v: QuestionView) -> bool:
    """A suit other than trump was led and a trump lies in the trick (R3.3's case)."""
    trick = q.inputs.get("trick", [])
    trumps = _trumps_in_trick(q)
    return bool(trick) and bool(trumps) and trick[0] not in trumps


PRESUPPOSES: dict[str, Presupposition] = {
    # what the sentence of a mistake takes for granted about the question
    "low_quads_counted": lambda q, v: not _rules(q).low_quads_score,
    "low_quads_not_counted": lambda q, v: _rules(q).low_quads_score,
    "undenufe_order_wrong": lambda q, v: v.contract is not None and v.contract.code == "undenufe",
    "factor_forgotten": lambda q, v: v.contract is not None and _rules(q).factor(v.contract) > 1,
    "eights_not_counted": _no_trump,
    "obenabe_undenufe_values_swapped": _no_trump,
    "obenabe_undenufe_swapped": _no_trump,
    "trump_values_as_plain": _trump,
    "trump_ignored": lambda q, v: bool(_trumps_in_trick(q)),
    "first_trump_wins": lambda q, v: len(_trumps_in_trick(q)) >= 2,
    "plain_order_for_trumps": _trump,
    "trump_before_high_card": _trump,
    "trump_step_forgotten": _trump,
    "under_trump_allowed": _led_plain_trumped,
    "puur_exception_forgotten": _trump,
    "puur_exception_misapplied": _trump,
    "puur_may_not_be_played": _trump,
    "only_trumps_exception_forgotten": _trump,
    "only_trumps_exception_forgotten_and_plain_order": _trump,
    "trump_lead_need_not_be_followed": _trump,
    "trumping_needs_void": _trump,
    "must_trump_when_void": _trump,
    "puur_nell_swapped": _trump,
    "trump_suit_ignored": _trump,
    "puur_nell_swapped_outside_trump": _trump,
    "stoeck_in_no_trump_contract": _no_trump,
    "no_trump_read_as_lost": _no_trump,
    "split_pair_counted": _split,
    "split_pair_read_as_lost": _split,
    "reason_confused": lambda q, v: _no_trump(q, v) or _split(q, v),
    "holder_overlooked": lambda q, v: _trump(q, v) and _stoeck_reason(q) in _HELD,
    "trump_suit_overlooked": _trump,
    "late_call_counted": _reason_in("too_late"),
    "prompted_call_counted": _reason_in("prompted"),
    "prompt_read_as_late": _reason_in("prompted"),
    "first_card_call_counted": _reason_in("declared_at_first_card"),
    "call_thought_still_open": _reason_in("valid"),
    "call_belongs_to_first_card": _reason_in("valid"),
    "call_thought_too_late": _reason_in("still_possible"),
    "call_expected_at_first_card": _reason_in("second_card_not_played"),
    "call_overlooked": _reason_in(*_CALLED),
    "stoeck_counted_without_call": _reason_in(
        "not_declared", "still_possible", "second_card_not_played"
    ),
    "deadline_misread": _reason_in(*_HELD),
}
"""Per mistake: what its sentence states about the question (checked with the engine)."""


def check_facts(q: Question, view: QuestionView) -> list[str]:
    """Every fact of the stem, the explanation's points and the mistakes' premises."""
    found = list(FACT_CHECKS[q.kind](q, view))
    if view.contract is not None:  # the rules the feedback links to ("Read again")
        found += [
            f"links to {rule}, which does not apply in {view.contract.code}"
            for rule in q.rules_tested
            if not _applies(rule.removeprefix("R"), view.contract)
        ]
    data = q.to_dict()
    for key, mistake in q.mistakes.items():
        holds = PRESUPPOSES.get(mistake)
        # a sentence made for this question states its own case; the general one is
        # shown where it holds, and must
        general = feedback_mistake(data, key, "swiss") == mistake_text(mistake)
        if holds is not None and general and not holds(q, view):
            found.append(f"choice {key}: the sentence of mistake {mistake} assumes what is false")
    return found


def check_rule_set(q: Question, view: QuestionView) -> list[str]:
    """The rule set shown is the question's, and the feedback names the rules of it
    that the answer depends on: recomputed under each other preset, and with each
    noted field alone swapped in."""
    rules = _rules(q)
    found = []
    if view.preset != (rules.preset_name() or "custom"):
        found.append(f"the page shows rule set {view.preset!r}, the question has {rules}")
    answer = canon(solve_under(q.kind, q.inputs, rules))
    differs = [
        other
        for other in map(RuleSet.preset, RuleSet.presets())
        if other != rules
        and canon(solve_under(q.kind, inputs_under(q.kind, q.inputs, rules, other), other))
        != answer
    ]
    if differs and not view.rule_set_notes:
        found.append("the answer depends on the rule set, and the feedback does not say so")
    if not differs and view.rule_set_notes:
        found.append("the feedback says the answer depends on the rule set; it does not")
    for note in view.rule_set_notes:
        if FIELD_RULES.get(note.field) != note.rule:
            found.append(f"the note on {note.field} cites {note.rule}")
        if not any(_decides(q, rules, other, note.field, answer) for other in differs):
            found.append(f"a note names {note.field}, which changes no answer here")
    return found


def _decides(q: Question, rules: RuleSet, other: RuleSet, field: str, answer: str) -> bool:
    """Does ``field`` of ``other`` change the answer: alone, or together with the other
    fields ``other`` differs on when none of them does alone?"""

    def changes(name: str) -> bool:
        mixed = with_field(rules, name, getattr(other, name))
        mixed_inputs = inputs_under(q.kind, q.inputs, rules, mixed)
        return canon(solve_under(q.kind, mixed_inputs, mixed)) != answer

    fields = [f for f in FIELD_RULES if getattr(other, f) != getattr(rules, f)]
    if field not in fields:
        return False
    return changes(field) or not any(changes(f) for f in fields)


# -- the text ----------------------------------------------------------------------------

TRUMP_WORDS = re.compile(
    r"trump|trümpf|\bpuur|\bnell\b|\bstech|gestochen|\batouts?\b|\bbour\b|\bnells\b"
    r"|\b(?:sur|sous-)?coup(?:e|er|é|ait|erait)\b",
    re.IGNORECASE,
)
NO_TRUMP = re.compile(
    r"\b(?:no|without) trump|\bkein(?:e|en)? trumpf|\bohne trumpf|\bsans atout"
    r"|\bpas d'atout|\baucun atout|\bpas de couleur d'atout|\bsans couleur d'atout",
    re.IGNORECASE,
)
# W-DE's name of the meld of four 9s, "vier Nell", holds in every contract (lesson 10),
# so a meld's name is not a trump word; nor is the name of Step 4 of the ladder.
MELD_NAMES = re.compile(r"\b(?:four|vier|quatre) [Nn]ells?\b|\bcarré de nells?\b")
# Words of the glossary's "never": one word per concept (common brief).
WRONG_WORDS = {
    "en": re.compile(r"\bdeals?\b|\bpreset\b|(?<!and )\bStöck (?:are|count|were)\b"),
    "de": re.compile(
        r"Regelsatz|\bbedien\w*|Farbe bekennen|\bstech\w*|gestochen|vorgesagt|\bPartei\w*"
    ),
    # the glossary's French bans that a generated sentence could fall into
    "fr": re.compile(
        r"\blevées?\b|\bcombinaisons?\b|\bmanches?\b|\bmultiplicateurs?\b|\bcamps?\b"
        r"|\bvalet d'atout\b|\bdix de der\b|\bannonc\w+ (?:le|du) stöck"
    ),
}
RULE_REF = re.compile(r"\bR(\d+\.\d+[a-z]?)\b")
TRUMP_ONLY_RULES = frozenset(
    {"1.3", "3.2", "3.3", "3.4", "4.1", "6.2", "6.3", "6.4", "6.4a", "6.5"}
)
CONTRACT_RULES = {"4.2": "obenabe", "4.3": "undenufe"}
PLAYER = re.compile(r"\b(?:Player|Spieler|player|spieler|Joueur|joueur) (\d+)")
TEAM = re.compile(r"\b(?:Team|team|[ÉéE]quipe) (\d+)")
TEAM_PLAYERS = re.compile(
    r"\b(?:Team|[ÉéE]quipe) (\d+) \((?:players|Spieler|joueurs) (\d+) (?:and|und|et) (\d+)\)"
)
LOWER_NAME = re.compile(r"\b(?:player|team|step) \d")  # English names are capitalised
# "(79 + 5) × 2 = 168": a sum in brackets times a factor (the Jasstafel's tricks block)
GROUPED_PRODUCT = re.compile(r"\(\s*(\d+(?:\s*\+\s*\d+)+)\s*\)\s*[×x]\s*(\d+)\s*=\s*(\d+)")
SUM = re.compile(r"(?<![\d+])(\d+)((?:[ \t]*\+[ \t]*\d+)+)[ \t]*=[ \t]*(\d+)")
PRODUCT = re.compile(
    r"(\d+)(?: points| Punkte)?[ \t]*×[ \t]*(?:factor |Faktor |facteur )?(\d+)[ \t]*=[ \t]*(\d+)"
)
FACTOR = re.compile(r"\b(?:factor|Faktor|facteur) (\d+)")
HOLDS = {
    "en": re.compile(r"(Player \d)(?: \(Vorhand\))? (?:holds|was dealt) ([^.;:]+)"),
    "de": re.compile(r"(Spieler \d)(?: \(Vorhand\))? (?:hält|erhielt) ([^.;:]+)"),
    "fr": re.compile(r"(Joueur \d)(?: \(avant-main\))? (?:tient|a reçu) ([^.;:]+)"),
}
DEALT_WORD = {"en": " to Player ", "de": " an Spieler ", "fr": " à Joueur "}
HOLD_WORDS = {
    "en": re.compile(r"holds|was dealt"),
    "de": re.compile(r"hält|erhielt"),
    "fr": re.compile(r"tient|a reçu"),
}
DEALT_TO = {
    "en": "{card} to (Player \\d)",
    "de": "{card} an (Spieler \\d)",
    "fr": "{card} à (Joueur \\d)",
}
GENERIC_PAIR = {
    "en": re.compile(r"king and (?:the )?Ober of trump", re.IGNORECASE),
    "de": re.compile(r"König und Ober im Trumpf"),
    "fr": re.compile(r"roi et (?:la )?dame d'atout"),
}
TRUMP_SUIT = {
    "en": re.compile(r"\btrump suit is (\w+)|\btrump suit \((\w+)\)"),
    "de": re.compile(r"\bTrumpffarbe ist (\w+)|\bTrumpffarbe \((\w+)\)|\bTrumpf (\w+)\b"),
    "fr": re.compile(r"\bcouleur d'atout est (\w+)|\bcouleur d'atout \((\w+)\)|\b[Aa]tout (\w+)\b"),
}


def sentences(lines: Iterable[str]) -> Iterator[str]:
    for line in lines:
        yield from (s for s in re.split(r"(?<=[.!?])\s+", line) if s)


def _exempt(sentence: str) -> str:
    """A sentence without the names that contain a trump word without being about
    trump: Step 4 of the ladder, the meld of four 9s."""
    for name in (ex.step_title("trump"), ex.step_inline("trump")):
        sentence = sentence.replace(name, "")
    return MELD_NAMES.sub("", sentence)


class _Names:
    """Card and suit names of one language and deck, for finding them in sentences."""

    def __init__(self, lang: str, deck: str) -> None:
        names = {display_name(c.code, lang, deck): c for c in DECK}
        self.card_of = {name.lower(): card for name, card in names.items()}
        pattern = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        self.cards = re.compile(rf"(?<!\w)({pattern})(?!\w)", re.IGNORECASE)
        self.dealt = re.compile(DEALT_TO[lang].format(card=f"({pattern})"), re.IGNORECASE)
        self.suit_of = {ex.suit_label(s.code, deck).lower(): s for s in {c.suit for c in DECK}}


_NAMES: dict[tuple[str, str], _Names] = {}


def _names(lang: str, deck: str) -> _Names:
    if (lang, deck) not in _NAMES:
        with translation.override(lang):
            _NAMES[(lang, deck)] = _Names(lang, deck)
    return _NAMES[(lang, deck)]


def scan(rendered: Rendered) -> list[tuple[str, str]]:
    """(part, problem) for every statement of the rendered text that is false."""
    q, lang = rendered.question, rendered.lang
    found: list[tuple[str, str]] = []
    with translation.override(lang):
        expected = _("Rule set: %(name)s") % {"name": ex.preset_label(_rules(q).preset_name())}
        if rendered.text["rule-set"] != [expected]:
            found.append(("rule-set", f"shows {rendered.text['rule-set']}, not {expected!r}"))
        seen: dict[tuple[str, str], list[str]] = {}  # a round repeats its short lines
        for part, lines in rendered.text.items():
            for sentence in sentences(lines):
                key = (part if part == "rule-set-notes" else "", sentence)
                if key not in seen:
                    seen[key] = list(_sentence_problems(rendered, part, sentence))
                found.extend((part, p) for p in seen[key])
        found.extend(("solution", p) for p in _tables(rendered))
    return found


def _sentence_problems(rendered: Rendered, part: str, sentence: str) -> Iterator[str]:
    contract = rendered.contract
    if (
        contract is not None
        and contract.trump is None
        and TRUMP_WORDS.search(_exempt(sentence))
        and not NO_TRUMP.search(sentence)
    ):
        yield f"trump, Puur or Nell in {contract.code}: {sentence!r}"
    for rule in RULE_REF.findall(sentence):
        if contract is not None and not _applies(rule, contract):
            yield f"R{rule} cited in {contract.code}, where it does not apply: {sentence!r}"
    for word in WRONG_WORDS[rendered.lang].findall(sentence):
        yield f"{word!r} is not the site's word for it: {sentence!r}"
    yield from _numbering(sentence, rendered.lang)
    yield from _sums(sentence)
    yield from _claims(rendered, part, sentence, contract)


def _applies(rule: str, contract: Contract) -> bool:
    """Does rule ``rule`` ("4.2", without its R) apply in ``contract``?"""
    if rule in TRUMP_ONLY_RULES and contract.trump is None:
        return False
    return rule not in CONTRACT_RULES or contract.code == CONTRACT_RULES[rule]


def _numbering(sentence: str, lang: str) -> Iterator[str]:
    for n in PLAYER.findall(sentence):
        if not 1 <= int(n) <= 4:
            yield f"player {n}: players are 1-4: {sentence!r}"
    for n in TEAM.findall(sentence):
        if not 1 <= int(n) <= 2:
            yield f"team {n}: teams are 1 and 2: {sentence!r}"
    for team, a, b in TEAM_PLAYERS.findall(sentence):
        if (int(a), int(b)) != (int(team), int(team) + 2):
            yield f"Team {team} is not players {a} and {b}: {sentence!r}"
    if lang == "en" and LOWER_NAME.search(sentence):
        yield f"'Player 3', 'Team 1' and 'Step 3' are names, capitalised: {sentence!r}"


def _sums(sentence: str) -> Iterator[str]:
    for inner, factor, total in GROUPED_PRODUCT.findall(sentence):
        terms = [int(n) for n in re.findall(r"\d+", inner)]
        if sum(terms) * int(factor) != int(total):
            yield f"({' + '.join(map(str, terms))}) × {factor} is not {total}: {sentence!r}"
    for first, rest, total in SUM.findall(sentence):
        terms = [int(first), *map(int, re.findall(r"\d+", rest))]
        if sum(terms) != int(total):
            yield f"{' + '.join(map(str, terms))} is not {total}: {sentence!r}"
    for a, b, total in PRODUCT.findall(sentence):
        if int(a) * int(b) != int(total):
            yield f"{a} × {b} is not {total}: {sentence!r}"


def _claims(
    rendered: Rendered, part: str, sentence: str, contract: Contract | None
) -> Iterator[str]:
    names = _names(rendered.lang, rendered.deck)
    if contract is not None:
        yield from _contract_claims(rendered, names, part, sentence, contract)
    hands = rendered.question.inputs.get("hands")
    if hands and PLAYER.search(sentence):
        yield from _holding_claims(rendered.lang, names, hands, sentence, contract)


def _contract_claims(
    rendered: Rendered, names: _Names, part: str, sentence: str, contract: Contract
) -> Iterator[str]:
    """The factor and the trump suit a sentence names are the contract's."""
    rules = rendered.rules
    # a rule-set note states the other rule set's factor too; check_rule_set checks it
    for number in FACTOR.findall(sentence) if part != "rule-set-notes" else ():
        if int(number) != rules.factor(contract):
            yield f"factor {number}: {contract.code} counts with {rules.factor(contract)}"
    for groups in TRUMP_SUIT[rendered.lang].findall(sentence):
        word = next(g for g in groups if g).lower()
        suit = names.suit_of.get(word)
        if suit is not None and suit != contract.trump:
            yield f"names {word} as trump; the contract is {contract.code}: {sentence!r}"


def _holding_claims(
    lang: str, names: _Names, hands: Any, sentence: str, contract: Contract | None
) -> Iterator[str]:
    """Every card a sentence says a player was dealt or holds was dealt to them."""
    claims: list[tuple[int, Card]] = []
    # cheap tests first: a round's timeline names a player on almost every line
    dealt = names.dealt.findall(sentence) if DEALT_WORD[lang] in sentence else ()
    for card_name, player in dealt:
        claims.append((int(player.split()[1]) - 1, names.card_of[card_name.lower()]))
    holds = HOLDS[lang].findall(sentence) if HOLD_WORDS[lang].search(sentence) else ()
    for player, what in holds:
        seat = int(player.split()[1]) - 1
        cards = [names.card_of[n.lower()] for n in names.cards.findall(what)]
        if GENERIC_PAIR[lang].search(what):
            if contract is None or contract.trump is None:
                yield f"King and Ober of trump in a contract without trump: {sentence!r}"
                continue
            cards += [Card.parse(contract.trump.code + "K"), Card.parse(contract.trump.code + "Q")]
        claims.extend((seat, card) for card in cards)
    for seat, card in claims:
        if card.code not in hands[seat]:
            yield f"says Player {seat + 1} holds {card.code}; they were not dealt it: {sentence!r}"


def _tables(rendered: Rendered) -> Iterator[str]:
    """The explanation's tables add up: the points of a trick, the counting towards
    the target."""
    html = rendered.html["solution"]
    rows = table_rows(html, "points-table")
    if rows:
        values = [r[-1] for r in rows]
        total = int(values[-1])
        running = 0
        factor = 1
        for value in values[:-1]:
            if value.startswith("×"):
                factor = int(value.lstrip("× "))
            else:
                running += int(value.lstrip("+"))
        if running * factor != total:
            yield f"the trick's points add up to {running} × {factor}, not {total}"
    rows = table_rows(html, "target-table")
    totals: list[int] | None = None
    for row in rows[1:]:  # the first row is the heading
        cells = row[1:]
        if totals is None:
            totals = [int(c) for c in cells]
            continue
        for team, cell in enumerate(cells):
            match = re.fullmatch(r"\+(\d+) = (\d+)", cell)
            if match:
                if totals[team] + int(match[1]) != int(match[2]):
                    yield f"{totals[team]} + {match[1]} is not {match[2]} (Team {team + 1})"
                totals[team] = int(match[2])
            elif cell.isdigit() and int(cell) != totals[team]:
                yield f"Team {team + 1}'s total changes from {totals[team]} to {cell} unexplained"


# -- all together ------------------------------------------------------------------------


def check_question(
    question: Question,
    langs: Iterable[str] = LANGS,
    deck: str = "swiss",
    templates: Mapping[str, Draw] | None = None,
) -> list[Problem]:
    """Every problem of one question, in each language."""
    preset = _rules(question).preset_name() or "custom"
    problems = []
    first = True
    for lang in langs:
        rendered = render(question, lang, deck, templates)

        def problem(where: str, message: str, lang: str = lang) -> Problem:
            return Problem(question.kind, question.seed, preset, lang, where, message)

        if first:  # the facts do not depend on the language
            problems += [problem("facts", m) for m in check_facts(question, rendered.view)]
            problems += [problem("rule set", m) for m in check_rule_set(question, rendered.view)]
            if "table" in question.prompt:  # a table position: its round played again
                problems += [problem("position", m) for m in check_position(question)]
            first = False
        problems += [problem(where, m) for where, m in scan(rendered)]
    return problems


__all__ = [
    "FACT_CHECKS",
    "LANGS",
    "PARTS",
    "PRESUPPOSES",
    "Draw",
    "Problem",
    "Rendered",
    "check_facts",
    "check_question",
    "check_rule_set",
    "default_templates",
    "readable_lines",
    "render",
    "scan",
]
