"""The dashboard in real headless Chromium: the shell loads the game's view, the board is drawn and a
resolved turn appears live, with no error in the page's console."""

from __future__ import annotations

import time

import pytest

from controller.paths import PROJECT_ROOT

from .conftest import CONTROLLERS

ARTIFACTS = PROJECT_ROOT / "artifacts"

pytestmark = pytest.mark.browser


def watch_errors(page) -> list[str]:
    """Every uncaught exception and console error the page has from now on."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    return errors


#: No inline script, style or event handler: what the page must work under (and a view with it).
STRICT_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
              "connect-src 'self'; object-src 'none'; base-uri 'none'")


def serve_with_strict_csp(route) -> None:
    response = route.fetch()
    route.fulfill(response=response, headers={**response.headers, "content-security-policy": STRICT_CSP})


def test_the_board_and_a_resolved_turn_appear(table_factory, browser):
    table = table_factory(web=True)
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors = watch_errors(page)
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
    # A game on the wheels: the console's panels and buttons, none of the camera's.
    assert page.locator("#page-console").is_visible() and not page.locator("#page-table").is_visible()
    page.locator("#referee summary").click()
    assert page.locator("#referee button[data-command=undo]").is_visible()
    assert errors == []


def test_the_shell_loads_the_view_of_the_game_in_the_state(table_factory, browser):
    table = table_factory(web=True)
    ui = table.state["ui"]
    assert ui["game"] == "pixoid" and ui["mode"] == "wheels"
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors = watch_errors(page)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.route(table.url + "/", serve_with_strict_csp)
    page.goto(table.url + "/")
    page.wait_for_selector("#board circle.pix", timeout=5000)
    paths = [url.removeprefix(table.url) for url in requested]
    assert sorted(p for p in paths if p.startswith("/games/")) == sorted([ui["script"], ui["style"]])
    assert page.locator("link[data-view]").get_attribute("href") == ui["style"]
    assert page.locator("#game-title").inner_text() == ui["title"] and ui["title"] in page.title()
    assert page.evaluate("window.__bitbox.messages") >= 1
    assert errors == []


def test_a_camera_game_is_refereed_from_the_page(tmp_path, browser):
    """The table's questions answered and a call overruled by clicking, as a player with the token would."""
    from .puxes_live import CONFIRM_EVERY_FACE, TOKEN, LivePuxes

    live = LivePuxes(tmp_path, seed=3, max_turns=1, players_answer=False, referee=CONFIRM_EVERY_FACE)
    try:
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        errors = watch_errors(page)
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url.removeprefix(live.url)))
        page.goto(f"{live.url}/?token={TOKEN}")
        page.wait_for_selector("#mat polygon[data-zone]", timeout=5000)
        assert "/games/puxes/view.js" in requested
        assert page.locator("#page-table").is_visible() and not page.locator("#page-console").is_visible()
        assert page.locator("#referee button[data-command]").count() == 3  # the console's, not shown
        assert not page.locator("#referee .buttons").is_visible()

        answered: set[int] = set()
        guessed = ringed = 0
        deadline = time.monotonic() + 60
        while not live.finished.is_set() and time.monotonic() < deadline:
            open_ = {q.question_id: q for q in live.session.referee.questions.values()} if live.session.referee else {}
            shown = [int(x) for x in page.locator("#questions li[data-question]").evaluate_all(
                "items => items.map(li => li.dataset.question)")]
            todo = [qid for qid in shown if qid in open_ and qid not in answered]
            if not todo:
                page.wait_for_timeout(20)
                continue
            question = open_[todo[0]]
            choice = live.demo.suggested_answer(question)
            buttons = page.locator(f"#questions li[data-question='{todo[0]}'] button[data-choice]")
            if question.data.get("guess"):      # the camera's guess: the first button, outlined
                assert buttons.first.get_attribute("data-choice") == question.data["guess"]
                assert "guess" in (buttons.first.get_attribute("class") or "")
                guessed += 1
            if "x" in question.data and "y" in question.data:     # a die's place: the die ringed
                assert page.locator(f"#mat circle[data-asked='{todo[0]}']").count() == 1
                ringed += 1
            page.locator(f"#questions li[data-question='{todo[0]}'] button[data-choice='{choice}']").click()
            answered.add(todo[0])
        assert live.finished.is_set() and live.error is None, live.error
        assert answered, "the demo turn asked no question"
        assert guessed, "no question offered the camera's guess"
        assert ringed, "no question ringed its die on the mat"
        answers = live.store.notes(live.session.game_id, "answer")
        assert {a["question_id"] for a in answers} == answered

        call = page.locator("#calls li[data-call]:has(button[data-overrule])").first
        call_id = call.get_attribute("data-call")
        decision = call.locator("select").input_value()
        call.locator("button[data-overrule]").click()
        page.wait_for_selector(f"#calls li[data-call='{call_id}'] .overruled", timeout=5000)
        assert page.locator("#log li.kind-overrule").count() >= 1
        [overrule] = live.store.notes(live.session.game_id, "overrule")
        assert overrule["overruled"] == {"call_id": int(call_id), "decision": decision}
        assert page.locator("#table-players li").count() == 2
        assert errors == []

        # Without the token (the link's cookie gone, the box empty) the refusal is shown, and the token
        # box opened.
        page.context.clear_cookies()
        page.locator("#table-token").evaluate("input => { input.value = ''; }")
        page.locator("#calls li[data-call]:has(button[data-overrule]) button[data-overrule]").first.click()
        page.wait_for_selector("#alert:not([hidden])", timeout=5000)
        assert "token" in page.locator("#alert").inner_text()
        assert page.locator("#table-token").is_visible()
    finally:
        live.close()
