"""The German and French catalogues are complete: every message the site's code and
templates mark for translation (``make messages`` lists them in
``locale/<lang>/LC_MESSAGES/django.po``) has a text that is not marked fuzzy, with the
same placeholders, and the compiled ``django.mo`` holds it."""

from __future__ import annotations

import ast
import gettext
import re

import pytest
from django.conf import settings

# Every language but English, the language of the code.
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%[sd]|\{\w*\}")


def locale(lang: str):  # noqa: ANN201 - a Path
    return settings.BASE_DIR / f"locale/{lang}/LC_MESSAGES"


def test_the_site_is_translated_into_german_and_french():
    assert TRANSLATED == ["de", "fr"]


def po_entries(text: str) -> list[dict[str, object]]:
    """The entries of a .po file: msgid, msgid_plural, the msgstr(s), fuzzy or not."""
    entries: list[dict[str, object]] = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        current = ""
        fuzzy = False
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                fields[current] += ast.literal_eval(line)
            elif line:
                current, _space, value = line.partition(" ")
                fields[current] = ast.literal_eval(value)
        if fields.get("msgid"):
            entries.append({**fields, "fuzzy": fuzzy})
    return entries


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_has_a_text_and_the_compiled_catalogue_holds_it(lang):
    LOCALE = locale(lang)
    entries = po_entries((LOCALE / "django.po").read_text(encoding="utf-8"))
    assert len(entries) > 500
    fuzzy = [e["msgid"] for e in entries if e["fuzzy"]]
    empty = [
        e["msgid"]
        for e in entries
        if not all(v for k, v in e.items() if isinstance(k, str) and k.startswith("msgstr"))
    ]
    assert fuzzy == [] and empty == []
    with open(LOCALE / "django.mo", "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]

    def key(entry: dict[str, object]) -> object:
        # gettext keys a message with a context as "context\x04msgid".
        msgid = f"{entry['msgctxt']}\x04{entry['msgid']}" if "msgctxt" in entry else entry["msgid"]
        return (msgid, 0) if "msgid_plural" in entry else msgid

    missing = [e["msgid"] for e in entries if not catalogue.get(key(e))]
    assert missing == []


def test_the_reader_finds_untranslated_and_fuzzy_entries():
    text = """msgid ""
msgstr "Content-Type: text/plain; charset=UTF-8\\n"

msgid "Done"
msgstr "Fertig"

#, fuzzy
msgid "Live"
msgstr "Leben"

msgid "Two "
"lines"
msgstr ""
"""
    entries = po_entries(text)
    assert [(e["msgid"], e["msgstr"], e["fuzzy"]) for e in entries] == [
        ("Done", "Fertig", False),
        ("Live", "Leben", True),
        ("Two lines", "", False),
    ]


GETTEXT_CALLS = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy"}


def python_messages() -> set[object]:
    """Every text the site's Python code passes to gettext (a literal first argument;
    singular and plural for ngettext), as the compiled catalogue keys it."""
    found: set[object] = set()
    for path in sorted((settings.BASE_DIR / "tutor").rglob("*.py")):
        if "migrations" in path.parts:
            continue  # Django's own field messages, never shown from there
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            args = node.args
            if node.func.id not in GETTEXT_CALLS or not args:
                continue
            if not (isinstance(args[0], ast.Constant) and isinstance(args[0].value, str)):
                continue
            found.add((args[0].value, 0) if node.func.id.startswith("n") else args[0].value)
    return found


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_text_the_python_code_translates_is_in_the_compiled_catalogue(lang):
    LOCALE = locale(lang)
    # makemessages is needed to add a new text to the catalogue; this catches a text
    # added to the code after the catalogue was last made (gettext is not needed here).
    with open(LOCALE / "django.mo", "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
    messages = python_messages()
    assert len(messages) > 200
    assert sorted(map(str, (m for m in messages if not catalogue.get(m)))) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_translation_keeps_the_placeholders_of_its_message(lang):
    """A translation that drops or renames %(name)s would fail at run time or say less."""
    entries = po_entries((locale(lang) / "django.po").read_text(encoding="utf-8"))
    wrong = []
    for entry in entries:
        texts = [str(v) for k, v in entry.items() if isinstance(k, str) and k.startswith("msgstr")]
        for source in {str(entry["msgid"]), str(entry.get("msgid_plural", entry["msgid"]))}:
            wanted = set(PLACEHOLDER.findall(source)) - {""}
            named = {m for m in PLACEHOLDER.findall(source)}
            for text in texts:
                have = set(PLACEHOLDER.findall(text))
                # a plural's singular may say "one" instead of %(count)s
                if (have - named) or (wanted - have - {"count", "n"}):
                    wrong.append((entry["msgid"], text))
    assert wrong == []


def test_the_french_and_german_catalogues_hold_the_same_messages():
    de, fr = (
        {(e.get("msgctxt"), e["msgid"]) for e in po_entries((locale(x) / "django.po").read_text())}
        for x in ("de", "fr")
    )
    assert de == fr
