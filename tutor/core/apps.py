from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "tutor.core"
    verbose_name = "Core"

    def ready(self) -> None:
        from django.core.signals import request_finished, request_started
        from django.db.backends.signals import connection_created

        from . import middleware

        # A web request's SQLite connection waits less for the write lock (middleware.py).
        request_started.connect(middleware.request_started, dispatch_uid="jass-request-started")
        request_finished.connect(middleware.request_finished, dispatch_uid="jass-request-done")
        connection_created.connect(middleware.tune_connection, dispatch_uid="jass-sqlite-busy")
