"""Keyboard only (issue 15): Tab, Shift+Tab, Enter, Space and the arrow keys, never a
click. The skip link comes first, every stop shows a focus ring, and a learner can
pick cards in the Weis tool, answer a quiz question and switch language and deck."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.factories import LearnerFactory
from tutor.quizzes.services import create_quiz

pytestmark = pytest.mark.django_db(transaction=True)

# What the focused element is and how its focus shows. A visually hidden input (a
# card's checkbox or radio button) shows its ring on the label that draws the card.
FOCUS_JS = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const box = el.getBoundingClientRect();
    const ringed = box.width <= 2 && el.closest("label") ? el.closest("label") : el;
    const style = getComputedStyle(ringed);
    return {
        what: el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
            + (el.name ? "[name=" + el.name + "]" : "")
            + (el.value && el.tagName === "INPUT" ? "[value=" + el.value + "]" : "")
            + " " + (el.innerText || "").trim().slice(0, 30),
        focusVisible: el.matches(":focus-visible"),
        outline: style.outlineStyle,
        outlineWidth: parseFloat(style.outlineWidth),
        shadow: style.boxShadow,
        inMain: document.querySelector("main").contains(el),
    };
}"""


def focused(page: Page) -> dict | None:
    return page.evaluate(FOCUS_JS)


def active_matches(page: Page, selector: str) -> bool:
    return page.evaluate("s => !!document.activeElement?.matches(s)", selector)


def tab_to(page: Page, selector: str, limit: int = 150, key: str = "Tab") -> None:
    """Press Tab (or ``key``) until the focused element matches ``selector``."""
    for _ in range(limit):
        page.keyboard.press(key)
        if active_matches(page, selector):
            return
    raise AssertionError(f"{selector} never got the focus in {limit} presses of {key}")


def test_the_skip_link_is_the_first_stop_and_moves_focus_to_main(live_server, page: Page):
    page.goto(live_server.url + "/weis/")
    page.keyboard.press("Tab")
    assert active_matches(page, "a.skip-link")
    link = page.locator("a.skip-link")
    expect(link).to_have_text("Zum Inhalt springen")
    box = link.bounding_box()
    assert box is not None and box["y"] >= 0 and box["height"] > 0  # shown when focused
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.keyboard.press("Tab")  # the next stop is the first one inside main
    assert focused(page)["inMain"], focused(page)
    assert active_matches(page, "#id_contract"), focused(page)


@pytest.mark.parametrize("path", ["/", "/weis/", "/lessons/cards/", "/practice/", "quiz"])
def test_every_tab_stop_shows_a_focus_ring(live_server, page: Page, sign_in, path):
    if path in ("/practice/", "quiz"):  # a learner's pages; the others as a visitor
        learner = LearnerFactory(username="lea")
        sign_in(page.context, learner)
        if path == "quiz":
            quiz = create_quiz(learner=learner, kinds=["weis_value"], seeds=[3])
            path = f"/practice/{quiz.pk}/q/0/"
    page.goto(live_server.url + path)
    seen = []
    for _ in range(200):
        page.keyboard.press("Tab")
        now = focused(page)
        if now is None or (seen and now["what"] == seen[0]["what"]):
            break  # round the whole page once
        seen.append(now)
        assert now["focusVisible"], now
        ring = (now["outline"] != "none" and now["outlineWidth"] >= 2) or now["shadow"] != "none"
        assert ring, f"no visible focus ring on {path}: {now}"
    # Header, main and footer: the walk went through the whole page.
    assert len(seen) >= 10, seen
    assert any(stop["inMain"] for stop in seen)
    assert any("English" in stop["what"] for stop in seen), [s["what"] for s in seen]


def test_pick_cards_in_the_weis_tool_with_the_keyboard(live_server, page: Page):
    page.goto(live_server.url + "/weis/")
    player_1 = '.player-panel[data-seat="0"] input[type=checkbox]'
    tab_to(page, f'{player_1}[value="H6"]')
    page.keyboard.press("Space")
    for card in ("H7", "H8"):  # the next cards are the next stops
        page.keyboard.press("Tab")
        assert active_matches(page, f'{player_1}[value="{card}"]'), focused(page)
        page.keyboard.press("Space")
    verdict = page.locator(".verdict")
    expect(verdict).to_contain_text("Team 1 (Spieler 1 und 3) schreibt Weis: 20")
    expect(page.locator(f'{player_1}[value="H6"]')).to_be_checked()

    # Back to the player tabs, then the arrow key chooses player 2.
    tab_to(page, "input[name=edit]", key="Shift+Tab")
    page.keyboard.press("ArrowRight")
    expect(page.locator('input[name=edit][value="1"]')).to_be_checked()
    expect(page.locator('.player-panel[data-seat="1"]')).to_be_visible()
    player_2 = '.player-panel[data-seat="1"] input[type=checkbox]'
    tab_to(page, f'{player_2}[value="C9"]')
    page.keyboard.press("Space")
    for card in ("C10", "CJ", "CQ"):
        page.keyboard.press("Tab")
        assert active_matches(page, f'{player_2}[value="{card}"]'), focused(page)
        page.keyboard.press("Space")
    expect(verdict).to_contain_text("Team 2 (Spieler 2 und 4) schreibt Weis: 50")
    assert "seat1=CQ" in page.url  # and the position is in the address, as with a mouse


def test_answer_a_quiz_question_with_the_keyboard(live_server, page: Page, sign_in):
    learner = LearnerFactory(username="lea")
    quiz = create_quiz(learner=learner, kinds=["weis_value", "stoeck"], seeds=[3, 4])
    first = quiz.questions.get(position=0)
    right = first.question["answer"]
    sign_in(page.context, learner)
    page.goto(f"{live_server.url}/practice/{quiz.pk}/q/0/")

    tab_to(page, "input[name=choice]")
    page.keyboard.press("Space")
    keys = [c["key"] for c in first.question["choices"]]
    for _ in range(keys.index(right)):  # the arrow keys move through the answers
        page.keyboard.press("ArrowDown")
    expect(page.locator(f'input[name=choice][value="{right}"]')).to_be_checked()
    page.keyboard.press("Tab")
    assert active_matches(page, ".answer-form button[type=submit]"), focused(page)
    page.keyboard.press("Enter")
    expect(page.locator(".feedback")).to_contain_text("Richtig!")

    tab_to(page, ".feedback a.button")
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live_server.url}/practice/{quiz.pk}/q/1/")
    first.refresh_from_db()
    assert first.answered_choice == right and first.correct


def test_switch_language_and_deck_with_the_keyboard(live_server, page: Page):
    page.goto(live_server.url + "/weis/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    tab_to(page, "button[name=language][value=en]")
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1)).to_have_text("Weis tool")
    card = page.locator('.player-panel[data-seat="0"] .card[data-card="H6"]')
    expect(card).to_have_attribute("aria-label", "6 of roses")

    tab_to(page, "button[name=deck][value=french]")
    page.keyboard.press("Space")
    expect(page.locator("button[name=deck][value=french]")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(card).to_have_attribute("aria-label", "6 of hearts")
    expect(page.locator("html")).to_have_attribute("lang", "en")  # the language stayed
