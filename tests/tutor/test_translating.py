"""Texts read from the catalogue found once per drawing (tutor/core/translating.py,
issue 24): the same texts as Django's functions give, in every language, and the same
pages, whether or not a drawing binds the catalogue."""

from __future__ import annotations

import contextlib
import gettext as gettext_module
import re

import pytest
from django.conf import settings
from django.template import engines
from django.utils import translation
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import trans_real

from teaching.generators import KINDS
from tests.factories import LearnerFactory, QuizFactory, QuizQuestionFactory
from tutor.core import translating
from tutor.quizzes.services import answer
from tutor.table.services import start_round

LANGUAGES = [code for code, _name in settings.LANGUAGES]


def _catalogue_ids() -> tuple[list[str], list[tuple[str, str]], list[tuple[str, str]]]:
    """The German catalogue's message ids: plain, with a context, and plural pairs."""
    with open(settings.BASE_DIR / "locale/de/LC_MESSAGES/django.mo", "rb") as mo:
        entries = gettext_module.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]
    plain, contexts, plurals = [], [], []
    for key in entries:
        if isinstance(key, tuple):
            if key[1] == 0:
                plurals.append(key[0])
        elif key and "\x04" in key:
            context, message = key.split("\x04", 1)
            contexts.append((context, message))
        elif key:
            plain.append(key)
    # A plural entry's msgid_plural is not in the catalogue's keys: the tests pair each
    # singular with itself plus "s", which reads the same entry for every count.
    return plain, contexts, [(s, s + "s") for s in plurals]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_bound_functions_give_what_djangos_give(lang):
    """Every message of the catalogue, with and without a context, plural forms for
    several counts, and the edge cases Django treats apart (an empty message, a
    ``SafeData`` message, Windows line ends, an unknown context): the same text inside
    ``catalogue_bound()`` as from Django's functions, and outside it too."""
    plain, contexts, plurals = _catalogue_ids()
    assert len(plain) > 1000 and len(contexts) >= 10 and len(plurals) > 10
    edge = ["", "Right!\r\n", "Line\rend", mark_safe("Right!")]
    with translation.override(lang):
        expected = (
            [translation.gettext(m) for m in plain + edge],
            [translation.pgettext(c, m) for c, m in [*contexts, ("no such context", "Right!")]],
            [translation.ngettext(s, p, n) for s, p in plurals for n in (0, 1, 2, 5)],
            translation.get_language(),
        )
        for bound in (contextlib.nullcontext(), translating.catalogue_bound()):
            with bound:
                got = (
                    [translating.gettext(m) for m in plain + edge],
                    [
                        translating.pgettext(c, m)
                        for c, m in [*contexts, ("no such context", "Right!")]
                    ],
                    [translating.ngettext(s, p, n) for s, p in plurals for n in (0, 1, 2, 5)],
                    translating.get_language(),
                )
            assert got == expected
            assert isinstance(got[0][-1], SafeData)
    # The comparison reads a real catalogue: other languages differ from the ids.
    changed = sum(text != message for text, message in zip(expected[0], plain, strict=False))
    assert (changed > len(plain) // 2) == (lang != "en")


def test_the_binding_is_left_on_leaving_even_after_an_error():
    with translation.override("de"):
        with pytest.raises(ZeroDivisionError), translating.catalogue_bound():
            assert translating.gettext("Right!") == "Richtig!"
            1 / 0  # noqa: B018
        with translation.override("en"):
            # Not bound any more: the active language is asked again.
            assert translating.gettext("Right!") == "Right!"


def test_a_drawing_reads_its_texts_from_the_catalogue_found_once(rf, monkeypatch):
    """A Jinja2 template's render binds the catalogue: a catalogue that shouts shows up
    in the markup, values still escaped, and is looked up once for the whole drawing.
    Outside a drawing the functions are Django's and never ask it."""
    found = []

    def shout(message: str) -> str:  # placeholders stay as they are
        return re.sub(r"%\([^)]*\)s|.", lambda m: m.group().upper()[:1] + m.group()[1:], message)

    class Shouting:
        def gettext(self, message: str) -> str:
            return shout(message)

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return shout(singular if n == 1 else plural)

    def catalog():
        found.append(1)
        return Shouting()

    monkeypatch.setattr(trans_real, "catalog", catalog)
    template = engines["jinja2"].from_string(
        "{{ _('Play the card') }} {% trans v=value %}Weis: {{ v }}{% endtrans %} {{ 1|team_short }}"
    )
    assert template.render({"value": "<b>"}, rf.get("/")) == "PLAY THE CARD WEIS: &lt;b&gt; TEAM 2"
    assert found == [1]
    with translation.override("en"):
        assert translating.gettext("Play the card") == "Play the card"
    assert found == [1]


def _without_csrf(html: str) -> str:
    # The token's mask is new on every drawing, and so is the note of when a form was
    # drawn (tutor.quizzes.showing).
    html = re.sub(r'name="shown" value="[^"]*"', "", html)
    return re.sub(r'value="[A-Za-z0-9]{64}"|"x-csrftoken": "[A-Za-z0-9]{64}"', "", html)


def _pages_with_and_without_binding(client, monkeypatch, paths: list[str]) -> None:
    for lang in ("de", "en"):
        client.cookies["django_language"] = lang
        bound = [_without_csrf(client.get(p).content.decode()) for p in paths]
        with monkeypatch.context() as m:
            m.setattr(translating, "catalogue_bound", contextlib.nullcontext)
            unbound = [_without_csrf(client.get(p).content.decode()) for p in paths]
        assert bound == unbound
        assert all("<html" in page for page in bound)


@pytest.mark.django_db
def test_the_quiz_pages_read_the_same_with_the_catalogue_bound(client, monkeypatch):
    """Every kind's question and its feedback, right and wrong, in German and English:
    the same page whether the drawing binds the catalogue or asks Django each time."""
    learner = LearnerFactory()
    quiz = QuizFactory(learner=learner)
    questions = [
        QuizQuestionFactory(quiz=quiz, position=i, kind=kind, seed=7 + i)
        for i, kind in enumerate([*KINDS, *KINDS])
    ]
    for question in questions[len(KINDS) :]:  # the second of each kind answered
        data = question.question
        wrong = next(c["key"] for c in data["choices"] if c["key"] != data["answer"])
        answer(
            learner=learner,
            question=question,
            choice=wrong if question.seed % 2 else data["answer"],
        )
    client.force_login(learner)
    paths = [f"/practice/{quiz.pk}/q/{q.position}/" for q in questions]
    _pages_with_and_without_binding(client, monkeypatch, paths)


@pytest.mark.django_db
def test_the_table_reads_the_same_with_the_catalogue_bound(client, monkeypatch):
    learner = LearnerFactory()
    rounds = [start_round(learner=learner, focus="stoeck", seed=s) for s in (1, 2)]
    client.force_login(learner)
    _pages_with_and_without_binding(client, monkeypatch, [f"/table/{r.pk}/" for r in rounds])
