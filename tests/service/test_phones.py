"""Every player's phone is a controller: a seat is joined by its code, driven from its page, and
keeps its secret; the whole game plays through the same loop as built controllers."""

from __future__ import annotations

import http.client
import threading
import urllib.parse
from typing import Any

import pytest

from controller.dials.state import DIRECTIONS
from controller.paths import PROJECT_ROOT
from controller.service.seats import TAKE_OVER_AFTER, SeatError, SeatRegistry, cookie_name

from .conftest import CONTROLLERS, wait_for

ARTIFACTS = PROJECT_ROOT / "artifacts"


@pytest.fixture
def phones(table_factory):
    return table_factory(web=True, backend="phone")


def seats(table) -> dict[str, str]:
    status, body = table.http("GET", "/api/seats")
    assert status == 200
    return {s["id"]: s["join"] for s in body["seats"]}


def join(table, path: str, cookie: str | None = None) -> tuple[int, str | None]:
    """Open a join link like a phone's browser; the status and the seat cookie it sets."""
    parts = urllib.parse.urlsplit(table.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    headers = {"Cookie": cookie} if cookie else {}
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    set_cookie = response.getheader("set-cookie")
    connection.close()
    return response.status, set_cookie.split(";")[0] if set_cookie else None


class Stream:
    """A seat page's event stream held open (the controller is plugged in while it is)."""

    def __init__(self, table, seat: str, cookie: str) -> None:
        parts = urllib.parse.urlsplit(table.url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
        self.connection.request("GET", f"/api/seat/{seat}/events", headers={"Cookie": cookie})
        self.response = self.connection.getresponse()
        self.lines: list[str] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for raw in self.response:
                self.lines.append(raw.decode())
        except (OSError, ValueError, AttributeError):
            pass  # the test closed the stream

    def close(self) -> None:
        self.connection.sock.close() if self.connection.sock else None
        self.connection.close()


def get(table, path: str, cookie: str | None) -> tuple[int, Any]:
    return table.http("GET", path, headers={"Cookie": cookie} if cookie else {})


def post(table, path: str, body: str, cookie: str | None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})}
    return table.http("POST", path, body, headers=headers)


def test_a_phone_joins_its_seat_by_its_code_and_reads_that_seat_only(phones):
    links = seats(phones)
    assert set(links) == set(CONTROLLERS) and all(links.values())
    status, cookie = join(phones, links["red"].rsplit("/", 1)[0] + "/0123456789abcdef")
    assert status == 403 and cookie is None
    status, red = join(phones, links["red"])
    assert status == 303 and red and red.startswith(cookie_name("red") + "=")
    status, body = get(phones, "/api/seat/red", red)
    assert status == 200 and body["seat"]["id"] == "red" and body["state"]["game"]["name"] == "pixoid"
    # Red's cookie does not open blue's seat, nor does a forged one.
    status, body = get(phones, "/api/seat/blue", red)
    assert status == 401 and "scan the seat's code" in body["error"]
    forged = f"{cookie_name('blue')}={red.split('=', 1)[1]}"
    assert get(phones, "/api/seat/blue", forged)[0] == 401
    assert post(phones, "/api/seat/blue/wheel", '{"wheel": "number", "position": 3}', red)[0] == 401
    assert get(phones, "/api/seat/red", None)[0] == 401


def test_the_page_drives_the_controller_through_the_real_reading_code(phones):
    links = seats(phones)
    _, red = join(phones, links["red"])
    stream = Stream(phones, "red", red)
    try:
        wait_for(lambda: phones.controller("red")["connected"], what="red plugged in by its page")
        assert post(phones, "/api/seat/red/wheel", '{"wheel": "number", "position": 7}', red)[0] == 200
        wait_for(lambda: phones.backend.state("red").number == 7, what="the number wheel settled on 7")
        status, body = post(phones, "/api/seat/red/wheel", '{"wheel": "number", "position": 12}', red)
        assert status == 400 and "0 to 9" in body["error"]
        assert post(phones, "/api/seat/red/button", '{"pressed": "yes"}', red)[0] == 400
    finally:
        stream.close()
    wait_for(lambda: not phones.controller("red")["connected"], what="red unplugged when its page went away")


def test_a_second_phone_takes_a_seat_only_once_the_first_has_gone_or_is_freed(phones):
    links = seats(phones)
    _, first = join(phones, links["blue"])
    stream = Stream(phones, "blue", first)
    wait_for(lambda: phones.controller("blue")["connected"], what="blue plugged in")
    status, second = join(phones, links["blue"])
    assert status == 409 and second is None
    assert join(phones, links["blue"], cookie=first)[0] == 303, "the holder reloading keeps its seat"
    assert seats(phones)["blue"] is None, "a held seat's code is not shown"
    stream.close()
    wait_for(lambda: not phones.controller("blue")["connected"], what="blue unplugged")
    assert join(phones, links["blue"])[0] == 409, "a phone gone a moment (a screen locking) keeps its seat"
    assert phones.http("POST", "/api/seats/blue/free", "{}", headers={"Content-Type": "application/json"})[0] == 401
    status, _ = phones.http("POST", "/api/seats/blue/free", "{}", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {phones.token}"})
    assert status == 200
    status, second = join(phones, links["blue"])
    assert status == 303 and second
    assert get(phones, "/api/seat/blue", first)[0] == 403, "the first phone lost the seat"
    assert get(phones, "/api/seat/blue", second)[0] == 200


def test_a_seat_left_long_enough_is_taken_over_and_hides_the_locked_program():
    """After TAKE_OVER_AFTER seconds without its phone a seat can be taken over; the new phone does
    not learn the wheels the first one set (a locked program stays secret until the reveal)."""
    clock = [0.0]
    registry = SeatRegistry("a" * 32, ["red"], clock=lambda: clock[0])
    cookie = registry.join("red", registry.join_code("red"))
    device = registry.device("red", cookie)
    assert registry.opened("red", device)
    registry.turned_by("red", device)
    assert registry.may_read_wheels("red", device)
    assert registry.closed("red", device)
    with pytest.raises(SeatError) as early:
        registry.join("red", registry.join_code("red"))
    assert early.value.status == 409
    clock[0] += TAKE_OVER_AFTER
    other = registry.join("red", registry.join_code("red"))
    with pytest.raises(SeatError):
        registry.device("red", cookie)
    assert not registry.may_read_wheels("red", registry.device("red", other))


def test_no_phone_joins_a_seat_a_bot_plays(table_factory):
    table = table_factory(web=True, backend="phone", bots=(2, 3))
    links = seats(table)
    assert links["green"] is None and links["yellow"] is None and links["red"]
    registry = SeatRegistry(table.token, CONTROLLERS)   # the same codes: derived from the same token
    status, cookie = join(table, registry.join_path("green"))
    assert status == 409 and cookie is None
    wait_for(lambda: table.controller("green")["connected"], what="the bot's own controller plugged in")
    assert get(table, "/api/seat/green", None)[0] == 401


@pytest.mark.browser
def test_four_phones_join_program_lock_and_see_the_reveal(phones, browser):
    links = seats(phones)
    contexts, pages = {}, {}
    errors: list[str] = []
    for cid in CONTROLLERS:
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.on("pageerror", lambda exc, cid=cid: errors.append(f"{cid} uncaught: {exc}"))
        page.on("console", lambda msg, cid=cid: errors.append(f"{cid}: {msg.text}") if msg.type == "error" else None)
        page.goto(phones.url + links[cid])
        contexts[cid], pages[cid] = context, page
    for cid, page in pages.items():
        assert page.url.endswith(f"/seat/{cid}")
        page.wait_for_function("window.__bitbox.seat && window.__bitbox.seat.connected", timeout=15000)
    wait_for(lambda: not phones.state["paused"], what="every controller plugged in by its phone", timeout=15)

    # Placement: the placing seat's number wheel picks free start Pix 0, ready places it.
    for _ in range(4):
        placement = phones.state.get("placement")
        if placement is None:
            break
        placed = phones.state["game"]["actions"]
        page = pages[CONTROLLERS[placement["piece"]]]
        page.click('#number button[data-position="0"]')
        page.wait_for_function("window.__bitbox.seat.wheels.number === 0", timeout=15000)
        page.click("#ready")
        wait_for(lambda: phones.state["game"]["actions"] > placed, what="the piece placed", timeout=15)
    wait_for(lambda: phones.state["phase"] == "programming", what="the programming phase", timeout=15)

    # Programming: each phone dials a legal program and locks it; red reloads its page once locked.
    programs = {}
    for piece, cid in enumerate(CONTROLLERS):
        direction, distance = phones.legal_program(piece)
        programs[cid] = f"{direction} {distance}"
        page = pages[cid]
        page.click(f'#direction button[data-position="{DIRECTIONS.index(direction)}"]')
        page.click(f'#number button[data-position="{distance}"]')
        page.wait_for_function(f"window.__bitbox.seat.wheels.direction === {DIRECTIONS.index(direction)} && "
                               f"window.__bitbox.seat.wheels.number === {distance}", timeout=15000)
        if cid == "yellow":
            break
        page.click("#ready")
        page.wait_for_function("window.__bitbox.seat.locked", timeout=15000)
        if cid == "red":
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "phone-seat-locked.png"))
            page.reload()
            page.wait_for_function("window.__bitbox.seat && window.__bitbox.seat.connected", timeout=15000)
            assert page.evaluate("window.__bitbox.seat.locked") is True
            assert page.locator("#ready").inner_text() == "Locked"
            assert page.locator(f'#direction button.chosen').get_attribute("data-position") == \
                str(DIRECTIONS.index(direction)), "the phone that set the wheels sees them again"
    # Nobody else's page, and no spectator, has been told a program before the reveal.
    for cid, page in pages.items():
        assert page.locator("#turn-result").inner_text() == ""
    status, body = contexts["red"].request.get(phones.url + "/api/seat/blue").status, None
    assert status == 401, "red's phone cannot read blue's seat"
    pages["yellow"].click("#ready")
    for cid, page in pages.items():
        page.wait_for_function("document.querySelector('#turn-result').dataset.turn === 'r1-t1'", timeout=15000)
        result = page.locator("#turn-result").inner_text()
        for program in programs.values():
            assert program in result, f"{cid}'s page does not show {program}"
    pages["blue"].screenshot(path=str(ARTIFACTS / "phone-seat-revealed.png"))
    for context in contexts.values():
        context.close()
    assert errors == []


def test_a_seat_a_bot_held_waits_for_a_phone_once_a_person_plays_it(table_factory):
    table = table_factory(web=True, backend="phone", bots=(2, 3))
    wait_for(lambda: table.controller("green")["connected"], what="the bot's own controller plugged in")
    future = table.session.command("start", {"replace": True, "players": [
        {"name": "P0"}, {"name": "P1"}, {"name": "P2"}, {"name": "P3", "bot": True}]})
    future.result(timeout=10)
    wait_for(lambda: not table.controller("green")["connected"], what="green unplugged until a phone joins it")
    assert seats(table)["green"], "its code is shown again"
    assert table.controller("yellow")["connected"], "the bot still holds yellow"
