"""Command line referee: ``python -m rules_core <command> ...``.

Cards are codes (``H7``, ``S10``, ``DJ``) or names (``"Rosen Ass"``, ``"queen of
hearts"``). Four hands are given by seat, forehand first, separated by ``/``
(quoted or not), or with ``--seat0`` ... ``--seat3``. Plays are the cards in the
order played; who played each card is read from the hands. A Stöck call is
``--call SEAT:CARD`` (seat SEAT said "Stöck" right after CARD was played), add
``:prompted`` when a partner's reminder came first.

Commands::

    python -m rules_core melds H6 H7 H8 DJ HJ SJ CJ --contract H
    python -m rules_core weis --contract H S10 SJ SQ SK / C6 C7 C8 / DA / DK
    python -m rules_core weis --contract obenabe --seat0 "CQ CK CA" --seat1 "DQ DK DA"
    python -m rules_core stoeck HANDS --contract H --plays "HK D6 HJ C6 H6 C7 HQ" --call 0:HQ
    python -m rules_core score HANDS --contract H --plays "...36 cards..." --call 0:HQ
    python -m rules_core target HANDS --contract H --plays "..." --before 900 850
    python -m rules_core legal --hand "S7 H6 HA C9" --trick "SK HQ" --contract H
    python -m rules_core presets

Every command takes ``--rules PRESET`` (default, w-en, ausmachregel,
swisslos-2500), ``--lang en|de`` (default en), ``--deck swiss|french`` for card
names, and ``--json`` for the result's ``to_dict()`` data. Bad input prints the
error and exits with status 2.

>>> main(["melds", "H6", "H7", "H8", "CJ", "DJ", "HJ", "SJ"])
Hand: DJ H6 H7 H8 HJ SJ CJ
  four Unders: DJ HJ SJ CJ = 200
  3-card sequence in roses: H6 H7 H8 = 20
Total: 220
0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from ._coerce import hands_masks
from .cards import Card, card_name, parse_cards, suit_name
from .contracts import Contract
from .errors import RulesError
from .melds import Meld, MeldKind, explain_best_meld, find_melds
from .rules import RuleSet
from .scoring import RoundScore, resolve_target, score_round
from .stoeck import StoeckCall, StoeckResult, check_stoeck
from .tricks import explain_legal_cards
from .weis import resolve_weis

__all__ = ["main"]

# --- words -------------------------------------------------------------------

_W = {
    "en": {
        "hand": "Hand", "melds": "Melds", "none": "no meld", "total": "Total",
        "announce": "Announced in {contract}: {points} ({meld})", "seat": "seat", "team": "team",
        "team_best": "Best meld of team {team}: {meld} (seat {seat})",
        "team_none": "Team {team} has no meld",
        "writes": "Team {team} writes {points} Weis{factor} (R5.6)",
        "writes_nobody": "Nobody writes Weis (no meld at the table)",
        "other_nothing": "Team {team} writes no Weis (R5.6)",
        "only_team": "Only team {team} has a meld, so it writes.",
        "tie": "tie", "wins": "team/side {w} wins",
        "step": "Step {n} {name}: {detail}",
        "stoeck": "Stöck: {status}", "holder": "held by seat {seat} (team {team})",
        "blocks": ("Weis", "Stöck", "Tricks", "Total"),
        "trick": "Trick {n}: seat {leader} leads {cards} -> seat {winner} (team {team}), {points}",
        "match": "Match: team {team} took all nine tricks (+100)",
        "target_win": "Team {team} reaches {target} in the {block} block{trick} (R7.3)",
        "target_none": "No team reaches {target}; play on with the next deal (R7.5)",
        "totals": "Totals after the round: team 0 {a}, team 1 {b}",
        "legal": "May be played: {cards}", "why": "{card}: {verdict} ({rule})",
    },
    "de": {
        "hand": "Hand", "melds": "Weise", "none": "kein Weis", "total": "Total",
        "announce": "Gemeldet bei {contract}: {points} ({meld})", "seat": "Sitz", "team": "Team",
        "team_best": "Bester Weis von Team {team}: {meld} (Sitz {seat})",
        "team_none": "Team {team} hat keinen Weis",
        "writes": "Team {team} schreibt {points} Weis{factor} (R5.6)",
        "writes_nobody": "Niemand schreibt Weis (kein Weis am Tisch)",
        "other_nothing": "Team {team} schreibt keinen Weis (R5.6)",
        "only_team": "Nur Team {team} hat einen Weis und schreibt.",
        "tie": "gleich", "wins": "Seite {w} gewinnt",
        "step": "Schritt {n} {name}: {detail}",
        "stoeck": "Stöck: {status}", "holder": "gehalten von Sitz {seat} (Team {team})",
        "blocks": ("Weis", "Stöck", "Stiche", "Total"),
        "trick": "Stich {n}: Sitz {leader} spielt aus {cards} -> Sitz {winner} (Team {team}), "
                 "{points}",
        "match": "Match: Team {team} macht alle neun Stiche (+100)",
        "target_win": "Team {team} erreicht {target} im Block {block}{trick} (R7.3)",
        "target_none": "Kein Team erreicht {target}; es geht mit der nächsten Runde weiter (R7.5)",
        "totals": "Stand nach der Runde: Team 0 {a}, Team 1 {b}",
        "legal": "Erlaubt: {cards}", "why": "{card}: {verdict} ({rule})",
    },
}  # fmt: skip

_STEP_NAMES = {
    "en": {"points": "POINTS", "cards": "CARDS", "high_card": "HIGH CARD", "trump": "TRUMP",
           "seat": "SEAT"},
    "de": {"points": "Punkte", "cards": "Karten", "high_card": "höhere Karte", "trump": "Trumpf",
           "seat": "Sitz"},
}  # fmt: skip

_STOECK_WORDS = {
    "en": {
        "no_trump_contract": "none, no trump in this contract (R6.1)",
        "not_held_by_one_player": "none, King and Ober of trump are not in one hand (R6.1)",
        "second_card_not_played": "still possible, the second card is not played yet (R6.4a)",
        "still_possible": "still possible, the call may come before the next card (R6.3)",
        "valid": "scored, called with the second card (R6.2)",
        "not_declared": "lost, not called in time (R6.5)",
        "declared_at_first_card": "lost, called at the first card only (R6.2)",
        "too_late": "lost, called after the next card was played (R6.3)",
        "prompted": "lost, the partner prompted the call (R6.4)",
    },
    "de": {
        "no_trump_contract": "keine, ohne Trumpf gibt es keine Stöck (R6.1)",
        "not_held_by_one_player": "keine, König und Ober im Trumpf sind nicht in einer Hand (R6.1)",
        "second_card_not_played": "noch möglich, die zweite Karte ist noch nicht gespielt (R6.4a)",
        "still_possible": "noch möglich, die Ansage kann vor der nächsten Karte kommen (R6.3)",
        "valid": "geschrieben, mit der zweiten Karte angesagt (R6.2)",
        "not_declared": "verloren, nicht rechtzeitig angesagt (R6.5)",
        "declared_at_first_card": "verloren, nur bei der ersten Karte angesagt (R6.2)",
        "too_late": "verloren, erst nach der nächsten Karte angesagt (R6.3)",
        "prompted": "verloren, der Partner hat erinnert (R6.4)",
    },
}

_VERDICTS = {
    "en": {
        "play.lead": "may lead any card", "play.follows_suit": "follows suit",
        "play.must_follow_suit": "NOT allowed, must follow suit",
        "play.trump_allowed": "trumping is always allowed",
        "play.over_trump": "over-trumps", "play.under_trump": "NOT allowed, under-trumps",
        "play.only_trumps": "only trumps in hand, so allowed",
        "play.cannot_follow": "cannot follow suit, so allowed",
        "play.follows_trump": "follows trump",
        "play.must_play_trump": "NOT allowed, must play a trump",
        "play.puur_exception": "the Puur alone need not be played",
    },
    "de": {
        "play.lead": "Ausspiel, jede Karte erlaubt", "play.follows_suit": "bedient",
        "play.must_follow_suit": "NICHT erlaubt, muss Farbe angeben",
        "play.trump_allowed": "Stechen ist immer erlaubt",
        "play.over_trump": "übersticht", "play.under_trump": "NICHT erlaubt, untertrumpft",
        "play.only_trumps": "nur Trümpfe in der Hand, also erlaubt",
        "play.cannot_follow": "kann nicht angeben, also erlaubt",
        "play.follows_trump": "gibt Trumpf an",
        "play.must_play_trump": "NICHT erlaubt, muss Trumpf angeben",
        "play.puur_exception": "der blutte Puur muss nicht gespielt werden",
    },
}  # fmt: skip

_SEQ_DE = {3: "Dreiblatt", 4: "Vierblatt", 5: "Fünfblatt", 6: "Sechsblatt", 7: "Siebenblatt",
           8: "Achtblatt", 9: "Neunblatt"}  # fmt: skip
_QUAD_PLURAL = {
    ("en", "swiss"): ("sixes", "sevens", "eights", "nines", "tens", "Unders", "Obers", "kings",
                      "aces"),
    ("en", "french"): ("sixes", "sevens", "eights", "nines", "tens", "jacks", "queens", "kings",
                       "aces"),
    ("de", "swiss"): ("Sechser", "Siebner", "Achter", "Nell", "Banner", "Under", "Ober", "Könige",
                      "Asse"),
    ("de", "french"): ("Sechser", "Siebner", "Achter", "Neuner", "Zehner", "Buben", "Damen",
                       "Könige", "Asse"),
}  # fmt: skip
_BLOCK_DE = {"weis": "Weis", "stoeck": "Stöck", "tricks": "Stiche"}


class _Out:
    def __init__(self, args: argparse.Namespace) -> None:
        self.lang = args.lang
        self.deck = args.deck
        self.w = _W[args.lang]
        self.lines: list[str] = []

    def __call__(self, text: str = "") -> None:
        self.lines.append(text)

    def meld(self, meld: Meld) -> str:
        codes = str(meld)
        if meld.kind is MeldKind.SEQUENCE:
            assert meld.suit is not None
            suit = suit_name(meld.suit, self.lang, self.deck)
            label = (
                f"{len(meld)}-card sequence in {suit}"
                if self.lang == "en"
                else f"{_SEQ_DE[len(meld)]} {suit}"
            )
        else:
            plural = _QUAD_PLURAL[(self.lang, self.deck)][meld.rank.value]
            label = f"four {plural}" if self.lang == "en" else f"vier {plural}"
        return f"{label}: {codes} = {meld.points}"

    def contract(self, contract: Contract) -> str:
        return contract.display_name(self.lang, self.deck)


# --- argument helpers ---------------------------------------------------------


def _hands(args: argparse.Namespace) -> list[str]:
    seats = [getattr(args, f"seat{i}") for i in range(4)]
    positional = " ".join(args.hands or [])
    if any(s is not None for s in seats):
        if positional.strip():
            raise RulesError(
                "give the hands either positionally or with --seat0..--seat3, not both"
            )
        return [s or "" for s in seats]
    if not positional.strip():
        raise RulesError("give the four hands: HAND0 / HAND1 / HAND2 / HAND3 (or --seat0 ...)")
    parts = positional.split("/")
    if len(parts) != 4:
        raise RulesError(f"give four hands separated by '/', got {len(parts)}")
    return parts


def _plays(text: str, hands: Sequence[str]) -> list[tuple[int, Card]]:
    masks = hands_masks(hands)
    plays = []
    for card in parse_cards(text.replace("/", " ").replace("|", " ")):
        seats = [s for s in range(4) if masks[s] & card.bit]
        if not seats:
            raise RulesError(f"{card} is played but is in nobody's hand")
        plays.append((seats[0], card))
    return plays


def _calls(specs: Sequence[str], plays: Sequence[tuple[int, Card]]) -> list[StoeckCall]:
    index = {card: i for i, (_, card) in enumerate(plays)}
    calls = []
    for spec in specs:
        parts = spec.split(":")
        if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2].strip().lower() != "prompted"):
            raise RulesError(f"--call {spec!r}: write SEAT:CARD or SEAT:CARD:prompted, e.g. 0:HQ")
        try:
            seat = int(parts[0])
        except ValueError:
            raise RulesError(f"--call {spec!r}: the seat must be 0, 1, 2 or 3") from None
        card = Card.parse(parts[1])
        if card not in index:
            raise RulesError(f"--call {spec!r}: {card} has not been played")
        calls.append(StoeckCall(seat, index[card], prompted=len(parts) == 3))
    return calls


def _rules(args: argparse.Namespace) -> RuleSet:
    return RuleSet.preset(args.rules)


def _emit_json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


# --- commands -----------------------------------------------------------------


def _cmd_melds(args: argparse.Namespace, out: _Out) -> Any:
    rules = _rules(args)
    hand = parse_cards(" ".join(args.hand))
    melds = find_melds(hand, rules)
    choice = explain_best_meld(hand, args.contract, rules) if args.contract else None
    if args.json:
        return {
            "hand": [c.code for c in hand],
            "melds": [m.to_dict() for m in melds],
            "total": sum(m.points for m in melds),
            "choice": None if choice is None else choice.to_dict(),
        }
    out(f"{out.w['hand']}: {' '.join(c.code for c in sorted(hand))}")
    for meld in choice.melds if choice else melds:
        out(f"  {out.meld(meld)}")
    if not melds:
        out(f"  {out.w['none']}")
    out(f"{out.w['total']}: {sum(m.points for m in melds)}")
    if choice is not None and choice.best is not None:
        out(
            out.w["announce"].format(
                contract=out.contract(choice.contract), points=choice.best.points, meld=choice.best
            )
        )
    return None


_LADDER_WORDS = {
    "en": {"vs": "vs", "natural": "natural order, the higher top card wins",
           "reversed": "Undenufe, the lower bottom card wins", "yes": "in trump",
           "no": "not in trump", "no_trump": "no trump in this contract", "seat": "seat"},
    "de": {"vs": "gegen", "natural": "natürliche Ordnung, die höhere oberste Karte gewinnt",
           "reversed": "Undenufe, die tiefere unterste Karte gewinnt", "yes": "im Trumpf",
           "no": "nicht im Trumpf", "no_trump": "kein Trumpf in dieser Spielart", "seat": "Sitz"},
}  # fmt: skip


def _ladder_lines(out: _Out, trace: Sequence[Any], team_sides: bool) -> None:
    words = _LADDER_WORDS[out.lang]
    for entry in trace:
        if not entry.key.startswith("ladder."):
            continue
        step = entry.key.split(".")[1]
        v = entry.values
        if step == "high_card":
            detail = f"{v['a_card']} {words['vs']} {v['b_card']} ({words[v['order']]})"
        elif step == "trump" and v["trump"] is None:
            detail = words["no_trump"]
        elif step == "trump":
            yes_no = [words["yes"] if v[side] else words["no"] for side in "ab"]
            detail = f"{yes_no[0]} {words['vs']} {yes_no[1]}"
        elif step == "seat":
            detail = f"{words['seat']} {v['a']} {words['vs']} {words['seat']} {v['b']}"
        else:
            detail = f"{v['a']} {words['vs']} {v['b']}"
        if v["winner"] is None:
            detail += f", {out.w['tie']}"
        else:
            side = f"{out.w['team']} {v['winner']}" if team_sides else "ab"[v["winner"]]
            detail += f" -> {side}"
        n = ["points", "cards", "high_card", "trump", "seat"].index(step) + 1
        out("  " + out.w["step"].format(n=n, name=_STEP_NAMES[out.lang][step], detail=detail))


def _cmd_weis(args: argparse.Namespace, out: _Out) -> Any:
    rules = _rules(args)
    result = resolve_weis(_hands(args), args.contract, rules)
    if args.json:
        return result.to_dict()
    out(f"{out.contract(result.contract)}, rules: {rules.preset_name() or 'custom'}")
    for seat, melds in enumerate(result.melds):
        head = f"{out.w['seat'].capitalize()} {seat} ({out.w['team']} {seat % 2})"
        out(f"{head}: " + (out.meld(melds[0]) if melds else out.w["none"]))
        for meld in melds[1:]:
            out(f"    + {out.meld(meld)}")
    for team, best in enumerate(result.team_best):
        if best is None:
            out(out.w["team_none"].format(team=team))
        else:
            out(out.w["team_best"].format(team=team, meld=best[1], seat=best[0]))
    if result.comparison is not None:
        _ladder_lines(out, result.comparison.trace, team_sides=True)
    elif result.team is not None:
        out(out.w["only_team"].format(team=result.team))
    if result.team is None:
        out(out.w["writes_nobody"])
    else:
        factor = f" x {result.factor} = {result.scored}" if result.factor != 1 else ""
        out(out.w["writes"].format(team=result.team, points=result.points, factor=factor))
        out(out.w["other_nothing"].format(team=1 - result.team))
    return None


def _stoeck_lines(out: _Out, stoeck: StoeckResult) -> None:
    text = _STOECK_WORDS[out.lang][stoeck.reason.value]
    if stoeck.seat is not None:
        text += ", " + out.w["holder"].format(seat=stoeck.seat, team=stoeck.team)
    if stoeck.points:
        text += f", {stoeck.points}"
    out(out.w["stoeck"].format(status=text))


def _cmd_stoeck(args: argparse.Namespace, out: _Out) -> Any:
    hands = _hands(args)
    plays = _plays(args.plays, hands)
    result = check_stoeck(hands, args.contract, plays, _calls(args.call, plays), _rules(args))
    if args.json:
        return result.to_dict()
    _stoeck_lines(out, result)
    return None


def _score(args: argparse.Namespace) -> RoundScore:
    hands = _hands(args)
    plays = _plays(args.plays, hands)
    return score_round(hands, args.contract, plays, _calls(args.call, plays), _rules(args))


def _score_lines(out: _Out, score: RoundScore) -> None:
    out(out.contract(score.contract) + (f", factor {score.factor}" if score.factor != 1 else ""))
    for trick in score.tricks:
        cards = " ".join(c.code for c in trick.cards)
        out(
            "  "
            + out.w["trick"].format(
                n=trick.index + 1, leader=trick.leader, cards=cards, winner=trick.winner,
                team=trick.team, points=trick.points,
            )
        )  # fmt: skip
    if score.match is not None:
        out(out.w["match"].format(team=score.match))
    _stoeck_lines(out, score.stoeck)
    names = out.w["blocks"]
    out(f"{'':10}{out.w['team'] + ' 0':>10}{out.w['team'] + ' 1':>10}")
    for name, key in zip(names, ("weis", "stoeck", "tricks"), strict=False):
        out(f"{name:10}{score.blocks[0][key]:>10}{score.blocks[1][key]:>10}")
    out(f"{names[3]:10}{score.totals[0]:>10}{score.totals[1]:>10}")


def _cmd_score(args: argparse.Namespace, out: _Out) -> Any:
    score = _score(args)
    if args.json:
        return score.to_dict()
    _score_lines(out, score)
    return None


def _cmd_target(args: argparse.Namespace, out: _Out) -> Any:
    score = _score(args)
    result = resolve_target(tuple(args.before), score, args.target, _rules(args))
    if args.json:
        return {"score": score.to_dict(), "target": result.to_dict()}
    _score_lines(out, score)
    if result.team is None:
        out(out.w["target_none"].format(target=result.target))
    else:
        block = result.block if out.lang == "en" else _BLOCK_DE[result.block or ""]
        trick = "" if result.trick is None else (
            f", trick {result.trick + 1}" if out.lang == "en" else f", Stich {result.trick + 1}"
        )  # fmt: skip
        out(out.w["target_win"].format(team=result.team, target=result.target, block=block,
                                       trick=trick))  # fmt: skip
    out(out.w["totals"].format(a=result.totals[0], b=result.totals[1]))
    return None


def _cmd_legal(args: argparse.Namespace, out: _Out) -> Any:
    result = explain_legal_cards(args.hand, args.trick or "", args.contract)
    if args.json:
        return result.to_dict()
    out(out.w["legal"].format(cards=" ".join(c.code for c in result.legal)))
    for v in result.verdicts:
        name = card_name(v["card"], out.lang, out.deck)
        verdict = _VERDICTS[out.lang][v.key]
        out("  " + out.w["why"].format(card=f"{v['card']} ({name})", verdict=verdict, rule=v.rule))
    return None


def _cmd_presets(args: argparse.Namespace, out: _Out) -> Any:
    data = {name: RuleSet.preset(name).to_dict() for name in RuleSet.presets()}
    if args.json:
        return data
    for name, fields in data.items():
        out(f"{name}: " + ", ".join(f"{k}={v}" for k, v in fields.items()))
    return None


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--rules",
        default="default",
        metavar="PRESET",
        help="rule set: " + ", ".join(RuleSet.presets()),
    )
    common.add_argument("--lang", choices=("en", "de"), default="en", help="output language")
    common.add_argument(
        "--deck", choices=("swiss", "french"), default="swiss", help="card names of this deck"
    )
    common.add_argument("--json", action="store_true", help="print the result as JSON data")

    hands = argparse.ArgumentParser(add_help=False)
    hands.add_argument(
        "hands",
        nargs="*",
        metavar="CARD",
        help="the four hands by seat (forehand first), separated by /",
    )
    for i in range(4):
        hands.add_argument(f"--seat{i}", metavar="CARDS", help=f"seat {i}'s hand")
    hands.add_argument(
        "--contract", required=True, help="D H S C (or a suit name), obenabe, undenufe"
    )

    round_ = argparse.ArgumentParser(add_help=False)
    round_.add_argument("--plays", default="", help="the cards in the order played")
    round_.add_argument(
        "--call",
        action="append",
        default=[],
        metavar="SEAT:CARD[:prompted]",
        help="a Stöck call by SEAT right after CARD was played",
    )

    parser = argparse.ArgumentParser(
        prog="python -m rules_core",
        description="Jass (Schieber) referee: melds, Weis, Stöck, round score, target.",
        epilog="Example: python -m rules_core weis --contract H S10 SJ SQ SK / C6 C7 C8 / DA / DK",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("melds", parents=[common], help="the melds of one hand")
    p.add_argument("hand", nargs="+", metavar="CARD", help="the hand's cards")
    p.add_argument("--contract", help="also show the meld to announce in this contract")
    p.set_defaults(run=_cmd_melds)
    p = sub.add_parser("weis", parents=[common, hands], help="who writes Weis, and how much")
    p.set_defaults(run=_cmd_weis)
    p = sub.add_parser("stoeck", parents=[common, hands, round_], help="Stöck so far")
    p.set_defaults(run=_cmd_stoeck)
    p = sub.add_parser("score", parents=[common, hands, round_], help="score a complete round")
    p.set_defaults(run=_cmd_score)
    p = sub.add_parser(
        "target", parents=[common, hands, round_], help="who reaches the target in a round"
    )
    p.add_argument(
        "--before",
        nargs=2,
        type=int,
        required=True,
        metavar=("TEAM0", "TEAM1"),
        help="the totals before the round",
    )
    p.add_argument("--target", type=int, help="the target (default: the rule set's)")
    p.set_defaults(run=_cmd_target)
    p = sub.add_parser("legal", parents=[common], help="which cards may be played to a trick")
    p.add_argument("--hand", required=True, help="the player's cards")
    p.add_argument("--trick", default="", help="the cards already in the trick, in order")
    p.add_argument("--contract", required=True)
    p.set_defaults(run=_cmd_legal)
    p = sub.add_parser("presets", parents=[common], help="list the rule sets")
    p.set_defaults(run=_cmd_presets)
    return parser  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    """Run the referee; returns the exit status (0, or 2 for bad input)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    out = _Out(args)
    try:
        data = args.run(args, out)
    except RulesError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(_emit_json(data) if args.json else "\n".join(out.lines))
    return 0
