"""The referee: replays a move log around the site's players and judges every
learner decision (formats and decisions in :mod:`teaching.table`)."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules_core import (
    DECK,
    Card,
    Contract,
    Meld,
    Round,
    RulesError,
    RuleSet,
    Step,
    TrickResult,
    WeisResult,
    best_meld,
    compare_melds,
    explain_best_meld,
    resolve_weis,
)

from .bots import bot_card
from .judgements import (
    AnnounceAnswer,
    AnnounceVerdict,
    BlockAnswer,
    CallRef,
    CardGiven,
    Expected,
    Given,
    IfBest,
    Judgement,
    LateAnnounceVerdict,
    LegalExpected,
    PlayVerdict,
    StoeckAnswer,
    StoeckVerdict,
    TargetVerdict,
    Verdict,
    WeisSummary,
    WritesVerdict,
)
from .model import (
    BLOCKS,
    Announcement,
    Block,
    Call,
    Exchange,
    Kind,
    MeldWords,
    Outcome,
    Phase,
    Reminder,
    Scenario,
    Shown,
    Skill,
    TableError,
    TalkLine,
    Trick,
)
from .moves import (
    AnnounceMove,
    JasstafelAnswer,
    JasstafelMove,
    Move,
    PlayMove,
    StoeckMove,
    TargetAnswer,
    WritesAnswer,
    WritesMove,
    move_kind,
    parse_move,
)
from .result import Table, TableScore
from .scoring import block_verdict, table_score

__all__ = [
    "ROUND_PLAYS",
    "RefereeState",
    "RoundState",
    "announce_strict",
    "reference_move",
    "referee",
    "replay",
    "replay_state",
    "score",
    "step",
]

ROUND_PLAYS = len(DECK)  # a round plays every card once
_BY_CODE = {c.code: c for c in DECK}

# A learner's Stöck call as the engine's ``stoeck.call`` verdict judges it:
# verdict -> (outcome, rule, key).
_CALL_JUDGED: dict[str, tuple[Outcome, str, str]] = {
    "counts": ("right", "R6.2", "stoeck.counts"),
    "prompted": ("info", "R6.4", "stoeck.prompted"),
    "too_late": ("wrong", "R6.3", "stoeck.too_late"),
    "first_card": ("wrong", "R6.2", "stoeck.first_card"),
    "too_early": ("wrong", "R6.4", "stoeck.too_early"),
    "other_seat": ("wrong", "R6.4", "stoeck.not_holder"),
    "no_stoeck": ("wrong", "R6.4", "stoeck.not_holder"),
}
_BLOCK_SKILLS: dict[str, Skill] = {"weis": "who_writes", "stoeck": "stoeck", "tricks": "target"}
_WRITES_KEYS = {
    (True, True): "writes.right",
    (False, True): "writes.wrong_team",
    (True, False): "writes.wrong_points",
    (False, False): "writes.wrong_team_and_points",
}
_WAITING = {
    "play": "your card",
    "writes": "who writes Weis (writes)",
    "jasstafel": "the Jasstafel (jasstafel)",
    "done": "nothing: the round is over",
}
_WANTED = {
    "card": "a card",
    "stoeck": "«Stöck!»",
    "announce": "an announcement",
    "writes": "who writes Weis",
    "jasstafel": "the Jasstafel",
}


def announce_strict(rules: RuleSet) -> bool:
    """True when the rule set wants the strongest meld announced (W-EN): the
    ``w-en`` preset. Every other rule set follows W-DE ("wählt selbst")."""
    return rules.preset_name() == "w-en"


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def _described(meld: Meld, contract: Contract, rules: RuleSet) -> MeldWords:
    """What a player says of a meld when values are equal: kind, cards, the card the
    ladder compares (rank and end, no suit) and whether it is a trump sequence."""
    reverse = contract is Contract.UNDENUFE and rules.undenufe_reverses_weis
    sequence = meld.kind.value == "sequence"
    card = meld.bottom if reverse else meld.top
    return MeldWords(
        kind=meld.kind.value,
        cards=len(meld.cards),
        rank=card.rank.code,
        end=("bottom" if reverse else "top") if sequence else None,
        trump=sequence and meld.suit is contract.trump,
    )


class RoundState:
    """A round being replayed around the learner (mutable; :meth:`table` freezes
    it). :func:`referee` and the scenario builders drive it move by move."""

    def __init__(self, scenario: Scenario) -> None:
        if not isinstance(scenario, Scenario):
            raise TableError(
                f"referee needs a Scenario, got {type(scenario).__name__}", "scenario.needed"
            )
        self.scenario = scenario
        self.rules = scenario.rules
        self.contract = Contract.parse(scenario.contract)
        self.hands = tuple(tuple(_BY_CODE[c] for c in hand) for hand in scenario.hands)
        # The engine's round: the cards, the tricks, the claims and the Stöck calls.
        self.round = Round(self.hands, self.contract, self.rules)
        self.me = scenario.seat
        self.announcements: list[Announcement] = []
        self.exchanges: list[Exchange] = []
        self.claim: tuple[int, int, Meld] | None = None  # the best claim so far (table talk)
        self.called: set[str] = set()  # the keys the learner's Stöck calls were judged with
        self.calls: list[Call] = []
        self.reminder: Reminder | None = None
        self.shown: Shown | None = None
        self.writes_done = False
        self.jasstafel: JasstafelAnswer | None = None
        self.judgements: list[Judgement] = []
        self.phase: Phase = "play"
        self.legal: tuple[Card, ...] = ()
        self.first_play: int | None = None  # the learner's first card
        self.second_play: int | None = None  # the learner's second Stöck card
        self.uncalled: int | None = None  # ... while its deadline runs without a call
        self.scored = False  # the learner's Stöck counts
        self.moves: list[Any] = []
        self._advance(None)

    # -- small helpers -------------------------------------------------------

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """Every card played so far, ``(seat, card)`` in order."""
        return self.round.plays

    @property
    def pair(self) -> frozenset[Card]:
        """King and Ober of trump (R6.1), empty without trump."""
        return frozenset(self.round.stoeck_pair or ())

    @property
    def holder(self) -> int | None:
        """The seat holding both Stöck cards (R6.1), else None."""
        return self.round.stoeck_holder

    @property
    def claims(self) -> tuple[int | None, ...]:
        """Per seat the value announced in time (R5.4a), None for silence."""
        return self.round.claims

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` still holds."""
        return self.round.hand(seat)

    def trick_cards(self) -> tuple[Card, ...]:
        """The cards of the trick on the table."""
        return self.round.trick

    def _judge(
        self,
        *,
        move: int,
        kind: Kind,
        outcome: Outcome,
        rule: str,
        skill: Skill,
        key: str,
        at_play: int,
        given: Given,
        expected: Expected | None,
        verdict: Verdict,
    ) -> None:
        self.judgements.append(
            Judgement(
                move=move,
                kind=kind,
                outcome=outcome,
                rule=rule,
                skill=skill,
                key=key,
                at_play=at_play,
                given=given,
                expected=expected,
                verdict=verdict,
            )
        )

    def weis(self) -> WeisResult:
        """Who writes Weis: the announced claims compared (R5.4a, R5.4b, R5.6, R5.7)."""
        return self.round.weis()

    def score(self) -> TableScore:
        """The written score of the round (raises before the nine tricks are played)."""
        return table_score(self.scenario, self.round.score(), self.weis())

    def learner_holds_second(self, card: Card) -> bool:
        """``card`` is the learner's second Stöck card (the other one is gone)."""
        hand = set(self.hand(self.me))
        return self.me == self.holder and card in self.pair and not (self.pair - {card}) & hand

    # -- the flow --------------------------------------------------------------

    def _advance(self, move: int | None) -> None:
        """Let the site's players play until the learner must act. A complete trick is
        gathered the moment the table waits for the learner (the next card would
        gather it anyway): what the learner says then comes after the gathering."""
        while True:
            n = len(self.plays)
            if n == ROUND_PLAYS:
                self.phase = "jasstafel" if self.jasstafel is None else "done"
                self.legal = ()
                break
            if n == 4 and not self.writes_done:
                self.phase = "writes"
                self.legal = ()
                self._show()
                break
            seat = self.round.to_play
            if seat is None:  # pragma: no cover - the round is over (checked above)
                break
            if seat == self.me:
                self.phase = "play"
                self.legal = tuple(self.round.legal_cards())
                self._maybe_remind(move)
                break
            self._bot_turn(seat, move)
        if self.round.can_gather():
            self.round.gather()

    def _bot_turn(self, seat: int, move: int | None) -> None:
        card = bot_card(self.hand(seat), self.trick_cards(), self.contract)
        index = len(self.plays)
        self._play(card, move)
        if index < 4:
            meld = best_meld(self.hands[seat], self.contract, self.rules)
            if meld is not None:
                self._announce(seat, meld.points, index)
        if seat == self.holder and card in self.pair and not self.pair & set(self.hand(seat)):
            self.round.call_stoeck(seat)
            self.calls.append(Call(seat, index, index, False, True, None))

    def _play(self, card: Card, move: int | None) -> None:
        index = len(self.plays)
        self.round.play(card)
        if self.uncalled is not None and index == self.uncalled + 1:
            self._forgotten(move)

    def _maybe_remind(self, move: int | None) -> None:
        """The partner's «Denk an die Stöck!» (``stoeck`` scenarios, odd seed): at the
        learner's first turn after the first Stöck card where the second is legal."""
        if not self.scenario.reminder or self.reminder is not None or self.me != self.holder:
            return
        left = self.pair & set(self.hand(self.me))
        if len(left) == 1 and next(iter(left)) in self.legal:
            self.reminder = Reminder(
                seat=self.scenario.partner, after_play=len(self.plays) - 1, move=move
            )

    def _show(self) -> None:
        """The writing team shows its melds at the second trick (R5.7)."""
        weis = self.weis()
        self.shown = Shown(team=weis.team, melds=tuple(tuple(w) for w in weis.written))

    # -- announcements -----------------------------------------------------------

    def _announce(self, seat: int, value: int, play: int) -> Meld | None:
        """An announcement with the player's first card, given to the engine; returns
        its claim (R5.4a: the best meld of that value the player holds), None for a
        false Weis (R5.7)."""
        claim = self.round.announce(value, seat).claim
        counts = claim is not None
        self.announcements.append(Announcement(seat, value, play, False, counts, claim))
        if claim is not None:
            self._exchange(seat, value, play, claim)
        return claim

    def _exchange(self, seat: int, value: int, play: int, meld: Meld) -> None:
        """W-DE's exchange when an opponent announces the value of the best claim so far;
        ``meld`` is the claim (R5.4a: the best meld of the announced value)."""
        claim = self.claim
        if claim is None or value > claim[1]:
            self.claim = (seat, value, meld)
            return
        if value < claim[1]:
            return
        first, _value, first_meld = claim
        cmp = compare_melds(first_meld, first, meld, seat, self.contract, self.rules)
        if first % 2 != seat % 2:
            words = _described(first_meld, self.contract, self.rules)
            lines = [
                TalkLine(seat=seat, say="too", value=value),
                TalkLine(seat=first, say="meld", meld=words),
            ]
            if cmp.winner == 0 and cmp.step in (Step.CARDS, Step.HIGH_CARD):
                lines.append(TalkLine(seat=seat, say="good"))
            else:
                own = _described(meld, self.contract, self.rules)
                lines.append(TalkLine(seat=seat, say="meld", meld=own))
                lines.append(TalkLine(seat=seat if cmp.winner == 0 else first, say="good"))
            self.exchanges.append(
                Exchange(
                    play=play,
                    seats=(first, seat),
                    value=value,
                    lines=tuple(lines),
                    winner=first if cmp.winner == 0 else seat,
                    step=cmp.step.value,
                )
            )
        if cmp.winner == 1:
            self.claim = (seat, value, meld)

    def _learner_announce(self, i: int, value: int, index: int) -> None:
        hand = self.hands[self.me]
        choice = explain_best_meld(hand, self.contract, self.rules)
        held = tuple(sorted({m.points for m in choice.melds}))
        best = choice.best.points if choice.best is not None else 0
        strict = announce_strict(self.rules)
        outcome: Outcome
        if value == 0:
            outcome, key = (
                ("info", "announce.none_with_meld") if best else ("right", "announce.none")
            )
            rule = "R5.4"
        elif value == best:
            outcome, rule, key = "right", "R5.4", "announce.best"
        elif value in held:
            outcome, rule = ("wrong" if strict else "right"), "R5.4"
            key = "announce.not_best_strict" if strict else "announce.not_best"
        else:
            outcome, rule, key = "wrong", "R5.7", "announce.not_held"
        self._judge(
            move=i,
            kind="announce",
            outcome=outcome,
            rule=rule,
            skill="weis_value",
            key=key,
            at_play=index,
            given=AnnounceAnswer(value),
            expected=AnnounceAnswer(best),
            verdict=AnnounceVerdict(
                announced=value, held=held, best=best, strict=strict, choice=choice
            ),
        )
        if value:
            self._announce(self.me, value, index)

    def _late_announce(self, i: int, value: int) -> None:
        n = len(self.plays)
        self.announcements.append(Announcement(self.me, value, n - 1, True, False, None))
        self._judge(
            move=i,
            kind="announce",
            outcome="wrong",
            rule="R5.4",
            skill="weis_value",
            key="announce.late",
            at_play=n,
            given=AnnounceAnswer(value),
            expected=AnnounceAnswer(None),
            verdict=LateAnnounceVerdict(announced=value, first_play=self.first_play, plays=n),
        )

    # -- Stöck -------------------------------------------------------------------

    def _learner_call(self, i: int, said_after: int, *, with_card: bool) -> None:
        """Judge a learner's «Stöck!» said after ``plays[said_after]``."""
        prompted = self.reminder is not None
        holds = self.me == self.holder
        given = StoeckAnswer(stoeck=True, with_card=with_card)
        if holds and self.scored:
            # already counted: saying it again changes nothing
            self.calls.append(Call(self.me, said_after, None, prompted, with_card, i))
            self._judge(
                move=i,
                kind="stoeck",
                outcome="info",
                rule="R6.2",
                skill="stoeck",
                key="stoeck.repeated",
                at_play=said_after,
                given=given,
                expected=None,
                verdict=StoeckVerdict(result=self.round.stoeck),
            )
            return
        called = self.round.call_stoeck(self.me, prompted=prompted)
        after_trick = holds and not with_card and said_after == self.second_play
        # The call as the stateless check_stoeck takes it: one said after the gathering
        # of its trick counts as made with the next card (none after the last card).
        after: int | None = said_after
        if after_trick:
            after = said_after + 1 if said_after + 1 < ROUND_PLAYS else None
            self.uncalled = None
        self.calls.append(Call(self.me, said_after, after, prompted, with_card, i))
        outcome, rule, key = _CALL_JUDGED[called.verdict]
        if not holds and self.contract.trump is None:
            rule, key = "R6.1", "stoeck.no_trump"
        if called.verdict == "counts":
            self.scored = True
        if said_after == self.second_play:
            self.uncalled = None
        expected = (
            StoeckAnswer(stoeck=True, with_card=True) if holds else StoeckAnswer(stoeck=False)
        )
        verdict = StoeckVerdict(
            result=called.stoeck,
            call=CallRef(seat=self.me, said_after=said_after, after_play=after),
            call_verdict=called.verdict,
            after_trick=after_trick,
        )
        self._judge_call(i, said_after, outcome, rule, key, given, expected, verdict)

    def _judge_call(
        self,
        i: int,
        said_after: int,
        outcome: Outcome,
        rule: str,
        key: str,
        given: StoeckAnswer,
        expected: StoeckAnswer | None,
        verdict: StoeckVerdict,
    ) -> None:
        """A call judged like an earlier one of the learner's is judged once: the repeat
        is ``stoeck.repeated`` (info), so calling again and again costs nothing more
        and shows nothing new (the engine still gets it)."""
        if key in self.called:
            verdict = replace(verdict, repeats=key)
            outcome, rule, key, expected = "info", "R6.2", "stoeck.repeated", None
        else:
            self.called.add(key)
        self._judge(
            move=i,
            kind="stoeck",
            outcome=outcome,
            rule=rule,
            skill="stoeck",
            key=key,
            at_play=said_after,
            given=given,
            expected=expected,
            verdict=verdict,
        )

    def _forgotten(self, move: int | None) -> None:
        """The learner's second Stöck card went without a call and its deadline passed."""
        second = self.uncalled if self.uncalled is not None else self.second_play
        self.uncalled = None
        prompted = self.reminder is not None
        outcome: Outcome = "info" if prompted else "wrong"
        self._judge(
            move=-1 if move is None else move,
            kind="stoeck",
            outcome=outcome,
            rule="R6.4" if prompted else "R6.3",
            skill="stoeck",
            key="stoeck.forgotten",
            at_play=second if second is not None else len(self.plays) - 1,
            given=StoeckAnswer(stoeck=False),
            expected=StoeckAnswer(stoeck=True, with_card=True),
            verdict=StoeckVerdict(result=self.round.stoeck),
        )

    # -- learner moves -----------------------------------------------------------

    def apply(self, i: int, raw: Any) -> None:
        """Apply the learner's move ``raw`` (JSON), the ``i``-th (0-based) of the log."""
        move_kind(raw, i)
        self._not_over(i)
        self._apply(i, parse_move(raw, i), copy.deepcopy(raw))

    def apply_move(self, i: int, move: Move) -> None:
        """Apply a typed move, the ``i``-th (0-based) of the log."""
        self._not_over(i)
        self._apply(i, move, move.to_dict())

    def _not_over(self, i: int) -> None:
        if self.phase == "done":
            raise TableError(f"move {i + 1}: the round is over", "move.round_over", {"move": i})

    def _apply(self, i: int, move: Move, raw: Any) -> None:
        self.moves.append(raw)
        if isinstance(move, PlayMove):
            self._move_play(i, move)
        elif isinstance(move, StoeckMove):
            self._move_stoeck(i)
        elif isinstance(move, AnnounceMove):
            self._move_announce(i, move.value)
        elif isinstance(move, WritesMove):
            self._move_writes(i, move.writes)
        else:
            self._move_jasstafel(i, move.jasstafel)

    def _phase_error(self, i: int, wanted: str) -> TableError:
        """``wanted``: what the move brings (one of ``PHASE_WANTS``)."""
        return TableError(
            f"move {i + 1}: not the time for {_WANTED[wanted]}; the table waits for "
            f"{_WAITING[self.phase]}",
            "move.not_now",
            {"move": i, "wanted": wanted, "waiting": self.phase},
        )

    def _move_play(self, i: int, move: PlayMove) -> None:
        card = move.card
        if self.phase != "play":
            raise self._phase_error(i, "card")
        hand = self.hand(self.me)
        if card not in hand:
            raise TableError(
                f"move {i + 1}: {card.code} is not in your hand ({' '.join(_codes(hand))})",
                "move.not_in_hand",
                {"move": i, "card": card.code, "hand": _codes(hand)},
            )
        trick = self.trick_cards()
        explained = self.round.legal()
        entry = next(v for v in explained.verdicts if v["card"] == card.code)
        index = len(self.plays)
        legal = bool(entry["legal"])
        self._judge(
            move=i,
            kind="play",
            outcome="right" if legal else "wrong",
            rule=entry.rule,
            skill="trick",
            key=entry.key,
            at_play=index,
            given=CardGiven(card.code),
            expected=LegalExpected(tuple(_codes(explained.legal))),
            verdict=PlayVerdict(card=card.code, trick=tuple(_codes(trick)), legal=explained),
        )
        if not legal:
            return  # refused: the learner plays again; nothing else of the move happens
        self._play_legal(i, card, index, announce=move.announce or 0, stoeck=bool(move.stoeck))

    def _play_legal(self, i: int, card: Card, index: int, *, announce: int, stoeck: bool) -> None:
        second = self.learner_holds_second(card)
        self._play(card, i)
        if self.first_play is None:
            self.first_play = index
            self._learner_announce(i, announce, index)
        elif announce:
            self._announce_later(i, announce)
        if second:
            self.second_play = index
        if stoeck:
            self._learner_call(i, index, with_card=True)
        elif second:
            self.uncalled = index
            if len(self.plays) == ROUND_PLAYS:
                self._forgotten(i)
        self._advance(i)

    def _move_stoeck(self, i: int) -> None:
        if self.phase not in ("play", "writes", "jasstafel"):
            raise self._phase_error(i, "stoeck")
        if not self.plays:
            raise TableError(
                f"move {i + 1}: no card has been played yet; say «Stöck!» with a card",
                "move.stoeck_first",
                {"move": i},
            )
        self._learner_call(i, len(self.plays) - 1, with_card=False)

    def _move_announce(self, i: int, value: int) -> None:
        if self.phase not in ("play", "writes", "jasstafel"):
            raise self._phase_error(i, "announce")
        if self.first_play is None:
            raise TableError(
                f"move {i + 1}: announce together with your first card, "
                '{"play": ..., "announce": ...}',
                "move.announce_first",
                {"move": i},
            )
        self._announce_later(i, value)

    def _announce_later(self, i: int, value: int) -> None:
        """An announcement after the learner's first card: late by the engine's
        deadline (R5.4, ``rules_core.announce_deadline``): the next player has played
        at once, or the first trick was gathered."""
        if self.round.can_announce(value, seat=self.me):  # pragma: no cover - never here
            self._learner_announce(i, value, len(self.plays) - 1)
        else:
            self._late_announce(i, value)

    def _move_writes(self, i: int, given: WritesAnswer) -> None:
        if self.phase != "writes":
            raise self._phase_error(i, "writes")
        weis = self.weis()
        expected = WritesAnswer(team=weis.team, points=weis.scored)
        team_ok = given.team == expected.team
        points_ok = given.points == expected.points
        # Each player's own line only for the learner and for those who show melds: the
        # others' hands are not the learner's to know.
        trace = tuple(
            e
            for e in weis.trace
            if not (
                e.key in ("weis.seat", "weis.claim")
                and e["seat"] != self.me
                and not weis.written[e["seat"]]
            )
        )
        verdict = WritesVerdict(
            weis=WeisSummary(
                team=weis.team,
                points=weis.points,
                factor=weis.factor,
                scored=weis.scored,
                step=None if weis.step is None else weis.step.value,
                best_seat=weis.best_seat,
            ),
            claims=tuple(self.claims),
            status=tuple(weis.status),
            counted=tuple(m is not None for m in weis.claimed),
            if_best=self._if_best(weis),
            shown=self.shown,
            team_right=team_ok,
            points_right=points_ok,
            trace=trace,
        )
        self._judge(
            move=i,
            kind="writes",
            outcome="right" if team_ok and points_ok else "wrong",
            rule="R5.6",
            skill="who_writes",
            key=_WRITES_KEYS[(team_ok, points_ok)],
            at_play=len(self.plays),
            given=given,
            expected=expected,
            verdict=verdict,
        )
        self.writes_done = True
        self._advance(i)

    def _if_best(self, weis: WeisResult) -> IfBest | None:
        """Who would write had the learner announced their best meld, when they
        announced another value or nothing though holding a meld (R5.4a, R5.4b)."""
        best = weis.melds[self.me][0] if weis.melds[self.me] else None
        if best is None or self.claims[self.me] == best.points:
            return None
        claims = list(self.claims)
        claims[self.me] = best.points
        other = resolve_weis(self.hands, self.contract, self.rules, claims=claims)
        return IfBest(value=best.points, team=other.team, scored=other.scored)

    def _move_jasstafel(self, i: int, given: JasstafelAnswer) -> None:
        if self.phase != "jasstafel":
            raise self._phase_error(i, "jasstafel")
        result = self.score()
        for team in (0, 1):
            for block in BLOCKS:
                written = given.blocks[team][block]
                right = result.blocks[team][block]
                self._judge(
                    move=i,
                    kind="jasstafel_block",
                    outcome="right" if written == right else "wrong",
                    rule="R7.1",
                    skill=_BLOCK_SKILLS[block],
                    key=f"jasstafel.{block}",
                    at_play=ROUND_PLAYS,
                    given=BlockAnswer(team=team, block=block, points=written),
                    expected=BlockAnswer(team=team, block=block, points=right),
                    verdict=block_verdict(result, team, block),
                )
        target = result.target
        expected = TargetAnswer(team=target.team, block=_block(target.block), trick=target.trick)
        rule = {"weis": "R7.3", "stoeck": "R7.3", "tricks": "R7.4", None: "R7.5"}[target.block]
        self._judge(
            move=i,
            kind="target",
            outcome="right" if given.target == expected else "wrong",
            rule=rule,
            skill="target",
            key=f"target.{target.block or 'nobody'}",
            at_play=ROUND_PLAYS,
            given=given.target,
            expected=expected,
            verdict=TargetVerdict(target=target, blocks=result.blocks, before=result.before),
        )
        self.jasstafel = given
        self.phase = "done"

    # -- freezing ----------------------------------------------------------------

    def table(self) -> Table:
        return Table(
            scenario=self.scenario,
            moves=tuple(self.moves),
            hands=self.scenario.hands,
            held=tuple(tuple(_codes(self.hand(seat))) for seat in range(4)),
            plays=tuple((s, c.code) for s, c in self.plays),
            tricks=(*(_trick(t) for t in self.round.tricks), *self._open_trick()),
            announcements=tuple(self.announcements),
            exchanges=tuple(self.exchanges),
            calls=tuple(self.calls),
            reminder=self.reminder,
            shown=self.shown,
            phase=self.phase,
            legal=tuple(_codes(self.legal)),
            judgements=tuple(self.judgements),
            jasstafel=self.jasstafel,
        )

    def _open_trick(self) -> tuple[Trick, ...]:
        n = len(self.plays)
        if n % 4 == 0:
            return ()
        part = self.plays[n - n % 4 :]
        return (
            Trick(n // 4, part[0][0], tuple(s for s, _c in part), tuple(c.code for _s, c in part)),
        )

    # -- the reference learner ---------------------------------------------------

    def reference_move(self) -> Move:
        """The reference learner's next move (see :func:`reference_move`)."""
        if self.phase == "play":
            card = bot_card(self.hand(self.me), self.trick_cards(), self.contract)
            announce = None
            if self.first_play is None:
                meld = best_meld(self.hands[self.me], self.contract, self.rules)
                announce = None if meld is None else meld.points
            stoeck = True if self.learner_holds_second(card) else None
            return PlayMove(card=card, announce=announce, stoeck=stoeck)
        if self.phase == "writes":
            weis = self.weis()
            return WritesMove(WritesAnswer(team=weis.team, points=weis.scored))
        if self.phase == "jasstafel":
            result = self.score()
            target = result.target
            answer = TargetAnswer(team=target.team, block=_block(target.block), trick=target.trick)
            return JasstafelMove(JasstafelAnswer(blocks=result.blocks, target=answer))
        raise TableError("the round is over: there is no next move", "round.over")


def _trick(t: TrickResult) -> Trick:
    """A trick of the engine's round as the table records it."""
    return Trick(
        t.index, t.leader, t.seats, tuple(_codes(t.cards)), t.winner, t.card_points, t.points
    )


def _block(name: str | None) -> Block | None:
    """A block name of the engine as the table's :data:`Block` (None: no block)."""
    for block in BLOCKS:
        if block == name:
            return block
    return None


def replay(scenario: Scenario, moves: Any) -> RoundState:
    """The state after ``moves`` (a list of JSON moves); :func:`referee` freezes it."""
    if isinstance(moves, (str, bytes, Mapping)) or not isinstance(moves, Sequence):
        raise TableError(
            f"moves must be a list of move objects, got {type(moves).__name__}", "log.not_list"
        )
    state = RoundState(scenario)
    for move in moves:
        step(state, move)
    return state


# The referee's running state, for callers that keep it between moves (the site's
# cache); ``.moves`` is its log, ``.table()`` freezes it.
RefereeState = RoundState


def step(state: RoundState, move: Any) -> None:
    """Apply one more learner move to ``state``, in place: the referee's one step.

    A full replay (:func:`replay_state`, :func:`referee`) is this step folded over the log
    from the deal, so a state kept after ``n`` moves and stepped once equals the
    replay of the ``n + 1`` moves: the two cannot drift apart. Raises
    :class:`TableError` for a refused move; the state may then be half-changed and
    must be dropped (replay the log again for a clean one).

    >>> from teaching.table import build_scenario, reference_move
    >>> scenario = build_scenario("stoeck", 2)
    >>> state = replay_state(scenario, [])
    >>> move = reference_move(state.table())
    >>> step(state, move)
    >>> state.table() == referee(scenario, [move])
    True
    """
    i = len(state.moves)
    try:
        state.apply(i, move)
    except TableError:
        raise
    except RulesError as err:  # pragma: no cover - a referee bug, reported readably
        raise TableError(f"move {i + 1}: {err}", "move.engine", {"move": i}) from None


def replay_state(scenario: Scenario, moves: Any) -> RoundState:
    """The referee's state after ``moves``: :func:`step` applied to each move in turn,
    from the deal. Raises :class:`TableError` for a bad log (like :func:`referee`)."""
    return replay(scenario, moves)


def referee(scenario: Scenario, moves: Any) -> Table:
    """Replay ``moves`` (a list of move objects) with the site's players around the
    learner and judge every learner decision. Pure and deterministic: the same
    scenario and moves give an equal :class:`Table`. Raises :class:`TableError` for a
    bad move (the whole log is refused).
    """
    return replay(scenario, moves).table()


def score(table: Table) -> TableScore:
    """The written score of a table whose nine tricks are played (phase
    ``jasstafel`` or ``done``); raises :class:`TableError` before that."""
    if len(table.plays) < ROUND_PLAYS:
        raise TableError("the round is not over: score needs all nine tricks", "round.not_over")
    return replay(table.scenario, list(table.moves)).score()


def reference_move(table: Table) -> dict[str, Any]:
    """The next move of the reference learner, as JSON: the site players' card policy
    for the card, the best meld's value with the first card, «Stöck!» with the second
    Stöck card, and the right ``writes`` and ``jasstafel``. Raises
    :class:`TableError` when the round is over."""
    return replay(table.scenario, list(table.moves)).reference_move().to_dict()
