"""The PuXes table live in the service: rendered frames through the camera pipeline and the referee,
calls stored before they are shown, questions answered and calls overruled over HTTP with the token,
malformed requests refused with a reason, and the Table page in real headless Chromium."""

from __future__ import annotations

import time

import pytest

from controller import i18n
from controller.engines.puxes import PuxesGame
from controller.paths import PROJECT_ROOT
from controller.service.store import GameStore
from controller.vision.stillness import StillnessDetector

from .puxes_live import CONFIRM_EVERY_FACE, TOKEN, LivePuxes

ARTIFACTS = PROJECT_ROOT / "artifacts"


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    table = LivePuxes(tmp_path_factory.mktemp("puxes"), seed=3, max_turns=1, referee=CONFIRM_EVERY_FACE)
    try:
        yield table
    finally:
        table.close()


@pytest.fixture(scope="module")
def played(live):
    """The first turn played, every question answered over HTTP; records what the API said."""
    said: dict[str, tuple[int, dict]] = {}
    answered = []
    deadline = time.monotonic() + 60
    done: set[int] = set()
    while not live.finished.is_set() and time.monotonic() < deadline:
        # The page's state may still list a question answered a moment ago, until the loop publishes.
        questions = [x for x in live.state().get("questions", []) if x["question_id"] not in done]
        if not questions:
            time.sleep(0.02)
            continue
        q = questions[0]
        if not said:
            said["no token"] = live.post("/api/table/answer", {"question_id": q["question_id"], "choice": q["choices"][0]},
                                         token=None)
            said["wrong token"] = live.post("/api/table/answer", {"question_id": q["question_id"],
                                                                  "choice": q["choices"][0]}, token="nope-nope-nope")
            said["not json"] = live.post("/api/table/answer", None, raw=b"{question_id: 1")
            said["missing field"] = live.post("/api/table/answer", {"question_id": q["question_id"]})
            said["wrong type"] = live.post("/api/table/answer", {"question_id": str(q["question_id"]), "choice": "x"})
            said["unknown field"] = live.post("/api/table/answer", {"question_id": q["question_id"], "choice": "x",
                                                                    "extra": 1})
            said["not a choice"] = live.post("/api/table/answer", {"question_id": q["question_id"],
                                                                   "choice": "no such face"})
            said["unknown question"] = live.post("/api/table/answer", {"question_id": 9999, "choice": "yes"})
            said["still open"] = (0, {"open": q["question_id"] in
                                      [x["question_id"] for x in live.state()["questions"]]})
        question = next(x for x in live.session.referee.questions.values() if x.question_id == q["question_id"])
        choice = live.demo.suggested_answer(question)
        status, body = live.post("/api/table/answer", {"question_id": q["question_id"], "choice": choice})
        assert status == 200, body
        done.add(q["question_id"])
        answered.append((q, choice, body))
    assert live.finished.is_set(), "the demo turn did not finish in time"
    assert live.error is None, live.error
    return said, answered


def test_the_live_loop_referees_rendered_frames(live, played):
    session = live.session
    _, answered = played
    assert session.snapshots >= 10 and session.frames > session.snapshots * StillnessDetector().hold_frames
    assert live.demo.first_difference is None, live.demo.first_difference
    game = session.game
    assert game.turn_number >= 2                      # setup, the starting roll and a whole first turn
    # every action the referee's engine holds is in the event log, in order
    stored = live.store.actions(session.game_id)
    assert [(p, a) for p, a in stored] == [(p, game.encode_action(a)) for p, a in game.history]
    kinds = [n["kind"] for n in live.store.notes(session.game_id)]
    assert kinds.count("call") >= 10 and kinds.count("question") == len(answered) == kinds.count("answer")


def test_calls_are_stored_before_they_are_shown(live, played):
    assert live.messages, "nothing was published"
    shown = {c["call_id"] for m in live.messages for c in m["state"].get("calls", [])}
    assert len(shown) >= 10
    assert live.shown_before_stored == []


def test_questions_are_answered_over_http_with_the_token(live, played):
    said, answered = played
    assert answered, "the referee asked nothing on this seed"
    assert said["no token"][0] == 401 and "token" in said["no token"][1]["error"]
    assert said["wrong token"][0] == 403
    assert said["not json"][0] == 400 and "JSON" in said["not json"][1]["error"]
    assert said["missing field"][0] == 400 and "choice" in said["missing field"][1]["error"]
    assert said["wrong type"][0] == 400 and "whole number" in said["wrong type"][1]["error"]
    assert said["unknown field"][0] == 400 and "extra" in said["unknown field"][1]["error"]
    assert said["not a choice"][0] == 400 and "not a choice" in said["not a choice"][1]["error"]
    assert said["unknown question"][0] == 404 and "9999" in said["unknown question"][1]["error"]
    assert said["still open"][1]["open"], "a refused answer closed the question"
    answers = live.store.notes(live.session.game_id, "answer")
    assert [(a["question_id"], a["choice"]) for a in answers] == [(q["question_id"], c) for q, c, _ in answered]
    # the answer completed a call, stored and shown
    assert any(body["calls"] for _, _, body in answered)


@pytest.fixture(scope="module")
def overruled(live, played):
    """A shot of the first turn overruled over HTTP (after four malformed or unauthorised tries);
    what each request answered and the stored actions before it. Every test that needs an
    overruled call asks for this fixture, so that none relies on another test having run first."""
    state = live.state()
    shot = next(c for c in reversed(state["calls"]) if c["decision"] in ("moved", "shot") and c["alternatives"])
    decision = shot["alternatives"][0]
    refused = {
        "no such decision": live.post("/api/table/overrule", {"call_id": shot["call_id"], "decision": "no-such-decision"}),
        "unknown call": live.post("/api/table/overrule", {"call_id": 4242, "decision": decision}),
        "no decision": live.post("/api/table/overrule", {"call_id": shot["call_id"]}),
        "no token": live.post("/api/table/overrule", {"call_id": shot["call_id"], "decision": decision}, token=None),
    }
    before = live.store.actions(live.session.game_id)
    status, body = live.post("/api/table/overrule", {"call_id": shot["call_id"], "decision": decision})
    assert status == 200, body
    # The page's state is what the loop last published: it shows the overrule once the loop has run.
    deadline = time.monotonic() + 10
    while body["call_id"] not in {c["call_id"] for c in live.state()["calls"]}:
        assert time.monotonic() < deadline, "the overrule was never published"
        time.sleep(0.02)
    return shot, decision, refused, before, body


def test_an_overrule_is_logged_and_reflected(live, overruled):
    shot, decision, refused, before, body = overruled
    assert refused["no such decision"][0] == 400 and refused["unknown call"][0] == 404
    assert refused["no decision"][0] == 400 and refused["no token"][0] == 401
    overrules = live.store.notes(live.session.game_id, "overrule")
    assert len(overrules) == 1
    assert overrules[0]["overruled"] == {"call_id": shot["call_id"], "decision": decision}
    after = live.store.actions(live.session.game_id)
    assert after != before
    game = live.session.game
    assert after == [(p, game.encode_action(a)) for p, a in game.history]
    state = live.state()
    calls = {c["call_id"]: c for c in state["calls"]}
    assert calls[shot["call_id"]]["overruled_by"] == body["call_id"]
    assert f"Call {shot['call_id']} is overruled." in calls[body["call_id"]]["reason"]
    assert any(e["kind"] == "overrule" for e in state["log"])


def test_table_commands_on_a_console_game_are_404(live, played):
    status, body = live.post("/api/game/undo", {"count": 1})
    assert status == 404 and "console game" in body["error"]
    status, body = live.post("/api/table/action", {"player": 7, "action": {}})
    assert status == 400 and "player 7" in body["error"]
    status, body = live.post("/api/table/action", {"player": 0, "action": {"type": "teleport"}})
    assert status == 400 and "teleport" in body["error"]
    history = len(live.session.game.history)
    status, body = live.post("/api/table/action", {"player": 1, "action": {"type": "end"}})
    assert status == 400 and "rules refuse" in body["error"]
    assert len(live.session.game.history) == history == len(live.store.actions(live.session.game_id))


def test_the_table_page_in_chromium(live, overruled, browser):
    page = browser.new_page(viewport={"width": 412, "height": 915}, device_scale_factor=2)  # a phone
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live.url}/?token={TOKEN}#/table")
    page.wait_for_selector("#link.live", timeout=5000)
    page.wait_for_selector("#mat g[data-die]", timeout=5000)
    assert page.locator("#page-table").is_visible()
    assert page.locator("#mat rect[data-kind=mat]").count() == 1
    assert page.locator("#mat polygon[data-zone]").count() == len(live.demo.layout.zones)
    game = live.session.game
    in_play = [d for d in game.dice.values() if d.role == "oracle" and d.status == "play"]
    assert page.locator("#mat g[data-die]").count() >= len(in_play)
    assert page.locator("#mat g[data-temple]").count() == len(game.temples)
    owners = {page.locator(f"#mat g[data-die='{d.id}'] rect").get_attribute("fill") for d in in_play}
    assert len(owners) == 2                  # one colour per player
    reasons = page.locator("#calls").inner_text()
    assert "Rule: «" in reasons and "is overruled." in reasons
    # the link's token became the page's cookie, and the address shows it no more
    assert any(c["name"] == "bitbox_referee" for c in page.context.cookies())
    assert "token" not in page.url
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "puxes-table-phone.png"), full_page=True)
    assert errors == []


def test_the_table_state_carries_every_text_as_a_message(live, overruled):
    """The prompt, the calls, each die and the choices reach the page as messages too, so that each
    phone says them in its own language; the English is the same as the service's texts."""
    state = live.state()
    assert i18n.said(state["prompt_message"], "en") == state["prompt"]
    assert state["calls"] and all(i18n.said(c["message"], "en") == c["reason"] for c in state["calls"])
    assert all(i18n.said(a, "fr") for c in state["calls"] for a in c.get("alternative_messages", []))
    oracles = [d for d in state["dice"] if d["role"] == "oracle"]
    assert oracles and all(i18n.said(d["label"], "en").startswith("The ") and
                           i18n.said(d["label"], "fr").startswith(("L'oracle", "Un oracle")) for d in oracles)
    for choice in state["choice_messages"]:
        assert i18n.said(choice["message"], "en").startswith(("Ada (red): ", "Brice (blue): "))
    said = [i18n.said(c["message"], "fr") for c in state["calls"]]
    assert any("Règle : « " in text for text in said) and not any("Rule:" in text for text in said)


def test_the_table_page_speaks_the_phones_language(live, overruled, browser):
    """A phone that chose French reads the PuXes view, the calls and the players in French."""
    page = browser.new_page(viewport={"width": 412, "height": 915})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.add_init_script("localStorage.setItem('bitbox-lang', 'fr')")
    page.goto(f"{live.url}/?token={TOKEN}#/table")
    page.wait_for_selector("#mat g[data-die]", timeout=5000)
    page.wait_for_function("document.documentElement.lang === 'fr'", timeout=5000)
    page.wait_for_function("document.getElementById('table-legend').textContent.startsWith('Pleins')", timeout=5000)
    players = page.locator("#table-players").inner_text()
    assert "Ada (rouge)" in players and "Brice (bleu)" in players and "en jeu" in players
    assert page.locator("#mat").get_attribute("aria-label") == "Tapis de PuXes"
    titles = page.locator("#mat g[data-die] title").all_text_contents()
    assert titles and all(t.startswith(("L'oracle", "Un oracle", "Le héros")) for t in titles)
    page.wait_for_function("document.getElementById('calls').innerText.includes('Règle : «')", timeout=5000)
    assert "Rule:" not in page.locator("#calls").inner_text()
    assert errors == []


def test_a_killed_table_resumes_from_the_log(tmp_path):
    """A table service killed mid-game (SIGKILL) resumes from the stored actions."""
    import signal
    import subprocess
    import sys

    db = tmp_path / "crash.db"
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from controller.service.config import ServiceConfig\n"
        "from controller.games.puxes.demo import DemoTable\n"
        "from controller.service.table_runner import TableRun, run_table_service\n"
        "demo = DemoTable(seed=3)\n"
        f"config = ServiceConfig(game='puxes', seed=3, db=Path({str(db)!r}), web=False)\n"
        "run_table_service(config, demo.setup(), demo.layout, demo.watcher, demo, TableRun(start='new'))\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            cwd=PROJECT_ROOT)
    try:
        deadline = time.monotonic() + 40
        seen = 0
        for line in proc.stdout:
            seen += line.startswith(b"- ")
            if seen >= 14 or time.monotonic() > deadline:
                break
        assert seen >= 14, "the table service announced too little before the deadline"
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    with GameStore(db) as store:
        stored = store.unfinished()
        assert stored is not None and stored.game == "puxes" and stored.actions > 8
        actions = store.actions(stored.id)
        notes = store.notes(stored.id)
        # no call is half stored: every stored call's actions are there
        assert all(n["actions"] <= len(actions) for n in notes)
        from controller.service.config import PlayerConfig
        from controller.service.table import TableSession, TableSetup
        from controller.vision.mat import load_layout

        session = TableSession(TableSetup([PlayerConfig("Ada"), PlayerConfig("Brice")], {"players": 2}, 3, game="puxes"),
                               store, load_layout("puxes"), watcher=None)
        session.resume(stored)
        replay = PuxesGame({"players": 2}, seed=3)
        for player, action in actions:
            replay.apply(player, replay.decode_action(action))
        assert session.game.state_dict() == replay.state_dict()
        assert len(session.game.history) == len(actions)
        assert any(e["kind"] == "earlier" for e in session.log)
        # the names are not in the stored game: the resumed one takes them from the stored setup
        assert session.game.seat_names == tuple(p["name"] for p in stored.setup["players"]) == ("Ada", "Brice")
        replay.name_seats(session.game.seat_names)
        assert session.public_state()["prompt"] == replay.waiting_for()
