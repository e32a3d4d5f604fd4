// The tournament's standings page: the standings, the round's pairings and each table's state, live
// from the organiser's server-sent events (/api/events). Plain browser JavaScript, no build step; the
// words come from the same catalogues as the dashboard (/static/i18n.js).
//
// The Referee panel, with the organiser's token, records a pairing's result by hand (POST
// /api/result) or has another online table play it (POST /api/move): for a table that never came back.

import { N_, _, format, language, ngettext, say, startLanguage } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const STATE_WORDS = { playing: N_("playing"), waiting: N_("waiting"), offline: N_("offline") };
const TIEBREAK_WORDS = { buchholz: N_("Buchholz"), sonneborn_berger: N_("Sonneborn-Berger"), score: N_("game score"),
  wins: N_("wins") };
const FORMAT_WORDS = { swiss: N_("Swiss"), "round-robin": N_("round-robin"), elimination: N_("single elimination") };

let current = null;
window.__tournament = { messages: 0 };

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== "") node.textContent = text;
  return node;
}

function number(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/0$/, "");
}

function drawHeader(t) {
  $("title").textContent = `${t.name} — ${_(t.title)}`;
  document.title = `${t.name} — bitbox`;
  const form = _(FORMAT_WORDS[t.format] || t.format);
  let words = t.round ? format(_("Round {round} of {rounds}"), { round: t.round, rounds: t.rounds }) : _("Not started");
  if (t.over) words = _("Final standings");
  $("round").textContent = `${form} · ${words}`;
}

function drawStandings(state) {
  const heads = [_("Place"), _("Player"), _("Points"), ...state.tiebreaks.map((k) => _(TIEBREAK_WORDS[k] || k)), _("Games")];
  $("standings-head").replaceChildren(...heads.map((h) => el("th", {}, h)));
  $("standings-body").replaceChildren(...state.standings.map((row) => {
    const tr = el("tr", { "data-player": row.player });
    const cells = [String(row.place), row.name, number(row.points),
      ...state.tiebreaks.map((k) => number(row.tiebreaks[k] || 0)), String(row.games + row.byes)];
    tr.append(...cells.map((c) => el("td", {}, c)));
    return tr;
  }));
}

function resultWords(pairing) {
  if (!pairing.result) return "";
  const winners = pairing.result.winners.map((seat) => pairing.players[seat]);
  const scores = pairing.result.scores.map(number).join(" – ");
  const hand = pairing.source === "hand" ? ` (${_("recorded by hand")})` : "";
  return `${format(ngettext("{names} wins", "{names} win", winners.length), { names: winners.join(", ") })} · ${scores}${hand}`;
}

function drawPairings(state) {
  $("pairings").replaceChildren(...state.pairings.map((p) => {
    const li = el("li", { "data-board": p.board });
    const where = p.table ? format(_("Table {table}"), { table: p.table }) : _("waiting for a table");
    li.append(el("strong", {}, where), el("span", { class: "what" }, p.players.join(" · ")),
      el("span", { class: "small" }, p.result ? resultWords(p) : _("being played")));
    return li;
  }));
  $("byes").textContent = state.byes.length ? format(_("Bye: {names}"), { names: state.byes.join(", ") }) : "";
}

function drawTables(state) {
  $("tables").replaceChildren(...state.tables.map((t) => {
    const li = el("li", { "data-table": t.table });
    const score = t.state === "playing" && Array.isArray(t.score) ? t.score.map(number).join(" – ") : "";
    const detail = t.detail === "paired" ? _("paired, waiting for the start") : "";
    li.append(el("strong", {}, format(_("Table {table}"), { table: t.table })),
      el("span", { class: `state ${t.state}` }, _(STATE_WORDS[t.state] || t.state)),
      el("span", { class: "what" }, [score, detail].filter(Boolean).join(" ")));
    return li;
  }));
}

// ---- the referee's panel -----------------------------------------------------------------------

let refereeKey = "";

// A table's state as the page shows it; a table never seen is as good as offline.
function tableState(state, table) {
  const found = table ? state.tables.find((t) => t.table === table) : null;
  return found ? found.state : "offline";
}

function resultForm(round, pairing) {
  const form = el("form", { "data-form": "result" });
  pairing.players.forEach((name, seat) => {
    const id = `score-${round}-${pairing.board}-${seat}`;
    form.append(el("label", { for: id }, name),
      el("input", { id, type: "number", step: "any", required: "", "data-seat": String(seat) }));
  });
  form.append(el("button", { type: "submit" }, _("Record the result")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const scores = [...form.querySelectorAll("input[data-seat]")].map((input) => Number(input.value));
    send("/api/result", { round, board: pairing.board, scores },
      () => format(_("{players}: result recorded by hand."), { players: pairing.players.join(" · ") }));
  });
  return form;
}

function moveForm(round, pairing, free) {
  const form = el("form", { "data-form": "move" });
  const others = free.filter((table) => table !== pairing.table);
  const select = el("select", { "aria-label": _("an online table") });
  if (others.length) {
    select.append(...others.map((table) => el("option", { value: String(table) }, format(_("Table {table}"), { table }))));
  } else {
    select.append(el("option", { value: "" }, _("no other table is online and free")));
    select.disabled = true;
  }
  const button = el("button", { type: "submit" }, _("Play it there"));
  button.disabled = !others.length;
  form.append(select, button);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const table = Number(select.value);
    send("/api/move", { round, board: pairing.board, table },
      () => format(_("{players} now play at table {table}."), { players: pairing.players.join(" · "), table }));
  });
  return form;
}

function pairingRow(state, round, pairing, free) {
  const where = tableState(state, pairing.table);
  const li = el("li", { "data-board": pairing.board, "data-state": where });
  if (where === "offline") li.classList.add("offline-pairing");
  const head = pairing.table ? format(_("Table {table}"), { table: pairing.table }) : _("waiting for a table");
  li.append(el("strong", {}, head), el("span", { class: `state ${where}` }, _(STATE_WORDS[where] || where)),
    el("span", { class: "what" }, pairing.players.join(" · ")), resultForm(round, pairing), moveForm(round, pairing, free));
  return li;
}

// Redrawn only when the pairings to settle or the free tables change, keeping what was typed.
function drawReferee(state) {
  const round = state.tournament.round;
  const open = state.pairings.filter((p) => !p.result);
  const free = state.free_tables || [];
  const key = JSON.stringify([round, open.map((p) => [p.board, p.table, p.players, tableState(state, p.table)]), free,
    language()]);
  if (key === refereeKey) return;
  refereeKey = key;
  const typed = {};
  for (const input of document.querySelectorAll("#referee-pairings input[data-seat]")) typed[input.id] = input.value;
  $("referee-pairings").replaceChildren(...(open.length ? open.map((p) => pairingRow(state, round, p, free))
    : [el("li", { class: "small" }, _("No pairing is waiting for its result."))]));
  for (const [id, value] of Object.entries(typed)) {
    const input = document.getElementById(id);
    if (input) input.value = value;
  }
}

// A referee's request with the token typed in the panel (or the cookie of the organiser's link).
async function send(path, body, done) {
  const headers = { "Content-Type": "application/json" };
  const token = $("token").value.trim();
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body), credentials: "same-origin" });
  const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  const box = $("referee-result");
  box.classList.toggle("refused", !response.ok);
  box.textContent = response.ok ? done(data) : say(data.message || data.error);
}

function draw() {
  if (!current) return;
  drawHeader(current.tournament);
  drawStandings(current);
  drawPairings(current);
  drawTables(current);
  drawReferee(current);
}

function connect() {
  const source = new EventSource("/api/events");
  source.addEventListener("open", () => { $("link").textContent = _("live"); $("link").classList.add("live"); });
  source.addEventListener("error", () => { $("link").textContent = _("reconnecting…"); $("link").classList.remove("live"); });
  source.addEventListener("standings", (event) => {
    const message = JSON.parse(event.data);
    current = message.state;
    window.__tournament.messages += 1;
    draw();
  });
}

async function start() {
  if (new URLSearchParams(location.search).get("screen") === "big") document.body.classList.add("big");
  await startLanguage(draw);
  connect();
}

start();
