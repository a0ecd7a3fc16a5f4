"""The Jinja2 environment of the site's few hot templates (``jinja_templates/``).

Every page is a Django template; the parts drawn on every move of a busy request are
Jinja2 templates, which render the same markup in about half the time
(docs/performance.md, "The goal met: a move at 1.9× the floor"). They use the same helpers as the
Django templates, under the same names: ``card`` and ``hand`` (tutor.core.templatetags
.cards), the tags and filters of ``rules_ui`` (``ladder_steps``, ``meld_label``,
``seat_label``, ``team_short``, ...) as globals and filters, ``capfirst`` and ``url``.
The shared displays of rules-core results are the macros of
``jinja_templates/components/rules.jinja``; Django templates draw them with
``{% jinja_macro %}`` (tutor/core/templatetags/jinja_macros.py). Texts are translated
with ``_``/``gettext``/``ngettext`` and ``{% trans %}``, whose message ids are those of
Django's ``{% blocktranslate %}`` (``Trick %(n)s``); ``manage.py jinja_messages`` lists
them for ``makemessages``. Filters that word a value (``team_label``, ...) take the
context, so that Jinja2 never words a constant such as ``0|team_label`` at compile time.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.template import engines
from django.urls import get_script_prefix, reverse
from django.utils.text import capfirst
from jinja2 import Environment, Template, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from tutor.core import explain as ex
from tutor.core import translating
from tutor.core.kept import KeptStates
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
    lang: str = context.get("card_lang") or (translating.get_language() or "de")[:2]
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


@pass_context
def ladder_steps(
    context: Context,
    trace: Any,
    side_a: str,
    side_b: str,
    meld_a: Any = None,
    meld_b: Any = None,
) -> list[ex.Explained]:
    """``{% ladder_steps %}``: the ladder's steps as sentences; the two melds compared,
    where given, let two fours of a kind be compared by rank."""
    melds = (meld_a, meld_b) if meld_a and meld_b else None
    return ex.explain_ladder(trace, _deck(context), side_a, side_b, melds)


@pass_context
def meld_label(context: Context, meld: Any) -> str:
    return ex.meld_label(meld, _deck(context))


@pass_context
def card_label(context: Context, code: Any) -> str:
    return ex.card_label(code, _deck(context))


@pass_context
def suit_label(context: Context, suit: Any) -> str:
    return ex.suit_label(getattr(suit, "code", suit), _deck(context))


def stoeck_view(scenario: Any) -> list[list[dict[str, Any]]]:
    """A Stöck scenario's plays by trick, marking the holder's pair and the calls."""
    return ex.stoeck_timeline(
        scenario.plays,
        [(c.seat, c.after_play, c.prompted) for c in scenario.calls],
        {scenario.first_index, scenario.second_index},
    )


def _worded(function: Callable[..., str]) -> Callable[..., str]:
    """A filter that words its value in the active language, as one Jinja2 never
    computes while compiling: ``0|team_label`` is a constant expression, which the
    compiler would otherwise word once, in the language active then, for every later
    render. (A filter that takes the context is never computed early.)"""

    @pass_context
    @functools.wraps(function)
    def worded(_context: Context, value: Any, *args: Any) -> str:
        return function(value, *args)

    return worded


def url(name: str, *args: Any) -> str:
    """``reverse(name, args=args)``, remembered: a round redraws the same links."""
    return _reverse(get_script_prefix(), settings.ROOT_URLCONF, name, args)


@functools.lru_cache(maxsize=4096)
def _reverse(_prefix: str, _urlconf: str, name: str, args: tuple[Any, ...]) -> str:
    return reverse(name, args=args)


@pass_context
def kept(context: Context, key: tuple[Any, ...], draw: Callable[[], Any]) -> Markup:
    """``draw()``'s markup, kept in the fragments cache (an hour) under ``key`` with the
    language and the deck: for what never changes once stored, such as a question's
    card (quizzes/card.jinja). As Django's {% cache %}, but the key names the parts."""
    parts = ("jinja", *key, translating.get_language() or "", _deck(context))
    name = ":".join(str(part) for part in parts)
    fragments = caches["fragments"]
    html = fragments.get(name)
    if html is None:
        html = str(draw())
        fragments.set(name, html, 3600)
    return Markup(html)  # noqa: S704 - drawn by Jinja2, which escaped every value


# Parts drawn by :func:`remembered`, the least recently used dropped first: a trick of
# the history is about 3 kB (four cards' markup), so at most about 6 MB per process,
# the tricks of some 250 rounds in play.
REMEMBERED: KeptStates[str] = KeptStates(max_entries=2048)


@pass_context
def remembered(context: Context, draw: Any, *args: Hashable) -> Markup:
    """``draw(*args)``'s markup, remembered in this process under the template, the
    macro's name, ``args``, the language, the cards' language and the deck: for a part
    drawn again and again from the same values, such as a complete trick in the round's
    history (issue 24). ``draw`` is a macro of the calling template, and ``args`` must
    be every value it shows (hashable, so a changed value is another key). Unlike
    :func:`kept`, nothing is pickled or shared: a lookup costs a dict's, not a cache's.
    """
    key = (
        context.name,
        draw.name,
        *args,
        translating.get_language() or "",
        _lang(context),
        _deck(context),
    )
    html = REMEMBERED.peek(key)
    if html is None:
        html = str(draw(*args))
        REMEMBERED.put(key, html)
    return Markup(html)  # noqa: S704 - drawn by Jinja2, which escaped every value


def macros(template_name: str, deck: str, card_lang: str | None = None) -> Any:
    """The macros of the Jinja2 template ``template_name``, drawing cards in ``deck``
    (and ``card_lang``; else the active language), as a template importing it ``with
    context`` gets them: for Django templates ({% jinja_macro %}) and the stem checker."""
    template = engines["jinja2"].env.get_template(template_name)  # type: ignore[attr-defined]
    return _module(template, deck, card_lang)


@pass_context
def imported(context: Context, template_name: str) -> Any:
    """In a template: the macros of ``template_name`` as ``{% import ... with context %}``
    gives them (they read only the caller's deck and card language), kept per deck and
    card language instead of made again on every render (issue 24)."""
    return macros(template_name, _deck(context), context.get("card_lang"))


@functools.lru_cache(maxsize=64)
def _module(template: Template, deck: str, card_lang: str | None) -> Any:
    # Kept, as the macros do not change (a changed template file is a new Template).
    values: dict[str, Any] = {"deck": deck}
    if card_lang:
        values["card_lang"] = card_lang
    return template.make_module(vars=values)


# Helpers that apps above core add when they are ready (tutor/lessons/apps.py adds
# ``lesson_links``): core imports nothing of them. Globals of the environment, which
# Django builds on first use, after every app is ready.
APP_HELPERS: dict[str, Callable[..., Any]] = {}

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


class BoundTemplate(Template):
    """A template whose drawing reads its texts from the active language's catalogue
    found once (:func:`tutor.core.translating.catalogue_bound`), in its own markup and in
    the helpers it calls (the explanations' labels, the presenters' sentences): each
    text a dict lookup instead of Django's search for the active catalogue (issue 24)."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        with translating.catalogue_bound():
            return super().render(*args, **kwargs)


def environment(**options: Any) -> Environment:
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.template_class = BoundTemplate
    env.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        translating.gettext, translating.ngettext, newstyle=True
    )
    env.globals.update(
        card=card,
        hand=hand,
        contract_label=contract_label,
        url=url,
        ladder_steps=ladder_steps,
        meld_label=meld_label,
        card_label=card_label,
        suit_label=suit_label,
        meld_cards=rules_ui.meld_cards,
        stoeck_sentence=ex.stoeck_sentence,
        stoeck_view=stoeck_view,
        target_sentence=ex.target_sentence,
        kept=kept,
        remembered=remembered,
        imported=imported,
    )
    env.globals.update(APP_HELPERS)
    env.filters.update(
        seat_label=_worded(ex.seat_label),
        player_short=_worded(ex.player_short),
        team_short=_worded(ex.team_short),
        team_label=_worded(ex.team_label),
        preset_label=_worded(ex.preset_label),
        block_label=_worded(ex.block_label),
        capfirst=capfirst,
        plus1=rules_ui.plus1,
        team_of=rules_ui.team_of,
    )
    return env
