"""The command line referee: python -m rules_core (rules_core.cli.main)."""

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
        capsys, "melds", "Rosen 6, Rosen 7, Rosen 8", "--lang", "de", "--contract", "H"
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


def test_r5_5_cli_weis_shows_each_seat_the_ladder_and_who_writes(capsys):
    code, out, _ = run(capsys, "weis", "--contract", "H", *S_EN.split())
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Trump roses, rules: default"
    assert "Seat 2 (team 0): 4-card sequence in shields: S10 SJ SQ SK = 50" in lines
    assert "  Step 1 POINTS: 50 vs 20 -> team 0" in lines
    assert "Team 0 writes 50 Weis (R5.6)" in lines and "Team 1 writes no Weis (R5.6)" in lines
    code, out, _ = run(capsys, "weis", "--contract", "obenabe", "--seat0", "CQ CK CA",
                       "--seat1", "DQ DK DA", "--lang", "de")  # fmt: skip
    assert "  Schritt 5 Sitz: Sitz 0 gegen Sitz 1 -> Team 0" in out
    assert "  Schritt 4 Trumpf: kein Trumpf in dieser Spielart, gleich" in out
    code, out, _ = run(capsys, "weis", "--contract", "undenufe", "--seat0", "DA HA SA CA",
                       "--seat1", "D10 H10 S10 C10")  # fmt: skip
    assert "Step 3 HIGH CARD: DA vs D10 (Undenufe, the lower bottom card wins) -> team 1" in out
    code, out, _ = run(capsys, "weis", "--contract", "S", "--seat0", "H6 H7 H8",
                       "--rules", "swisslos-2500", "--json")  # fmt: skip
    assert json.loads(out)["scored"] == 40


def _round_args():
    plays = play_round(S_EN_DEAL, "H", prefix=[(0, "DK"), (1, "H8"), (2, "HJ"), (3, "D6")])
    return [" ".join(c.code for _, c in plays)], plays


def test_r4_4_cli_score_and_target(capsys):
    (plays_text,), plays = _round_args()
    code, out, _ = run(capsys, "score", *S_EN.split(), "--contract", "H", "--plays", plays_text)
    assert code == 0
    assert "  Trick 1: seat 0 leads DK H8 HJ D6 -> seat 2 (team 0), 24" in out
    assert "Stöck: lost, not called in time (R6.5), held by seat 3 (team 1)" in out
    data_code, data, _ = run(capsys, "score", *S_EN.split(), "--contract", "H", "--plays",
                             plays_text, "--json")  # fmt: skip
    score = json.loads(data)
    assert data_code == 0 and sum(b["tricks"] for b in score["blocks"]) == 157
    code, out, _ = run(capsys, "target", *S_EN.split(), "--contract", "H", "--plays", plays_text,
                       "--before", "960", "100")  # fmt: skip
    assert code == 0 and "Team 0 reaches 1000 in the weis block (R7.3)" in out
    code, out, _ = run(capsys, "target", *S_EN.split(), "--contract", "H", "--plays", plays_text,
                       "--before", "0", "0", "--lang", "de")  # fmt: skip
    assert "Kein Team erreicht 1000" in out


def test_r6_2_cli_stoeck(capsys):
    (plays_text,), plays = _round_args()
    second = max(i for i, (_, c) in enumerate(plays) if c.code in ("HK", "HQ"))
    card = plays[second][1].code
    head = " ".join(c.code for _, c in plays[: second + 1])
    code, out, _ = run(capsys, "stoeck", *S_EN.split(), "--contract", "H", "--plays", head)
    assert code == 0 and "still possible" in out
    code, out, _ = run(capsys, "stoeck", *S_EN.split(), "--contract", "H", "--plays", head,
                       "--call", f"3:{card}")  # fmt: skip
    assert "Stöck: scored, called with the second card (R6.2), held by seat 3 (team 1), 20" in out
    code, out, _ = run(capsys, "stoeck", *S_EN.split(), "--contract", "H", "--plays", head,
                       "--call", f"3:{card}:prompted", "--lang", "de", "--json")  # fmt: skip
    assert json.loads(out)["reason"] == "prompted"


def test_r3_3_cli_legal(capsys):
    code, out, _ = run(capsys, "legal", "--hand", "S7 H6 HA C9", "--trick", "SK HQ",
                       "--contract", "H")  # fmt: skip
    assert code == 0 and out.splitlines()[0] == "May be played: S7 HA"
    assert "  H6 (Rosen 6): NOT allowed, under-trumps (R3.3)" in out or "under-trumps" in out


def test_r8_cli_presets(capsys):
    code, out, _ = run(capsys, "presets", "--json")
    assert code == 0 and json.loads(out)["swisslos-2500"]["target"] == 2500


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["weis", "--contract", "X", "H6", "/", "", "/", "/"], "unknown contract 'X'"),
        (["weis", "--contract", "H", "H6", "H6", "/", "/", "/"], "seat 0's hand has H6 twice"),
        (["weis", "--contract", "H", "H6"], "four hands separated by '/'"),
        (["weis", "--contract", "H"], "give the four hands"),
        (["melds", "Rosen", "Zwölf"], "cannot read 'Rosen Zwölf' as a card: unknown rank 'Zwölf'"),
        (["melds", "H6", "--rules", "nope"], "unknown rule set 'nope'"),
        (["score", *S_EN.split(), "--contract", "H", "--plays", "DK H8"], "a round has 36 plays"),
        (["score", *S_EN.split(), "--contract", "H", "--plays", "DK H8 S10 D6 " * 9],
         "trick 1, seat 2 played S10 but must follow suit with D (D7 D10) (R3.1)"),
        (["stoeck", *S_EN.split(), "--contract", "H", "--plays", "DK", "--call", "3"],
         "write SEAT:CARD"),
        (["stoeck", *S_EN.split(), "--contract", "H", "--plays", "DK", "--call", "3:HK"],
         "HK has not been played"),
    ],
)  # fmt: skip
def test_r1_2_cli_errors_exit_2_without_traceback(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and "Traceback" not in err


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
    assert "H6 is in more than one hand" in bad.stderr
    usage = subprocess.run(
        [sys.executable, "-m", "rules_core"], capture_output=True, text=True, check=False
    )
    assert usage.returncode == 2 and "usage:" in usage.stderr
    assert main(["--help"]) == 0
