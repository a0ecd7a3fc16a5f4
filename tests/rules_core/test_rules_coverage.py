"""Every rule ID of RULES.md has at least one test named after it (test_r5_5_..., test_r8_...)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HERE = Path(__file__).parent
RULE_IDS = [
    "R1.1", "R1.2", "R1.3",
    "R2.1", "R2.2", "R2.3", "R2.4",
    "R3.1", "R3.2", "R3.3", "R3.4", "R3.5", "R3.6", "R3.7",
    "R4.1", "R4.2", "R4.3", "R4.4", "R4.5",
    "R5.1", "R5.2", "R5.3", "R5.4", "R5.4a", "R5.4b", "R5.5", "R5.6", "R5.7",
    "R6.1", "R6.2", "R6.3", "R6.4", "R6.4a", "R6.5",
    "R7.1", "R7.2", "R7.3", "R7.4", "R7.5",
    "R8",
]  # fmt: skip
# RULES.md lives beside the repository on the development machines (../shared)
RULES_MD = HERE.parents[2] / "shared" / "RULES.md"


def _test_names() -> set[str]:
    names = set()
    for path in HERE.glob("test_rules_*.py"):
        names.update(re.findall(r"^def (test_r[0-9a-z_]+)\(", path.read_text(), re.M))
    return names


def test_r8_every_rule_id_has_a_test():
    names = _test_names()
    missing = []
    for rule in RULE_IDS:
        prefix = "test_" + rule.lower().replace(".", "_") + "_"
        if not any(name.startswith(prefix) for name in names):
            missing.append(rule)
    assert missing == []


def test_r8_rule_id_list_matches_rules_md():
    if not RULES_MD.exists():  # pragma: no cover - only beside ../shared
        pytest.skip(f"RULES.md is not at {RULES_MD} (it lives beside the repository in ../shared)")
    found = re.findall(r"^- (R\d\.\d+[a-z]?) ", RULES_MD.read_text(), re.M)
    assert found + ["R8"] == RULE_IDS
