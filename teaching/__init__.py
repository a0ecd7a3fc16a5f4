"""The teaching layer: Django-free code that teaches with the rules engine.

Round builders aimed at a skill (:mod:`teaching.scenarios`), and more as it moves out
of the Django apps. It imports :mod:`rules_core` and nothing of the site, so any tool
can build, replay and judge what the site shows without Django.
"""
