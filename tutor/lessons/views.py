from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.views.decorators.http import require_POST

from .models import Lesson
from .render import render_body
from .rule_index import RULE_TITLES, SOURCE_TITLES, rule_sort_key
from .selectors import course, lessons_by_rule
from .services import mark_read


def _language() -> str:
    return (get_language() or "de")[:2]


def overview(request: HttpRequest) -> HttpResponse:
    entries = course(_language(), request.user)
    read_count = sum(entry.read for entry in entries)
    return render(
        request,
        "lessons/overview.html",
        {"entries": entries, "read_count": read_count},
    )


def detail(request: HttpRequest, slug: str) -> HttpResponse:
    entries = course(_language(), request.user)
    index = next((i for i, e in enumerate(entries) if e.lesson.slug == slug), None)
    if index is None:
        raise Http404("No such lesson")
    entry = entries[index]
    context = {
        "entry": entry,
        "lesson": entry.lesson,
        "text": entry.text,
        "body": render_body(entry.text.body, request=request),
        "rules": [(rule, RULE_TITLES[rule]) for rule in entry.lesson.rules],
        "sources": [(code, SOURCE_TITLES[code]) for code in entry.lesson.sources],
        "previous": entries[index - 1] if index > 0 else None,
        "next": entries[index + 1] if index + 1 < len(entries) else None,
    }
    return render(request, "lessons/detail.html", context)


@login_required
@require_POST
def toggle_read(request: HttpRequest, slug: str) -> HttpResponse:
    lesson = get_object_or_404(Lesson, slug=slug)
    read = request.POST.get("read") != "0"
    mark_read(user=request.user, lesson=lesson, read=read)
    if request.htmx:
        return render(
            request,
            "lessons/detail.html#read-state",
            {"lesson": lesson, "entry": {"read": read}},
        )
    return redirect("lessons:detail", slug=slug)


def rules(request: HttpRequest) -> HttpResponse:
    by_rule = lessons_by_rule(course(_language(), request.user))
    rows = [
        (rule, title, by_rule.get(rule, []))
        for rule, title in sorted(RULE_TITLES.items(), key=lambda kv: rule_sort_key(kv[0]))
    ]
    return render(request, "lessons/rules.html", {"rows": rows})
