"""The Jinja2 templates (jinja_templates/, tutor/core/jinja.py): their message ids reach the
catalogue, and they speak German where the Django templates do."""

from __future__ import annotations

import gettext

import pytest
from django.conf import settings
from django.template import engines
from django.utils import translation

from tutor.core.jinja import MESSAGES_MODULE, messages_module


def _env():
    return engines["jinja2"].env


def test_the_message_list_for_makemessages_is_current():
    """`manage.py jinja_messages` wrote what the templates say today (run it, or
    `make messages`, after changing a text in jinja_templates/)."""
    assert MESSAGES_MODULE.read_text(encoding="utf-8") == messages_module(_env())


def test_every_message_of_the_jinja_templates_is_translated_to_german():
    catalogue = gettext.GNUTranslations(
        open(settings.BASE_DIR / "locale/de/LC_MESSAGES/django.mo", "rb")  # noqa: SIM115
    )
    source = MESSAGES_MODULE.read_text(encoding="utf-8")
    messages = _template_messages()
    assert len(messages) > 50 and "Trick %(n)s" in source
    entries = catalogue._catalog  # msgid -> msgstr; (msgid, n) -> a plural form
    untranslated = [
        ids for ids in messages if not entries.get(ids[0] if len(ids) == 1 else (ids[0], 1))
    ]
    assert untranslated == []


@pytest.mark.parametrize(
    ("lang", "text"),
    [("de", "Stich 3"), ("en", "Trick 3")],
)
def test_a_trans_block_speaks_the_active_language(lang, text):
    template = _env().from_string("{% trans n=3 %}Trick {{ n }}{% endtrans %}")
    with translation.override(lang):
        assert template.render() == text


def test_values_are_escaped_and_translations_are_not_double_escaped():
    template = _env().from_string("{{ value }} {% trans v=value %}Weis: {{ v }}{% endtrans %}")
    # The language named: a page drawn by an earlier test leaves its language active.
    with translation.override("de"):
        html = template.render(value="<b>&")
    assert html == "&lt;b&gt;&amp; Weis: &lt;b&gt;&amp;"


def _template_messages() -> list[tuple[str, ...]]:
    """Every message of the Jinja2 templates: (id,) or (singular, plural)."""
    messages = []
    for path in sorted((settings.BASE_DIR / "jinja_templates").rglob("*.jinja")):
        found = _env().extract_translations(
            path.read_text(encoding="utf-8"), gettext_functions=("_", "gettext", "ngettext")
        )
        messages += [
            tuple(i for i in (m if isinstance(m, tuple) else (m,)) if i) for _l, _f, m in found
        ]
    return messages


def test_remembered_draws_a_part_once_per_language_deck_and_values():
    """``remembered(macro, *values)`` (issue 24): the markup the macro draws, drawn once
    for the same values, language and deck, and again for any other."""
    from tutor.core.jinja import REMEMBERED

    REMEMBERED.clear()
    drawn = []
    template = _env().from_string(
        "{% macro part(n) %}{{ count(n) }}{% trans %}Trick {{ n }}{% endtrans %} "
        "{{ card('H6') }}{% endmacro %}{{ remembered(part, n) }}"
    )

    def render(n, lang, deck):
        with translation.override(lang):
            return template.render(n=n, deck=deck, count=lambda n: drawn.append(n) or "")

    first = render(1, "de", "swiss")
    assert "Stich 1" in first and "Rosen-6" in first
    assert render(1, "de", "swiss") == first and drawn == [1]
    assert "Trick 1" in render(1, "en", "swiss")
    assert "Schilten" not in first and "Herz-6" in render(1, "de", "french")
    assert "Stich 2" in render(2, "de", "swiss")
    assert drawn == [1, 1, 1, 2]
    REMEMBERED.clear()
    assert render(1, "de", "swiss") == first and drawn == [1, 1, 1, 2, 1]
