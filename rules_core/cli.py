"""Command line referee: ``python -m rules_core <command> ...``.

People count from 1 here, as at the table: players 1 to 4 in playing order, Player 1
is the Vorhand; Team 1 is players 1 and 3, Team 2 players 2 and 4. The
engine counts seats 0-3 and teams 0/1; this module converts at its edge, in both
directions (input, text, ``--json`` data and error messages).

Cards are codes (``H7``, ``S10``, ``DJ``) or names (``"Rosen-Ass"``, ``"queen of
hearts"``). The four hands are given positionally, Player 1 first, separated by
``/`` (``HAND1 / HAND2 / HAND3 / HAND4``, quoted or not), or with ``--player1`` ...
``--player4``. Plays are the cards in the order played; who played each card is read
from the hands. A Stöck call is ``--call PLAYER:CARD`` (player PLAYER, 1 to 4, said
"Stöck" right after CARD was played), add ``:prompted`` when a partner's reminder came
first.

Commands::

    python -m rules_core melds H6 H7 H8 DJ HJ SJ CJ --contract H
    python -m rules_core weis --contract H S10 SJ SQ SK / C6 C7 C8 / DA / DK
    python -m rules_core weis --contract obenabe --player1 "CQ CK CA" --player2 "DQ DK DA"
    python -m rules_core stoeck HANDS --contract H --plays "HK D6 HJ C6 H6 C7 HQ" --call 1:HQ
    python -m rules_core score HANDS --contract H --plays "...36 cards..." --call 1:HQ
    python -m rules_core target HANDS --contract H --plays "..." --before 900 850
    python -m rules_core legal --hand "S7 H6 HA C9" --trick "SK HQ" --contract H
    python -m rules_core presets

Every command takes ``--rules PRESET`` (default, w-en, ausmachregel,
swisslos-2500), ``--lang en|de|fr`` (default en), ``--deck swiss|french`` for card
names, and ``--json`` for the result as data. Bad input prints the error and exits
with status 2.

``--json`` prints the engine's ``to_dict()`` data with every number that counts
something people count made 1-based and named for people:

- ``player`` (1-4) for the engine's ``seat``; ``best_player``, ``king_player``,
  ``queen_player`` for ``best_seat``, ``king_seat``, ``queen_seat``; ``players`` for
  a trick's ``seats``; a trick's ``leader`` and ``winner`` are players too;
- ``team`` (1 or 2), and ``match`` (the team that took all nine tricks);
- ``trick`` (1-9) for the engine's 0-based trick index (a trick's ``index``);
- ``first_play``, ``second_play``, ``after_play``: play numbers, 1 for the first card
  of the round;
- in the Weis comparison ladder (``weis`` and the ``weis`` part of ``score``) a
  step's ``winner`` is a team (1 or 2), and the ``seat`` step's ``a``/``b`` are
  players.

Lists indexed by player or team keep their order: ``melds[0]`` are Player 1's melds,
``blocks[0]``/``totals[0]`` are Team 1's, ``--before TEAM1 TEAM2``. Keys such as
``step`` (``"points"``), ``reason`` or ``kind`` stay machine keys. ``melds --json``
has no players or teams; its ladder ``winner`` 0/1 names the best meld and the
runner-up.

>>> main(["melds", "H6", "H7", "H8", "CJ", "DJ", "HJ", "SJ"])
Hand: DJ H6 H7 H8 HJ SJ CJ
  four Unders: DJ HJ SJ CJ = 200
  3-card sequence in roses: H6 H7 H8 = 20
Total: 220
0

French text puts a space before a colon (TERMS.md), and a line starts with a capital:

>>> main(["melds", "H6", "H7", "H8", "CJ", "DJ", "HJ", "SJ", "--lang", "fr", "--contract", "H"])
Main : DJ H6 H7 H8 HJ SJ CJ
  quatre unders : DJ HJ SJ CJ = 200
  suite de trois cartes à roses : H6 H7 H8 = 20
Total : 220
Annonce (atout roses) : 200 (DJ HJ SJ CJ)
0
"""

from __future__ import annotations

import argparse
import json
import re
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

_W: dict[str, dict[str, str]] = {
    "en": {
        "hand": "Hand", "none": "no meld", "total": "Total",
        "announce": "Announced in {contract}: {points} ({meld})",
        "player": "Player {n}", "team": "Team {n}",
        "rules": "rule set: {name}",
        "team_best": "Best meld of Team {team}: {meld} (Player {player})",
        "team_none": "Team {team} has no meld",
        "writes": "Team {team} writes {points} Weis{factor} (R5.6)",
        "writes_nobody": "Nobody writes Weis (no meld at the table)",
        "other_nothing": "Team {team} writes no Weis (R5.6)",
        "only_team": "Only Team {team} has a meld, so it writes.",
        "tie": "tie",
        "step": "Step {n} ({name}): {detail}",
        "stoeck": "Stöck: {status}", "holder": "held by Player {player} (Team {team})",
        "factor": "factor {n}",
        "trick": "Trick {n}: Player {leader} leads {cards} -> Player {winner} (Team {team}), "
                 "{points}",
        "match": "Match: Team {team} took all nine tricks (+100)",
        "target_win": "Team {team} reaches {target} in the {block} block{trick} ({rule})",
        "trick_no": ", trick {n}",
        "target_none": "No team reaches {target}; play on with the next round (R7.5)",
        "totals": "Totals after the round: Team 1 {a}, Team 2 {b}",
        "legal": "May be played: {cards}", "why": "{card}: {verdict} ({rule})",
    },
    "de": {
        "hand": "Hand", "none": "kein Weis", "total": "Total",
        "announce": "Gemeldet bei {contract}: {points} ({meld})",
        "player": "Spieler {n}", "team": "Team {n}",
        "rules": "Regelwerk: {name}",
        "team_best": "Bester Weis von Team {team}: {meld} (Spieler {player})",
        "team_none": "Team {team} hat keinen Weis",
        "writes": "Team {team} schreibt {points} Weis{factor} (R5.6)",
        "writes_nobody": "Niemand schreibt Weis (kein Weis am Tisch)",
        "other_nothing": "Team {team} schreibt keinen Weis (R5.6)",
        "only_team": "Nur Team {team} hat einen Weis und schreibt.",
        "tie": "gleich",
        "step": "Stufe {n} ({name}): {detail}",
        "stoeck": "Stöck: {status}", "holder": "gehalten von Spieler {player} (Team {team})",
        "factor": "Faktor {n}",
        "trick": "Stich {n}: Spieler {leader} spielt aus {cards} -> Spieler {winner} "
                 "(Team {team}), {points}",
        "match": "Match: Team {team} macht alle neun Stiche (+100)",
        "target_win": "Team {team} erreicht {target} im Block {block}{trick} ({rule})",
        "trick_no": ", Stich {n}",
        "target_none": "Kein Team erreicht {target}; es geht mit der nächsten Runde weiter (R7.5)",
        "totals": "Stand nach der Runde: Team 1 {a}, Team 2 {b}",
        "legal": "Erlaubt: {cards}", "why": "{card}: {verdict} ({rule})",
    },
    "fr": {
        "hand": "Main", "none": "pas d'annonce", "total": "Total",
        "announce": "Annonce ({contract}) : {points} ({meld})",
        "player": "Joueur {n}", "team": "Équipe {n}",
        "rules": "jeu de règles : {name}",
        "team_best": "Meilleure annonce de l'équipe {team} : {meld} (joueur {player})",
        "team_none": "L'équipe {team} n'a pas d'annonce",
        "writes": "L'équipe {team} marque les annonces : {points}{factor} (R5.6)",
        "writes_nobody": "Personne ne marque d'annonces (aucune annonce à la table)",
        "other_nothing": "L'équipe {team} ne marque pas d'annonces (R5.6)",
        "only_team": "Seule l'équipe {team} a une annonce, donc elle marque.",
        "tie": "égalité",
        "step": "Échelon {n} ({name}) : {detail}",
        "stoeck": "Stöck : {status}", "holder": "tenu par le joueur {player} (équipe {team})",
        "factor": "facteur {n}",
        "trick": "Pli {n} : le joueur {leader} entame {cards} -> joueur {winner} "
                 "(équipe {team}), {points}",
        "match": "Match : l'équipe {team} a fait les neuf plis (+100)",
        "target_win": "L'équipe {team} atteint {target} dans le bloc {block}{trick} ({rule})",
        "trick_no": ", pli {n}",
        "target_none": "Aucune équipe n'atteint {target} ; on continue avec la donne suivante "
                       "(R7.5)",
        "totals": "Totaux après la donne : équipe 1 {a}, équipe 2 {b}",
        "legal": "Peuvent être jouées : {cards}", "why": "{card} : {verdict} ({rule})",
    },
}  # fmt: skip

# French puts a space before ":" and ";" (TERMS.md: a plain space, as the catalogue does).
_COLON = {"en": ":", "de": ":", "fr": " :"}
_SEMICOLON = {"en": ";", "de": ";", "fr": " ;"}

# The rows of the written score (R7.1)
_BLOCK_ROWS = {
    "en": ("Weis", "Stöck", "Tricks", "Total"),
    "de": ("Weis", "Stöck", "Stiche", "Total"),
    "fr": ("Annonces", "Stöck", "Plis", "Total"),
}

# The ladder's steps (R5.5) in the site's words: "Step 1: points" / "Stufe 1: Punkte".
_STEP_NAMES = {
    "en": {"points": "points", "cards": "number of cards", "high_card": "highest card",
           "trump": "trump", "seat": "who announced first"},
    "de": {"points": "Punkte", "cards": "Anzahl Karten", "high_card": "höchste Karte",
           "trump": "Trumpf", "seat": "wer zuerst meldet"},
    "fr": {"points": "points", "cards": "nombre de cartes", "high_card": "carte la plus haute",
           "trump": "atout", "seat": "qui a annoncé en premier"},
}  # fmt: skip
_STEPS = ("points", "cards", "high_card", "trump", "seat")

_BLOCKS = {
    "en": {"weis": "Weis", "stoeck": "Stöck", "tricks": "tricks"},
    "de": {"weis": "Weis", "stoeck": "Stöck", "tricks": "Stiche"},
    "fr": {"weis": "des annonces", "stoeck": "du stöck", "tricks": "des plis"},
}

# The rule sets by the names the site shows (the ids are what --rules takes).
_PRESET_NAMES = {
    "en": {"default": "Jassverband (default)", "w-en": "W-EN reading",
           "ausmachregel": "Ausmachregel", "swisslos-2500": "Swisslos 2500", None: "custom"},
    "de": {"default": "Jassverband (Standard)", "w-en": "Lesart W-EN",
           "ausmachregel": "Ausmachregel", "swisslos-2500": "Swisslos 2500",
           None: "eigene Regeln"},
    "fr": {"default": "Jassverband (par défaut)", "w-en": "lecture W-EN",
           "ausmachregel": "Ausmachregel", "swisslos-2500": "Swisslos 2500",
           None: "règles personnalisées"},
}  # fmt: skip

_STOECK_WORDS = {
    "en": {
        "no_trump_contract": "none, no trump in this contract (R6.1)",
        "not_held_by_one_player": "none, king and Ober of trump are not in one hand (R6.1)",
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
    "fr": {
        "no_trump_contract": "aucun, pas d'atout dans ce contrat (R6.1)",
        "not_held_by_one_player": "aucun, personne n'a le roi et la dame d'atout (R6.1)",
        "second_card_not_played": "encore possible, la deuxième carte n'est pas jouée (R6.4a)",
        "still_possible": "encore possible, «stöck» peut être dit jusqu'à la carte suivante (R6.3)",
        "valid": "marqué, dit avec la deuxième carte (R6.2)",
        "not_declared": "perdu, pas dit à temps (R6.5)",
        "declared_at_first_card": "perdu, dit seulement avec la première carte (R6.2)",
        "too_late": "perdu, dit après que la carte suivante a été jouée (R6.3)",
        "prompted": "perdu, rappelé par le partenaire (R6.4)",
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
        "play.lead": "Ausspiel, jede Karte erlaubt", "play.follows_suit": "gibt Farbe an",
        "play.must_follow_suit": "NICHT erlaubt, muss Farbe angeben",
        "play.trump_allowed": "Trumpfen ist immer erlaubt",
        "play.over_trump": "übertrumpft", "play.under_trump": "NICHT erlaubt, untertrumpft",
        "play.only_trumps": "nur Trümpfe in der Hand, also erlaubt",
        "play.cannot_follow": "kann nicht Farbe angeben, also erlaubt",
        "play.follows_trump": "gibt Trumpf an",
        "play.must_play_trump": "NICHT erlaubt, muss Trumpf angeben",
        "play.puur_exception": "der blutte Puur muss nicht gespielt werden",
    },
    "fr": {
        "play.lead": "entame, toute carte est permise", "play.follows_suit": "fournit à la couleur",
        "play.must_follow_suit": "PAS permis, doit fournir à la couleur",
        "play.trump_allowed": "couper est toujours permis",
        "play.over_trump": "surcoupe", "play.under_trump": "PAS permis, sous-coupe",
        "play.only_trumps": "que des atouts en main, donc permis",
        "play.cannot_follow": "ne peut pas fournir, donc permis",
        "play.follows_trump": "fournit à l'atout",
        "play.must_play_trump": "PAS permis, doit fournir à l'atout",
        "play.puur_exception": "le bour seul n'a pas à être fourni",
    },
}  # fmt: skip

_SEQ_DE = {3: "Dreiblatt", 4: "Vierblatt", 5: "Fünfblatt", 6: "Sechsblatt", 7: "Siebenblatt",
           8: "Achtblatt", 9: "Neunblatt"}  # fmt: skip
# «suite de trois cartes»: the French catalogue writes the number in words.
_SEQ_FR = {3: "trois", 4: "quatre", 5: "cinq", 6: "six", 7: "sept", 8: "huit", 9: "neuf"}
_FOUR = {"en": "four", "de": "vier", "fr": "quatre"}
_QUAD_PLURAL = {
    ("en", "swiss"): ("sixes", "sevens", "eights", "nines", "tens", "Unders", "Obers", "kings",
                      "aces"),
    ("en", "french"): ("sixes", "sevens", "eights", "nines", "tens", "jacks", "queens", "kings",
                       "aces"),
    ("de", "swiss"): ("Sechser", "Siebner", "Achter", "Nell", "Banner", "Under", "Ober", "Könige",
                      "Asse"),
    ("de", "french"): ("Sechser", "Siebner", "Achter", "Neuner", "Zehner", "Buben", "Damen",
                       "Könige", "Asse"),
    # «quatre nells» for the Swiss deck as German says "vier Nell"; numbers in words
    # («quatre six»), as said at the table.
    ("fr", "swiss"): ("six", "sept", "huit", "nells", "bannières", "unders", "obers", "rois",
                      "as"),
    ("fr", "french"): ("six", "sept", "huit", "neuf", "dix", "valets", "dames", "rois", "as"),
}  # fmt: skip


def _card_name(card: Card | str, lang: str, deck: str) -> str:
    """A card's name as the site writes it: German with a hyphen ("Rosen-6")."""
    name = card_name(card, lang, deck)
    return name.replace(" ", "-", 1) if lang == "de" else name


class _Out:
    def __init__(self, args: argparse.Namespace) -> None:
        self.lang = args.lang
        self.deck = args.deck
        self.w = _W[args.lang]
        self.colon = _COLON[args.lang]
        self.lines: list[str] = []

    def __call__(self, text: str = "") -> None:
        self.lines.append(text)

    def line(self, text: str) -> None:
        """A line that starts with a capital (French contract names are lower-case)."""
        self.lines.append(text[:1].upper() + text[1:])

    def meld(self, meld: Meld) -> str:
        codes = str(meld)
        if meld.kind is MeldKind.SEQUENCE:
            assert meld.suit is not None
            suit = suit_name(meld.suit, self.lang, self.deck)
            if self.lang == "en":
                label = f"{len(meld)}-card sequence in {suit}"
            elif self.lang == "de":
                label = f"{_SEQ_DE[len(meld)]} {suit}"
            else:
                label = f"suite de {_SEQ_FR[len(meld)]} cartes à {suit}"
        else:
            plural = _QUAD_PLURAL[(self.lang, self.deck)][meld.rank.index]
            label = f"{_FOUR[self.lang]} {plural}"
        return f"{label}{self.colon} {codes} = {meld.points}"

    def contract(self, contract: Contract) -> str:
        return contract.display_name(self.lang, self.deck)

    def rules(self, rules: RuleSet) -> str:
        return self.w["rules"].format(name=_PRESET_NAMES[self.lang][rules.preset_name()])


# --- people count from 1 --------------------------------------------------------


def _n(value: Any) -> Any:
    """A 0-based engine number as people count it (None stays None)."""
    return value + 1 if isinstance(value, int) and not isinstance(value, bool) else value


_RENAMED = {"seat": "player", "best_seat": "best_player", "king_seat": "king_player",
            "queen_seat": "queen_player", "index": "trick"}  # fmt: skip
_ONE_BASED = {"leader", "team", "match", "trick", "first_play", "second_play", "after_play"}


def _people(data: Any, winner_is_player: bool = True) -> Any:
    """``to_dict()`` data with players, teams, tricks and plays counted from 1 (see the
    module docstring)."""
    if isinstance(data, list):
        return [_people(item, winner_is_player) for item in data]
    if not isinstance(data, dict):
        return data
    if set(data) == {"rule", "key", "values", "decided"}:  # a trace entry
        values = _people(data["values"], winner_is_player=False)
        if data["key"].startswith("ladder."):
            values["winner"] = _n(data["values"].get("winner"))  # a team in resolve_weis
            if data["key"] == "ladder.seat":
                values["a"], values["b"] = _n(data["values"]["a"]), _n(data["values"]["b"])
        return {**data, "values": values}
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in _RENAMED:
            out[_RENAMED[key]] = _n(value)
        elif key == "seats":
            out["players"] = [_n(s) for s in value]
        elif key in _ONE_BASED or (key == "winner" and winner_is_player):
            out[key] = _n(value)
        else:
            out[key] = _people(value, winner_is_player)
    return out


def _people_error(message: str) -> str:
    """An engine error message with its seats and teams counted from 1."""
    message = message.replace("seat 0 (forehand)", "Player 1 (Vorhand)")
    message = message.replace("seats play in turn 0, 1, 2, 3", "players play in turn 1, 2, 3, 4")
    message = re.sub(
        r"\bseats (\d(?: and \d)+)",
        lambda m: "players " + re.sub(r"\d", lambda d: str(int(d.group()) + 1), m.group(1)),
        message,
    )
    message = re.sub(r"\bseat (\d)\b", lambda m: f"Player {int(m.group(1)) + 1}", message)
    return re.sub(r"\bteam (\d)\b", lambda m: f"Team {int(m.group(1)) + 1}", message)


# --- argument helpers ---------------------------------------------------------


def _hands(args: argparse.Namespace) -> list[str]:
    named = [getattr(args, f"player{n}") for n in range(1, 5)]
    positional = " ".join(args.hands or [])
    if any(h is not None for h in named):
        if positional.strip():
            raise RulesError(
                "give the hands either positionally or with --player1..--player4, not both"
            )
        return [h or "" for h in named]
    if not positional.strip():
        raise RulesError("give the four hands: HAND1 / HAND2 / HAND3 / HAND4 (or --player1 ...)")
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
            raise RulesError(
                f"--call {spec!r}: write PLAYER:CARD or PLAYER:CARD:prompted, e.g. 1:HQ"
            )
        try:
            player = int(parts[0])
        except ValueError:
            player = 0
        if not 1 <= player <= 4:
            raise RulesError(
                f"--call {spec!r}: the player must be 1, 2, 3 or 4 (Player 1 is the Vorhand)"
            )
        card = Card.parse(parts[1])
        if card not in index:
            raise RulesError(f"--call {spec!r}: {card} has not been played")
        calls.append(StoeckCall(player - 1, index[card], prompted=len(parts) == 3))
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
    out(f"{out.w['hand']}{out.colon} {' '.join(c.code for c in sorted(hand))}")
    for meld in choice.melds if choice else melds:
        out(f"  {out.meld(meld)}")
    if not melds:
        out(f"  {out.w['none']}")
    out(f"{out.w['total']}{out.colon} {sum(m.points for m in melds)}")
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
           "no": "not in trump", "no_trump": "no trump in this contract"},
    "de": {"vs": "gegen", "natural": "natürliche Ordnung, die höhere oberste Karte gewinnt",
           "reversed": "Undenufe, die tiefere unterste Karte gewinnt", "yes": "im Trumpf",
           "no": "nicht im Trumpf", "no_trump": "kein Trumpf in dieser Spielart"},
    "fr": {"vs": "contre", "natural": "ordre naturel, la plus haute gagne",
           "reversed": "unden-ufe, la plus basse gagne", "yes": "à l'atout",
           "no": "pas à l'atout", "no_trump": "pas d'atout dans ce contrat"},
}  # fmt: skip


def _ladder_lines(out: _Out, trace: Sequence[Any]) -> None:
    """The Weis comparison of the two teams' best melds, one line per step."""
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
            a, b = (out.w["player"].format(n=v[side] + 1) for side in "ab")
            detail = f"{a} {words['vs']} {b}"
        else:
            detail = f"{v['a']} {words['vs']} {v['b']}"
        if v["winner"] is None:
            detail += f", {out.w['tie']}"
        else:
            detail += " -> " + out.w["team"].format(n=v["winner"] + 1)
        name = _STEP_NAMES[out.lang][step]
        out("  " + out.w["step"].format(n=_STEPS.index(step) + 1, name=name, detail=detail))


def _cmd_weis(args: argparse.Namespace, out: _Out) -> Any:
    rules = _rules(args)
    result = resolve_weis(_hands(args), args.contract, rules)
    if args.json:
        return _people(result.to_dict())
    out.line(f"{out.contract(result.contract)}, {out.rules(rules)}")
    for seat, melds in enumerate(result.melds):
        player = out.w["player"].format(n=seat + 1)
        head = f"{player} ({out.w['team'].format(n=seat % 2 + 1)})"
        out(f"{head}{out.colon} " + (out.meld(melds[0]) if melds else out.w["none"]))
        for meld in melds[1:]:
            out(f"    + {out.meld(meld)}")
    for team, best in enumerate(result.team_best):
        if best is None:
            out(out.w["team_none"].format(team=team + 1))
        else:
            out(out.w["team_best"].format(team=team + 1, meld=best[1], player=best[0] + 1))
    if result.comparison is not None:
        _ladder_lines(out, result.comparison.trace)
    elif result.team is not None:
        out(out.w["only_team"].format(team=result.team + 1))
    if result.team is None:
        out(out.w["writes_nobody"])
    else:
        factor = f" x {result.factor} = {result.scored}" if result.factor != 1 else ""
        out(out.w["writes"].format(team=result.team + 1, points=result.points, factor=factor))
        out(out.w["other_nothing"].format(team=2 - result.team))
    return None


def _stoeck_lines(out: _Out, stoeck: StoeckResult) -> None:
    text = _STOECK_WORDS[out.lang][stoeck.reason.value]
    if stoeck.seat is not None and stoeck.team is not None:
        text += ", " + out.w["holder"].format(player=stoeck.seat + 1, team=stoeck.team + 1)
    if stoeck.points:
        text += f", {stoeck.points}"
    out(out.w["stoeck"].format(status=text))


def _cmd_stoeck(args: argparse.Namespace, out: _Out) -> Any:
    hands = _hands(args)
    plays = _plays(args.plays, hands)
    result = check_stoeck(hands, args.contract, plays, _calls(args.call, plays), _rules(args))
    if args.json:
        return _people(result.to_dict())
    _stoeck_lines(out, result)
    return None


def _score(args: argparse.Namespace) -> RoundScore:
    hands = _hands(args)
    plays = _plays(args.plays, hands)
    return score_round(hands, args.contract, plays, _calls(args.call, plays), _rules(args))


def _score_lines(out: _Out, score: RoundScore) -> None:
    factor = out.w["factor"].format(n=score.factor)
    out.line(out.contract(score.contract) + (f", {factor}" if score.factor != 1 else ""))
    for trick in score.tricks:
        cards = " ".join(c.code for c in trick.cards)
        out(
            "  "
            + out.w["trick"].format(
                n=trick.index + 1, leader=trick.leader + 1, cards=cards,
                winner=trick.winner + 1, team=trick.team + 1, points=trick.points,
            )
        )  # fmt: skip
    if score.match is not None:
        out(out.w["match"].format(team=score.match + 1))
    _stoeck_lines(out, score.stoeck)
    names = _BLOCK_ROWS[out.lang]
    team1, team2 = (out.w["team"].format(n=n) for n in (1, 2))
    out(f"{'':10}{team1:>10}{team2:>10}")
    for name, key in zip(names, ("weis", "stoeck", "tricks"), strict=False):
        out(f"{name:10}{score.blocks[0][key]:>10}{score.blocks[1][key]:>10}")
    out(f"{names[3]:10}{score.totals[0]:>10}{score.totals[1]:>10}")


def _cmd_score(args: argparse.Namespace, out: _Out) -> Any:
    score = _score(args)
    if args.json:
        return _people(score.to_dict())
    _score_lines(out, score)
    return None


def _cmd_target(args: argparse.Namespace, out: _Out) -> Any:
    score = _score(args)
    result = resolve_target(tuple(args.before), score, args.target, _rules(args))
    if args.json:
        return {"score": _people(score.to_dict()), "target": _people(result.to_dict())}
    _score_lines(out, score)
    if result.team is None:
        out(out.w["target_none"].format(target=result.target))
    else:
        block = _BLOCKS[out.lang][result.block or "tricks"]
        trick = "" if result.trick is None else out.w["trick_no"].format(n=result.trick + 1)
        rule = "R7.4" if result.block == "tricks" else "R7.3"
        out(out.w["target_win"].format(team=result.team + 1, target=result.target, block=block,
                                       trick=trick, rule=rule))  # fmt: skip
    out(out.w["totals"].format(a=result.totals[0], b=result.totals[1]))
    return None


def _cmd_legal(args: argparse.Namespace, out: _Out) -> Any:
    result = explain_legal_cards(args.hand, args.trick or "", args.contract)
    if args.json:
        return result.to_dict()
    out(out.w["legal"].format(cards=" ".join(c.code for c in result.legal)))
    for v in result.verdicts:
        name = _card_name(v["card"], out.lang, out.deck)
        verdict = _VERDICTS[out.lang][v.key]
        out("  " + out.w["why"].format(card=f"{v['card']} ({name})", verdict=verdict, rule=v.rule))
    return None


def _cmd_presets(args: argparse.Namespace, out: _Out) -> Any:
    data = {name: RuleSet.preset(name).to_dict() for name in RuleSet.presets()}
    if args.json:
        return data
    for name, fields in data.items():
        label = _PRESET_NAMES[out.lang][name]
        out(
            f"{name}{out.colon} {label}{_SEMICOLON[out.lang]} "
            + ", ".join(f"{k}={v}" for k, v in fields.items())
        )
    return None


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--rules",
        default="default",
        metavar="PRESET",
        help="rule set: " + ", ".join(RuleSet.presets()),
    )
    common.add_argument("--lang", choices=("en", "de", "fr"), default="en", help="output language")
    common.add_argument(
        "--deck", choices=("swiss", "french"), default="swiss", help="card names of this deck"
    )
    common.add_argument("--json", action="store_true", help="print the result as JSON data")

    hands = argparse.ArgumentParser(add_help=False)
    hands.add_argument(
        "hands",
        nargs="*",
        metavar="CARD",
        help="the four hands, Player 1 (Vorhand) first: HAND1 / HAND2 / HAND3 / HAND4",
    )
    for n in range(1, 5):
        hands.add_argument(
            f"--player{n}",
            metavar="CARDS",
            help=f"Player {n}'s hand" + (" (the Vorhand)" if n == 1 else ""),
        )
    hands.add_argument(
        "--contract", required=True, help="D H S C (or a suit name), obenabe, undenufe"
    )

    round_ = argparse.ArgumentParser(add_help=False)
    round_.add_argument("--plays", default="", help="the cards in the order played")
    round_.add_argument(
        "--call",
        action="append",
        default=[],
        metavar="PLAYER:CARD[:prompted]",
        help="a Stöck call by PLAYER (1-4) right after CARD was played",
    )

    parser = argparse.ArgumentParser(
        prog="python -m rules_core",
        description="Jass (Schieber) referee: melds, Weis, Stöck, round score, target. "
        "Players are 1-4 from the Vorhand; Team 1 is players 1 and 3.",
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
        metavar=("TEAM1", "TEAM2"),
        help="the totals of Team 1 and Team 2 before the round",
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
        print(f"error: {_people_error(str(err))}", file=sys.stderr)
        return 2
    print(_emit_json(data) if args.json else "\n".join(out.lines))
    return 0
