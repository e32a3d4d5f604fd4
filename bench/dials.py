"""USB controller link: latency over a pseudo-terminal, decoder throughput, decoder fuzzing.

1. Latency: a simulated board (the real firmware logic, firmware/fakes/pty_board.py) behind a
   pseudo-terminal and the real SerialBackend in front of it. The number wheel is turned again
   and again; for each turn three moments are taken: the wheel turned (the ADC reading
   changes), the board sends the settled position (its debounce, ``wheel_settle_ms`` from
   hardware/ladders.toml, is over), the host's WHEEL event is taken off the backend's queue.
   "serial latency" is the last two apart: framing, the pseudo-terminal, the host's reader
   thread and the event queue. The whole turn-to-event time is printed too.
2. Decoder throughput: STATE frames per second through FrameDecoder and protocol.decode.
3. ``--fuzz N``: N random inputs (random bytes, and valid streams with bit flips, dropped,
   inserted and zeroed bytes) through the host's decoder. Counts exceptions other than the
   protocol's own and messages accepted that were never sent; both must be 0.
4. ``--boards N``: N simulated boards (the real firmware logic behind N pseudo-terminals, each in
   a process of its own as real boards are machines of their own) into one host's
   SerialBackend. Every round turns one wheel of every board at the same moment; the serial
   latency is, for each board, its settled position leaving the board to the host's WHEEL event
   taken off the queue. The same rounds with one board are the reference timed in the same run.
   Then N players lock together: a real console loop (:class:`controller.service.session.Session`,
   its SQLite event log, its hub) plays a game of N secret choices on those boards; each round
   every board's wheel is set, then all N ready buttons are pressed at once, and "lock to reveal"
   is the last press leaving its board to the revealed choices published to the dashboard's
   listeners (every lock stored first). No registered game seats six, so the game is the
   smallest one with that shape, defined here.

    python bench/dials.py [--turns 200] [--frames 100000] [--fuzz 100000]
    python bench/dials.py --boards 6 [--rounds 200]

The last line is ``serial_latency_p99_ms: X``; with ``--boards N``,
``serial_latency_p99_ms_N_boards: X`` (the line before it ``lock_to_reveal_p99_ms_N_players: Y``).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.dials.serial_backend import SerialBackend  # noqa: E402
from controller.dials.state import WHEEL_POSITIONS, ControllerState, EventKind  # noqa: E402
from controller.engines import Event, Game, GameOptions, OptionsError  # noqa: E402
from controller.games.wheels import TURNING, Press, Refused, Table, WheelPlay  # noqa: E402
from firmware.board import framing, protocol  # noqa: E402
from firmware.board.framing import FrameDecoder, FrameError  # noqa: E402
from firmware.fakes.pty_board import PtyBoard  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q / 100.0
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def latency(turns: int, seed: int) -> tuple[list[float], list[float], int]:
    """(serial latencies ms, turn-to-event ms, wrong events) over ``turns`` turns of the number wheel."""
    rng = random.Random(seed)
    sent_at: dict[int, float] = {}
    decoder = FrameDecoder()

    def on_write(data: bytes) -> None:
        now = time.perf_counter()
        for item in decoder.feed(data):
            if isinstance(item, bytes):
                msg = protocol.decode(item)
                if msg.kind == protocol.STATE and msg.flags & protocol.FLAG_CHANGE and msg.number < 10:
                    sent_at.setdefault(msg.number, now)

    serial_ms: list[float] = []
    total_ms: list[float] = []
    wrong = 0
    with tempfile.TemporaryDirectory() as tmp, PtyBoard(storage_dir=tmp, seed=seed) as board:
        board.on_write = on_write
        with SerialBackend([board.port], rescan_interval=0.05) as backend:
            cid = board.world.uid.hex()
            deadline = time.monotonic() + 5
            while backend.states().get(cid) is None or backend.state(cid).number != 0:
                backend.get_event(0.05)
                if time.monotonic() > deadline:
                    raise SystemExit("the simulated board never connected")
            current = 0
            for _ in range(turns):
                target = rng.choice([n for n in range(10) if n != current])
                while backend.get_event(0) is not None:
                    pass
                sent_at.pop(target, None)
                turned = time.perf_counter()
                board.turn("number", target)
                arrived = None
                limit = time.monotonic() + 2.0
                while arrived is None and time.monotonic() < limit:
                    event = backend.get_event(0.5)
                    if event is None or event.kind != EventKind.WHEEL:
                        continue
                    if event.state.number == target:
                        arrived = time.perf_counter()
                    elif event.state.number is not None:
                        wrong += 1
                if arrived is None or target not in sent_at:
                    wrong += 1
                    continue
                serial_ms.append((arrived - sent_at[target]) * 1000)
                total_ms.append((arrived - turned) * 1000)
                current = target
                time.sleep(rng.uniform(0.0, 0.01))
    return serial_ms, total_ms, wrong


def throughput(frames: int) -> tuple[float, float]:
    """(frames per second decoded, megabytes per second) for a stream of STATE frames."""
    rng = random.Random(1)
    stream = bytearray()
    for seq in range(frames):
        stream += framing.encode_frame(protocol.encode(
            protocol.STATE, seq & 0xFFFF, direction=rng.randrange(8), number=rng.randrange(10),
            symbol=rng.randrange(4), button=rng.randrange(2), led=rng.randrange(3), flags=1, rx_errors=0))
    data = bytes(stream)
    decoder = FrameDecoder()
    start = time.perf_counter()
    count = 0
    for i in range(0, len(data), 4096):
        for item in decoder.feed(data[i:i + 4096]):
            protocol.decode(item)
            count += 1
    elapsed = time.perf_counter() - start
    assert count == frames
    return frames / elapsed, len(data) / elapsed / 1e6


FUZZ_MESSAGES = [
    (protocol.STATE, dict(direction=3, number=7, symbol=1, button=1, led=2, flags=1, rx_errors=4)),
    (protocol.HELLO, dict(reply_to=1, profile=0, uid=b"\xe6\x61\x41\x04\x03\x12\x34\x56", version="1.0.0")),
    (protocol.PONG, dict(reply_to=2, token=0x01020304)),
    (protocol.RAW, dict(reply_to=3, direction=1000, number=30000, symbol=65535, button=0)),
    (protocol.ACK, dict(reply_to=4, command=protocol.SET_LED, status=0, text="")),
    (protocol.STORE_PROFILE, dict(checksum=0xDEADBEEF, profile=b'{"format":1,"ladders":{}}')),
]


def fuzz(count: int, seed: int) -> tuple[int, int, int, int]:
    """(inputs, foreign exceptions, wrong messages accepted, good messages accepted)."""
    rng = random.Random(seed)
    foreign = wrong = good = 0
    for i in range(count):
        sent: list[protocol.Message] = []
        if i % 2 == 0:
            data = bytearray(rng.getrandbits(8) for _ in range(rng.randrange(1, 300)))
        else:
            stream = bytearray()
            for seq in range(rng.randrange(1, 6)):
                kind, fields = FUZZ_MESSAGES[rng.randrange(len(FUZZ_MESSAGES))]
                payload = protocol.encode(kind, seq, **fields)
                sent.append(protocol.decode(payload))
                stream += framing.encode_frame(payload)
            data = stream
            for _ in range(rng.randrange(1, 5)):
                op = rng.randrange(4)
                pos = rng.randrange(len(data))
                if op == 0:
                    data[pos] ^= 1 << rng.randrange(8)
                elif op == 1 and len(data) > 1:
                    del data[pos]
                elif op == 2:
                    data.insert(pos, rng.getrandbits(8))
                else:
                    data[pos] = 0
        decoder = FrameDecoder(lenient_start=bool(rng.getrandbits(1)))
        try:
            cut = rng.randrange(len(data) + 1)
            items = decoder.feed(bytes(data[:cut])) + decoder.feed(bytes(data[cut:]))
            for item in items:
                if isinstance(item, FrameError):
                    continue
                try:
                    msg = protocol.decode(item)
                except protocol.ProtocolError:
                    continue
                if msg in sent:
                    good += 1
                else:
                    wrong += 1
        except FrameError:
            foreign += 1  # the decoder must report, not raise, even its own errors
        except Exception:  # noqa: BLE001 - counting exactly these is the point
            foreign += 1
    return count, foreign, wrong, good


# ---- several boards into one host -------------------------------------------------------------

#: The wheels a round turns, one per board, in the order the board reports them.
WHEELS = tuple(WHEEL_POSITIONS)


def board_uid(index: int) -> bytes:
    """The unique id of simulated board ``index`` (the controller id is its hex)."""
    return bytes([0xE6, 0x61, 0x41, 0x04, 0x03, 0x12, 0x34, index])


class SentTimes:
    """When each change of one board's state left the board (``time.perf_counter``, which is the
    same clock in every process on Linux): the first frame showing it since it was last cleared."""

    FIELDS = (*WHEELS, "button")

    def __init__(self) -> None:
        self.decoder = FrameDecoder()
        self.last: dict[str, int] = {}
        self.times: dict[tuple[str, int], float] = {}
        self.lock = threading.Lock()

    def __call__(self, data: bytes) -> None:
        now = time.perf_counter()
        for item in self.decoder.feed(data):
            if not isinstance(item, bytes):
                continue
            msg = protocol.decode(item)
            if msg.kind != protocol.STATE:
                continue
            with self.lock:
                for name in self.FIELDS:
                    value = getattr(msg, name)
                    if self.last.get(name) != value:
                        self.last[name] = value
                        self.times.setdefault((name, value), now)

    def clear(self, name: str, value: int) -> None:
        with self.lock:
            self.times.pop((name, value), None)


def serve_board(index: int, seed: int) -> None:
    """A board's process: simulated board ``index``, driven by JSON lines on stdin (``turn``,
    ``press``, ``sent``, ``quit``), answering one JSON line each on stdout (the first line: its port)."""
    from firmware.fakes.pty_board import PtyBoard

    with tempfile.TemporaryDirectory(prefix="bitbox-board-") as folder, \
            PtyBoard(uid=board_uid(index), storage_dir=folder, seed=seed + index) as board:
        sent = SentTimes()
        board.on_write = sent
        print(json.dumps(board.port), flush=True)
        for line in sys.stdin:
            command, *args = json.loads(line)
            if command == "turn":
                for wheel, position in args[0]:
                    sent.clear(wheel, position)
                    board.turn(wheel, position)
                reply: Any = time.perf_counter()
            elif command == "press":
                down = args[0]
                sent.clear("button", 1 if down else 0)
                board.press(down)
                reply = time.perf_counter()
            elif command == "sent":
                with sent.lock:
                    reply = [[name, value, at] for (name, value), at in sent.times.items()]
            elif command == "quit":
                break
            else:
                reply = f"unknown command {command!r}"
            print(json.dumps(reply), flush=True)


class BoardProcess:
    """``count`` simulated boards, each in a process of its own (see :func:`serve_board`), as real
    boards are machines of their own: their simulation shares neither the host's interpreter nor
    each other's."""

    def __init__(self, count: int, seed: int) -> None:
        self.count = count
        self.processes = [
            subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--serve-board", str(i), "--seed", str(seed)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            for i in range(count)]
        self.ports: list[str] = []
        for process in self.processes:
            first = process.stdout.readline() if process.stdout else ""
            if not first:
                self.close()
                raise SystemExit("a simulated board did not start")
            self.ports.append(json.loads(first))
        self.ids = [board_uid(i).hex() for i in range(count)]

    def _send(self, index: int, *command: Any) -> None:
        stdin = self.processes[index].stdin
        assert stdin is not None
        stdin.write(json.dumps(command) + "\n")
        stdin.flush()

    def _reply(self, index: int) -> Any:
        stdout = self.processes[index].stdout
        assert stdout is not None
        return json.loads(stdout.readline())

    def turn(self, moves: list[tuple[int, str, int]]) -> None:
        """Turn wheels, ``(board, wheel, position)`` each, every board's at the same moment."""
        boards = sorted({i for i, _w, _p in moves})
        for i in boards:
            self._send(i, "turn", [(w, p) for j, w, p in moves if j == i])
        for i in boards:
            self._reply(i)

    def press(self, boards: list[int], down: bool) -> None:
        """Press (or release) the ready button of ``boards`` at the same moment."""
        for i in boards:
            self._send(i, "press", down)
        for i in boards:
            self._reply(i)

    def sent(self) -> dict[tuple[int, str, int], float]:
        """When each change left its board, by (board, field, value)."""
        for i in range(self.count):
            self._send(i, "sent")
        return {(i, name, value): at for i in range(self.count) for name, value, at in self._reply(i)}

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                try:
                    assert process.stdin is not None
                    process.stdin.write(json.dumps(["quit"]) + "\n")
                    process.stdin.close()
                except OSError:
                    pass
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)

    def __enter__(self) -> BoardProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def wait_connected(backend: SerialBackend, ids: list[str], timeout: float = 10.0, **wheels: int) -> None:
    """Wait until every board is connected (showing ``wheels`` when given); events stay queued."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = backend.states()
        if all(cid in states and states[cid].connected and all(states[cid].wheel(w) == v for w, v in wheels.items())
               for cid in ids):
            return
        time.sleep(0.01)
    raise SystemExit(f"the simulated boards never all connected: {backend.states()}")


def boards_latency(count: int, rounds: int, seed: int) -> tuple[list[float], int]:
    """(serial latencies ms, wrong or missing events) over ``rounds`` rounds in which one wheel of
    every one of ``count`` boards turns at the same moment."""
    rng = random.Random(seed)
    latencies: list[float] = []
    wrong = 0
    with BoardProcess(count, seed) as boards, SerialBackend(boards.ports, rescan_interval=0.05) as backend:
        wait_connected(backend, boards.ids, **{w: 0 for w in WHEELS})
        index_of = {cid: i for i, cid in enumerate(boards.ids)}
        shown = [{w: 0 for w in WHEELS} for _ in range(count)]
        for _ in range(rounds):
            while backend.get_event(0) is not None:
                pass
            moves = []
            for i in range(count):
                wheel = rng.choice(WHEELS)
                moves.append((i, wheel, rng.choice([p for p in range(WHEEL_POSITIONS[wheel]) if p != shown[i][wheel]])))
            boards.turn(moves)
            arrived: dict[int, float] = {}
            limit = time.monotonic() + 2.0
            while len(arrived) < count and time.monotonic() < limit:
                event = backend.get_event(0.5)
                if event is None or event.kind != EventKind.WHEEL:
                    continue
                now = time.perf_counter()
                i = index_of[event.controller_id]
                _, wheel, target = moves[i]
                value = event.state.wheel(wheel)
                if value == target:
                    arrived.setdefault(i, now)
                elif value not in (None, shown[i][wheel]):
                    wrong += 1
            sent = boards.sent()
            for i, wheel, target in moves:
                left = sent.get((i, wheel, target))
                if i in arrived and left is not None:
                    latencies.append((arrived[i] - left) * 1000)
                    shown[i][wheel] = target
                else:
                    wrong += 1
            time.sleep(rng.uniform(0.0, 0.02))
    return latencies, wrong


# ---- N players lock together ---------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class LockOptions(GameOptions):
    """``seats``: how many players; ``rounds``: how many secret choices each makes."""

    seats: int = 6
    rounds: int = 10_000

    def validate(self) -> None:
        if not 2 <= self.seats <= 16:
            raise OptionsError(f"seats must be from 2 to 16, not {self.seats}")
        if self.rounds < 1:
            raise OptionsError(f"rounds must be 1 or more, not {self.rounds}")


@dataclasses.dataclass(frozen=True)
class Pick:
    """A player's secret number."""

    number: int


class LockGame(Game[LockOptions]):
    """Every player dials a number in secret and locks it; once all are locked they are revealed
    together. The lock-and-reveal cycle of Pixoid's programs or Wuxing's cards, for any number of seats."""

    NAME = "bench-locks"
    TITLE = "Secret numbers"
    OPTIONS = LockOptions

    def _setup(self) -> None:
        self.round = 1
        self.picks: dict[int, int] = {}
        self.last: dict[str, Any] | None = None

    @property
    def num_players(self) -> int:
        return self.options.seats

    def current_players(self) -> tuple[int, ...]:
        if self.is_over():
            return ()
        return tuple(p for p in range(self.options.seats) if p not in self.picks)

    def legal_actions(self, player: int) -> list[Any]:
        return [Pick(n) for n in range(10)] if player in self.current_players() else []

    def secret_pending(self, player: int) -> bool:
        return player in self.picks

    def _apply(self, player: int, action: Any) -> list[Event]:
        self.picks[player] = action.number
        events = [Event("locked", f"{self.seat_label(player)} has chosen", {"seat": player})]
        if len(self.picks) == self.options.seats:
            self.last = {"round": self.round, "picks": [self.picks[p] for p in range(self.options.seats)]}
            events.append(Event("revealed", f"round {self.round}: {self.last['picks']}", dict(self.last)))
            self.picks = {}
            self.round += 1
        return events

    def is_over(self) -> bool:
        return self.round > self.options.rounds

    def scores(self) -> tuple[float, ...]:
        return (0.0,) * self.options.seats

    def state_dict(self) -> dict[str, Any]:
        return {"round": self.round, "picks": {str(p): n for p, n in sorted(self.picks.items())}, "last": self.last}

    def view(self, player: int | None) -> dict[str, Any]:
        view = {"round": self.round, "locked": [p in self.picks for p in range(self.options.seats)], "last": self.last}
        if player is not None and player in self.picks:
            view["my_pick"] = self.picks[player]
        return view

    def render(self) -> str:
        return f"round {self.round}: {len(self.picks)} of {self.options.seats} locked\n"

    @classmethod
    def encode_action(cls, action: Any) -> Any:
        return {"pick": action.number}

    @classmethod
    def decode_action(cls, data: Any) -> Any:
        if not isinstance(data, dict) or type(data.get("pick")) is not int:
            raise ValueError(f"an action is {{\"pick\": number}}, not {data!r}")
        return Pick(data["pick"])


class LockWheels(WheelPlay):
    """The number wheel is the secret number; the ready button locks it."""

    def pieces(self) -> int:
        return self.game.num_players

    def decision_point(self) -> tuple[Any, ...]:
        return (self.game.round,)

    def press(self, piece: int, state: ControllerState, table: Table) -> Press | None:
        if state.number is None:
            raise Refused(TURNING)
        return Press(piece, Pick(state.number))

    def wheel_targets(self, action: Any) -> dict[str, int]:
        return {"number": action.number}


def register_lock_game() -> str:
    """Add the game of secret numbers to the registry the console's loop reads (for this process
    only; :func:`controller.games.unregister` takes it away); its name."""
    from controller.games import GameSpec, register

    register(GameSpec(name=LockGame.NAME, title=LockGame.TITLE, summary="every player locks a secret number",
                      engine=LockGame, players=(2, 16), play=("wheels",), wheels=f"{__name__}:LockWheels",
                      players_option="seats", secrets=("each player's number, until all are locked",)))
    return LockGame.NAME


def lock_to_reveal(count: int, rounds: int, seed: int) -> tuple[list[float], list[float]]:
    """Milliseconds from the last of ``count`` ready presses leaving its board to the revealed
    choices published by the console's loop, per round (all presses made at the same moment); and
    per round, the milliseconds the loop spent committing the locks to the event log (the commit that
    ends each pass of the loop over the controllers' events)."""
    from controller.games import unregister
    from controller.service.config import PlayerConfig, ServiceConfig
    from controller.service.hub import Hub
    from controller.service.session import Session
    from controller.service.store import GameStore

    rng = random.Random(seed)
    name = register_lock_game()
    revealed: dict[int, float] = {}

    def listen(message: dict[str, Any]) -> None:
        now = time.perf_counter()
        for event in message.get("events", []):
            if event["kind"] == "revealed":
                revealed.setdefault(event["data"]["round"], now)

    samples: list[float] = []
    committing: list[float] = [0.0]
    with contextlib.ExitStack() as stack:
        stack.callback(unregister, name)
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="bitbox-locks-"))
        boards = stack.enter_context(BoardProcess(count, seed))
        backend = stack.enter_context(SerialBackend(boards.ports, rescan_interval=0.05))
        wait_connected(backend, boards.ids, number=0)
        config = ServiceConfig(game=name, options={"seats": count, "rounds": rounds}, seed=seed,
                               players=[PlayerConfig(f"P{i + 1}") for i in range(count)], backend="serial",
                               pieces=list(boards.ids), web=False, db=Path(folder) / "locks.db", bot_delay=0.0,
                               turn_pause=0.0)
        hub = Hub()
        hub.add_listener(listen)
        with GameStore(config.db_path()) as store:
            end_batch = store._end_batch

            def timed_end_batch(commit: bool) -> None:
                started = time.perf_counter()
                try:
                    end_batch(commit)
                finally:
                    committing[-1] += (time.perf_counter() - started) * 1000

            store._end_batch = timed_end_batch  # type: ignore[method-assign]
            session = Session(config, backend, store, hub)
            session.start_new()
            loop = threading.Thread(target=session.run, kwargs={"until_over": True}, daemon=True)
            loop.start()
            try:
                numbers = [0] * count
                for round_ in range(1, rounds + 1):
                    picks = [rng.randrange(10) for _ in range(count)]
                    boards.turn([(i, "number", n) for i, n in enumerate(picks) if n != numbers[i]])
                    numbers = picks
                    _wait(lambda: all(backend.state(cid).number == n and not backend.state(cid).button
                                      for cid, n in zip(boards.ids, picks)), f"round {round_}: wheels never settled")
                    committing.append(0.0)
                    boards.press(list(range(count)), True)
                    _wait(lambda: round_ in revealed, f"round {round_}: never revealed ({session.notice or session.log[-1:]})")
                    boards.press(list(range(count)), False)
                    sent = boards.sent()
                    last = max(sent[(i, "button", 1)] for i in range(count))
                    samples.append((revealed[round_] - last) * 1000)
            finally:
                session.stop()
                loop.join(5)
    return samples, committing[1:]


def _wait(predicate: Any, what: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"bench: {what}")
        time.sleep(0.002)


def load_average() -> str:
    """The machine's load average over 1, 5 and 15 minutes, as ``uptime`` says it."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def several_boards(count: int, rounds: int, seed: int) -> None:
    """Print the figures of ``--boards``: wheels with every board turning, then N players locking."""
    print(f"load average before: {load_average()}")
    reference, reference_wrong = boards_latency(1, rounds, seed)
    serial_ms, wrong = boards_latency(count, rounds, seed)
    print(f"{count} boards, one wheel of each turned at the same moment, {rounds} rounds: {len(serial_ms)} events "
          f"measured, {wrong} wrong or missing")
    print(f"board sends settled position -> host event: p50 {statistics.median(serial_ms):.3f} ms, "
          f"p99 {percentile(serial_ms, 99):.3f} ms, max {max(serial_ms):.3f} ms (goal: p99 5 ms)")
    print(f"reference, 1 board, same rounds: {len(reference)} events, {reference_wrong} wrong or missing, "
          f"p50 {statistics.median(reference):.3f} ms, p99 {percentile(reference, 99):.3f} ms; "
          f"ratio of the p99s {percentile(serial_ms, 99) / percentile(reference, 99):.2f}")
    locks, commits = lock_to_reveal(count, max(10, rounds // 4), seed)
    print(f"{count} players lock at the same moment, {len(locks)} rounds: last press leaves its board -> "
          f"reveal published: p50 {statistics.median(locks):.2f} ms, p99 {percentile(locks, 99):.2f} ms, "
          f"max {max(locks):.2f} ms (goal 20 ms); of which committing the {count} locks to the event log "
          f"(one SQLite transaction a pass of the loop, synchronous=FULL): p50 {statistics.median(commits):.2f} ms, "
          f"p99 {percentile(commits, 99):.2f} ms")
    print(f"load average after: {load_average()}")
    print(f"lock_to_reveal_p99_ms_{count}_players: {percentile(locks, 99):.3f}")
    print(f"serial_latency_p99_ms_{count}_boards: {percentile(serial_ms, 99):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=200, help="wheel turns for the latency figure (default 200)")
    parser.add_argument("--frames", type=int, default=100000, help="frames for the throughput figure (default 100000)")
    parser.add_argument("--fuzz", type=int, default=0, metavar="N", help="also fuzz the decoder with N inputs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--boards", type=int, default=0, metavar="N",
                        help="measure N boards into one host instead (wheels all turning, N players locking)")
    parser.add_argument("--rounds", type=int, default=200, help="rounds of --boards (default 200)")
    parser.add_argument("--serve-board", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_board is not None:
        serve_board(args.serve_board, args.seed)
        return
    if args.boards:
        several_boards(args.boards, args.rounds, args.seed)
        return

    if args.fuzz:
        start = time.perf_counter()
        inputs, foreign, wrong, good = fuzz(args.fuzz, args.seed)
        print(f"fuzz: {inputs} inputs in {time.perf_counter() - start:.1f} s: {foreign} unexpected exceptions, "
              f"{wrong} messages accepted that were never sent, {good} intact messages recovered")
    fps, mbps = throughput(args.frames)
    print(f"decoder: {fps:,.0f} STATE frames/s ({mbps:.2f} MB/s) through FrameDecoder + protocol.decode")
    serial_ms, total_ms, wrong = latency(args.turns, args.seed)
    print(f"turns: {len(serial_ms)} measured, {wrong} wrong or missing events")
    print(f"wheel turned -> host event (includes the board's debounce settle time): "
          f"p50 {statistics.median(total_ms):.2f} ms, p99 {percentile(total_ms, 99):.2f} ms")
    print(f"board sends settled position -> host event (serial latency): "
          f"p50 {statistics.median(serial_ms):.3f} ms, p99 {percentile(serial_ms, 99):.3f} ms, "
          f"max {max(serial_ms):.3f} ms")
    print(f"serial_latency_p99_ms: {percentile(serial_ms, 99):.3f}")


if __name__ == "__main__":
    main()
