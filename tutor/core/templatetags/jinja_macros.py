"""``{% jinja_macro %}``: a macro of a Jinja2 template (``jinja_templates/``) drawn from a
Django template, so that one template serves both engines.

::

    {% load jinja_macros %}
    {% jinja_macro "components/rules.jinja" "weis_result" result=result hands=hands h_seat="3" %}

The first argument names the Jinja2 template, the second its macro; the keyword
arguments are the macro's. The macro sees the caller's ``deck`` (and ``card_lang``,
where the page has one), as a Jinja2 template importing the module ``with context``
does; everything else it needs comes as an argument: unlike Django's ``{% include %}``,
it sees nothing else of the surrounding context. What it returns is markup, escaped by
the macro, and is output as is. Values keep their Python types: ``h_seat="3"`` arrives
as the string ``"3"``, which a macro writing it into the page renders as the old
template did.
"""

from __future__ import annotations

import functools
from typing import Any

from django import template
from django.template import engines
from django.utils.safestring import SafeString, mark_safe
from jinja2 import Environment, Template

from tutor.core.context_processors import current_deck

register = template.Library()


def _env() -> Environment:
    env: Environment = engines["jinja2"].env  # type: ignore[attr-defined]
    return env


def _deck(context: template.Context) -> str:
    """The caller's deck, as ``{% card %}`` finds it: the context's, else the visitor's."""
    if "deck" in context:
        deck: str = context["deck"]
        return deck
    request = context.get("request")
    return current_deck(request) if request is not None else "swiss"


@functools.lru_cache(maxsize=64)
def _module(jinja_template: Template, deck: str, card_lang: str | None) -> Any:
    """The template's macros bound to a deck and card language; kept, as they do not
    change (a changed template file is a new ``Template``, hence a new key)."""
    values: dict[str, Any] = {"deck": deck}
    if card_lang:
        values["card_lang"] = card_lang
    return jinja_template.make_module(vars=values)


@register.simple_tag(takes_context=True)
def jinja_macro(
    context: template.Context, template_name: str, macro_name: str, **kwargs: Any
) -> SafeString:
    module = _module(_env().get_template(template_name), _deck(context), context.get("card_lang"))
    return mark_safe(str(getattr(module, macro_name)(**kwargs)))  # noqa: S308 - escaped by Jinja2
