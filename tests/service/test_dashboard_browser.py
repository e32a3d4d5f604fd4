"""The dashboard in real headless Chromium: the board is drawn and a resolved turn appears live."""

from __future__ import annotations

import pytest

from controller.paths import PROJECT_ROOT

from .conftest import CONTROLLERS

ARTIFACTS = PROJECT_ROOT / "artifacts"

pytestmark = pytest.mark.browser


def test_the_board_and_a_resolved_turn_appear(table_factory, browser):
    table = table_factory(web=True)
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(table.url + "/")
    page.wait_for_selector("#link.live", timeout=5000)
    # The board (drawn from the first state the stream sends): walls, Pix and the start Pix offered
    # to the first player.
    page.wait_for_function("document.querySelectorAll('#board circle.candidate').length >= 4", timeout=5000)
    assert page.locator("#board line.wall").count() > 20
    assert page.locator("#board circle.pix").count() == 144
    assert page.locator("#board circle.candidate").count() >= 4

    table.place_all()
    page.wait_for_function("document.querySelectorAll('#board g.piece').length === 4", timeout=5000)
    assert page.locator("#board g.piece.pixoid").count() == 1

    programs = []
    for piece, cid in enumerate(CONTROLLERS):
        direction, distance = table.legal_program(piece)
        programs.append(f"{direction} {distance}")
        table.set_wheels(cid, direction, distance)
        table.press(cid)
        if piece == 1:
            text = page.locator("#controllers").inner_text()
            assert "locked" in text and "Waiting for:" in page.locator("#waiting").inner_text()
    page.wait_for_function("document.querySelector('#turn-result').dataset.turn === 'r1-t1'", timeout=5000)
    result = page.locator("#turn-result").inner_text()
    assert "Turn 1 of round 1" in result
    for program in programs:
        assert program in result
    page.wait_for_function(
        "[...document.querySelectorAll('#log li')].some(li => li.textContent.includes('moves'))", timeout=5000)
    page.wait_for_timeout(1500)  # let the move animation finish for the picture
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard-resolved-turn.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(ARTIFACTS / "dashboard-phone.png"))
    assert page.locator("#board").bounding_box()["width"] <= 390
    page.goto(table.url + "/#/table")
    assert page.locator("#page-table").is_visible() and not page.locator("#page-console").is_visible()
    assert errors == []
