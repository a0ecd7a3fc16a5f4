from django.urls import path

from . import views

app_name = "quizzes"

urlpatterns = [
    path("", views.practice, name="practice"),
    path("<id:quiz_id>/", views.quiz, name="quiz"),
    path("<id:quiz_id>/summary/", views.summary, name="summary"),
    path("<id:quiz_id>/q/<id:position>/", views.question, name="question"),
    path("<id:quiz_id>/q/<id:position>/answer/", views.answer, name="answer"),
]
