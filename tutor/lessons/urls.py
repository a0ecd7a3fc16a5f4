from django.urls import path

from . import views

app_name = "lessons"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("rules/", views.rules, name="rules"),
    path("glossary/", views.glossary, name="glossary"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/read/", views.toggle_read, name="toggle_read"),
    # The questions at the end of a lesson: a learner's are stored in their lesson quiz,
    # a visitor's or teacher's ("try") are judged and stored nowhere.
    path(
        "<slug:slug>/questions/<id:quiz_id>/<id:position>/answer/",
        views.answer_question,
        name="answer_question",
    ),
    path(
        "<slug:slug>/questions/<id:quiz_id>/<id:position>/another/",
        views.another_question,
        name="another_question",
    ),
    path("<slug:slug>/questions/try/answer/", views.try_answer, name="try_answer"),
    path("<slug:slug>/questions/try/another/", views.try_another, name="try_another"),
]
