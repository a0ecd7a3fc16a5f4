"""The Weis tool: form validation, full-page and htmx responses, numbers from rules_core."""

import pytest
from django.urls import reverse

from rules_core import parse_cards, resolve_weis

pytestmark = pytest.mark.django_db

URL = reverse("weistool:tool")


def get(client, htmx=False, **params):
    data = {"contract": "H", "rules": "default", **params}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.get(URL, data, headers=headers)


@pytest.fixture(autouse=True)
def english(client):
    client.post(reverse("set_language"), {"language": "en", "next": "/"})


def test_empty_tool_invites_picking(client):
    page = client.get(URL).content.decode()
    assert "Pick cards for at least one player" in page
    assert page.count('type="checkbox"') == 4 * 36


def test_weis_decision_comes_from_rules_core(client):
    hands = {"seat0_text": "H6 H7 H8 D9 S9", "seat1_text": "SA SK SQ SJ", "seat2_text": "C6 C7 C8"}
    response = get(client, **hands)
    assert response.status_code == 200
    expected = resolve_weis([parse_cards(hands.get(f"seat{s}_text", "")) for s in range(4)], "H")
    html = response.content.decode()
    assert expected.team == 1 and expected.scored == 50
    assert "Team 2 (players 2 and 4) writes Weis: 50 points" in html
    assert "ladder-step--decides" in html


def test_tapped_and_typed_cards_are_merged(client):
    response = client.get(
        URL, {"contract": "obenabe", "rules": "default", "seat0_text": "H6", "seat0": ["H7", "H8"]}
    )
    html = response.content.decode()
    assert "Team 1 (players 1 and 3) writes Weis: 20 points" in html


def test_names_are_accepted(client):
    html = get(client, seat0_text="Rosen Ober, Rosen König, Rosen Ass").content.decode()
    assert "writes Weis: 20 points" in html


def test_stoeck_holder_is_named(client):
    html = get(client, seat2_text="HK HQ S6").content.decode()
    assert "Player 3 holds king and Ober of trump" in html


def test_htmx_request_gets_only_the_tool_partial(client):
    response = get(client, htmx=True, seat0_text="H6 H7 H8")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and html.lstrip().startswith('<section id="weis-results"')
    # The inputs are never swapped (a tap in flight would be lost); counts come out of band.
    assert 'type="checkbox"' not in html
    assert '<small id="tab-status-0" hx-swap-oob="true">' in html
    assert "writes Weis: 20 points" in html


def test_card_twice_is_an_error_next_to_the_field(client):
    response = get(client, seat0_text="H6 H7", seat1_text="H7 H8")
    assert response.status_code == 200
    form = response.context["form"]
    assert "H7 is already in the hand of Player 1" in str(form.errors["seat1_text"])
    assert "Please correct the cards" in response.content.decode()


def test_ten_cards_is_an_error(client):
    response = get(client, seat0_text="H6 H7 H8 H9 H10 HJ HQ HK HA", seat0=["S6"])
    assert "at most nine" in str(response.context["form"].errors["seat0_text"])


def test_unknown_name_is_an_error(client):
    response = get(client, seat3_text="Rosen Zehner Banana")
    assert response.status_code == 200
    assert response.context["form"].errors["seat3_text"]


@pytest.mark.parametrize(
    "params",
    [
        {"contract": "trump"},
        {"rules": "no-such-preset"},
        {"seat0": ["ZZ"]},
        {"seat0_text": "H6 " * 300},
        {"edit": "9"},
    ],
)
def test_bad_input_is_a_form_error_not_a_500(client, params):
    response = client.get(URL, {"contract": "H", "rules": "default", **params})
    assert response.status_code == 200
    assert response.context["form"].errors


def test_rule_set_variant_changes_the_answer(client):
    """Four sixes: 100 by default (W-DE), nothing under the W-EN reading (R5.2)."""
    hands = {"seat0_text": "D6 H6 S6 C6"}
    assert "writes Weis: 100 points" in get(client, **hands).content.decode()
    html = get(client, rules="w-en", **hands).content.decode()
    assert "Nobody has a meld" in html


def test_htmx_error_is_sent_out_of_band_next_to_the_field(client):
    response = get(client, htmx=True, seat0_text="H6 H7", seat1_text="H7 H8")
    html = response.content.decode()
    assert '<div id="id_seat1_text_errors" class="field-errors" hx-swap-oob="true">' in html
    assert "H7 is already in the hand of Player 1" in html
    assert "Please correct the cards" in html
