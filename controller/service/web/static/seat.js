// A seat's page on a phone: its controller's wheels and ready button, drawn like the real ones.
// Two streams: the seat's own (/api/seat/ID/events: its wheels, its lock, why a press was refused;
// open while the page is, which keeps the controller plugged in) and the public one every
// dashboard reads (/api/events). Never another seat's choices. The game's own view (the board) is
// loaded below, as on the dashboard.

import { N_, _, format, ngettext, say, startLanguage, setNames } from "/static/i18n.js";
import { $, ViewSlot, colour, el, makeShell } from "/static/page.js";

const ARROWS = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"];
const WHEEL_NAMES = { direction: N_("direction"), number: N_("number"), symbol: N_("symbol") };
// Where each direction sits on a 3x3 compass (row, column).
const COMPASS = [[1, 2], [1, 3], [2, 3], [3, 3], [3, 2], [3, 1], [2, 1], [1, 1]];
const SYMBOLS = ["A", "B", "C", "D"];
const seatId = decodeURIComponent(location.pathname.split("/").pop());
const base = `/api/seat/${encodeURIComponent(seatId)}`;

let current = null;
let seat = null;
let pending = {};          // wheel -> position asked for, until the controller reports it
window.__bitbox = { shown: {}, messages: 0, seat: null };

function tell(text) { $("message").textContent = say(text || ""); }

let queue = Promise.resolve(true);

// The controller's requests leave in the order the player made them: a release never overtakes its
// press, a wheel set after another is set after it.
function send(path, body) {
  queue = queue.catch(() => false).then(() => post(path, body));
  return queue;
}

async function post(path, body) {
  const response = await fetch(`${base}/${path}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!response.ok) {
    const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
    tell(data.message || data.error);
  }
  return response.ok;
}

const shell = makeShell(() => current);
const view = new ViewSlot(shell);

// ---- the wheels -------------------------------------------------------------------------------

function wheelButton(wheel, position, label) {
  const b = el("button", { type: "button", "data-wheel": wheel, "data-position": position, "aria-label": `${_(WHEEL_NAMES[wheel])} ${label}` }, label);
  b.addEventListener("click", async () => {
    pending[wheel] = position;
    drawWheels();
    if (!(await send("wheel", { wheel, position }))) { delete pending[wheel]; drawWheels(); }
  });
  return b;
}

function buildWheels() {
  const compass = $("direction");
  ARROWS.forEach((arrow, i) => {
    const b = wheelButton("direction", i, arrow);
    b.style.gridRow = String(COMPASS[i][0]);
    b.style.gridColumn = String(COMPASS[i][1]);
    compass.append(b);
  });
  const centre = el("span", { class: "centre", id: "direction-centre" });
  centre.style.gridRow = "2";
  centre.style.gridColumn = "2";
  compass.append(centre);
  for (let n = 0; n < 10; n++) $("number").append(wheelButton("number", n, String(n)));
  SYMBOLS.forEach((s, i) => $("symbol").append(wheelButton("symbol", i, s)));
  const ready = $("ready");
  const down = (ev) => {
    ev.preventDefault();
    window.__bitbox.pressed = performance.timeOrigin + performance.now();
    ready.classList.add("down");
    send("button", { pressed: true });
  };
  const up = (ev) => {
    if (!ready.classList.contains("down")) return;
    ev.preventDefault();
    ready.classList.remove("down");
    send("button", { pressed: false });
  };
  ready.addEventListener("pointerdown", down);
  ready.addEventListener("pointerup", up);
  ready.addEventListener("pointerleave", up);
  ready.addEventListener("pointercancel", up);
}

function drawWheels() {
  if (!seat) return;
  const wheels = seat.wheels || {};
  for (const b of document.querySelectorAll("#wheels button[data-wheel]")) {
    const wheel = b.dataset.wheel;
    const position = Number(b.dataset.position);
    if (pending[wheel] === wheels[wheel]) delete pending[wheel];
    b.classList.toggle("chosen", wheels[wheel] === position);
    b.classList.toggle("pending", pending[wheel] === position);
  }
  const d = wheels.direction;
  $("direction-centre").textContent = d === null || d === undefined ? (seat.locked ? _("locked") : "") : ARROWS[d];
}

function drawSeat() {
  const lock = $("lock");
  lock.classList.toggle("on", seat.led === "on");
  lock.classList.toggle("blink", seat.led === "blink");
  $("seat-swatch").style.background = colour(seat.colour);
  const who = seat.owner_name ? ` — ${seat.owner_name}` : "";
  $("seat-name").textContent = `${_(seat.colour)}${who}`;
  document.title = `${_(seat.colour)} — bitbox`;
  tell(seat.refused ? seat.reason : seat.message);
  $("ready").disabled = !!seat.locked;
  $("ready").textContent = seat.locked ? _("Locked") : _("Ready");
  drawWheels();
}

function drawStatus(state) {
  $("banner").hidden = !state.paused;
  $("banner").textContent = say(state.paused || "");
  let text = _("No game is being played.");
  if (state.game) {
    const g = state.game;
    if (g.over) {
      const names = say({ list: g.winners.map(shell.seatName) });
      text = `${g.title}: ${format(ngettext("game over: {names} wins", "game over: {names} win", g.winners.length), { names })}`;
    } else if (seat && seat.locked) text = `${g.title}: ${_("locked — waiting for the others")}`;
    else if (seat && seat.waiting) text = `${g.title}: ${_("your turn — set the wheels, then press Ready")}`;
    else {
      const names = (state.waiting_for || []).map((w) => w.name);
      const words = names.length ? format(_("waiting for {players}"), { players: say({ list: names }) }) : _("watch the table");
      text = `${g.title}: ${words}`;
    }
  }
  $("status").textContent = text;
}

// ---- the game's view ---------------------------------------------------------------------------

// ---- the stream -------------------------------------------------------------------------------

let chain = Promise.resolve();

let lastSeq = 0;

async function handlePublic(message) {
  if (message.seq <= lastSeq) return;
  lastSeq = message.seq;
  window.__bitbox.messages += 1;
  current = message.state;
  setNames((current.players || []).map((p) => p.name));
  drawStatus(current);
  const module = await view.load(current.ui);
  if (module) await module.update(current, message.events || [], shell);
}

function handleSeat(message) {
  seat = message.seat;
  window.__bitbox.seat = seat;
  $("wheels").hidden = false;
  drawSeat();
  if (current) drawStatus(current);
}

async function refusedAccess() {
  const response = await fetch(base);
  if (response.status === 401 || response.status === 403 || response.status === 404) {
    const data = await response.json().catch(() => ({}));
    $("wheels").hidden = true;
    $("status").textContent = _("This phone is not holding this seat.");
    tell(data.message || data.error || _("scan the seat's code on the dashboard"));
    return true;
  }
  return false;
}

function connect() {
  const link = $("link");
  const mine = new EventSource(`${base}/events`);
  mine.addEventListener("open", () => { link.textContent = _("live"); link.classList.add("live"); });
  mine.addEventListener("error", async () => {
    link.textContent = _("reconnecting…");
    link.classList.remove("live");
    if (await refusedAccess()) { mine.close(); everyone.close(); }
  });
  mine.addEventListener("seat", (ev) => handleSeat(JSON.parse(ev.data)));
  const everyone = new EventSource("/api/events");
  everyone.addEventListener("state", (ev) => {
    const message = JSON.parse(ev.data);
    chain = chain.then(() => handlePublic(message)).catch((err) => console.error(err));
  });
}


function redraw() {
  if (seat) drawSeat();
  if (current) {
    drawStatus(current);
    if (view.module) chain = chain.then(() => view.module.update(current, [], shell)).catch((err) => console.error(err));
  }
}

async function start() {
  await startLanguage(redraw);
  buildWheels();
  connect();
}

start();
