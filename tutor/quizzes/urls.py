from django.urls import path

from . import views

app_name = "quizzes"

urlpatterns = [
    path("", views.practice, name="practice"),
    path("<int:quiz_id>/", views.quiz, name="quiz"),
    path("<int:quiz_id>/summary/", views.summary, name="summary"),
    path("<int:quiz_id>/q/<int:position>/", views.question, name="question"),
    path("<int:quiz_id>/q/<int:position>/answer/", views.answer, name="answer"),
]
