"""A school platform, played for real: its own RSA key, its JWKS, token endpoint and
member list served over HTTP on 127.0.0.1 (a thread), id_tokens signed RS256 with that
key, and the browser's round trip through the tool's login initiation and launch.
The tool fetches the platform's keys and calls its services as it would in a school.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.test import Client
from jwcrypto.jwk import JWK
from lti_tool.models import Key, LtiDeployment, LtiRegistration

ISSUER = "https://moodle.school.example"
AUTH_URL = "https://moodle.school.example/mod/lti/auth.php"
CLIENT_ID = "jass-client-1"
DEPLOYMENT_ID = "1"
LTI = "https://purl.imsglobal.org/spec/lti/claim/"
ROLE = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
INSTRUCTOR = [ROLE + "Instructor"]
LEARNER = [ROLE + "Learner"]
LAUNCH_URL = "http://testserver/lti/launch/"


@dataclass
class Platform:
    """The platform's state, which the HTTP handler reads and records into."""

    private_pem: bytes
    jwk: dict[str, Any]
    base_url: str = ""
    members: list[dict[str, Any]] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    registration: LtiRegistration | None = None
    tool_public_pem: str = ""
    scores: list[dict[str, Any]] = field(default_factory=list)  # what AGS posted

    @property
    def lineitem_url(self) -> str:
        return f"{self.base_url}/lineitems/1/lineitem"

    @property
    def memberships_url(self) -> str:
        return f"{self.base_url}/members"

    def id_token(self, *, nonce: str, sub: str, roles: list[str], **claims: Any) -> str:
        now = int(time.time())
        body: dict[str, Any] = {
            "iss": ISSUER,
            "aud": CLIENT_ID,
            "sub": sub,
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            LTI + "message_type": "LtiResourceLinkRequest",
            LTI + "version": "1.3.0",
            LTI + "deployment_id": DEPLOYMENT_ID,
            LTI + "target_link_uri": LAUNCH_URL,
            LTI + "resource_link": {"id": "activity-1", "title": "Weis"},
            LTI + "roles": roles,
            LTI + "context": {"id": "course-7", "title": "Klasse 5b", "label": "5b"},
            # English: the tests read English pages (the catalogues may translate more).
            LTI + "launch_presentation": {"locale": "en-GB", "document_target": "iframe"},
            "given_name": "Anna",
            "family_name": "Meier",
            "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                "context_memberships_url": self.memberships_url,
                "service_versions": ["2.0"],
            },
        }
        body.update(claims)
        return jwt.encode(
            body, self.private_pem, algorithm="RS256", headers={"kid": self.jwk["kid"]}
        )


def _handler(platform: Platform) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # quiet test output
            pass

        def _json(self, payload: object, content_type: str = "application/json") -> None:
            data = json.dumps(payload).encode()
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            platform.requests.append("GET " + self.path)
            if self.path == "/jwks":
                self._json({"keys": [platform.jwk]})
            elif self.path.startswith("/members"):
                if self.headers.get("Authorization") != "Bearer platform-token":
                    self.send_error(401)
                    return
                self._json(
                    {"id": platform.memberships_url, "members": platform.members},
                    "application/vnd.ims.lti-nrps.v2.membershipcontainer+json",
                )
            else:
                self.send_error(404)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length).decode()
            platform.requests.append("POST " + self.path)
            if self.path == "/lineitems/1/lineitem/scores":
                if self.headers.get("Authorization") != "Bearer platform-token":
                    self.send_error(401)
                    return
                platform.scores.append(json.loads(body))
                self._json({})
                return
            form = parse_qs(body)
            if self.path != "/token":
                self.send_error(404)
                return
            assertion = form["client_assertion"][0]
            # The tool signs its request with its own key (no database here: this
            # thread does not see the test's transaction).
            try:
                jwt.decode(
                    assertion,
                    platform.tool_public_pem,
                    algorithms=["RS256"],
                    audience=f"{platform.base_url}/token",
                )
            except jwt.InvalidTokenError:
                self.send_error(401)
                return
            self._json(
                {"access_token": "platform-token", "token_type": "Bearer", "expires_in": 3600}
            )

    return Handler


@pytest.fixture(scope="session")
def platform_keys() -> tuple[bytes, dict[str, Any]]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public = JWK.from_pem(
        key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    jwk = json.loads(public.export_public())
    jwk.update({"kid": "platform-key-1", "alg": "RS256", "use": "sig"})
    return pem, jwk


@pytest.fixture(scope="session")
def tool_key_pems() -> tuple[str, str]:
    """One tool key pair for the session: RSA generation is slow on two cores."""
    jwk = JWK.generate(kty="RSA", size=2048)
    return (
        jwk.export_to_pem().decode(),
        jwk.export_to_pem(private_key=True, password=None).decode(),
    )


@pytest.fixture
def platform(
    db: None, platform_keys: tuple[bytes, dict[str, Any]], tool_key_pems: tuple[str, str]
) -> Iterator[Platform]:
    pem, jwk = platform_keys
    state = Platform(private_pem=pem, jwk=jwk, tool_public_pem=tool_key_pems[0])
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Key.objects.create(public_key=tool_key_pems[0], private_key=tool_key_pems[1])
    state.registration = LtiRegistration.objects.create(
        name="Moodle of the school",
        issuer=ISSUER,
        client_id=CLIENT_ID,
        auth_url=AUTH_URL,
        token_url=f"{state.base_url}/token",
        keyset_url=f"{state.base_url}/jwks",
    )
    LtiDeployment.objects.create(
        registration=state.registration, deployment_id=DEPLOYMENT_ID, is_active=True
    )
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


def login_initiation(
    client: Client, platform: Platform, secure: bool = False, **params: str
) -> Any:
    assert platform.registration is not None
    query = {
        "iss": ISSUER,
        "login_hint": "user-hint",
        "target_link_uri": LAUNCH_URL,
        "client_id": CLIENT_ID,
        "lti_message_hint": "msg-hint",
        "lti1p3_new_window": "1",
    }
    query.update(params)
    return client.get(f"/lti/init/{platform.registration.uuid}/", query, secure=secure)


def start(
    client: Client, platform: Platform, secure: bool = False, **params: str
) -> tuple[str, str]:
    """The login initiation; returns the state and nonce the tool sent to the platform."""
    response = login_initiation(client, platform, secure=secure, **params)
    assert response.status_code == 302, response.content
    sent = parse_qs(urlsplit(response["Location"]).query)
    return sent["state"][0], sent["nonce"][0]


def launch(
    client: Client,
    platform: Platform,
    *,
    sub: str = "moodle-user-12",
    roles: list[str] | None = None,
    secure: bool = False,
    **claims: Any,
) -> Any:
    """A whole launch: initiation, the platform's signed token, the form post."""
    state, nonce = start(client, platform, secure=secure)
    token = platform.id_token(
        nonce=nonce, sub=sub, roles=LEARNER if roles is None else roles, **claims
    )
    return client.post("/lti/launch/", {"id_token": token, "state": state}, secure=secure)


def new_browser() -> Client:
    """A browser that asks for English pages."""
    return Client(headers={"Accept-Language": "en"})


@pytest.fixture
def client() -> Client:
    return new_browser()


def fresh_nonce() -> str:
    return uuid.uuid4().hex
