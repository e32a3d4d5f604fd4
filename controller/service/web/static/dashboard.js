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
//
// Words: a view imports { _, say, ngettext } from "/static/i18n.js" and builds its texts at draw
// time; when a reader picks another language the shell calls update again with no new events.

import { N_, _, format, ngettext, say, startLanguage, setNames } from "/static/i18n.js";
import { $, colour, el, makeShell, swatch } from "/static/page.js";

// The controllers' colours, said through _() wherever a colour is shown.
export const COLOUR_NAMES = [N_("red"), N_("blue"), N_("green"), N_("yellow")];
const ALERT_MS = 6000;

let lastSeq = 0;
let current = null;       // the state being drawn
let loaded = { script: undefined, module: null };
let chain = Promise.resolve();
let flashTimer = 0;
window.__bitbox = { shown: {}, messages: 0 };

// ---- helpers offered to the views -------------------------------------------------------------

const seatName = (seat) => shell.seatName(seat);

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
  $("referee-result").textContent = response.ok ? _("done") : say(data.message || data.error);
  if (!response.ok) {
    $("referee").open = true;
    flash(say(data.message || data.error));
  }
  return response.ok;
}

const shell = makeShell(() => current, post);

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
    flash(format(_("The {title} view could not be shown: {error}"), { title: ui.title, error: err.message }));
  }
  return loaded.module;
}

function showMode(mode) {
  for (const node of document.querySelectorAll("main [data-mode]")) node.hidden = !node.dataset.mode.split(" ").includes(mode);
}

// ---- what every game shares -------------------------------------------------------------------

function wheelsStatus(state, view) {
  if (!state.game) return state.status === "idle" ? _("No game is being played.") : say(state.notice);
  const g = state.game;
  const head = `${g.title} #${g.id}`;
  if (g.over) {
    const names = naturalNames(g.winners.map(seatName));
    return `${head} — ${format(ngettext("game over: {names} wins", "game over: {names} win", g.winners.length), { names })}`;
  }
  const words = view && view.status ? view.status(state) : "";
  return [head, words, state.status === "aborted" ? _("aborted") : ""].filter(Boolean).join(" — ");
}

function naturalNames(names) {
  return say({ list: names });
}

const STATUS_WORDS = { idle: () => _("idle"), aborted: () => _("aborted"), over: () => _("over"), playing: () => _("playing") };

function cameraStatus(state, view) {
  if (state.notice && state.status !== "playing") return say(state.notice);  // a pairing, until its game starts
  if (state.game_id == null) return _("No game is being played.");
  const game = format(_("Game #{number}"), { number: state.game_id });
  if (state.over) {
    if (state.winners_message) return `${game} — ${say(state.winners_message)}`;
    return format(_("{game} is over. Winner: {names}."), { game, names: naturalNames(state.winners || []) });
  }
  if (state.status !== "playing") return `${game}: ${(STATUS_WORDS[state.status] || (() => state.status))()}`;
  if (view && view.status) return `${game} — ${view.status(state)}`;
  return format(_("{game}, turn {turn}: {prompt}"), { game, turn: state.turn, prompt: say(state.prompt_message || state.prompt || "") });
}

function drawLog(state) {
  $("log").replaceChildren(...(state.log || []).slice().reverse().map((e) => el("li", { class: `kind-${e.kind}` }, say(e.message || e.text))));
}

function controllerWord(c) {
  if (!c.connected) return [_("unplugged"), "unplugged"];
  if (c.locked) return [_("locked"), "locked"];
  if (c.refused) return [_("not ready"), "unplugged"];
  return [_("ready to program"), "off"];
}

function drawControllers(state) {
  $("controllers").replaceChildren(...(state.controllers || []).map((c) => {
    const li = el("li", { "data-controller": c.id });
    const owner = c.owner_name ? ` — ${c.owner_name}` : "";
    const label = c.id === c.colour ? _(c.id) : `${c.id} (${_(c.colour)})`;
    const [word, cls] = controllerWord(c);
    li.append(swatch(colour(c.colour)), `${label}${owner}`, el("span", { class: `state ${cls}` }, word));
    if (c.message) li.append(el("span", { class: "msg" }, say(c.message)));
    return li;
  }));
  const names = state.piece_names || [];
  const who = (state.waiting_for || []).map((w) => `${w.name} (${w.pieces.map((p) => _(names[p])).join(", ")})`);
  $("waiting").textContent = who.length ? format(_("Waiting for: {players}"), { players: who.join(", ") }) : "";
}

// The join codes of the seats nobody holds, as QR codes (`ids`: the seats that may be joined).
const joinKeys = {};

async function drawJoin(ids, labelOf, panel, list) {
  const key = ids.join(",");
  $(panel).hidden = !ids.length;
  if (key === joinKeys[list]) return;
  joinKeys[list] = key;
  if (!ids.length) { $(list).replaceChildren(); return; }
  const response = await fetch("/api/seats");
  if (!response.ok || joinKeys[list] !== key) return;
  const { seats } = await response.json();
  const open = seats.filter((s) => s.join && ids.includes(s.id));
  $(panel).hidden = !open.length;
  if (open.length) {
    // A phone may take a seat without any move being made: look again in a while.
    setTimeout(() => { if (joinKeys[list] === key) { joinKeys[list] = ""; drawJoin(ids, labelOf, panel, list); } }, 5000);
  }
  $(list).replaceChildren(...open.map((s) => {
    const li = el("li", { "data-join": s.id });
    const name = el("div");
    name.append(...labelOf(s.id));
    const img = el("img", { src: `/api/seats/${encodeURIComponent(s.id)}/qr.svg`, alt: format(_("join code of {seat}"), { seat: s.id }) });
    li.append(name, img, el("a", { href: s.join }, _("open here")));
    return li;
  }));
}

function drawWheelsJoin(state) {
  const free = state.join ? (state.controllers || []).filter((c) => !c.connected).map((c) => c.id) : [];
  const byId = Object.fromEntries((state.controllers || []).map((c) => [c.id, c]));
  return drawJoin(free, (id) => [swatch(colour(byId[id].colour)), _(byId[id].colour)], "join-panel", "join");
}

function drawPhones(state) {
  const players = state.players || [];
  const waiting = new Set((state.waiting_for || []).map((w) => w.seat));
  $("hand-players").replaceChildren(...players.map((p) => {
    const li = el("li", { "data-seat": p.id });
    const word = p.bot ? _("bot") : waiting.has(p.seat) ? _("to choose") : "";
    li.append(`${p.name}`, el("span", { class: `state ${waiting.has(p.seat) ? "off" : "locked"}` }, word));
    return li;
  }));
  const names = (state.waiting_for || []).map((w) => w.name);
  $("hand-waiting").textContent = state.rolling ? _("the dice are rolled…")
    : names.length ? format(_("Waiting for: {players}"), { players: say({ list: names }) }) : "";
  const free = state.game && !state.game.over ? players.filter((p) => !p.bot).map((p) => p.id) : [];
  const nameOf = Object.fromEntries(players.map((p) => [p.id, p.name]));
  return drawJoin(free, (id) => [nameOf[id]], "hand-join-panel", "hand-join");
}

function drawQuestions(state) {
  const open = state.questions || [];
  $("questions-panel").classList.toggle("pending", open.length > 0);
  $("questions").replaceChildren(...(open.length ? open.map((q) => {
    const li = el("li", { "data-question": q.question_id });
    li.append(el("span", {}, say(q.message || q.text)), el("span", { class: "why" }, say(q.reason_message || q.reason)));
    // One tap answers: each choice is a button, the camera's guess (when it has one) first and marked.
    const guess = q.data && q.data.guess;
    q.choices.forEach((choice, index) => {
      const words = (q.choice_messages || [])[index];
      const said = words ? say(words) : choice;
      const attrs = { "data-choice": choice };
      if (guess && choice === guess) Object.assign(attrs, { class: "guess", title: _("the camera's guess") });
      const b = el("button", attrs, said);
      b.addEventListener("click", () => post("/api/table/answer", { question_id: q.question_id, choice }));
      li.append(b);
    });
    return li;
  }) : [el("li", { class: "small" }, _("No question for the players."))]));
}

function drawChoices(state) {
  // A game that words its choices itself gives them in the same order as the service's `choices`.
  const offered = (state.choice_messages && state.choice_messages.length ? state.choice_messages : state.choices) || [];
  $("choices").replaceChildren(...(offered.length ? offered.map((c) => {
    const words = c.message ? say(c.message) : `${seatName(c.player)}: ${c.text}`;
    const b = el("button", { "data-action": JSON.stringify(c.action) }, words);
    b.addEventListener("click", () => post("/api/table/action", { player: c.player, action: c.action }));
    const li = el("li");
    li.append(b);
    return li;
  }) : [el("li", { class: "small" }, _("Nothing to announce now: play on the table."))]));
}

function overruleRow(call) {
  const select = el("select", { "aria-label": format(_("overrule call {number}"), { number: call.call_id }) });
  call.alternatives.forEach((alt, index) => {
    const words = (call.alternative_messages || [])[index];
    select.append(el("option", { value: alt }, words ? say(words) : alt));
  });
  const b = el("button", { "data-overrule": call.call_id }, _("Overrule"));
  b.addEventListener("click", () => post("/api/table/overrule", { call_id: call.call_id, decision: select.value }));
  const row = el("div");
  row.append(select, " ", b);
  return row;
}

function drawCalls(state) {
  $("calls").replaceChildren(...(state.calls || []).slice().reverse().map((c) => {
    const li = el("li", { "data-call": c.call_id });
    const head = el("span", { class: c.overruled_by ? "overruled" : "" });
    head.append(el("span", { class: "decision" }, `#${c.call_id} ${c.decision}`), say(c.message || c.reason));
    li.append(head);
    if (c.alternatives && c.alternatives.length && !c.overruled_by) li.append(overruleRow(c));
    return li;
  }));
}

function drawShared(state, view) {
  const mode = state.ui ? state.ui.mode : null;
  showMode(mode);
  $("banner").hidden = !state.paused;
  $("banner").textContent = say(state.paused || "");
  if (!state.ui) {
    $("status").textContent = _("No game is being played.");
  } else if (mode === "camera") {
    $("status").textContent = cameraStatus(state, view);
    $("referee").querySelector(".buttons").hidden = !state.can_start;  // a table that plays game after game
    drawQuestions(state);
    drawChoices(state);
    drawCalls(state);
  } else if (mode === "phones") {
    $("status").textContent = wheelsStatus(state, view);
    drawPhones(state).catch((err) => console.error(err));
  } else {
    $("status").textContent = wheelsStatus(state, view);
    drawControllers(state);
    drawWheelsJoin(state).catch((err) => console.error(err));
  }
  drawLog(state);
}

// ---- the live stream --------------------------------------------------------------------------

async function handle(message) {
  if (message.seq <= lastSeq) return;
  lastSeq = message.seq;
  window.__bitbox.messages += 1;
  current = message.state;
  setNames((current.players || []).map((p) => p.name));
  const view = await loadView(current.ui);
  drawShared(current, view);
  if (view) await view.update(current, message.events || [], shell);
}

function connect() {
  const link = $("link");
  const source = new EventSource("/api/events");
  source.addEventListener("open", () => { link.textContent = _("live"); link.classList.add("live"); });
  source.addEventListener("error", () => { link.textContent = _("reconnecting…"); link.classList.remove("live"); });
  source.addEventListener("state", (ev) => {
    const message = JSON.parse(ev.data);
    chain = chain.then(() => handle(message)).catch((err) => console.error(err));
  });
}

// On the Pi's own screen, the referee's link as a QR code (the server answers this machine only).
async function showRefereeCode() {
  if (!["127.0.0.1", "localhost", "[::1]"].includes(location.hostname)) return;
  const img = el("img", { alt: _("the referee's link") });
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

function redraw() {
  if (!current) return;
  const view = loaded.module;
  drawShared(current, view);
  if (view) chain = chain.then(() => view.update(current, [], shell)).catch((err) => console.error(err));
}

async function start() {
  await startLanguage(redraw);
  setupReferee();
  connect();
}

start();
