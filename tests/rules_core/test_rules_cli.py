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


def test_r3_3_cli_legal(capsys):
    code, out, _ = run(capsys, "legal", "--hand", "S7 H6 HA C9", "--trick", "SK HQ",
                       "--contract", "H")  # fmt: skip
    assert code == 0 and out.splitlines()[0] == "May be played: S7 HA"
    assert "  H6 (6 of roses): NOT allowed, under-trumps (R3.3)" in out
    code, out, _ = run(capsys, "legal", "--hand", "S7 H6 HA C9", "--trick", "SK HQ",
                       "--contract", "H", "--lang", "de")  # fmt: skip
    assert "  H6 (Rosen-6): NICHT erlaubt, untertrumpft (R3.3)" in out
    assert "  C9 (Eichel-Nell)" in out or "  C9 (Eichel-9)" in out


def test_r8_cli_presets(capsys):
    code, out, _ = run(capsys, "presets", "--json")
    assert code == 0 and json.loads(out)["swisslos-2500"]["target"] == 2500
    code, out, _ = run(capsys, "presets", "--lang", "de")
    assert code == 0 and out.startswith("default: Jassverband (Standard); ")


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
