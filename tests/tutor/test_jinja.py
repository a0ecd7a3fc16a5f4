"""The Jinja2 templates (jinja_templates/, tutor/core/jinja.py): their message ids reach the
catalogue, and they speak German where the Django templates do."""

from __future__ import annotations

import gettext
import re

import pytest
from django.conf import settings
from django.template import engines
from django.utils import translation
from markupsafe import Markup

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


@pytest.mark.parametrize("lang", [code for code, _name in settings.LANGUAGES])
def test_the_bound_translations_give_what_djangos_gettext_gives(lang, rf):
    """The Jinja2 engine's context processor binds gettext/ngettext to the active
    catalogue once per render (issue 24); every template message reads the same as
    through Django's functions, in every language, plural forms included."""
    from tutor.core.jinja import bound_translations

    template = _env().from_string(
        "{{ gettext(m) }}|{{ ngettext(s, p, 1) }}|{{ ngettext(s, p, 2) }}"
    )
    messages = [ids for ids in _template_messages() if "%(" not in ids[0]]
    assert len(messages) > 50
    changed = 0
    with translation.override(lang):
        bound = bound_translations(rf.get("/"))
        for ids in messages:
            values = {"m": ids[0], "s": ids[0], "p": ids[-1]}
            got = template.render(**values, **bound)
            assert got == template.render(**values), ids
            changed += got.split("|")[0] != str(Markup.escape(ids[0]))
    # The comparison reads a real catalogue: most texts differ from English elsewhere.
    assert (changed > len(messages) // 2) == (lang != "en")


def test_a_rendered_template_reads_its_texts_from_the_bound_catalogue(rf, monkeypatch):
    """The engine renders with the bound functions: a catalogue that shouts shows up in
    the table trainer's and the card's templates, with values still escaped."""
    from django.utils.translation import trans_real

    def shout(message: str) -> str:  # placeholders stay as they are
        return re.sub(r"%\([^)]*\)s|.", lambda m: m.group().upper()[:1] + m.group()[1:], message)

    class Shouting:
        def gettext(self, message: str) -> str:
            return shout(message)

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return shout(singular if n == 1 else plural)

    monkeypatch.setattr(trans_real, "catalog", lambda: Shouting())
    template = engines["jinja2"].from_string(
        "{{ _('Play the card') }} {% trans v=value %}Weis: {{ v }}{% endtrans %}"
    )
    assert template.render({"value": "<b>"}, rf.get("/")) == "PLAY THE CARD WEIS: &lt;b&gt;"
    # Without a request (no context processors) Django's own gettext is used.
    with translation.override("en"):
        assert template.render({"value": "<b>"}) == "Play the card Weis: &lt;b&gt;"


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
