"""bench.live's pure helpers: what it reads from the live pages (against the real
templates, so a changed template breaks here and not in the middle of ``make bench``),
and how it turns reveals and phones into latencies."""

from __future__ import annotations

import math

import pytest
from django.test import Client
from django.urls import reverse

from bench.client import Recorder
from bench.live import POLL, parse_stage, reveal_latency, split_polls
from tests.factories import MembershipFactory
from tutor.live import services
from tutor.live.services import Action, LiveSpec

HTMX = {"HTTP_HX_REQUEST": "true"}


def login(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")  # as the benchmark's client asks
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_parse_stage_reads_the_phone_and_the_projector_in_every_phase(teacher, school_class):
    user = MembershipFactory(school_class=school_class).learner
    session = services.start_live(
        teacher=teacher,
        school_class=school_class,
        spec=LiveSpec(kinds=["who_writes", "stoeck"], question_count=2),
    )
    pupil, projector = login(user), login(teacher)
    phone_url = reverse("live:pupil", args=[session.pk])
    projector_url = reverse("live:projector", args=[session.pk])

    def step(action: str) -> None:
        nonlocal session
        session = services.advance(
            teacher=teacher, session=session, action=action, version=session.version
        )

    pupil.post(reverse("live:enter", args=[session.pk]))
    lobby = parse_stage(pupil.get(phone_url).content.decode())  # the whole page
    assert lobby is not None and lobby.phase == "lobby" and lobby.interval == 1
    assert lobby.version == session.version and lobby.position is None
    assert pupil.get(phone_url, {"token": lobby.token}, **HTMX).status_code == 204
    assert lobby.poll_url.startswith(reverse("live:poll", args=[session.pk]) + "?ticket=")
    still = Client().get(lobby.poll_url, **HTMX)  # the poller: a ticket, no session
    assert still.status_code == 204 and "HX-Trigger" not in still
    shown = parse_stage(projector.get(projector_url, **HTMX).content.decode())
    assert shown is not None and shown.extra == (1, 0)  # joined, answered

    step(Action.BEGIN)
    assert Client().get(lobby.poll_url, **HTMX)["HX-Trigger"] == "live-moved"
    asking = parse_stage(pupil.get(phone_url, {"token": lobby.token}, **HTMX).content.decode())
    keys = tuple(c["key"] for c in session.questions[0]["choices"])
    assert asking is not None and asking.phase == "asking"
    assert (asking.position, asking.choices, asking.version) == (0, keys, session.version)
    right = session.questions[0]["answer"]
    saved = pupil.post(
        reverse("live:answer", args=[session.pk]), {"position": 0, "choice": right}, **HTMX
    )
    after = parse_stage(saved.content.decode())
    assert after is not None and after.position is None and after.choices == ()
    shown = parse_stage(projector.get(projector_url, **HTMX).content.decode())
    assert shown is not None and shown.extra == (1, 1)

    step(Action.REVEAL)
    revealed = parse_stage(pupil.get(phone_url, {"token": asking.token}, **HTMX).content.decode())
    assert revealed is not None and revealed.phase == "revealed"
    assert revealed.version == session.version

    step(Action.FINISH)
    done = parse_stage(pupil.get(phone_url, **HTMX).content.decode())
    assert done is not None and done.phase == "finished" and done.counts[:2] == (1, 1)


def test_reveal_latency_per_phone_and_reveal():
    reveals = [("a", 3, 10.0), ("a", 5, 20.0), ("b", 3, 10.0)]
    phones = [
        ("p1", "a", {3: 10.4, 5: 19.9}, []),  # 0.4 s; the second seen before the response
        ("p2", "a", {3: 11.5}, [(18.0, 28.0)]),  # 1.5 s; offline over the second reveal
        ("p3", "b", {}, []),  # never shown
    ]
    result = reveal_latency(reveals, phones)
    assert result.seconds == [0.0, pytest.approx(0.4), pytest.approx(1.5), math.inf]
    assert (result.early, result.offline, len(result.missed)) == (1, 1, 1)


def test_split_polls_by_status():
    rec = Recorder("live")
    for status in (204, 204, 200):
        rec.add(POLL, 5.0, status)
    shown, order = split_polls(rec)
    assert len(shown.samples[f"{POLL} -> 204"]) == 2
    assert len(shown.samples[f"{POLL} -> 200"]) == 1
    assert order.index(f"{POLL} -> 204") < order.index(f"{POLL} -> 200") < order.index(POLL)
