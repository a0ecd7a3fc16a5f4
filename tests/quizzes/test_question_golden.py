"""Generated questions are pinned: (kind, seed, rule set) -> a hash of the question.

"Same questions for everybody" assignments regenerate their questions from seeds, and
practice builds on the same generators, so a change that alters what a seed produces
must be deliberate. When it is, regenerate the file and say why in the commit:

    JASS_REGENERATE_GOLDEN=1 .venv/bin/pytest tests/quizzes/test_question_golden.py
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from rules_core import RuleSet
from teaching.generators import KINDS, generate

GOLDEN = Path(__file__).with_name("golden_questions.json")
SEEDS = range(40)


def _digest(kind: str, seed: int, preset: str) -> str:
    question = generate(kind, seed, RuleSet.preset(preset)).to_dict()
    text = json.dumps(question, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _current() -> dict[str, str]:
    return {
        f"{kind}:{seed}:{preset}": _digest(kind, seed, preset)
        for kind in KINDS
        for preset in RuleSet.presets()
        for seed in SEEDS
    }


def test_generated_questions_match_the_golden_file():
    current = _current()
    if os.environ.get("JASS_REGENERATE_GOLDEN") == "1":
        GOLDEN.write_text(json.dumps(current, indent=0, sort_keys=True) + "\n")
    golden = json.loads(GOLDEN.read_text())
    changed = sorted(key for key in current if golden.get(key) != current[key])
    assert not changed, (
        f"{len(changed)} generated questions changed (first: {changed[:5]}); if on "
        "purpose, regenerate with JASS_REGENERATE_GOLDEN=1 (see the module docstring)"
    )
    assert set(golden) == set(current)
