import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.django_db(transaction=True)


def pick(page: Page, seat: int, code: str) -> None:
    page.locator(f'.player-panel[data-seat="{seat}"] .pick:has(input[value="{code}"])').click()


def test_pick_cards_and_read_the_decision(live_server, page: Page):
    page.goto(live_server.url + "/weis/")
    page.get_by_label("Spielart").select_option("S")
    for code in ("H6", "H7", "H8"):
        pick(page, 0, code)
    expect(page.locator(".verdict")).to_contain_text("Team 1 (Spieler 1 und 3) schreibt Weis: 20")

    page.locator('.player-tab:has(input[value="1"])').click()
    for code in ("C9", "C10", "CJ", "CQ"):
        pick(page, 1, code)
    expect(page.locator(".verdict")).to_contain_text("Team 2 (Spieler 2 und 4) schreibt Weis: 50")
    expect(page.locator(".ladder-step--decides")).to_contain_text("Stufe 1")
    # The URL holds the whole position, so it can be shared at the table.
    assert "seat1=C9" in page.url


def test_weis_tool_works_without_javascript(live_server, browser):
    context = browser.new_context(java_script_enabled=False, locale="en")
    page = context.new_page()
    page.goto(live_server.url + "/weis/")
    page.get_by_label("Cards of Player 1").fill("Rosen 6, Rosen 7, Rosen 8, Rosen 9")
    page.get_by_role("button", name="Show the Weis").click()
    expect(page.locator(".verdict")).to_contain_text("writes Weis: 50 points")
    context.close()
