"""``manage.py lti_register``: register a school platform (Moodle, OpenOlat, ...) with
the values it shows for the tool, and print the values to enter there."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from tutor.lti.services import PlatformSettings, register_platform


class Command(BaseCommand):
    help = (
        "Register an LTI 1.3 platform (or update it: one per issuer and client ID) with "
        "active deployments, and print the URLs to enter in the platform."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", required=True, help="A name for the admin.")
        parser.add_argument("--issuer", required=True, help='The "Platform ID".')
        parser.add_argument("--client-id", required=True)
        parser.add_argument("--auth-url", required=True, help='"Authentication request URL".')
        parser.add_argument("--token-url", required=True, help='"Access token URL".')
        parser.add_argument("--keyset-url", required=True, help='"Public keyset URL".')
        parser.add_argument(
            "--deployment-id",
            action="append",
            default=[],
            dest="deployment_ids",
            help="A deployment ID (repeat the option for several).",
        )
        parser.add_argument("--audience", default="", help="Only if the platform names one.")
        parser.add_argument(
            "--site-url",
            default="http://127.0.0.1:8000",
            help="This site's public address, for the URLs printed (https in production).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        platform = PlatformSettings(
            name=options["name"],
            issuer=options["issuer"],
            client_id=options["client_id"],
            auth_url=options["auth_url"],
            token_url=options["token_url"],
            keyset_url=options["keyset_url"],
            deployment_ids=tuple(options["deployment_ids"]),
            audience=options["audience"],
        )
        try:
            result = register_platform(platform)
        except ValidationError as error:
            raise CommandError("; ".join(error.messages)) from error
        registration = result.registration
        site = options["site_url"].rstrip("/")
        verb = "Registered" if result.created else "Updated"
        self.stdout.write(self.style.SUCCESS(f"{verb} {registration.name} ({registration.uuid})."))
        if result.new_key:
            self.stdout.write("Made the tool's first signing key (rotate with rotate_keys).")
        init = reverse("lti:init", kwargs={"registration_uuid": registration.uuid})
        launch = reverse("lti:launch")
        for label, path in (
            ("Tool URL / redirection URI (launch)", launch),
            ("Initiate login URL", init),
            (
                "  or, for platforms that send the client ID (Moodle)",
                reverse("lti:init_by_client_id"),
            ),
            ("Public keyset URL (JWKS)", reverse("lti:jwks")),
            ("Deep linking (content selection) URL", launch),
        ):
            self.stdout.write(f"{label}: {site}{path}")
