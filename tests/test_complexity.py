"""No shipped function is above radon's cyclomatic-complexity grade C (issue 23).

Ruff's C901 (mccabe) does not count conditional expressions, ``and``/``or`` or
comprehension filters, so a function written in that style passed it at 53 (review
2026-12-04 §1.4). Radon counts them. Shipped code is ``rules_core``, ``teaching`` and
``tutor`` without migrations; tests and ``bench`` are scripts and are not checked.

``ALLOWED`` listed the functions still at grade D or worse while issue 23 brought
them down; it is empty now and stays for an exception a reviewer accepts. It only
shrinks: a function on it that is grade C or better (or gone) fails too, so whoever
fixes it also takes it off the list.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from radon.complexity import cc_rank, cc_visit
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("rules_core", "teaching", "tutor")
WORST_ALLOWED = "C"  # grades run A (simple) to F; D starts at a complexity of 21

# "path:function" (methods as Class.method) -> who is bringing it to grade C; empty.
ALLOWED: dict[str, str] = {}


def shipped_files() -> Iterator[Path]:
    for package in SHIPPED:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.relative_to(ROOT).parts:
                yield path


def functions(path: Path) -> Iterator[tuple[str, int]]:
    """(qualified name, complexity) of every function and method in ``path``."""
    for block in cc_visit(path.read_text(encoding="utf-8")):
        if isinstance(block, Class):
            for method in block.methods:
                yield f"{block.name}.{method.name}", method.complexity
        elif isinstance(block, Function):
            yield block.name, block.complexity


@pytest.fixture(scope="module")
def grades() -> dict[str, tuple[str, int]]:
    """Every shipped function by "path:name", with its grade and complexity."""
    found = {}
    for path in shipped_files():
        where = path.relative_to(ROOT).as_posix()
        for name, complexity in functions(path):
            found[f"{where}:{name}"] = (cc_rank(complexity), complexity)
    return found


def test_no_shipped_function_is_above_radon_grade_c(grades):
    too_complex = sorted(
        f"{name} is grade {grade} ({complexity})"
        for name, (grade, complexity) in grades.items()
        if grade > WORST_ALLOWED and name not in ALLOWED
    )
    assert not too_complex, "split these (at most grade C, complexity 20):\n" + "\n".join(
        too_complex
    )


def test_the_allow_list_only_holds_functions_still_above_grade_c(grades):
    done = sorted(
        f"{name} ({owner}): "
        + (f"grade {grades[name][0]} now" if name in grades else "no longer there")
        for name, owner in ALLOWED.items()
        if name not in grades or grades[name][0] <= WORST_ALLOWED
    )
    assert not done, "take these off ALLOWED in tests/test_complexity.py:\n" + "\n".join(done)


def test_the_gate_sees_what_ruffs_c901_misses():
    # Conditional expressions and boolean operators: 21 branches mccabe scores as 1.
    body = "\n".join(f"    x = a if b{i} and c{i} else d" for i in range(10))
    source = f"def branchy(a, d, {', '.join(f'b{i}, c{i}' for i in range(10))}):\n{body}\n"
    ((block,),) = [cc_visit(source)]
    assert cc_rank(block.complexity) > WORST_ALLOWED
