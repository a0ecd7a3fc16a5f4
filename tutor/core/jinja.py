"""The Jinja2 environment of the site's few hot templates (``jinja_templates/``).

Every page is a Django template; the parts drawn on every move of a busy request are
Jinja2 templates, which render the same markup in about half the time
(docs/performance.md, "The goal met: a move at 1.9× the floor"). They use the same helpers as the
Django templates, under the same names: ``card`` and ``hand`` (tutor.core.templatetags
.cards), the filters of ``rules_ui`` (``seat_label``, ``team_short``, ...), ``url``,
and ``dtl(name, **context)`` to draw a shared Django partial (``components/...``)
where one is needed. Texts are translated with ``_``/``gettext``/``ngettext`` and
``{% trans %}``, whose message ids are those of Django's ``{% blocktranslate %}``
(``Trick %(n)s``); ``manage.py jinja_messages`` lists them for ``makemessages``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.template.loader import get_template
from django.urls import get_script_prefix, reverse
from django.utils import translation
from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from tutor.core import explain as ex
from tutor.core.templatetags import rules_ui
from tutor.core.templatetags.cards import card_html, hand_html

# The names of the {% translate %} helpers, for ``manage.py jinja_messages``.
GETTEXT_FUNCTIONS = ("_", "gettext", "ngettext")


def _deck(context: Context) -> str:
    deck: str = context.get("deck") or "swiss"
    return deck


def _lang(context: Context) -> str:
    """The language the cards are named in: the page's ``card_lang`` when the view
    looked it up once, else the active language."""
    lang: str = context.get("card_lang") or (translation.get_language() or "de")[:2]
    return lang


@pass_context
def card(context: Context, code: Any, marked: bool = False) -> Markup:
    return Markup(card_html(str(code), _lang(context), _deck(context), bool(marked)))


@pass_context
def hand(context: Context, cards: Iterable[Any], marked: Iterable[Any] = ()) -> Markup:
    return Markup(hand_html(cards, _lang(context), _deck(context), marked))


@pass_context
def contract_label(context: Context, contract: Any) -> str:
    return ex.contract_label(contract, _deck(context))


def url(name: str, *args: Any) -> str:
    """``reverse(name, args=args)``, remembered: a round redraws the same links."""
    return _reverse(get_script_prefix(), settings.ROOT_URLCONF, name, args)


@functools.lru_cache(maxsize=4096)
def _reverse(_prefix: str, _urlconf: str, name: str, args: tuple[Any, ...]) -> str:
    return reverse(name, args=args)


def dtl(template_name: str, **context: Any) -> Markup:
    """A Django template (a partial such as ``components/rules.html#target-table``)."""
    return Markup(get_template(template_name).render(context))


JINJA_DIR = Path(__file__).resolve().parents[2] / "jinja_templates"
MESSAGES_MODULE = Path(__file__).resolve().parent / "jinja_messages.py"


def messages_module(env: Environment) -> str:
    """The source of ``tutor/core/jinja_messages.py``: every message id of the Jinja2
    templates as a gettext call that ``makemessages`` (xgettext) reads."""
    lines = [
        '"""Message ids of the Jinja2 templates (jinja_templates/), for makemessages,',
        "which reads only Django templates and Python. Written by ``manage.py",
        "jinja_messages`` (``make messages`` runs it first); a test checks that it is",
        'current. Never imported."""',
        "",
        "from django.utils.translation import gettext as _",
        "from django.utils.translation import ngettext",
        "",
        "",
        "def _messages() -> None:",
    ]
    seen: set[tuple[str, ...]] = set()
    for path in sorted(JINJA_DIR.rglob("*.jinja")):
        source = path.read_text(encoding="utf-8")
        found = env.extract_translations(  # type: ignore[attr-defined]  # i18n extension
            source, gettext_functions=GETTEXT_FUNCTIONS
        )
        for _lineno, _function, message in found:
            ids = tuple(m for m in (message if isinstance(message, tuple) else (message,)) if m)
            if ids in seen:
                continue
            seen.add(ids)
            args = ", ".join(_literal(m) for m in ids)
            call = f"ngettext({args}, 1)" if len(ids) == 2 else f"_({args})"
            lines.append(f"    {call}  # {path.relative_to(JINJA_DIR)}")
    return "\n".join(lines) + "\n"


def _literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def environment(**options: Any) -> Environment:
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        translation.gettext, translation.ngettext, newstyle=True
    )
    env.globals.update(card=card, hand=hand, contract_label=contract_label, url=url, dtl=dtl)
    env.filters.update(
        seat_label=ex.seat_label,
        team_short=ex.team_short,
        team_label=ex.team_label,
        preset_label=ex.preset_label,
        plus1=rules_ui.plus1,
        team_of=rules_ui.team_of,
    )
    return env
