"""What the learner may know now (formats in :mod:`teaching.table`)."""

from __future__ import annotations

import copy
from typing import Any

from rules_core import Contract, Rank

from .model import CODES, Judgement, Table

__all__ = ["learner_view", "public_cards"]


def public_cards(table: Table) -> frozenset[str]:
    """The cards the learner may know of: their own hand, every card played, and the
    melds shown at the second trick; all 36 once every card is played."""
    if len(table.plays) == 36:
        return CODES
    public = set(table.scenario.hands[table.seat])
    public.update(c for _s, c in table.plays)
    if table.shown is not None:
        public.update(c for melds in table.shown["melds"] for m in melds for c in m["cards"])
    return frozenset(public)


def _scrub(value: Any, hidden: frozenset[str]) -> Any:
    """``value`` with every hidden card code replaced by None."""
    if isinstance(value, str):
        return None if value in hidden else value
    if isinstance(value, dict):
        return {k: _scrub(v, hidden) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrub(v, hidden) for v in value]
    return value


def _holder(table: Table) -> int | None:
    trump = Contract.parse(table.contract).trump
    if trump is None:
        return None
    pair = {trump.code + Rank.K.code, trump.code + Rank.Q.code}
    return next((s for s in range(4) if pair <= set(table.hands[s])), None)


def _judgement(
    table: Table, j: Judgement, hidden: frozenset[str], holder: int | None
) -> dict[str, Any]:
    data = j.to_dict()
    if hidden and j.kind == "stoeck" and holder != table.seat:
        # Who else holds the trump King and Ober is not the learner's to know yet.
        trump = Contract.parse(table.contract).trump
        own = set(table.scenario.hands[table.seat])
        data["verdict"] = {
            "contract": table.contract,
            "trump": None if trump is None else trump.code,
            "holds": {
                "king": trump is not None and trump.code + "K" in own,
                "queen": trump is not None and trump.code + "Q" in own,
            },
            "call": j.verdict.get("call"),
        }
    return data


def learner_view(table: Table) -> dict[str, Any]:
    """Only what the learner may know now, as plain JSON data (0-based seats, teams
    and trick indices, like the rest of the Python API):

    ``focus``, ``seed``, ``rules`` (``RuleSet.to_dict()``), ``preset``, ``contract``,
    ``factor``, ``seat`` (the learner's), ``before``, ``target``, ``phase``, ``hand``
    (the cards the learner holds), ``dealt`` (the learner's nine cards), ``tricks``
    (``index``, ``leader``, ``seats``, ``cards``, ``winner`` and ``card_points`` once
    complete; ``points`` only when the round is done), ``announcements`` (``seat``,
    ``value``, ``play``, ``late``), ``exchanges``, ``calls`` (``seat``,
    ``said_after``, ``with_card``, ``prompted``), ``reminder``, ``shown`` (None before
    the second trick), ``judgements`` (every judgement made so far; card codes of
    cards the learner may not know are None, and a Stöck verdict on a non-holder's
    call only says what the learner's own hand shows), ``hands`` (all four dealt
    hands once the round is done, else None), ``jasstafel`` (the learner's entry)
    and ``score`` (:meth:`TableScore.to_dict`, only when the round is done).
    Never the legal cards, the scenario's aim, or a judgement still to come.
    """
    s = table.scenario
    done = table.phase == "done"
    public = public_cards(table)
    hidden = CODES - public
    holder = _holder(table)
    view: dict[str, Any] = {
        "focus": s.focus,
        "seed": s.seed,
        "rules": s.rules.to_dict(),
        "preset": s.preset,
        "contract": s.contract,
        "factor": s.rules.factor(s.contract),
        "seat": s.seat,
        "before": list(s.before),
        "target": s.target,
        "phase": table.phase,
        "hand": list(table.hand),
        "dealt": list(s.hands[s.seat]),
        "tricks": [
            {
                "index": t.index,
                "leader": t.leader,
                "seats": list(t.seats),
                "cards": list(t.cards),
                "winner": t.winner,
                "card_points": t.card_points,
                "points": t.points if done else None,
            }
            for t in table.tricks
        ],
        "announcements": [
            {"seat": a.seat, "value": a.value, "play": a.play, "late": a.late}
            for a in table.announcements
        ],
        "exchanges": copy.deepcopy(list(table.exchanges)),
        "calls": [
            {
                "seat": c.seat,
                "said_after": c.said_after,
                "with_card": c.with_card,
                "prompted": c.prompted,
            }
            for c in table.calls
        ],
        "reminder": copy.deepcopy(table.reminder),
        "shown": copy.deepcopy(table.shown),
        "judgements": [_judgement(table, j, hidden, holder) for j in table.judgements],
        "hands": [list(h) for h in table.hands] if done else None,
        "jasstafel": copy.deepcopy(table.jasstafel),
        "score": None,
    }
    if done:
        from .replay import score

        view["score"] = score(table).to_dict()
    if hidden:
        scrubbed: dict[str, Any] = _scrub(view, hidden)
        return scrubbed
    return view
