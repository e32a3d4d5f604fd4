// Wuxing duel on the dashboard, both modes: le chemin (a path of five islands, secret cards) and le
// théâtre (25 islands, pawns moved in turn). The board, the Wuxing tile, the players' tokens and
// pawns, whose turn it is, and the last move or duel with why it was legal (state.last_text, a
// message of the engine's words). After a chemin game, each duel's equilibrium strategies
// (state.review). Played by hand on the printed board (the table camera), the board the camera
// reads is drawn beside the game's, its squares that differ outlined, with what the referee says.
// See the contract at the top of controller/service/web/static/dashboard.js.
//
// Every word is said through /static/i18n.js when it is drawn, in the reader's language; players
// are named by name and pawn colour ("Ada (white pawns)"), never by seat number.

import { _, format, say } from "/static/i18n.js";

const ELEMENTS = ["wood", "fire", "earth", "metal", "water"];
const NAMES = { wood: () => _("Wood"), fire: () => _("Fire"), earth: () => _("Earth"), metal: () => _("Metal"),
  water: () => _("Water") };
// The printed board's colours (hardware/mats/wuxing.toml), so that the screen looks like the table.
const FILL = { wood: "#6eb95f", fire: "#e66450", earth: "#e1af3c", metal: "#a578c8", water: "#468cdc" };
const TOKEN = { blue: "#1e88e5", red: "#e53935" };
const PAWN = ["#f5f5f5", "#212121"];           // seat 0 plays the white (Yang) pawns, seat 1 the black (Yin)
const INK = ["#000", "#fff"];
const LETTERS = "ABCD";
const CELL = 64;
const NAMED = [() => _("{player} (white pawns)"), () => _("{player} (black pawns)")];
const UNNAMED = [() => _("White pawns"), () => _("Black pawns")];

let board, seenWrap, seen, seenCaption, caption, words, help, recent, playersTitle, playersBody;
let tile, tileTitle, legend, review, reviewPanel, reviewTitle;
const said = [];

const elementName = (e) => (NAMES[e] ? NAMES[e]() : String(e));

function playerName(state, seat) {
  const p = (state.players || [])[seat];
  return p && p.name ? format(NAMED[seat](), { player: p.name }) : UNNAMED[seat]();
}

export function mount(root, shell) {
  board = shell.svg("svg", { id: "wuxing-board", role: "img" });
  seenWrap = shell.el("figure", { id: "wuxing-seen-wrap", class: "wuxing-seen" });
  seen = shell.svg("svg", { id: "wuxing-seen", role: "img" });
  seenCaption = shell.el("figcaption", { class: "wuxing-help" });
  seenWrap.append(seen, seenCaption);
  seenWrap.hidden = true;
  const boards = shell.el("div", { class: "wuxing-boards" });
  boards.append(board, seenWrap);
  caption = shell.el("p", { id: "wuxing-last", class: "wuxing-last" });
  words = shell.el("p", { id: "wuxing-words", class: "wuxing-words" });
  help = shell.el("p", { id: "wuxing-help", class: "wuxing-help" });
  recent = shell.el("ul", { id: "wuxing-events", class: "wuxing-events" });
  root.append(boards, words, caption, help, recent);
  const players = shell.panel("");
  playersTitle = players.querySelector("h2");
  const table = shell.el("table", { id: "wuxing-players" });
  playersBody = shell.el("tbody");
  table.append(playersBody);
  players.append(table);
  const tilePanel = shell.panel("");
  tileTitle = tilePanel.querySelector("h2");
  tile = shell.svg("svg", { id: "wuxing-tile", viewBox: "-110 -110 220 220", role: "img" });
  legend = shell.el("p", { class: "wuxing-legend" });
  tilePanel.append(tile, legend);
  reviewPanel = shell.panel("");
  reviewTitle = reviewPanel.querySelector("h2");
  review = shell.el("div", { id: "wuxing-review" });
  reviewPanel.append(review);
  reviewPanel.hidden = true;
}

export function status(state) {
  const v = state.view;
  if (!v) return "";
  if (v.mode === "chemin") {
    const phase = v.phase === "over" ? _("over") : v.phase === "discard" ? _("opening discard, in secret")
      : format(_("duel {round}, cards chosen in secret"), { round: v.round });
    return format(_("le chemin du duel — {phase}"), { phase });
  }
  const who = v.to_act === null ? "" : playerName(state, v.to_act);
  const doing = v.phase === "flip" ? _("{player} turns an empty island over") : v.phase === "move"
    ? _("{player} to move") : "";
  return format(_("le théâtre du duel — cycle {cycle}, turn {turn}"), { cycle: v.cycle, turn: v.turn }) +
    (doing ? " — " + format(doing, { player: who }) : "");
}

export function update(state, events, shell) {
  playersTitle.textContent = _("Players");
  tileTitle.textContent = _("Wuxing tile");
  reviewTitle.textContent = _("Equilibrium strategies");
  legend.textContent = _("Blue arrow: dominates (a blue token). Red arrow: engenders (a red token).");
  tile.setAttribute("aria-label", _("blue arrows: domination; red arrows: engendering"));
  board.setAttribute("aria-label", _("Wuxing duel board"));
  drawTile(shell);
  for (const e of events || []) {
    if (!e.message) continue;          // the game's own events; the shell's log has the rest
    said.push(e);
    if (said.length > 4) said.shift();
  }
  recent.replaceChildren(...said.slice().reverse().map((e) => shell.el("li", {}, say(e.message || e.text))));
  if (!state.view) {
    board.replaceChildren();
    seenWrap.hidden = true;
    caption.textContent = "";
    words.textContent = "";
    help.textContent = "";
    playersBody.replaceChildren();
    reviewPanel.hidden = true;
    return;
  }
  const v = state.view;
  if (v.mode === "chemin") drawPath(state, shell); else drawTheatre(board, state, shell);
  drawSeen(state, shell);
  drawPlayers(state, shell);
  caption.textContent = state.last_text ? format(_("Last: {text}."), { text: say(state.last_text) }) : "";
  words.textContent = state.words ? say(state.words) : "";
  help.textContent = v.phase === "over" || !state.wheel_help ? "" : say(state.wheel_help);
  drawReview(state, shell);
  const key = v.mode === "chemin" ? `wuxing-duel-${v.round}` : `wuxing-turn-${v.turn}`;
  shell.shown(key);
}

// ---- the Wuxing tile ---------------------------------------------------------------------------

function corner(i, radius) {
  const angle = -Math.PI / 2 + (2 * Math.PI * i) / 5;
  return [radius * Math.cos(angle), radius * Math.sin(angle)];
}

function arrow(shell, from, to, colour, shorten) {
  const [x1, y1] = from, [x2, y2] = to;
  const len = Math.hypot(x2 - x1, y2 - y1);
  const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const ax = x1 + ux * shorten, ay = y1 + uy * shorten, bx = x2 - ux * shorten, by = y2 - uy * shorten;
  const head = `${bx},${by} ${bx - ux * 9 - uy * 5},${by - uy * 9 + ux * 5} ${bx - ux * 9 + uy * 5},${by - uy * 9 - ux * 5}`;
  return [shell.svg("line", { x1: ax, y1: ay, x2: bx, y2: by, stroke: colour, "stroke-width": 3 }),
    shell.svg("polygon", { points: head, fill: colour })];
}

function drawTile(shell) {
  // Elements around the engendering cycle: red arrows to the next, blue arrows to the one after.
  const nodes = [];
  const at = ELEMENTS.map((_e, i) => corner(i, 80));
  ELEMENTS.forEach((_e, i) => {
    nodes.push(...arrow(shell, at[i], at[(i + 1) % 5], TOKEN.red, 24));
    nodes.push(...arrow(shell, at[i], at[(i + 2) % 5], TOKEN.blue, 24));
  });
  ELEMENTS.forEach((e, i) => {
    nodes.push(shell.svg("circle", { cx: at[i][0], cy: at[i][1], r: 20, fill: FILL[e], stroke: "#000" }));
    nodes.push(shell.svg("text", { x: at[i][0], y: at[i][1], fill: "#000", class: "tile-name" }, elementName(e)));
  });
  tile.replaceChildren(...nodes);
}

// ---- le chemin ---------------------------------------------------------------------------------

function pawn(shell, x, y, seat, label, yinYang) {
  const g = shell.svg("g", { class: `pawn seat-${seat}` });
  g.append(shell.svg("circle", { cx: x, cy: y, r: 17, fill: PAWN[seat], stroke: yinYang ? "#fdd835" : "#777",
    "stroke-width": yinYang ? 4 : 2 }));
  g.append(shell.svg("text", { x, y, fill: INK[seat], class: yinYang ? "pawn-label yin-yang" : "pawn-label" },
    yinYang ? "☯" : label));
  return g;
}

function drawPath(state, shell) {
  const v = state.view;
  const width = 5 * CELL * 1.6;
  board.setAttribute("viewBox", `0 0 ${width} ${CELL * 3}`);
  const nodes = [];
  v.path.forEach((e, i) => {
    const x = CELL * 0.8 + i * CELL * 1.6, y = CELL * 1.5;
    nodes.push(shell.svg("circle", { cx: x, cy: y, r: CELL * 0.6, fill: FILL[e], stroke: "#000", class: "island" }));
    nodes.push(shell.svg("text", { x, y: y + CELL * 0.9, fill: "#e8ecf4", class: "island-name" }, elementName(e)));
    for (const seat of [0, 1]) {
      if (v.positions[seat] === i) {
        nodes.push(pawn(shell, x, y, seat, seat === 0 ? _("Yang") : _("Yin"), v.yin_yang[seat]));
      }
    }
  });
  const ends = [0, 1].map((s) => playerName(state, s));
  nodes.push(shell.svg("text", { x: 8, y: 18, fill: "#8a93a6", class: "end start" },
    "← " + format(_("{player}'s end"), { player: ends[0] })));
  nodes.push(shell.svg("text", { x: width - 8, y: 18, fill: "#8a93a6", class: "end finish" },
    format(_("{player}'s end"), { player: ends[1] }) + " →"));
  const centre = format(_("Centre: {blue} blue, {red} red"), { blue: v.centre.blue, red: v.centre.red });
  nodes.push(shell.svg("text", { x: width / 2, y: CELL * 2.75, fill: "#e8ecf4", class: "centre" }, centre));
  board.replaceChildren(...nodes);
}

// ---- le théâtre --------------------------------------------------------------------------------

const middle = (sq) => [sq[1] * CELL + CELL / 2, sq[0] * CELL + CELL / 2];

function squareTile(shell, r, c, e, extra) {
  const x = c * CELL, y = r * CELL;
  if (e === null) {
    return [shell.svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, fill: "#1c2230",
      stroke: "#2c3446", class: `tile flipped${extra}` })];
  }
  return [shell.svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, fill: FILL[e],
    "fill-opacity": 0.75, stroke: "#000", class: `tile island ${e}${extra}` }),
  shell.svg("text", { x: x + 8, y: y + 13, fill: "#000", class: "island-code" }, elementName(e))];
}

function axes(shell) {
  const nodes = [];
  for (let r = 0; r < 5; r++) {
    nodes.push(shell.svg("text", { x: -10, y: r * CELL + CELL / 2, fill: "#8a93a6", class: "axis" }, String(5 - r)));
  }
  "abcde".split("").forEach((letter, c) => nodes.push(shell.svg("text", { x: c * CELL + CELL / 2, y: 5 * CELL + 14,
    fill: "#8a93a6", class: "axis" }, letter)));
  return nodes;
}

function drawTheatre(svg, state, shell) {
  const v = state.view;
  svg.setAttribute("viewBox", `-20 -4 ${5 * CELL + 24} ${5 * CELL + 28}`);
  const nodes = axes(shell);
  for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) nodes.push(...squareTile(shell, r, c, v.board[r][c], ""));
  const last = state.last_shot || (v.last && v.last.kind === "move" ? v.last : null);
  if (last && last.from && last.to) {
    const [x1, y1] = middle(last.from), [x2, y2] = middle(last.to);
    nodes.push(shell.svg("line", { x1, y1, x2, y2, stroke: TOKEN[last.colour] || "#fff", "stroke-width": 5,
      "stroke-dasharray": "6 4", class: "last-move" }));
  }
  (state.flip_candidates || []).forEach((sq, i) => {
    const [x, y] = middle(sq);
    const chosen = state.aim && state.aim.flip === i;
    nodes.push(shell.svg("circle", { cx: x, cy: y + 6, r: 13, fill: chosen ? "#fff" : "#10131a", stroke: "#fff",
      class: chosen ? "candidate chosen" : "candidate" }));
    nodes.push(shell.svg("text", { x, y: y + 6, fill: chosen ? "#000" : "#fff", class: "axis" }, String(i)));
  });
  v.pawns.forEach((squares, seat) => squares.forEach((sq, p) => {
    if (!sq) return;
    const [x, y] = middle(sq);
    nodes.push(pawn(shell, x, y + 6, seat, LETTERS[p], false));
  }));
  const aim = state.aim;
  if (aim && aim.from && aim.to) {
    const [x1, y1] = middle(aim.from), [x2, y2] = middle(aim.to);
    nodes.push(...arrow(shell, [x1, y1 + 6], [x2, y2 + 6], aim.legal ? "#fdd835" : "#ff5252", 18));
  }
  svg.replaceChildren(...nodes);
}

// The board as the table camera last read it (played by hand on the printed board): pawns as discs
// in their colours, covered islands dark, squares that differ from the game outlined in red, squares
// read with little confidence dashed, pawns still to take off (captured) crossed.
function drawSeen(state, shell) {
  const camera = state.seen;
  seenWrap.hidden = !camera || !state.view || state.view.mode !== "theatre";
  if (seenWrap.hidden) return;
  const v = state.view;
  const expected = state.expected || "";
  const removed = new Set((state.to_remove || []).map(String));
  seen.setAttribute("viewBox", `-20 -4 ${5 * CELL + 24} ${5 * CELL + 28}`);
  seen.setAttribute("aria-label", _("the board as the camera reads it"));
  const nodes = axes(shell);
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 5; c++) {
      const mark = camera.marks[r][c];
      const index = r * 5 + c;
      const differs = expected && expected[index] !== mark && !(removed.has(String(index)) && expected[index] === ".");
      const unsure = camera.confidence[r][c] < 0.5;
      const extra = (differs ? " differs" : "") + (unsure ? " unsure" : "");
      const island = state.islands ? state.islands[r][c] : v.board[r][c];
      nodes.push(...squareTile(shell, r, c, mark === "#" ? null : island, extra));
      if (mark === "W" || mark === "B") {
        const [x, y] = middle([r, c]);
        nodes.push(pawn(shell, x, y + 6, mark === "W" ? 0 : 1, "", false));
        if (removed.has(String(index))) {
          nodes.push(shell.svg("path", { d: `M${x - 12} ${y - 6} L${x + 12} ${y + 18} M${x + 12} ${y - 6} L${x - 12} ${y + 18}`,
            stroke: "#ff5252", "stroke-width": 3, class: "to-remove" }));
        }
      }
    }
  }
  seen.replaceChildren(...nodes);
  seenCaption.textContent = camera.occluded ? _("The camera: something is over the board.")
    : _("The board as the camera reads it (red: not as the game has it).");
}

// ---- the panels --------------------------------------------------------------------------------

function tokens(shell, held) {
  const span = shell.el("span", { class: "tokens" });
  for (const colour of ["blue", "red"]) {
    for (let i = 0; i < held[colour]; i++) span.append(shell.swatch(TOKEN[colour]));
  }
  if (!held.blue && !held.red) span.append(_("no token"));
  return span;
}

function drawPlayers(state, shell) {
  const v = state.view;
  playersBody.replaceChildren(...(state.players || []).map((p, index) => {
    const seat = p.seat === undefined ? index : p.seat;
    const name = shell.el("td");
    name.append(shell.swatch(PAWN[seat]), playerName(state, seat) + (p.bot ? " " + _("(bot)") : ""));
    const detail = shell.el("td", { class: "detail" });
    if (v.mode === "chemin") {
      const parts = [v.strong[seat] ? format(_("strong element {element}"), { element: elementName(v.strong[seat]) })
        : _("captured")];
      if (v.yin_yang[seat]) parts.push(_("Yin-Yang face"));
      if (v.set_aside[seat]) parts.push(format(_("set aside {element}"), { element: elementName(v.set_aside[seat]) }));
      if (v.phase !== "over") parts.push(v.chosen[seat] ? _("has chosen") : _("choosing"));
      detail.append(parts.join(", "));
    } else {
      const left = v.pawns[seat].map((sq, i) => (sq ? LETTERS[i] : "–")).join(" ");
      const parts = [format(_("pawns {letters}"), { letters: left })];
      if (v.to_act === seat) parts.push(v.phase === "flip" ? _("turning an island over") : _("to move"));
      detail.append(parts.join(", "));
    }
    const tr = shell.el("tr", { "data-seat": seat, class: v.to_act === seat ? "to-act" : "" });
    const held = shell.el("td");
    held.append(tokens(shell, v.tokens[seat]));
    tr.append(name, held, detail);
    return tr;
  }));
}

function drawReview(state, shell) {
  const rounds = state.review;
  reviewPanel.hidden = !rounds || !rounds.length;
  if (!rounds || !rounds.length) return;
  const mix = (s) => Object.entries(s).filter(([, p]) => p > 0.005)
    .map(([e, p]) => `${elementName(e)} ${Math.round(p * 100)}%`).join(", ");
  const table = shell.el("table", { class: "wuxing-review" });
  for (const r of rounds) {
    const tr = shell.el("tr");
    tr.append(shell.el("td", {}, r.phase === "discard" ? _("discard") : format(_("duel {round}"), { round: r.round })));
    for (const seat of [0, 1]) {
      tr.append(shell.el("td", {}, format(_("{player}: {element} (equilibrium {mix})"), {
        player: playerName(state, seat), element: r.cards[seat] ? elementName(r.cards[seat]) : "?",
        mix: mix(r.strategies[seat]) })));
    }
    table.append(tr);
  }
  review.replaceChildren(table);
}
