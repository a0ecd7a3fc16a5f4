"""At the table (issue 14, the learner's side): rounds started, played move by move
with and without htmx, moves stored exactly once, mastery moved once per judgement,
and nothing the learner may not know in any response.

Decided here: an illegal card is a move like any other. The referee judges it wrong
with its R3 reason and does not play it; it stays in the log (so the round replays
and re-judges exactly, and the wrong card counts once for mastery) and the learner
plays again: 200 (htmx) or a redirect to the table (no JS). A move the referee
refuses outright (a card not in the hand, a move out of phase) is a 400 and nothing
is stored; a stale or double POST is a 409 and nothing changes.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from django.urls import reverse

from rules_core import DECK
from teaching.table import (
    FOCUSES,
    REFUSALS,
    SKILLS,
    Scenario,
    TableError,
    build_scenario,
    learner_view,
    referee,
    reference_move,
)
from teaching.table.view import public_cards
from tests.factories import LearnerFactory, TableRoundFactory, TeacherFactory
from tutor.core.cards import display_name
from tutor.quizzes.models import SkillState
from tutor.quizzes.services import record_skill
from tutor.table import services
from tutor.table.forms import move_form, post_data
from tutor.table.models import Focus, TableRound
from tutor.table.selectors import SKILL_LABELS, SKILL_ORDER

pytestmark = pytest.mark.django_db

CODES = [c.code for c in DECK]
HX = {"HTTP_HX_REQUEST": "true"}


# ---------------------------------------------------------------------------
# Helpers


def url(round_, name="round"):
    return reverse(f"table:{name}", args=[round_.pk])


def scenario(round_):
    return Scenario.from_dict(round_.scenario)


def table(round_):
    round_.refresh_from_db()
    return referee(scenario(round_), round_.moves)


def post(client, round_, move, *, htmx=False, n=None, **extra):
    round_.refresh_from_db()
    n = round_.move_count if n is None else n
    headers = HX if htmx else {}
    return client.post(url(round_, "move"), post_data(move, n), **headers, **extra)


def play_out(client, round_, policy=reference_move, *, htmx=False, on_response=None):
    """Post ``policy(table)`` until the round is done; returns the final table."""
    t = table(round_)
    while t.phase != "done":
        response = post(client, round_, policy(t), htmx=htmx)
        assert response.status_code == (200 if htmx else 302), response.content[:2000]
        if on_response is not None:
            on_response(response, round_)
        t = table(round_)
        assert round_.move_count < 60
    return t


def first_illegal(round_, client):
    """Play reference moves until the learner holds a card they may not play;
    returns (table, that card)."""
    t = table(round_)
    for _ in range(40):
        if t.phase == "done":
            break
        if t.phase == "play":
            illegal = [c for c in t.hand if c not in t.legal]
            if illegal:
                return t, illegal[0]
        assert post(client, round_, reference_move(t)).status_code == 302
        t = table(round_)
    return None, None


def illegal_round(client, learner):
    for seed in range(0, 40, 2):
        round_ = TableRoundFactory(learner=learner, focus="stoeck", seed=seed)
        t, card = first_illegal(round_, client)
        if card is not None:
            return round_, t, card
    raise AssertionError("no round with an illegal card")  # pragma: no cover


def hidden_codes(t):
    return set(CODES) - public_cards(t)


def strip_csrf(html):
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


# ---------------------------------------------------------------------------
# Starting and resuming


@pytest.mark.parametrize("focus", FOCUSES)
def test_post_data_is_what_the_forms_read_back(focus):
    """post_data (tests and the benchmark post with it) is the inverse of the forms:
    every move of a whole round, wrong ones included, comes back unchanged."""
    table = referee(build_scenario(focus, 3), [])
    moves = []
    while table.phase != "done":
        move = reference_move(table)
        form = move_form(post_data(move, len(moves)))
        assert form is not None and form.is_valid(), form.errors if form else move
        assert form.move() == move and form.cleaned_data["n"] == len(moves)
        moves.append(move)
        table = referee(table.scenario, moves)


def test_start_page_offers_every_focus_and_rule_set(client, learner):
    client.force_login(learner)
    page = client.get(reverse("table:start"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for label in ("Stöck", "Kreuzweis", "Undenufe", "Weis at the table: equal values"):
        assert label in page
    assert 'value="swisslos-2500"' in page and 'value="w-en"' in page


def test_starting_a_round_stores_the_scenario_and_opens_the_table(client, learner):
    client.force_login(learner)
    response = client.post(reverse("table:start"), {"focus": "stoeck", "rules": "ausmachregel"})
    round_ = TableRound.objects.get(learner=learner)
    assert response.status_code == 302 and response["Location"] == url(round_)
    assert round_.moves == [] and round_.move_count == 0 and round_.assignment is None
    s = scenario(round_)
    assert s.focus == "stoeck" and s.preset == "ausmachregel"
    assert client.get(url(round_)).status_code == 200


def test_starting_with_an_unknown_focus_is_refused(client, learner):
    client.force_login(learner)
    response = client.post(reverse("table:start"), {"focus": "slalom", "rules": "default"})
    assert response.status_code == 400
    assert not TableRound.objects.exists()


def test_an_unfinished_round_is_offered_for_resuming(client, learner):
    round_ = TableRoundFactory(learner=learner)
    done = TableRoundFactory(learner=learner, seed=4)
    client.force_login(learner)
    play_out(client, done)
    page = client.get(reverse("table:start")).content.decode()
    assert url(round_) in page
    assert url(done, "summary") in page and f'href="{url(done)}"' not in page


# ---------------------------------------------------------------------------
# Playing a whole round


@pytest.mark.parametrize("focus", ["stoeck", "weis", "kreuzweis", "undenufe", "target_tricks"])
def test_a_whole_round_of_reference_moves_without_javascript(client, learner, focus):
    round_ = TableRoundFactory(learner=learner, focus=focus, seed=3)
    client.force_login(learner)
    locations = []
    final = play_out(client, round_, on_response=lambda r, _round: locations.append(r["Location"]))
    assert set(locations) == {url(round_) + "#feedback"}
    round_.refresh_from_db()
    assert round_.finished_at is not None and final.phase == "done"
    assert round_.move_count == len(round_.moves) == len(final.moves)
    assert {j.outcome for j in final.judgements} <= {"right", "info"}
    page = client.get(url(round_)).content.decode()
    assert "table-round" in page and 'name="action"' not in page  # nothing left to do
    summary = client.get(url(round_, "summary")).content.decode()
    assert (
        summary.count('class="summary-item ')
        == len([j for j in final.judgements if j.kind != "jasstafel_block"]) + 1
    )  # the Jasstafel's six blocks are one entry


def test_a_whole_round_with_htmx_gets_partials(client, learner):
    round_ = TableRoundFactory(learner=learner, focus="stoeck", seed=5)
    client.force_login(learner)
    bodies = []
    play_out(client, round_, htmx=True, on_response=lambda r, _round: bodies.append(r))
    for response in bodies:
        html = response.content.decode()
        assert html.lstrip().startswith('<div id="table-round"') and "<html" not in html
        assert 'id="feedback"' in html and "autofocus" in html


def test_every_decision_has_its_rule_linked_to_the_rules_index(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=7)
    client.force_login(learner)
    final = play_out(client, round_)
    summary = client.get(url(round_, "summary")).content.decode()
    rules_url = reverse("lessons:rules")
    for rule in {j.rule for j in final.judgements}:
        assert f'href="{rules_url}#{rule}"' in summary


# ---------------------------------------------------------------------------
# Refusals


def test_an_illegal_card_is_judged_wrong_not_played_and_the_learner_plays_again(client, learner):
    client.force_login(learner)
    round_, before, card = illegal_round(client, learner)
    n = round_.move_count
    response = post(client, round_, {"play": card}, htmx=True)
    assert response.status_code == 200
    html = response.content.decode()
    after = table(round_)
    assert round_.move_count == n + 1  # judged, so it is in the log ...
    assert after.plays == before.plays and card in after.hand  # ... but not played
    assert after.phase == "play"
    j = after.judgements[-1]
    assert (j.kind, j.outcome, j.rule[:3]) == ("play", "wrong", "R3.")
    assert "Nicht richtig" in html and f'#{j.rule}"' in html
    assert "bleibt in deiner Hand" in html
    assert 'name="card"' in html  # the hand is offered again


def test_an_illegal_card_without_javascript_redirects_to_its_feedback(client, learner):
    client.force_login(learner)
    round_, _before, card = illegal_round(client, learner)
    response = post(client, round_, {"play": card})
    assert response.status_code == 302 and response["Location"].endswith("#feedback")
    page = client.get(response["Location"]).content.decode()
    assert "Nicht richtig" in page and 'name="card"' in page


def test_a_card_not_in_the_hand_is_a_400_and_nothing_is_stored(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    t = table(round_)
    foreign = next(c for c in CODES if c not in t.hand)
    for htmx in (True, False):
        response = post(client, round_, {"play": foreign}, htmx=htmx)
        assert response.status_code == 400
        assert "Der Tisch hat diesen Zug abgelehnt" in response.content.decode()
    round_.refresh_from_db()
    assert round_.moves == [] and round_.move_count == 0


def test_a_move_out_of_phase_is_a_400(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    response = post(client, round_, {"writes": {"team": 1, "points": 20}}, htmx=True)
    assert response.status_code == 400
    round_.refresh_from_db()
    assert round_.move_count == 0


def test_a_form_without_a_card_is_a_400_with_a_message(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    response = client.post(url(round_, "move"), {"action": "play", "n": 0}, **HX)
    assert response.status_code == 400
    assert "Wähle eine Karte" in response.content.decode()
    response = client.post(url(round_, "move"), {"action": "shuffle", "n": 0})
    assert response.status_code == 400
    round_.refresh_from_db()
    assert round_.move_count == 0


def test_a_double_post_is_a_409_and_changes_nothing(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    move = reference_move(table(round_))
    first = post(client, round_, move, htmx=True, n=0)
    assert first.status_code == 200
    round_.refresh_from_db()
    moves, states = list(round_.moves), list(SkillState.objects.values_list("skill", "attempts"))
    second = post(client, round_, move, htmx=True, n=0)
    assert second.status_code == 409
    assert "älteren Stand des Tisches" in second.content.decode()
    round_.refresh_from_db()
    assert round_.moves == moves and round_.move_count == 1
    assert list(SkillState.objects.values_list("skill", "attempts")) == states


def test_a_stale_post_without_javascript_redirects_with_a_message(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    move = reference_move(table(round_))
    post(client, round_, move, n=0)
    response = post(client, round_, move, n=0)
    assert response.status_code == 302 and response["Location"] == url(round_)
    page = client.get(response["Location"]).content.decode()
    assert "älteren Stand des Tisches" in page
    round_.refresh_from_db()
    assert round_.move_count == 1


def test_a_stale_invalid_form_is_a_409_not_a_400(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    post(client, round_, reference_move(table(round_)))
    response = client.post(url(round_, "move"), {"action": "writes", "n": 0}, **HX)
    assert response.status_code == 409


def test_two_requests_racing_on_the_same_count_store_one_move(learner):
    """The service's conditional UPDATE: the second of two moves made from the same
    state (the first already stored) is refused even though its object is stale."""
    round_ = TableRoundFactory(learner=learner, seed=2)
    stale = TableRound.objects.get(pk=round_.pk)
    move = reference_move(table(round_))
    services.play_move(learner=learner, round_=round_, move=move, expected_count=0)
    with pytest.raises(services.StaleMove):
        services.play_move(learner=learner, round_=stale, move=move, expected_count=0)
    round_.refresh_from_db()
    assert round_.move_count == 1 and len(round_.moves) == 1


def test_a_round_takes_no_more_than_max_moves(learner, monkeypatch):
    """The cap counts cards, announcements, writes and the Jasstafel, not «Stöck!» on
    its own; a call on its own right after another is refused."""
    round_ = TableRoundFactory(learner=learner, seed=2)
    t = table(round_)
    card = reference_move(t)
    services.play_move(learner=learner, round_=round_, move=card, expected_count=0)
    monkeypatch.setattr(services, "MAX_MOVES", 1)
    with pytest.raises(services.MoveRefused, match="keine Züge mehr"):
        move = reference_move(table(round_))
        services.play_move(learner=learner, round_=round_, move=move, expected_count=1)
    services.play_move(learner=learner, round_=round_, move={"stoeck": True}, expected_count=1)
    with pytest.raises(services.MoveRefused, match="schon «Stöck!» gesagt") as refused:
        services.play_move(learner=learner, round_=round_, move={"stoeck": True}, expected_count=2)
    assert refused.value.refusal is None
    round_.refresh_from_db()
    assert round_.move_count == 2 and round_.moves[-1] == {"stoeck": True}
    assert services.counted_moves(round_.moves) == 1 and services.just_called(table(round_))


# ---------------------------------------------------------------------------
# Who may see what


def test_another_learners_round_is_a_404(client, learner):
    round_ = TableRoundFactory(seed=2)
    client.force_login(learner)
    assert client.get(url(round_)).status_code == 404
    assert client.get(url(round_, "summary")).status_code == 404
    move = reference_move(table(round_))
    assert post(client, round_, move).status_code == 404
    round_.refresh_from_db()
    assert round_.move_count == 0


def test_teachers_and_visitors_cannot_play(client):
    round_ = TableRoundFactory(seed=2)
    response = client.get(reverse("table:start"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert client.get(url(round_)).status_code == 302
    client.force_login(TeacherFactory())
    assert client.get(reverse("table:start")).status_code == 403
    assert client.get(url(round_)).status_code == 403
    assert post(client, round_, reference_move(table(round_))).status_code == 403
    assert (
        client.post(reverse("table:start"), {"focus": "stoeck", "rules": "default"}).status_code
        == 403
    )
    round_.refresh_from_db()
    assert round_.move_count == 0
    with pytest.raises(services.RoundError):
        services.start_round(learner=TeacherFactory(), focus="stoeck")


def _check_response(html, t, prefix):
    """No hidden card and no judgement of a move at or after ``prefix`` in ``html``."""
    for code in hidden_codes(t):
        for pattern in (f'data-card="{code}"', f'value="{code}"', f">{code}<"):
            assert pattern not in html, (prefix, code, pattern)
        assert display_name(code, "de", "swiss") not in html, (prefix, code)
    moves = {int(m) for m in re.findall(r'data-move="(-?\d+)"', html)}
    assert all(m < prefix for m in moves), (prefix, moves)
    return moves


def _set_log(round_, log):
    t = referee(scenario(round_), log)
    TableRound.objects.filter(pk=round_.pk).update(
        moves=log, move_count=len(log), recorded=len(t.judgements), finished_at=None
    )
    return t


def test_no_response_shows_a_hidden_card_or_a_later_judgement(client, learner):
    """For every prefix of a played log (with a wrong card, a forgotten Stöck and a
    wrong Jasstafel in it) every response: the page, the summary, the htmx partial
    of the next move and the page a plain POST redirects to, shows only what the
    learner may know then, and no judgement of a later move."""
    client.force_login(learner)
    round_, _t, card = illegal_round(client, learner)
    post(client, round_, {"play": card})  # the wrong card, judged

    def forgetful(t):
        move = reference_move(t)
        move.pop("stoeck", None)
        if "jasstafel" in move:
            move["jasstafel"]["blocks"]["1"]["tricks"] += 10
        return move

    final = play_out(client, round_, forgetful)
    assert any(j.key == "stoeck.forgotten" for j in final.judgements)
    log = list(round_.moves)
    for prefix in range(len(log) + 1):
        t = _set_log(round_, log[:prefix])
        _check_response(client.get(url(round_)).content.decode(), t, prefix)
        summary = _check_response(client.get(url(round_, "summary")).content.decode(), t, prefix)
        assert summary == {j.move for j in t.judgements}
        if prefix == len(log):
            break
        after = referee(scenario(round_), log[: prefix + 1])
        response = post(client, round_, log[prefix], htmx=True)
        assert response.status_code == 200
        _check_response(response.content.decode(), after, prefix + 1)
        _set_log(round_, log[:prefix])
        response = post(client, round_, log[prefix])
        assert response.status_code == 302
        _check_response(client.get(response["Location"]).content.decode(), after, prefix + 1)


def test_the_hand_offers_every_card_and_never_says_which_are_legal(client, learner):
    """Which cards are legal is the learner's decision: the view leaves them out, and
    the page offers every card in the hand alike."""
    client.force_login(learner)
    round_, t, card = illegal_round(client, learner)
    assert "legal" not in learner_view(t).to_dict() and not hasattr(learner_view(t), "legal")
    html = client.get(url(round_)).content.decode()
    offered = re.findall(r'name="card" value="([A-Z0-9]+)"', html)
    assert offered == list(t.hand) and card in offered
    assert "legal" not in html.lower()


def scripted(seed):
    """A learner who mostly plays like the reference learner and sometimes errs: an
    illegal or random card, a stray «Stöck!», a forgotten one, a wrong announcement,
    a wrong ``writes`` and a wrong Jasstafel."""
    rng = random.Random(seed)

    def policy(t):
        move = reference_move(t)
        r = rng.random()
        if t.phase == "play":
            if r < 0.15:
                return {"play": rng.choice(t.hand)}
            if r < 0.22 and t.plays and t.moves[-1:] != ({"stoeck": True},):
                return {"stoeck": True}
            if r < 0.3:
                move.pop("stoeck", None)
            elif r < 0.4 and "announce" in move:
                move["announce"] = rng.choice((0, 20, 50, 100))
        elif t.phase == "writes" and r < 0.4:
            return {"writes": {"team": rng.choice((1, 2, None)), "points": 20}}
        elif t.phase == "jasstafel" and r < 0.5:
            move["jasstafel"]["blocks"]["2"]["weis"] += 20
        return move

    return policy


@pytest.mark.parametrize("preset", ["default", "w-en", "ausmachregel", "swisslos-2500"])
def test_every_focus_and_rule_set_renders_in_every_language_and_deck(client, preset):
    """Rounds of every focus under every rule set, played by an erring learner, render
    at every step in German, English and French with both decks, showing no hidden
    card."""
    for i, focus in enumerate(FOCUSES):
        learner = LearnerFactory(deck=("swiss", "french")[i % 2])
        client.force_login(learner)
        round_ = TableRoundFactory(learner=learner, focus=focus, seed=i, preset=preset)
        policy = scripted(i)
        t = table(round_)
        step = 0
        while True:
            lang = ("de", "en", "fr")[step % 3]
            response = client.get(url(round_), HTTP_ACCEPT_LANGUAGE=lang)
            assert response.status_code == 200, (preset, focus, step)
            html = response.content.decode()
            for code in hidden_codes(t):
                assert f'data-card="{code}"' not in html and f'value="{code}"' not in html
            if t.phase == "done":
                break
            move = policy(t)
            try:
                services.play_move(
                    learner=learner, round_=round_, move=move, expected_count=round_.move_count
                )
            except services.MoveRefused:
                continue
            t = table(round_)
            step += 1
            assert step < 80
        assert client.get(url(round_, "summary")).status_code == 200


# ---------------------------------------------------------------------------
# Mastery


def test_mastery_moves_once_per_right_or_wrong_judgement(client, learner):
    client.force_login(learner)
    round_, _t, card = illegal_round(client, learner)
    SkillState.objects.filter(learner=learner).delete()
    start = len(table(round_).judgements)
    post(client, round_, {"play": card})  # wrong
    post(client, round_, {"play": card}, n=round_.move_count - 1)  # stale: nothing
    final = play_out(client, round_)
    counted = Counter(j.skill for j in final.judgements[start:] if j.outcome != "info")
    right = Counter(j.skill for j in final.judgements[start:] if j.outcome == "right")
    states = {s.skill: s for s in SkillState.objects.filter(learner=learner)}
    assert {skill: s.attempts for skill, s in states.items()} == dict(counted)
    assert {skill: s.correct for skill, s in states.items() if s.correct} == dict(right)
    assert states["trick"].attempts > states["trick"].correct  # the wrong card counted
    round_.refresh_from_db()
    assert round_.recorded == len(final.judgements)
    # Viewing the round again, or its summary, records nothing more.
    client.get(url(round_))
    client.get(url(round_, "summary"))
    assert {s.skill: s.attempts for s in SkillState.objects.filter(learner=learner)} == dict(
        counted
    )


def test_info_judgements_do_not_move_mastery(client, learner):
    """An odd seed gives the partner's reminder: the learner's call after it is info."""
    round_ = TableRoundFactory(learner=learner, focus="stoeck", seed=1)
    client.force_login(learner)
    final = play_out(client, round_)
    infos = [j for j in final.judgements if j.outcome == "info"]
    assert any(j.skill == "stoeck" for j in infos)
    stoeck = [j for j in final.judgements if j.skill == "stoeck" and j.outcome != "info"]
    state = SkillState.objects.filter(learner=learner, skill="stoeck").first()
    assert (state.attempts if state else 0) == len(stoeck)


def test_the_tally_counts_each_skills_judgements(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=6)
    client.force_login(learner)
    final = play_out(client, round_)
    round_.refresh_from_db()
    expected = Counter((j.skill, j.outcome) for j in final.judgements)
    got = Counter(
        {(skill, outcome): n for skill, c in round_.tally.items() for outcome, n in c.items() if n}
    )
    assert got == expected
    from tutor.table.selectors import rounds_with_counts

    ((listed, counts),) = rounds_with_counts(learner=learner)
    assert listed == round_ and sum(c.right for c in counts) == expected_right(final)


def expected_right(final):
    return sum(1 for j in final.judgements if j.outcome == "right")


def test_record_skill_moves_mastery_like_a_quiz_answer(learner):
    from django.utils import timezone

    state = record_skill(learner, "stoeck", True, timezone.now())
    assert (state.attempts, state.correct, state.streak) == (1, 1, 1)
    state = record_skill(learner, "stoeck", False, timezone.now())
    assert (state.attempts, state.correct, state.streak) == (2, 1, 0)
    assert 0 < state.mastery < 1
    from tutor.quizzes.services import QuizError

    with pytest.raises(QuizError):
        record_skill(learner, "juggling", True, timezone.now())


def test_record_skills_leaves_the_states_that_one_call_per_decision_leaves(learner):
    """One table move's judgements count at once (one read, one write per skill), with
    the states that record_skill, called per decision in order, leaves."""
    from django.utils import timezone

    from tutor.quizzes.services import QuizError, record_skills

    other = LearnerFactory()
    when = timezone.now()
    record_skill(learner, "trick", False, when)  # an existing row and a new one below
    record_skill(other, "trick", False, when)
    moves = [
        [("trick", True), ("stoeck", False), ("trick", True)],
        [("stoeck", True)],
        [],
        [("target", False), ("trick", False), ("target", True)],
    ]
    fields = ["skill", "mastery", "attempts", "correct", "streak", "due_at", "fsrs_card"]
    for outcomes in moves:
        record_skills(learner, outcomes, when)
        for skill, right in outcomes:
            record_skill(other, skill, right, when)
    mine = list(SkillState.objects.filter(learner=learner).order_by("skill").values(*fields))
    theirs = list(SkillState.objects.filter(learner=other).order_by("skill").values(*fields))
    assert [s["skill"] for s in mine] == ["stoeck", "target", "trick"]
    assert mine == theirs
    assert mine[2]["attempts"] == 4 and mine[2]["correct"] == 2
    with pytest.raises(QuizError):
        record_skills(learner, [("trick", True), ("juggling", True)], when)
    assert SkillState.objects.get(learner=learner, skill="trick").attempts == 4


def test_record_skills_writes_back_without_reading_and_misses_safely(learner):
    """The second move's states are written without a read; a quiz answer in between, a
    rolled-back move and a row deleted and made again each make that write miss, and
    the row is read again: the states stay those of one record_skill per decision."""
    from datetime import timedelta

    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from tutor.quizzes.services import record_skills

    other = LearnerFactory()
    when = timezone.now()

    def both(outcomes, at):
        record_skills(learner, outcomes, at)
        for skill, right in outcomes:
            record_skill(other, skill, right, at)

    def states(who):
        fields = ["skill", "mastery", "attempts", "correct", "streak", "due_at", "fsrs_card"]
        return list(SkillState.objects.filter(learner=who).order_by("skill").values(*fields))

    both([("trick", True), ("stoeck", False)], when)
    with CaptureQueriesContext(connection) as queries:
        record_skills(learner, [("trick", False)], when + timedelta(minutes=1))
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["UPDATE"]
    record_skill(other, "trick", False, when + timedelta(minutes=1))
    # a quiz answer between two moves
    for who in (learner, other):
        record_skill(who, "trick", True, when + timedelta(minutes=2))
    both([("trick", True)], when + timedelta(minutes=3))
    assert states(learner) == states(other)
    # a move rolled back after its states were written
    with pytest.raises(RuntimeError), transaction.atomic():
        record_skills(learner, [("stoeck", True)], when + timedelta(minutes=4))
        raise RuntimeError
    both([("stoeck", True)], when + timedelta(minutes=5))
    assert states(learner) == states(other)
    # the row deleted (privacy) and made again
    for who in (learner, other):
        SkillState.objects.filter(learner=who, skill="trick").delete()
        record_skill(who, "trick", True, when + timedelta(minutes=6))
    both([("trick", False), ("trick", True)], when + timedelta(minutes=7))
    assert states(learner) == states(other)


# ---------------------------------------------------------------------------
# Stöck at the table


def stoeck_round(learner, seed=0):
    """A stoeck round (even seed: no reminder) where the learner holds trump K and Q."""
    return TableRoundFactory(learner=learner, focus="stoeck", seed=seed)


STOECK_BOX = 'name="stoeck" value="on"'
STOECK_BUTTON = 'name="action" value="stoeck"'


def _stoeck_offers(client, round_, policy=reference_move):
    """Play the round out; for every page on the way: (phase, cards on the table,
    last move a call on its own, «Stöck!» boxes, «Stöck!» buttons)."""
    seen = []
    t = table(round_)
    while True:
        html = client.get(url(round_)).content.decode()
        alone = bool(t.moves) and t.moves[-1] == {"stoeck": True}
        seen.append((t.phase, len(t.plays), alone, html.count(STOECK_BOX),
                     html.count(STOECK_BUTTON)))  # fmt: skip
        if t.phase == "done":
            return seen
        assert post(client, round_, policy(t)).status_code == 302
        t = table(round_)


def test_r6_4_stoeck_is_offered_to_every_learner_with_every_card_in_every_trump_contract(
    client, learner
):
    """The holder calls on their own (R6.4), so the offer reminds nobody: holder or
    not, the page offers «Stöck!» with every card and on its own once a card is on
    the table, in every trump contract; in Obenabe and Undenufe (no Stöck, R6.1) never."""
    client.force_login(learner)
    holder = stoeck_round(learner, seed=2)
    others = [TableRoundFactory(learner=learner, focus="target_stoeck", seed=seed)
              for seed in range(2)]  # fmt: skip
    no_trump = next(r for seed in range(20)
                    if (r := TableRoundFactory(learner=learner, focus="weis", seed=seed))
                    and scenario(r).contract in ("obenabe", "undenufe"))  # fmt: skip
    for round_ in (holder, *others):
        s = scenario(round_)
        pair = {s.contract + "K", s.contract + "Q"}
        assert (pair <= set(s.hands[s.seat])) == (round_ is holder)
        for phase, plays, alone, boxes, buttons in _stoeck_offers(client, round_):
            assert boxes == (phase == "play")
            assert buttons == (phase != "done" and plays > 0 and not alone)
    for phase, _plays, _alone, boxes, buttons in _stoeck_offers(client, no_trump):
        assert (boxes, buttons) == (0, 0), phase


def test_r6_4_a_call_by_a_non_holder_is_wrong_once_and_reveals_nothing(client, learner):
    client.force_login(learner)
    round_ = TableRoundFactory(learner=learner, focus="target_stoeck", seed=1)
    t = table(round_)
    while not t.plays or t.phase != "play":
        post(client, round_, reference_move(t))
        t = table(round_)
    move = {**reference_move(t), "stoeck": True}
    response = post(client, round_, move, htmx=True)
    assert response.status_code == 200
    j = table(round_).judgements[-1]
    assert (j.kind, j.key, j.outcome, j.rule) == ("stoeck", "stoeck.not_holder", "wrong", "R6.4")
    html = response.content.decode()
    feedback = html[
        html.index('id="feedback"') : html.index("</section>", html.index('id="feedback"'))
    ]
    assert "Du hältst nicht König und Ober im Trumpf zusammen" in feedback
    assert "verdict--" not in feedback and "Spieler" not in feedback  # nobody named
    # again, on its own: judged once (info), and a third call in a row is refused
    response = post(client, round_, {"stoeck": True}, htmx=True)
    j = table(round_).judgements[-1]
    assert (j.key, j.outcome) == ("stoeck.repeated", "info")
    assert "Du hast «Stöck!» schon gesagt" in response.content.decode()
    count = table(round_).moves
    response = post(client, round_, {"stoeck": True}, htmx=True)
    assert response.status_code == 400
    assert "Du hast schon «Stöck!» gesagt" in response.content.decode()
    assert table(round_).moves == count


def test_calls_on_their_own_cannot_make_a_round_unfinishable(client, learner, monkeypatch):
    """A learner who says «Stöck!» on its own before every move still finishes a
    round whose counted moves fill the cap exactly."""
    client.force_login(learner)
    plain = stoeck_round(learner, seed=4)
    counted = len(play_out(client, plain).moves)
    monkeypatch.setattr(services, "MAX_MOVES", counted)
    round_ = stoeck_round(learner, seed=4)

    def caller(t):
        if t.plays and t.moves[-1:] != ({"stoeck": True},):
            return {"stoeck": True}
        return reference_move(t)

    final = play_out(client, round_, caller)
    assert final.phase == "done"
    alone = sum(1 for m in final.moves if m == {"stoeck": True})
    assert alone >= 9 and len(final.moves) - alone == counted


def test_a_forgotten_stoeck_is_judged_wrong_and_a_late_call_too_late(client, learner):
    round_ = stoeck_round(learner, seed=0)
    client.force_login(learner)
    s = scenario(round_)
    pair = {s.contract + "K", s.contract + "Q"}
    t = table(round_)
    while True:
        move = reference_move(t)
        second = move.pop("stoeck", False)
        post(client, round_, move)
        t = table(round_)
        if second:
            break
    keys = [j.key for j in t.judgements if j.kind == "stoeck"]
    assert keys == ["stoeck.forgotten"] and t.judgements[-1].outcome in ("wrong", "right")
    page = client.get(url(round_)).content.decode()
    assert "ohne «Stöck!» zu sagen" in page
    assert not pair & set(t.hand)
    # The late call on its own: offered, and judged too late.
    assert 'value="stoeck"' in page
    response = post(client, round_, {"stoeck": True}, htmx=True)
    assert response.status_code == 200
    j = table(round_).judgements[-1]
    assert (j.key, j.outcome, j.rule) == ("stoeck.too_late", "wrong", "R6.3")
    assert "Zu spät" in response.content.decode()


def test_stoeck_with_the_second_card_counts_and_shows_the_verdict(client, learner):
    round_ = stoeck_round(learner, seed=2)
    client.force_login(learner)
    t = table(round_)
    while not any(j.kind == "stoeck" for j in t.judgements):
        response = post(client, round_, reference_move(t), htmx=True)
        t = table(round_)
    j = next(j for j in t.judgements if j.kind == "stoeck")
    assert (j.key, j.outcome) == ("stoeck.counts", "right")
    html = response.content.decode()
    assert "verdict--scored" in html and 'href="/lessons/rules/#R6.2"' in html


# ---------------------------------------------------------------------------
# Writes and the Jasstafel forms


def to_writes(client, round_):
    t = table(round_)
    while t.phase != "writes":
        post(client, round_, reference_move(t))
        t = table(round_)
    return t


def test_writes_without_points_is_a_400_and_keeps_the_choice(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    to_writes(client, round_)
    n = round_.move_count
    response = client.post(url(round_, "move"), {"action": "writes", "team": "1", "n": n})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="1" required checked' in html
    round_.refresh_from_db()
    assert round_.move_count == n


def test_nobody_writes_needs_no_points(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    to_writes(client, round_)
    n = round_.move_count
    response = client.post(
        url(round_, "move"), {"action": "writes", "team": "none", "points": "", "n": n}
    )
    assert response.status_code == 302
    assert table(round_).judgements[-1].given.to_dict() == {"team": None, "points": 0}


def test_a_jasstafel_with_a_team_but_no_block_is_a_400_and_keeps_the_numbers(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    t = table(round_)
    while t.phase != "jasstafel":
        post(client, round_, reference_move(t))
        t = table(round_)
    data = post_data(reference_move(t), round_.move_count)
    data.update(target_team="1", target_block="", t1_weis="37")
    response = client.post(url(round_, "move"), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'name="t1_weis" min="0" step="1" inputmode="numeric" required' in html
    assert 'value="37"' in html
    assert table(round_).phase == "jasstafel"


def test_a_wrong_jasstafel_is_explained_block_by_block(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    t = table(round_)
    while t.phase != "jasstafel":
        post(client, round_, reference_move(t))
        t = table(round_)
    move = reference_move(t)
    right_tricks = move["jasstafel"]["blocks"]["2"]["tricks"]
    move["jasstafel"]["blocks"]["2"]["tricks"] = right_tricks + 1
    response = post(client, round_, move, htmx=True, HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert "slate-row--wrong" in html and f"✗ {right_tricks}" in html
    assert "card points" in html and "target-table" in html


# ---------------------------------------------------------------------------
# Words and numbers


def test_german_and_english_pages(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    post(client, round_, reference_move(table(round_)))
    german = client.get(url(round_), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    english = client.get(url(round_), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Dein letzter Zug" in german and "Richtig" in german and "Spieler" in german
    assert "Your last move" in english and "Right" in english and "Player" in english
    assert "Your last move" not in german and "Dein letzter Zug" not in english


def test_players_and_teams_are_counted_from_one(client, learner):
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    s = scenario(round_)
    play_out(client, round_)
    for lang, player in (("de", "Spieler"), ("en", "Player")):
        page = client.get(url(round_, "summary"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        page += client.get(url(round_), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert f"{player} 0" not in page and "Team 0" not in page
        assert f"{player} 1" in page and "Team 2" in page
    fresh = TableRoundFactory(learner=learner, seed=2)
    page = client.get(url(fresh), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    seat = s.seat + 1
    assert re.search(rf"Player {seat}(?: \(Vorhand\))? · you", page)
    assert f"Team {s.seat % 2 + 1} (players {s.seat % 2 + 1} and {s.seat % 2 + 3})" in page


def test_the_dashboard_and_practice_pages_link_to_the_table(client, learner):
    client.force_login(learner)
    start = reverse("table:start")
    assert f'href="{start}"' in client.get(reverse("dashboard")).content.decode()
    assert f'href="{start}"' in client.get(reverse("quizzes:practice")).content.decode()


def test_learner_factory_rounds_do_not_leak_between_learners():
    a, b = LearnerFactory(), LearnerFactory()
    TableRoundFactory(learner=a)
    from tutor.table.selectors import open_rounds

    assert open_rounds(b) == [] and len(open_rounds(a)) == 1


# ---------------------------------------------------------------------------
# Refusals in the page's language (TableError codes)

REFUSAL_PARAMS = {
    "move": 0,
    "card": "HK",
    "hand": ["HK", "S6"],
    "keys": ["play", "writes"],
    "values": [20, 50, 100],
    "wanted": "writes",
    "waiting": "play",
    "field": "team",
    "focus": "poker",
    "focuses": ["stoeck"],
    "seed": 1,
}


def _refusing(code, monkeypatch):
    """The referee refuses the next move with ``code`` (replays of the stored log
    still work, so the page can be drawn): the service's one step refuses it."""

    def step_(state, move):
        raise TableError("an English reason nobody should read", code, REFUSAL_PARAMS)

    monkeypatch.setattr(services, "step", step_)


@pytest.mark.parametrize("code", REFUSALS)
def test_a_german_page_shows_the_german_refusal_for_each_refusal_code(
    client, learner, monkeypatch, code
):
    from django.utils.html import escape
    from django.utils.translation import override

    from tutor.table.presenters import REFUSAL_TEXTS, refusal_text

    assert set(REFUSAL_TEXTS) == set(REFUSALS)
    round_ = TableRoundFactory(learner=learner, seed=2)
    client.force_login(learner)
    _refusing(code, monkeypatch)
    move = reference_move(table(round_))
    for lang in ("de", "en", "fr"):
        # the learner chose no deck: a French page draws the French one
        with override(lang):
            text = refusal_text(code, REFUSAL_PARAMS, "french" if lang == "fr" else "swiss")
        for htmx in (True, False):
            response = post(client, round_, move, htmx=htmx, HTTP_ACCEPT_LANGUAGE=lang)
            assert response.status_code == 400
            html = response.content.decode()
            prefix = {"de": "Der Tisch hat diesen Zug abgelehnt: ",
                      "en": "The table refused this move: ",
                      "fr": "La table a refusé ce coup : "}[lang]  # fmt: skip
            # French has apostrophes: Django escapes them as &#x27;, Jinja as &#39;
            shown = html.replace("&#39;", "&#x27;")
            assert escape(prefix + text) in shown, (lang, text)
            assert "an English reason" not in html
    with override("de"):
        german = refusal_text(code, REFUSAL_PARAMS, "swiss")
    with override("en"):
        assert refusal_text(code, REFUSAL_PARAMS, "swiss") != german
    with override("fr"):
        assert refusal_text(code, REFUSAL_PARAMS, "swiss") != german
    round_.refresh_from_db()
    assert round_.move_count == 0


def test_real_refusals_are_worded_in_german_with_their_card(client, learner):
    client.force_login(learner)
    round_ = TableRoundFactory(learner=learner, seed=2)
    t = table(round_)
    foreign = next(c for c in CODES if c not in t.hand)
    html = post(client, round_, {"play": foreign}, htmx=True).content.decode()
    assert f"{display_name(foreign, 'de', 'swiss')} ist nicht in deiner Hand." in html
    html = post(client, round_, {"writes": {"team": 1, "points": 20}}, htmx=True).content.decode()
    assert "Jetzt ist nicht der Moment für die Angabe, wer Weis schreibt" in html
    assert "Der Tisch wartet auf deine Karte" in html
    if not any(seat == t.seat for seat, _c in t.plays):
        html = post(client, round_, {"announce": 50}, htmx=True).content.decode()
        assert "Melde deinen Weis zusammen mit deiner ersten Karte." in html
    vorhand = next(
        r
        for seed in range(0, 40, 2)
        if scenario(r := TableRoundFactory(learner=learner, seed=seed)).seat == 0
    )
    html = post(client, vorhand, {"stoeck": True}, htmx=True).content.decode()
    assert "Noch liegt keine Karte auf dem Tisch" in html
    english = post(client, vorhand, {"stoeck": True}, htmx=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "No card is on the table yet" in english.content.decode()


# ---------------------------------------------------------------------------
# The announced claims (R5.4a) on the page


def test_r5_4a_a_smaller_announcement_is_compared_as_its_claim_on_the_page(client, learner):
    from tests.teaching.test_table import SMALLER_DEAL, scene

    client.force_login(learner)
    s = scene(SMALLER_DEAL, contract="D", seat=0)
    round_ = TableRoundFactory(learner=learner, focus="weis", scenario=s.to_dict())
    html = post(client, round_, {"play": "DA", "announce": 20}, htmx=True).content.decode()
    assert "Deine Meldung ist, was du gemeldet hast" in html
    html = post(client, round_, {"writes": {"team": 1, "points": 120}}, htmx=True)
    html = html.content.decode()
    j = table(round_).judgements[-1]
    assert (j.kind, j.outcome, j.expected.to_dict()) == (
        "writes",
        "wrong",
        {"team": 2, "points": 50},
    )
    assert "Mit der ersten Karte gemeldet: Spieler 1 (Vorhand): 20 · Spieler 2: 50 · " \
           "Spieler 3: nichts · Spieler 4: nichts." in html  # fmt: skip
    assert "verglichen wurde nur die Meldung (R5.4a)" in html
    assert "Mit 100 gemeldet hätte Team 1 den Weis geschrieben: 120." in html
    english = client.get(url(round_), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "With 100 announced, Team 1 would have written the Weis: 120." in english
    assert "Announced with the first card: Player 1 (Vorhand): 20 · Player 2: 50" in english


def test_the_sites_focuses_and_skills_are_the_referees():
    """tutor.table.models.Focus stays a literal TextChoices (its values are in the
    migrations), so this test ties it to teaching.table.FOCUSES: a focus added to the
    referee without a label on the site, or the other way round, fails here."""
    assert tuple(Focus.values) == FOCUSES
    assert SKILL_ORDER == SKILLS and tuple(SKILL_LABELS) == SKILLS


def test_the_trick_history_is_drawn_in_the_pages_language_and_deck(client, learner):
    """A complete trick's markup is drawn once per process (issue 24, ``remembered``):
    shown again in another language or deck, the history speaks that language and
    draws that deck, and a remembered trick is what drawing it afresh gives."""
    from tutor.core.jinja import REMEMBERED

    round_ = TableRoundFactory(learner=learner, focus="weis", seed=3)
    t = table(round_)
    while len([tr for tr in t.tricks if tr.complete]) < 2:
        services.play_move(
            learner=learner, round_=round_, move=reference_move(t), expected_count=round_.move_count
        )
        t = table(round_)
    first = next(tr for tr in t.tricks if tr.complete)
    client.force_login(learner)

    def history(lang):
        html = client.get(url(round_), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        return re.search(r'<ol class="history">.*?</ol>\s*</details>', html, re.S).group(0)

    seen = {}
    for deck in ("swiss", "french"):
        learner.deck = deck
        learner.save(update_fields=["deck"])
        for lang, word in (("de", "Stich 1"), ("en", "Trick 1"), ("fr", "Pli 1")):
            shown = history(lang)
            assert word in shown, (deck, lang)
            for code in first.cards:
                assert f'aria-label="{display_name(code, lang, deck)}"' in shown, (deck, lang)
            seen[deck, lang] = shown
    assert len(set(seen.values())) == 6
    REMEMBERED.clear()
    assert history("en") == seen["french", "en"]  # drawn afresh: the same markup


def test_the_round_head_shows_each_rounds_own_facts(client, learner):
    """The round's head (contract, the score before, target, seat, rule set) is drawn
    once per process for its values (issue 24, ``remembered``): every round, and every
    language, shows its own."""
    client.force_login(learner)
    for focus in ("target_weis", "target_stoeck", "target_tricks", "weis"):
        for seed in (1, 2):
            round_ = TableRoundFactory(learner=learner, focus=focus, seed=seed)
            s = scenario(round_)
            for lang, before, player in (
                ("de", "Vor dieser Runde", "Spieler"),
                ("en", "Before this round", "Player"),
            ):
                html = client.get(url(round_), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
                head = re.search(r'<header class="round-head">.*?</header>', html, re.S).group(0)
                assert f"<dt>{before}</dt>" in head
                assert f": {s.before[0]} · " in head and f": {s.before[1]}</dd>" in head
                assert f"<dd>{s.target}</dd>" in head
                assert f"{player} {s.seat + 1}" in head
