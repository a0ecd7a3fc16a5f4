import pytest
from playwright.sync_api import Page, expect

from tutor.accounts.models import User

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_up_log_in_and_switch_language(live_server, page: Page):
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "de")

    page.get_by_role("link", name="Registrieren").first.click()
    page.get_by_label("Benutzername").fill("lina")
    page.get_by_label("Passwort", exact=True).fill("Rosen-Ober-2026")
    page.get_by_label("Passwort bestätigen").fill("Rosen-Ober-2026")
    page.get_by_role("button", name="Konto erstellen").click()
    expect(page.locator(".who")).to_contain_text("lina")
    assert User.objects.get(username="lina").role == "learner"

    page.get_by_role("button", name="Abmelden").click()
    expect(page.get_by_role("link", name="Anmelden")).to_be_visible()
    page.get_by_role("link", name="Anmelden").click()
    page.get_by_label("Benutzername").fill("lina")
    page.get_by_label("Passwort").fill("Rosen-Ober-2026")
    page.get_by_role("button", name="Anmelden").click()
    expect(page.locator(".who")).to_contain_text("lina")

    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Learn the scoring rules of the Schieber"
    )
