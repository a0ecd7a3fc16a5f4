"""The examples in the site's docstrings run (pytest collects doctests only under
rules_core/ and teaching/; these modules of tutor/ hold examples too)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

TUTOR = Path(settings.BASE_DIR) / "tutor"
MODULES = sorted(
    ".".join(path.relative_to(TUTOR.parent).with_suffix("").parts)
    for path in TUTOR.rglob("*.py")
    if ">>>" in path.read_text(encoding="utf-8")
)


def test_the_modules_with_examples_are_found():
    assert "tutor.core.kept" in MODULES and len(MODULES) >= 10


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
