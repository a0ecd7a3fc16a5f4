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

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from tutor.core.jinja import macros
from tutor.core.templatetags.cards import context_deck

register = template.Library()


@register.simple_tag(takes_context=True)
def jinja_macro(
    context: template.Context, template_name: str, macro_name: str, **kwargs: Any
) -> SafeString:
    module = macros(template_name, context_deck(context), context.get("card_lang"))
    return mark_safe(str(getattr(module, macro_name)(**kwargs)))  # noqa: S308 - escaped by Jinja2
