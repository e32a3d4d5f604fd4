// A seat's page on a phone: its controller's wheels and ready button, drawn like the real ones.
// Two streams: the seat's own (/api/seat/ID/events: its wheels, its lock, why a press was refused;
// open while the page is, which keeps the controller plugged in) and the public one every
// dashboard reads (/api/events). Never another seat's choices. The game's own view (the board) is
// loaded below, as on the dashboard.

const ARROWS = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"];
// Where each direction sits on a 3x3 compass (row, column).
const COMPASS = [[1, 2], [1, 3], [2, 3], [3, 3], [3, 2], [3, 1], [2, 1], [1, 1]];
const SYMBOLS = ["A", "B", "C", "D"];
const COLOURS = { red: "#e53935", blue: "#1e88e5", green: "#43a047", yellow: "#fdd835" };
const SVG_NS = "http://www.w3.org/2000/svg";

const $ = (id) => document.getElementById(id);
const seatId = decodeURIComponent(location.pathname.split("/").pop());
const base = `/api/seat/${encodeURIComponent(seatId)}`;

let current = null;
let seat = null;
let pending = {};          // wheel -> position asked for, until the controller reports it
let view = { script: undefined, module: null };
window.__bitbox = { shown: {}, messages: 0, seat: null };

function make(node, attrs, text) {
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}
const el = (tag, attrs = {}, text = "") => make(document.createElement(tag), attrs, text);
const svg = (tag, attrs = {}, text = "") => make(document.createElementNS(SVG_NS, tag), attrs, text);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const colour = (name) => COLOURS[name] || (typeof name === "string" && name.startsWith("#") ? name : "#999");
const player = (s) => ((current && current.players) || [])[s] || {};

function swatch(css) {
  const node = el("span", { class: "swatch" });
  node.style.background = css;
  return node;
}

function say(text) { $("message").textContent = text || ""; }

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
    say(data.error);
  }
  return response.ok;
}

const shell = {
  el, svg, sleep, colour, swatch,
  post: async () => false,
  seatName: (s) => player(s).name || `player ${s}`,
  seatColour: (s) => colour(player(s).colour),
  panel: (title) => {
    const section = el("section");
    section.append(el("h2", {}, title));
    $("game-panels").append(section);
    return section;
  },
  shown: (key) => requestAnimationFrame(() => {
    if (!(key in window.__bitbox.shown)) window.__bitbox.shown[key] = performance.timeOrigin + performance.now();
  }),
};

// ---- the wheels -------------------------------------------------------------------------------

function wheelButton(wheel, position, label) {
  const b = el("button", { type: "button", "data-wheel": wheel, "data-position": position, "aria-label": `${wheel} ${label}` }, label);
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
  $("direction-centre").textContent = d === null || d === undefined ? (seat.locked ? "locked" : "") : ARROWS[d];
}

function drawSeat() {
  const lock = $("lock");
  lock.classList.toggle("on", seat.led === "on");
  lock.classList.toggle("blink", seat.led === "blink");
  $("seat-swatch").style.background = colour(seat.colour);
  const who = seat.owner_name ? ` — ${seat.owner_name}` : "";
  $("seat-name").textContent = `${seat.colour}${who}`;
  document.title = `${seat.colour} — bitbox`;
  say(seat.refused ? seat.reason : seat.message);
  $("ready").disabled = !!seat.locked;
  $("ready").textContent = seat.locked ? "Locked" : "Ready";
  drawWheels();
}

function drawStatus(state) {
  $("banner").hidden = !state.paused;
  $("banner").textContent = state.paused || "";
  let text = "No game is being played.";
  if (state.game) {
    const g = state.game;
    if (g.over) text = `${g.title}: game over — ${g.winners.map(shell.seatName).join(" and ")} win${g.winners.length === 1 ? "s" : ""}`;
    else if (seat && seat.locked) text = `${g.title}: locked — waiting for the others`;
    else if (seat && seat.waiting) text = `${g.title}: your turn — set the wheels, then press Ready`;
    else {
      const names = (state.waiting_for || []).map((w) => w.name).join(", ");
      text = `${g.title}: ${names ? `waiting for ${names}` : "watch the table"}`;
    }
  }
  $("status").textContent = text;
}

// ---- the game's view ---------------------------------------------------------------------------

async function loadView(ui) {
  const script = ui ? ui.script : null;
  if (script === view.script) return view.module;
  view = { script, module: null };
  $("game-panels").replaceChildren();
  const root = el("div", { id: "view", class: "game-view" });
  $("view").replaceWith(root);
  if (ui && ui.style && !document.querySelector("link[data-view]")) {
    document.head.append(el("link", { rel: "stylesheet", href: ui.style, "data-view": "" }));
  }
  if (!script) return null;
  try {
    const module = await import(script);
    module.mount(root, shell);
    view.module = module;
  } catch (err) {
    console.error(err);
  }
  return view.module;
}

// ---- the stream -------------------------------------------------------------------------------

let chain = Promise.resolve();

let lastSeq = 0;

async function handlePublic(message) {
  if (message.seq <= lastSeq) return;
  lastSeq = message.seq;
  window.__bitbox.messages += 1;
  current = message.state;
  drawStatus(current);
  const module = await loadView(current.ui);
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
    $("status").textContent = "This phone is not holding this seat.";
    say(data.error || "scan the seat's code on the dashboard");
    return true;
  }
  return false;
}

function connect() {
  const link = $("link");
  const mine = new EventSource(`${base}/events`);
  mine.addEventListener("open", () => { link.textContent = "live"; link.classList.add("live"); });
  mine.addEventListener("error", async () => {
    link.textContent = "reconnecting…";
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

buildWheels();
connect();
