// A seat's page for a game played by choosing on phones: what this seat alone may see (its hand,
// its hidden faces) and, when it is to act, the actions the rules allow as buttons. Two streams:
// the seat's own (/api/hand/ID/events) and the public one every dashboard reads (/api/events).
// The game's view draws the public table below; a view may also export
//   hand(root, view, state, shell)   draw the seat's own part (its view from game.view(seat))
// and otherwise the page lists what the seat sees that the table does not.

import { _, format, ngettext, say, startLanguage, setNames } from "/static/i18n.js";
import { $, ViewSlot, el, makeShell } from "/static/page.js";

const seatId = decodeURIComponent(location.pathname.split("/").pop());
const base = `/api/hand/${encodeURIComponent(seatId)}`;

let current = null;     // the public state
let hand = null;        // this seat's own state
let sending = false;
let chain = Promise.resolve();
let lastSeq = 0;
window.__bitbox = { shown: {}, messages: 0, hand: null };

function tell(text) { $("message").textContent = say(text || ""); }

const shell = makeShell(() => current);
const view = new ViewSlot(shell);

// ---- choosing ---------------------------------------------------------------------------------

async function choose(index) {
  if (sending) return;
  sending = true;
  drawChoices();
  try {
    const response = await fetch(`${base}/choose`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ index, step: hand.step }),
    });
    if (!response.ok) {
      const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
      tell(data.message || data.error);
    } else {
      tell("");
    }
  } finally {
    sending = false;
    drawChoices();
  }
}

function drawChoices() {
  const choices = (hand && hand.choices) || [];
  $("choose").hidden = !choices.length;
  $("choices").replaceChildren(...choices.map((c) => {
    const b = el("button", { type: "button", "data-choice": c.index }, say(c.words));
    b.disabled = sending;
    b.addEventListener("click", () => choose(c.index));
    const li = el("li");
    li.append(b);
    return li;
  }));
}

// ---- what this seat alone sees ------------------------------------------------------------------

function differs(a, b) { return JSON.stringify(a) !== JSON.stringify(b); }

function drawPrivate() {
  const mine = hand && hand.view;
  const root = $("private");
  if (!mine) { $("mine").hidden = true; return; }
  if (view.module && view.module.hand) {
    $("mine").hidden = false;
    view.module.hand(root, mine, current, shell);
    return;
  }
  const shared = (current && current.view) || {};
  const own = Object.entries(mine).filter(([key, value]) => differs(value, shared[key]));
  $("mine").hidden = !own.length;
  const list = el("dl");
  for (const [key, value] of own) {
    list.append(el("dt", {}, _(key)), el("dd", {}, Array.isArray(value) ? value.map((v) => say(v)).join(", ") : say(value)));
  }
  root.replaceChildren(list);
}

function drawTold() {
  const told = (hand && hand.told) || [];
  $("told-panel").hidden = !told.length;
  $("told").replaceChildren(...told.slice().reverse().map((e) => el("li", { class: `kind-${e.kind}` }, say(e.message || e.text))));
}

function drawStatus() {
  const name = hand ? hand.name : "";
  $("hand-name").textContent = name || "bitbox";
  document.title = name ? `${name} — bitbox` : "bitbox";
  let text = _("No game is being played.");
  if (current && current.game) {
    const g = current.game;
    if (g.over) {
      const names = say({ list: g.winners.map(shell.seatName) });
      text = `${g.title}: ${format(ngettext("game over: {names} wins", "game over: {names} win", g.winners.length), { names })}`;
    } else if (hand && hand.waiting) {
      text = `${g.title}: ${_("your turn — choose below")}`;
    } else if (current.rolling) {
      text = `${g.title}: ${_("the dice are rolled…")}`;
    } else {
      const names = (current.waiting_for || []).map((w) => w.name);
      const words = names.length ? format(_("waiting for {players}"), { players: say({ list: names }) }) : _("watch the table");
      text = `${g.title}: ${words}`;
    }
  }
  $("status").textContent = text;
}

// ---- the game's view -----------------------------------------------------------------------------

// ---- the streams ---------------------------------------------------------------------------------

async function handlePublic(message) {
  if (message.seq <= lastSeq) return;
  lastSeq = message.seq;
  window.__bitbox.messages += 1;
  current = message.state;
  setNames((current.players || []).map((p) => p.name));
  drawStatus();
  const module = await view.load(current.ui);
  drawPrivate();
  if (module) await module.update(current, message.events || [], shell);
}

function handleHand(message) {
  hand = message.seat;
  window.__bitbox.hand = hand;
  drawChoices();
  drawPrivate();
  drawTold();
  drawStatus();
}

async function refusedAccess() {
  const response = await fetch(base);
  if ([401, 403, 404].includes(response.status)) {
    const data = await response.json().catch(() => ({}));
    $("choose").hidden = true;
    $("status").textContent = _("This phone is not holding this seat.");
    tell(data.message || data.error || _("scan the seat's code on the dashboard"));
    return true;
  }
  return false;
}

function connect() {
  const link = $("link");
  const mine = new EventSource(`${base}/events`);
  const everyone = new EventSource("/api/events");
  mine.addEventListener("open", () => { link.textContent = _("live"); link.classList.add("live"); });
  mine.addEventListener("error", async () => {
    link.textContent = _("reconnecting…");
    link.classList.remove("live");
    if (await refusedAccess()) { mine.close(); everyone.close(); }
  });
  mine.addEventListener("hand", (ev) => handleHand(JSON.parse(ev.data)));
  everyone.addEventListener("state", (ev) => {
    const message = JSON.parse(ev.data);
    chain = chain.then(() => handlePublic(message)).catch((err) => console.error(err));
  });
}


function redraw() {
  drawStatus();
  drawChoices();
  drawPrivate();
  drawTold();
  if (current && view.module) chain = chain.then(() => view.module.update(current, [], shell)).catch((err) => console.error(err));
}

async function start() {
  await startLanguage(redraw);
  connect();
}

start();
