// The bitbox dashboard's shell: draws what every game shares from the public state the service
// sends as server-sent events (/api/events), and loads the game's own view for the rest. Plain
// browser JavaScript, no build step. The service never sends a secret before it is revealed, so
// nothing here has to hide anything.
//
// Every state message carries state.ui = {game, title, mode, script, style}: mode is "wheels" (the
// console's controllers) or "camera" (the table camera), script the address of the game's view
// module (/games/NAME/view.js), style its stylesheet or null. The shell imports the module once
// and calls it:
//
//   export function mount(root, shell)            once: build the game's own DOM inside `root`
//   export function update(state, events, shell)  every state message, `events` the new events;
//                                                 may return a Promise the shell awaits before it
//                                                 handles the next message (an animation)
//   export function status(state)                 optional: the status line's words while a game
//                                                 is played, after the shell's title and number
//
// update is also called when no game is in progress (state.game is null on the console, the
// camera's state has no dice yet). The page will be served with a strict Content-Security-Policy:
// no inline script, no on* attributes, no style attributes (set node.style, or use view.css).
// `shell` offers:
//   el(tag, attrs, text), svg(tag, attrs, text)   make an HTML or SVG element
//   sleep(ms)                                     a Promise resolved after ms milliseconds
//   post(path, body)                              POST JSON to the API with the referee's token,
//                                                 show an error; resolves to whether it succeeded
//   seatName(seat), seatColour(seat)              a player's name and colour, from state.players
//   colour(name)                                  a controller's colour ("red") as CSS
//   swatch(css)                                   a small square of that colour
//   panel(title)                                  a new panel in the side column, for the game's own
//   shown(key)                                    note when `key` is first on screen (benchmarks read
//                                                 window.__bitbox.shown[key], ms since the epoch)

const COLOURS = { red: "#e53935", blue: "#1e88e5", green: "#43a047", yellow: "#fdd835" };
const SVG_NS = "http://www.w3.org/2000/svg";
const ALERT_MS = 6000;

const $ = (id) => document.getElementById(id);

let lastSeq = 0;
let current = null;       // the state being drawn
let loaded = { script: undefined, module: null };
let chain = Promise.resolve();
let flashTimer = 0;
window.__bitbox = { shown: {}, messages: 0 };

// ---- helpers offered to the views -------------------------------------------------------------

function make(node, attrs, text) {
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

const el = (tag, attrs = {}, text = "") => make(document.createElement(tag), attrs, text);
const svg = (tag, attrs = {}, text = "") => make(document.createElementNS(SVG_NS, tag), attrs, text);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function colour(name) {
  if (COLOURS[name]) return COLOURS[name];
  return typeof name === "string" && name.startsWith("#") ? name : "#999";
}

function swatch(css) {
  const node = el("span", { class: "swatch" });
  node.style.background = css;
  return node;
}

const player = (seat) => ((current && current.players) || [])[seat] || {};
const seatName = (seat) => player(seat).name || `player ${seat}`;
const seatColour = (seat) => colour(player(seat).colour);

function token() { return $("table-token").value; }

function flash(text) {
  const box = $("alert");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => { box.hidden = true; }, ALERT_MS);
}

async function post(path, body = {}) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token()}` },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  $("referee-result").textContent = response.ok ? "done" : data.error;
  if (!response.ok) {
    $("referee").open = true;
    flash(data.error);
  }
  return response.ok;
}

function panel(title) {
  const section = el("section");
  section.append(el("h2", {}, title));
  $("game-panels").append(section);
  return section;
}

function shown(key) {
  requestAnimationFrame(() => {
    if (!(key in window.__bitbox.shown)) window.__bitbox.shown[key] = performance.timeOrigin + performance.now();
  });
}

const shell = { el, svg, sleep, post, seatName, seatColour, colour, swatch, panel, shown };

// ---- the game's view --------------------------------------------------------------------------

function addStyle(href) {
  const old = document.querySelector("link[data-view]");
  if (old) old.remove();
  if (!href) return Promise.resolve();
  const link = el("link", { rel: "stylesheet", href, "data-view": "" });
  const done = new Promise((resolve) => {
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
  });
  document.head.append(link);
  return done;
}

async function loadView(ui) {
  const script = ui ? ui.script : null;
  if (script === loaded.script) return loaded.module;
  loaded = { script, module: null };
  const root = el("div", { id: "view", class: "game-view" });
  $("view").replaceWith(root);
  $("game-panels").replaceChildren();
  document.title = ui ? `${ui.title} — bitbox` : "bitbox";
  $("game-title").textContent = ui ? ui.title : "";
  await addStyle(ui && ui.style);
  if (!script) return null;
  try {
    const module = await import(script);
    module.mount(root, shell);
    loaded.module = module;
  } catch (err) {
    console.error(err);
    flash(`The ${ui.title} view could not be shown: ${err.message}`);
  }
  return loaded.module;
}

function showMode(mode) {
  for (const node of document.querySelectorAll("main [data-mode]")) node.hidden = node.dataset.mode !== mode;
}

// ---- what every game shares -------------------------------------------------------------------

function wheelsStatus(state, view) {
  if (!state.game) return state.status === "idle" ? "No game is being played." : state.notice;
  const g = state.game;
  const head = `${g.title} #${g.id}`;
  if (g.over) {
    const names = g.winners.map(seatName).join(" and ");
    return `${head} — game over: ${names} win${g.winners.length === 1 ? "s" : ""}`;
  }
  const words = view && view.status ? view.status(state) : "";
  return [head, words, state.status === "aborted" ? "aborted" : ""].filter(Boolean).join(" — ");
}

function cameraStatus(state, view) {
  const game = `Game #${state.game_id}`;
  if (state.over) return `${game} is over. Winner: ${(state.winners || []).join(" and ") || "nobody"}.`;
  if (state.status !== "playing") return `${game}: ${state.status}`;
  if (view && view.status) return `${game} — ${view.status(state)}`;
  return `${game}, turn ${state.turn}: ${state.prompt || ""}`;
}

function drawLog(state) {
  $("log").replaceChildren(...(state.log || []).slice().reverse().map((e) => el("li", { class: `kind-${e.kind}` }, e.text)));
}

function controllerWord(c) {
  if (!c.connected) return ["unplugged", "unplugged"];
  if (c.locked) return ["locked", "locked"];
  if (c.refused) return ["not ready", "unplugged"];
  return ["ready to program", "off"];
}

function drawControllers(state) {
  $("controllers").replaceChildren(...(state.controllers || []).map((c) => {
    const li = el("li", { "data-controller": c.id });
    const owner = c.owner_name ? ` — ${c.owner_name}` : "";
    const label = c.id === c.colour ? c.id : `${c.id} (${c.colour})`;
    const [word, cls] = controllerWord(c);
    li.append(swatch(colour(c.colour)), `${label}${owner}`, el("span", { class: `state ${cls}` }, word));
    if (c.message) li.append(el("span", { class: "msg" }, c.message));
    return li;
  }));
  const names = state.piece_names || [];
  const who = (state.waiting_for || []).map((w) => `${w.name} (${w.pieces.map((p) => names[p]).join(", ")})`);
  $("waiting").textContent = who.length ? `Waiting for: ${who.join(", ")}` : "";
}

let joinKey = "";

async function drawJoin(state) {
  const free = state.join ? (state.controllers || []).filter((c) => !c.connected).map((c) => c.id) : [];
  const key = free.join(",");
  $("join-panel").hidden = !free.length;
  if (key === joinKey) return;
  joinKey = key;
  if (!free.length) { $("join").replaceChildren(); return; }
  const response = await fetch("/api/seats");
  if (!response.ok || joinKey !== key) return;
  const { seats } = await response.json();
  const byId = Object.fromEntries((state.controllers || []).map((c) => [c.id, c]));
  $("join").replaceChildren(...seats.filter((s) => s.join && free.includes(s.id)).map((s) => {
    const li = el("li", { "data-join": s.id });
    const name = el("div");
    name.append(swatch(colour(byId[s.id].colour)), byId[s.id].colour);
    const img = el("img", { src: `/api/seats/${encodeURIComponent(s.id)}/qr.svg`, alt: `join code of ${s.id}` });
    li.append(name, img, el("a", { href: s.join }, "open here"));
    return li;
  }));
}

function drawQuestions(state) {
  const open = state.questions || [];
  $("questions-panel").classList.toggle("pending", open.length > 0);
  $("questions").replaceChildren(...(open.length ? open.map((q) => {
    const li = el("li", { "data-question": q.question_id });
    li.append(el("span", {}, q.text), el("span", { class: "why" }, q.reason));
    for (const choice of q.choices) {
      const b = el("button", { "data-choice": choice }, choice);
      b.addEventListener("click", () => post("/api/table/answer", { question_id: q.question_id, choice }));
      li.append(b);
    }
    return li;
  }) : [el("li", { class: "small" }, "No question for the players.")]));
}

function drawChoices(state) {
  const offered = state.choices || [];
  $("choices").replaceChildren(...(offered.length ? offered.map((c) => {
    const b = el("button", { "data-action": JSON.stringify(c.action) }, `${seatName(c.player)}: ${c.text}`);
    b.addEventListener("click", () => post("/api/table/action", { player: c.player, action: c.action }));
    const li = el("li");
    li.append(b);
    return li;
  }) : [el("li", { class: "small" }, "Nothing to announce now: play on the table.")]));
}

function overruleRow(call) {
  const select = el("select", { "aria-label": `overrule call ${call.call_id}` });
  for (const alt of call.alternatives) select.append(el("option", { value: alt }, alt));
  const b = el("button", { "data-overrule": call.call_id }, "Overrule");
  b.addEventListener("click", () => post("/api/table/overrule", { call_id: call.call_id, decision: select.value }));
  const row = el("div");
  row.append(select, " ", b);
  return row;
}

function drawCalls(state) {
  $("calls").replaceChildren(...(state.calls || []).slice().reverse().map((c) => {
    const li = el("li", { "data-call": c.call_id });
    const head = el("span", { class: c.overruled_by ? "overruled" : "" });
    head.append(el("span", { class: "decision" }, `#${c.call_id} ${c.decision}`), c.reason);
    li.append(head);
    if (c.alternatives && c.alternatives.length && !c.overruled_by) li.append(overruleRow(c));
    return li;
  }));
}

function drawShared(state, view) {
  const mode = state.ui ? state.ui.mode : null;
  showMode(mode);
  $("banner").hidden = !state.paused;
  $("banner").textContent = state.paused || "";
  if (!state.ui) {
    $("status").textContent = "No game is being played.";
  } else if (mode === "camera") {
    $("status").textContent = cameraStatus(state, view);
    drawQuestions(state);
    drawChoices(state);
    drawCalls(state);
  } else {
    $("status").textContent = wheelsStatus(state, view);
    drawControllers(state);
    drawJoin(state).catch((err) => console.error(err));
  }
  drawLog(state);
}

// ---- the live stream --------------------------------------------------------------------------

async function handle(message) {
  if (message.seq <= lastSeq) return;
  lastSeq = message.seq;
  window.__bitbox.messages += 1;
  current = message.state;
  const view = await loadView(current.ui);
  drawShared(current, view);
  if (view) await view.update(current, message.events || [], shell);
}

function connect() {
  const link = $("link");
  const source = new EventSource("/api/events");
  source.addEventListener("open", () => { link.textContent = "live"; link.classList.add("live"); });
  source.addEventListener("error", () => { link.textContent = "reconnecting…"; link.classList.remove("live"); });
  source.addEventListener("state", (ev) => {
    const message = JSON.parse(ev.data);
    chain = chain.then(() => handle(message)).catch((err) => console.error(err));
  });
}

// On the Pi's own screen, the referee's link as a QR code (the server answers this machine only).
async function showRefereeCode() {
  if (!["127.0.0.1", "localhost", "[::1]"].includes(location.hostname)) return;
  const img = el("img", { alt: "the referee's link" });
  img.addEventListener("load", () => { $("referee-code").hidden = false; });
  img.src = "/api/referee/qr.svg";
  $("referee-code").append(img);
}

// A link carrying the token was already exchanged for a cookie by the server: the box is for typing it.
function setupReferee() {
  showRefereeCode().catch((err) => console.error(err));
  for (const button of document.querySelectorAll("#referee button[data-command]")) {
    button.addEventListener("click", () => post(`/api/game/${button.dataset.command}`, JSON.parse(button.dataset.body || "{}")));
  }
}

setupReferee();
connect();
