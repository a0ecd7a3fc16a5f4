"""The command line referee: python -m rules_core (rules_core.cli.main).

People count from 1: players 1-4 from the Vorhand, Team 1 (players 1 and 3) and
Team 2 (players 2 and 4), in input, text, --json data and error messages.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rules_core.cli import main
from rules_core.deals import play_round
from tests.rules_core.scenes import S_EN_DEAL, S_EN_TEXT

S_EN = S_EN_TEXT


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_r5_1_cli_melds(capsys):
    code, out, _ = run(capsys, "melds", "H6", "H7", "H8", "D8", "S8", "C8")
    assert code == 0
    assert "four eights: D8 H8 S8 C8 = 100" in out and "3-card sequence in roses" in out
    assert "Total: 120" in out
    code, out, _ = run(
        capsys, "melds", "Rosen-6, Rosen 7, Rosen-8", "--lang", "de", "--contract", "H"
    )
    assert (
        code == 0
        and "Dreiblatt Rosen: H6 H7 H8 = 20" in out
        and "Gemeldet bei Trumpf Rosen: 20" in out
    )
    code, out, _ = run(capsys, "melds", "D6", "H6", "S6", "C6", "--rules", "w-en")
    assert "no meld" in out and "Total: 0" in out
    code, out, _ = run(capsys, "melds", "H6 H7 H8", "--json")
    assert json.loads(out)["melds"][0]["cards"] == ["H6", "H7", "H8"]


def test_r5_1_cli_melds_in_french(capsys):
    code, out, _ = run(capsys, "melds", "H6", "H7", "H8", "D8", "S8", "C8", "--lang", "fr")
    assert code == 0
    assert "  quatre huit : D8 H8 S8 C8 = 100" in out
    assert "  suite de trois cartes à roses : H6 H7 H8 = 20" in out
    assert "Main : D8 H6 H7 H8 S8 C8" in out and "Total : 120" in out
    code, out, _ = run(capsys, "melds", "valet de cœur, dame de coeur, roi de cœur", "D9", "H9",
                       "S9", "C9", "--lang", "fr", "--deck", "french", "--contract", "H")  # fmt: skip
    assert code == 0
    assert "  suite de trois cartes à cœur : HJ HQ HK = 20" in out
    assert "  quatre neuf : D9 H9 S9 C9 = 150" in out
    assert "Annonce (atout cœur) : 150 (D9 H9 S9 C9)" in out
    code, out, _ = run(capsys, "melds", "D9 H9 S9 C9 DJ HJ SJ CJ", "--lang", "fr")
    assert "  quatre nells : D9 H9 S9 C9 = 150" in out
    assert "  quatre unders : DJ HJ SJ CJ = 200" in out
    code, out, _ = run(capsys, "melds", "D6", "H6", "S6", "C6", "--rules", "w-en", "--lang", "fr")
    assert "  pas d'annonce" in out and "Total : 0" in out


def test_r5_5_cli_weis_shows_each_player_the_ladder_and_which_team_writes(capsys):
    code, out, _ = run(capsys, "weis", "--contract", "H", *S_EN.split())
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Trump roses, rule set: Jassverband (default)"
    assert "Player 1 (Team 1): no meld" in lines
    assert "Player 3 (Team 1): 4-card sequence in shields: S10 SJ SQ SK = 50" in lines
    assert "Best meld of Team 1: S10 SJ SQ SK (Player 3)" in lines
    assert "  Step 1 (points): 50 vs 20 -> Team 1" in lines
    assert "Team 1 writes 50 Weis (R5.6)" in lines and "Team 2 writes no Weis (R5.6)" in lines
    code, out, _ = run(capsys, "weis", "--contract", "obenabe", "--player1", "CQ CK CA",
                       "--player2", "DQ DK DA", "--lang", "de")  # fmt: skip
    assert "Spieler 1 (Team 1): Dreiblatt Eicheln: CQ CK CA = 20" in out
    assert "  Stufe 5 (wer zuerst meldet): Spieler 1 gegen Spieler 2 -> Team 1" in out
    assert "  Stufe 4 (Trumpf): kein Trumpf in dieser Spielart, gleich" in out
    assert "Team 1 schreibt 20 Weis (R5.6)" in out
    code, out, _ = run(capsys, "weis", "--contract", "undenufe", "--player1", "DA HA SA CA",
                       "--player2", "D10 H10 S10 C10")  # fmt: skip
    assert (
        "Step 3 (highest card): DA vs D10 (Undenufe, the lower bottom card wins) -> Team 2" in out
    )
    code, out, _ = run(capsys, "weis", "--contract", "S", "--player1", "H6 H7 H8",
                       "--rules", "swisslos-2500", "--json")  # fmt: skip
    data = json.loads(out)
    assert data["scored"] == 40 and data["team"] == 1 and data["best_player"] == 1
    assert "best_seat" not in data and data["team_best"][0]["player"] == 1


def test_r5_5_cli_weis_in_french_shows_each_player_the_ladder_and_which_team_marks(capsys):
    code, out, _ = run(capsys, "weis", "--contract", "H", *S_EN.split(), "--lang", "fr")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Atout roses, jeu de règles : Jassverband (par défaut)"
    assert "Joueur 1 (Équipe 1) : pas d'annonce" in lines
    assert "Joueur 3 (Équipe 1) : suite de quatre cartes à boucliers : S10 SJ SQ SK = 50" in lines
    assert "Meilleure annonce de l'équipe 1 : S10 SJ SQ SK (joueur 3)" in lines
    assert "  Échelon 1 (points) : 50 contre 20 -> Équipe 1" in lines
    assert "L'équipe 1 marque les annonces : 50 (R5.6)" in lines
    assert "L'équipe 2 ne marque pas d'annonces (R5.6)" in lines
    code, out, _ = run(capsys, "weis", "--contract", "obenabe", "--player1", "CQ CK CA",
                       "--player2", "DQ DK DA", "--lang", "fr", "--deck", "french")  # fmt: skip
    lines = out.splitlines()
    assert lines[0] == "Oben-abe, jeu de règles : Jassverband (par défaut)"
    assert "Joueur 1 (Équipe 1) : suite de trois cartes à trèfle : CQ CK CA = 20" in lines
    assert "  Échelon 2 (nombre de cartes) : 3 contre 3, égalité" in lines
    assert "  Échelon 4 (atout) : pas d'atout dans ce contrat, égalité" in lines
    assert "  Échelon 5 (qui a annoncé en premier) : Joueur 1 contre Joueur 2 -> Équipe 1" in lines
    code, out, _ = run(capsys, "weis", "--contract", "undenufe", "--player1", "DA HA SA CA",
                       "--player2", "D10 H10 S10 C10", "--lang", "fr")  # fmt: skip
    assert out.startswith("Unden-ufe, jeu de règles : ")
    assert "Joueur 2 (Équipe 2) : quatre bannières : D10 H10 S10 C10 = 100" in out
    assert (
        "  Échelon 3 (carte la plus haute) : DA contre D10 (unden-ufe, la plus basse gagne) "
        "-> Équipe 2" in out
    )
    code, out, _ = run(capsys, "weis", "--contract", "S", "--player1", "H6 H7 H8",
                       "--rules", "swisslos-2500", "--lang", "fr")  # fmt: skip
    assert out.startswith("Atout boucliers, jeu de règles : Swisslos 2500\n")
    assert "Seule l'équipe 1 a une annonce, donc elle marque." in out
    assert "L'équipe 1 marque les annonces : 20 x 2 = 40 (R5.6)" in out
    code, out, _ = run(capsys, "weis", "--contract", "C", "--player1", "H6", "--lang", "fr")
    assert "Personne ne marque d'annonces (aucune annonce à la table)" in out


def test_r5_5_cli_weis_json_counts_players_and_teams_from_1(capsys):
    code, out, _ = run(capsys, "weis", "--contract", "obenabe", "--player3", "CQ CK CA",
                       "--player4", "DQ DK DA", "--json")  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["team"] == 1 and data["best_player"] == 3
    assert [tb["player"] for tb in data["team_best"]] == [3, 4]
    seat_step = next(e for e in data["trace"] if e["key"] == "ladder.seat")
    assert seat_step["values"] == {"a": 3, "b": 4, "winner": 1}
    per_player = [e["values"] for e in data["trace"] if e["key"] == "weis.seat"]
    assert [(v["player"], v["team"]) for v in per_player] == [(1, 1), (2, 2), (3, 1), (4, 2)]
    assert '"seat":' not in out and "_seat" not in out  # machine keys like "ladder.seat" stay


def _round_args():
    plays = play_round(S_EN_DEAL, "H", prefix=[(0, "DK"), (1, "H8"), (2, "HJ"), (3, "D6")])
    return [" ".join(c.code for _, c in plays)], plays


def test_r4_4_cli_score_and_target(capsys):
    (plays_text,), plays = _round_args()
    code, out, _ = run(capsys, "score", *S_EN.split(), "--contract", "H", "--plays", plays_text)
    assert code == 0
    assert "  Trick 1: Player 1 leads DK H8 HJ D6 -> Player 3 (Team 1), 24" in out
    assert "Stöck: lost, not called in time (R6.5), held by Player 4 (Team 2)" in out
    assert out.splitlines()[-5].split() == ["Team", "1", "Team", "2"]
    data_code, data, _ = run(capsys, "score", *S_EN.split(), "--contract", "H", "--plays",
                             plays_text, "--json")  # fmt: skip
    score = json.loads(data)
    assert data_code == 0 and sum(b["tricks"] for b in score["blocks"]) == 157
    first = score["tricks"][0]
    assert (first["trick"], first["leader"], first["players"]) == (1, 1, [1, 2, 3, 4])
    assert (first["winner"], first["team"]) == (3, 1)
    assert score["weis"]["team"] == 1 and score["stoeck"]["player"] == 4
    code, out, _ = run(capsys, "target", *S_EN.split(), "--contract", "H", "--plays", plays_text,
                       "--before", "960", "100")  # fmt: skip
    assert code == 0 and "Team 1 reaches 1000 in the Weis block (R7.3)" in out
    assert "Totals after the round: Team 1 1073, Team 2 194" in out
    code, out, _ = run(capsys, "target", *S_EN.split(), "--contract", "H", "--plays", plays_text,
                       "--before", "900", "990")  # fmt: skip
    assert "Team 2 reaches 1000 in the tricks block, trick 2 (R7.4)" in out
    code, out, _ = run(capsys, "target", *S_EN.split(), "--contract", "H", "--plays", plays_text,
                       "--before", "900", "990", "--json")  # fmt: skip
    target = json.loads(out)["target"]
    assert (target["team"], target["block"], target["trick"]) == (2, "tricks", 2)
    code, out, _ = run(capsys, "target", *S_EN.split(), "--contract", "H", "--plays", plays_text,
                       "--before", "0", "0", "--lang", "de")  # fmt: skip
    assert "Kein Team erreicht 1000" in out and "Stand nach der Runde: Team 1 113, Team 2 94" in out
    assert "  Stich 1: Spieler 1 spielt aus DK H8 HJ D6 -> Spieler 3 (Team 1), 24" in out


def test_r4_4_cli_score_and_target_in_french(capsys):
    (plays_text,), plays = _round_args()
    code, out, _ = run(capsys, "score", *S_EN.split(), "--contract", "H", "--plays", plays_text,
                       "--lang", "fr")  # fmt: skip
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Atout roses"
    assert "  Pli 1 : le joueur 1 entame DK H8 HJ D6 -> joueur 3 (équipe 1), 24" in lines
    assert "Stöck : perdu, pas dit à temps (R6.5), tenu par le joueur 4 (équipe 2)" in lines
    assert lines[-5].split() == ["Équipe", "1", "Équipe", "2"]
    assert [line.split() for line in lines[-4:]] == [
        ["Annonces", "50", "0"], ["Stöck", "0", "0"], ["Plis", "63", "94"], ["Total", "113", "94"],
    ]  # fmt: skip
    spades = " ".join(c.code for _, c in play_round(S_EN_DEAL, "S"))
    code, out, _ = run(capsys, "score", *S_EN.split(), "--contract", "S", "--plays", spades,
                       "--rules", "swisslos-2500", "--lang", "fr", "--deck", "french")  # fmt: skip
    assert code == 0 and out.startswith("Atout pique, facteur 2\n")
    code, out, _ = run(capsys, "target", *S_EN.split(), "--contract", "H", "--plays", plays_text,
                       "--before", "960", "100", "--lang", "fr")  # fmt: skip
    assert code == 0 and "L'équipe 1 atteint 1000 dans le bloc des annonces (R7.3)" in out
    assert "Totaux après la donne : équipe 1 1073, équipe 2 194" in out
    code, out, _ = run(capsys, "target", *S_EN.split(), "--contract", "H", "--plays", plays_text,
                       "--before", "900", "990", "--lang", "fr")  # fmt: skip
    assert "L'équipe 2 atteint 1000 dans le bloc des plis, pli 2 (R7.4)" in out
    code, out, _ = run(capsys, "target", *S_EN.split(), "--contract", "H", "--plays", plays_text,
                       "--before", "0", "0", "--lang", "fr")  # fmt: skip
    assert "Aucune équipe n'atteint 1000 ; on continue avec la donne suivante (R7.5)" in out


def test_r6_2_cli_stoeck(capsys):
    (plays_text,), plays = _round_args()
    second = max(i for i, (_, c) in enumerate(plays) if c.code in ("HK", "HQ"))
    card = plays[second][1].code
    head = " ".join(c.code for _, c in plays[: second + 1])
    code, out, _ = run(capsys, "stoeck", *S_EN.split(), "--contract", "H", "--plays", head)
    assert code == 0 and "still possible" in out
    code, out, _ = run(capsys, "stoeck", *S_EN.split(), "--contract", "H", "--plays", head,
                       "--call", f"4:{card}")  # fmt: skip
    assert "Stöck: scored, called with the second card (R6.2), held by Player 4 (Team 2), 20" in out
    code, out, _ = run(capsys, "stoeck", *S_EN.split(), "--contract", "H", "--plays", head,
                       "--call", f"4:{card}", "--lang", "de")  # fmt: skip
    assert "gehalten von Spieler 4 (Team 2), 20" in out
    code, out, _ = run(capsys, "stoeck", *S_EN.split(), "--contract", "H", "--plays", head,
                       "--call", f"4:{card}:prompted", "--lang", "de", "--json")  # fmt: skip
    data = json.loads(out)
    assert data["reason"] == "prompted" and (data["player"], data["team"]) == (4, 2)
    assert data["calls"] == [{"player": 4, "after_play": second + 1, "prompted": True}]
    assert data["second_play"] == second + 1


def test_r6_2_cli_stoeck_in_french(capsys):
    (plays_text,), plays = _round_args()
    second = max(i for i, (_, c) in enumerate(plays) if c.code in ("HK", "HQ"))
    card = plays[second][1].code
    head = " ".join(c.code for _, c in plays[: second + 1])
    code, out, _ = run(capsys, "stoeck", *S_EN.split(), "--contract", "H", "--plays", head,
                       "--lang", "fr")  # fmt: skip
    assert code == 0 and out.startswith("Stöck : encore possible, «stöck» peut être dit ")
    code, out, _ = run(capsys, "stoeck", *S_EN.split(), "--contract", "H", "--plays", head,
                       "--call", f"4:{card}", "--lang", "fr")  # fmt: skip
    assert out == (
        "Stöck : marqué, dit avec la deuxième carte (R6.2), tenu par le joueur 4 (équipe 2), 20\n"
    )
    code, out, _ = run(capsys, "stoeck", *S_EN.split(), "--contract", "H", "--plays", head,
                       "--call", f"4:{card}:prompted", "--lang", "fr")  # fmt: skip
    assert "Stöck : perdu, rappelé par le partenaire (R6.4)" in out
    code, out, _ = run(capsys, "stoeck", *S_EN.split(), "--contract", "obenabe", "--plays", "DK",
                       "--lang", "fr")  # fmt: skip
    assert out == "Stöck : aucun, pas d'atout dans ce contrat (R6.1)\n"


def test_r3_3_cli_legal(capsys):
    code, out, _ = run(capsys, "legal", "--hand", "S7 H6 HA C9", "--trick", "SK HQ",
                       "--contract", "H")  # fmt: skip
    assert code == 0 and out.splitlines()[0] == "May be played: S7 HA"
    assert "  H6 (6 of roses): NOT allowed, under-trumps (R3.3)" in out
    code, out, _ = run(capsys, "legal", "--hand", "S7 H6 HA C9", "--trick", "SK HQ",
                       "--contract", "H", "--lang", "de")  # fmt: skip
    assert "  H6 (Rosen-6): NICHT erlaubt, untertrumpft (R3.3)" in out
    assert "  C9 (Eichel-Nell)" in out or "  C9 (Eichel-9)" in out


def test_r3_3_cli_legal_in_french_names_the_cards_of_both_decks(capsys):
    code, out, _ = run(capsys, "legal", "--hand", "S7 H6 HA C9", "--trick", "SK HQ",
                       "--contract", "H", "--lang", "fr", "--deck", "french")  # fmt: skip
    assert code == 0 and out.splitlines()[0] == "Peuvent être jouées : S7 HA"
    assert "  S7 (7 de pique) : fournit à la couleur (R3.1)" in out
    assert "  H6 (6 de cœur) : PAS permis, sous-coupe (R3.3)" in out
    assert "  HA (as de cœur) : surcoupe (R3.3)" in out
    assert "  C9 (9 de trèfle) : PAS permis, doit fournir à la couleur (R3.1)" in out
    code, out, _ = run(capsys, "legal", "--hand", "valet de cœur, 6 de pique", "--trick", "SK",
                       "--contract", "H", "--lang", "fr")  # fmt: skip
    assert "  HJ (under de roses) : couper est toujours permis (R3.2)" in out


def test_r8_cli_presets(capsys):
    code, out, _ = run(capsys, "presets", "--json")
    assert code == 0 and json.loads(out)["swisslos-2500"]["target"] == 2500
    code, out, _ = run(capsys, "presets", "--lang", "de")
    assert code == 0 and out.startswith("default: Jassverband (Standard); ")


def test_r8_cli_presets_in_french(capsys):
    code, out, _ = run(capsys, "presets", "--lang", "fr")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("default : Jassverband (par défaut) ; ")
    assert lines[1].startswith("w-en : lecture W-EN ; low_quads_score=False")
    assert [line.split(" ; ")[0] for line in lines[2:]] == [
        "ausmachregel : Ausmachregel", "swisslos-2500 : Swisslos 2500",
    ]  # fmt: skip


def test_r1_2_cli_has_every_word_in_every_language():
    from rules_core import cli

    for table in (cli._COLON, cli._SEMICOLON, cli._FOUR):
        assert set(table) == {"en", "de", "fr"}
    tables = [cli._W, cli._BLOCK_ROWS, cli._STEP_NAMES, cli._BLOCKS, cli._PRESET_NAMES,
              cli._STOECK_WORDS, cli._VERDICTS, cli._LADDER_WORDS]  # fmt: skip
    for table in tables:
        assert set(table) == {"en", "de", "fr"}
        shapes = {lang: set(words) if isinstance(words, dict) else len(words)
                  for lang, words in table.items()}  # fmt: skip
        assert shapes["de"] == shapes["en"] == shapes["fr"]
    for deck in ("swiss", "french"):
        assert len(cli._QUAD_PLURAL[("fr", deck)]) == len(cli._QUAD_PLURAL[("en", deck)]) == 9


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["weis", "--contract", "X", "H6", "/", "", "/", "/"], "unknown contract 'X'"),
        (["weis", "--contract", "H", "H6", "H6", "/", "/", "/"], "Player 1's hand has H6 twice"),
        (["weis", "--contract", "H", "H6"], "four hands separated by '/'"),
        (["weis", "--contract", "H"], "give the four hands: HAND1 / HAND2 / HAND3 / HAND4"),
        (["weis", "--contract", "H", "H6 / / /", "--player1", "H7"], "--player1..--player4"),
        (["melds", "Rosen", "Zwölf"], "cannot read 'Rosen Zwölf' as a card: unknown rank 'Zwölf'"),
        (["melds", "H6", "--rules", "nope"], "unknown rule set 'nope'"),
        (["score", *S_EN.split(), "--contract", "H", "--plays", "DK H8"], "a round has 36 plays"),
        (["score", *S_EN.split(), "--contract", "H", "--plays", "DK H8 S10 D6 " * 9],
         "trick 1, Player 3 played S10 but must follow suit with D (D7 D10) (R3.1)"),
        (["stoeck", *S_EN.split(), "--contract", "H", "--plays", "DK", "--call", "3"],
         "write PLAYER:CARD"),
        (["stoeck", *S_EN.split(), "--contract", "H", "--plays", "DK", "--call", "0:DK"],
         "the player must be 1, 2, 3 or 4"),
        (["stoeck", *S_EN.split(), "--contract", "H", "--plays", "DK", "--call", "5:DK"],
         "the player must be 1, 2, 3 or 4"),
        (["stoeck", *S_EN.split(), "--contract", "H", "--plays", "DK", "--call", "x:DK"],
         "the player must be 1, 2, 3 or 4"),
        (["stoeck", *S_EN.split(), "--contract", "H", "--plays", "DK", "--call", "3:HK"],
         "HK has not been played"),
    ],
)  # fmt: skip
def test_r1_2_cli_errors_exit_2_without_traceback(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and "Traceback" not in err
    assert "seat" not in err.lower()


def test_r1_2_cli_old_seat_options_are_gone(capsys):
    code, _, err = run(capsys, "weis", "--contract", "H", "--seat0", "H6 H7 H8")
    assert code == 2 and "unrecognized arguments: --seat0" in err


def test_r1_2_cli_as_a_module_subprocess():
    ok = subprocess.run(
        [sys.executable, "-m", "rules_core", "melds", "H6", "H7", "H8"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert ok.returncode == 0 and "Total: 20" in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "rules_core", "weis", "--contract", "H", "H6 / H6 / / "],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "H6 is in more than one hand (players 1 and 2)" in bad.stderr
    usage = subprocess.run(
        [sys.executable, "-m", "rules_core"], capture_output=True, text=True, check=False
    )
    assert usage.returncode == 2 and "usage:" in usage.stderr
    assert main(["--help"]) == 0
