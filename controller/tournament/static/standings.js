// The tournament's standings page: the standings, the round's pairings and each table's state, live
// from the organiser's server-sent events (/api/events). Plain browser JavaScript, no build step; the
// words come from the same catalogues as the dashboard (/static/i18n.js).

import { N_, _, format, ngettext, startLanguage } from "/static/i18n.js";

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

function draw() {
  if (!current) return;
  drawHeader(current.tournament);
  drawStandings(current);
  drawPairings(current);
  drawTables(current);
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
