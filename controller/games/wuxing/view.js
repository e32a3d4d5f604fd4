// Wuxing duel on the dashboard, both modes: le chemin (a path of five islands, secret cards) and le
// théâtre (25 islands, pawns moved in turn). The board, the Wuxing tile, the players' tokens and
// pawns, whose turn it is, and the last move or duel with why it was legal (state.last_text, said by
// the engine's words). After a chemin game, each duel's equilibrium strategies (state.review).
// See the contract at the top of controller/service/web/static/dashboard.js.

const ELEMENTS = ["wood", "fire", "earth", "metal", "water"];
const NAMES = { wood: "Wood", fire: "Fire", earth: "Earth", metal: "Metal", water: "Water" };
const FILL = { wood: "#43a047", fire: "#e53935", earth: "#c68a2e", metal: "#90a4ae", water: "#1e88e5" };
const TOKEN = { blue: "#1e88e5", red: "#e53935" };
const PAWN = ["#f5f5f5", "#212121"];           // seat 0 plays the white (Yang) pawns, seat 1 the black (Yin)
const INK = ["#000", "#fff"];
const LETTERS = "ABCD";
const CELL = 64;

let board, caption, help, playersBody, tile, review, reviewPanel;

export function mount(root, shell) {
  board = shell.svg("svg", { id: "wuxing-board", role: "img", "aria-label": "Wuxing duel board" });
  caption = shell.el("p", { id: "wuxing-last", class: "wuxing-last" });
  help = shell.el("p", { id: "wuxing-help", class: "wuxing-help" });
  root.append(board, caption, help);
  const players = shell.panel("Players");
  const table = shell.el("table", { id: "wuxing-players" });
  playersBody = shell.el("tbody");
  table.append(playersBody);
  players.append(table);
  const tilePanel = shell.panel("Wuxing tile");
  tile = shell.svg("svg", { id: "wuxing-tile", viewBox: "-110 -110 220 220", role: "img",
    "aria-label": "blue arrows: domination; red arrows: engendering" });
  tilePanel.append(tile, shell.el("p", { class: "wuxing-legend" },
    "Blue arrow: dominates (a blue token). Red arrow: engenders (a red token)."));
  drawTile(shell);
  reviewPanel = shell.panel("Equilibrium strategies");
  review = shell.el("div", { id: "wuxing-review" });
  reviewPanel.append(review);
  reviewPanel.hidden = true;
}

export function status(state) {
  const v = state.view;
  if (v.mode === "chemin") {
    const phase = v.phase === "discard" ? "opening discard, in secret" : `duel ${v.round}, cards chosen in secret`;
    return `le chemin du duel — ${v.phase === "over" ? "over" : phase}`;
  }
  const who = v.to_act === null ? "" : `, ${(state.players[v.to_act] || {}).name || "player " + v.to_act}`;
  const doing = v.phase === "flip" ? " turns an empty island over" : v.phase === "move" ? " to move" : "";
  return `le théâtre du duel — cycle ${v.cycle}, turn ${v.turn}${who}${doing}`;
}

export function update(state, events, shell) {
  if (!state.game || !state.view) {
    board.replaceChildren();
    caption.textContent = "";
    help.textContent = "";
    playersBody.replaceChildren();
    reviewPanel.hidden = true;
    return;
  }
  const v = state.view;
  if (v.mode === "chemin") drawPath(state, shell); else drawTheatre(state, shell);
  drawPlayers(state, shell);
  caption.textContent = state.last_text ? `Last: ${state.last_text}.` : "";
  help.textContent = v.phase === "over" ? "" : state.wheel_help || "";
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
  const at = ELEMENTS.map((_, i) => corner(i, 80));
  ELEMENTS.forEach((_, i) => {
    nodes.push(...arrow(shell, at[i], at[(i + 1) % 5], TOKEN.red, 24));
    nodes.push(...arrow(shell, at[i], at[(i + 2) % 5], TOKEN.blue, 24));
  });
  ELEMENTS.forEach((e, i) => {
    nodes.push(shell.svg("circle", { cx: at[i][0], cy: at[i][1], r: 20, fill: FILL[e], stroke: "#000" }));
    nodes.push(shell.svg("text", { x: at[i][0], y: at[i][1], fill: "#000", class: "tile-name" }, NAMES[e]));
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
    nodes.push(shell.svg("text", { x, y: y + CELL * 0.9, fill: "#e8ecf4", class: "island-name" }, NAMES[e]));
    for (const seat of [0, 1]) {
      if (v.positions[seat] === i) nodes.push(pawn(shell, x, y, seat, seat === 0 ? "Yang" : "Yin", v.yin_yang[seat]));
    }
  });
  const ends = [state.players[0], state.players[1]].map((p, s) => (p ? p.name : `player ${s}`));
  nodes.push(shell.svg("text", { x: 8, y: 18, fill: "#8a93a6", class: "end start" }, `← ${ends[0]}'s end`));
  nodes.push(shell.svg("text", { x: width - 8, y: 18, fill: "#8a93a6", class: "end finish" }, `${ends[1]}'s end →`));
  const centre = `Centre: ${v.centre.blue} blue, ${v.centre.red} red`;
  nodes.push(shell.svg("text", { x: width / 2, y: CELL * 2.75, fill: "#e8ecf4", class: "centre" }, centre));
  board.replaceChildren(...nodes);
}

// ---- le théâtre --------------------------------------------------------------------------------

const middle = (sq) => [sq[1] * CELL + CELL / 2, sq[0] * CELL + CELL / 2];

function drawTheatre(state, shell) {
  const v = state.view;
  board.setAttribute("viewBox", `-20 -4 ${5 * CELL + 24} ${5 * CELL + 28}`);
  const nodes = [];
  for (let r = 0; r < 5; r++) {
    nodes.push(shell.svg("text", { x: -10, y: r * CELL + CELL / 2, fill: "#8a93a6", class: "axis" }, String(5 - r)));
    for (let c = 0; c < 5; c++) {
      const e = v.board[r][c];
      const x = c * CELL, y = r * CELL;
      if (e === null) {
        nodes.push(shell.svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, fill: "#1c2230",
          stroke: "#2c3446", class: "tile flipped" }));
        continue;
      }
      nodes.push(shell.svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, fill: FILL[e],
        "fill-opacity": 0.75, stroke: "#000", class: `tile island ${e}` }));
      nodes.push(shell.svg("text", { x: x + 8, y: y + 13, fill: "#000", class: "island-code" }, NAMES[e]));
    }
  }
  "abcde".split("").forEach((letter, c) => nodes.push(shell.svg("text", { x: c * CELL + CELL / 2, y: 5 * CELL + 14,
    fill: "#8a93a6", class: "axis" }, letter)));
  if (v.last && v.last.kind === "move") {
    const [x1, y1] = middle(v.last.from), [x2, y2] = middle(v.last.to);
    nodes.push(shell.svg("line", { x1, y1, x2, y2, stroke: TOKEN[v.last.colour], "stroke-width": 5,
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
  board.replaceChildren(...nodes);
}

// ---- the panels --------------------------------------------------------------------------------

function tokens(shell, held) {
  const span = shell.el("span", { class: "tokens" });
  for (const colour of ["blue", "red"]) {
    for (let i = 0; i < held[colour]; i++) span.append(shell.swatch(TOKEN[colour]));
  }
  if (!held.blue && !held.red) span.append("none");
  return span;
}

function drawPlayers(state, shell) {
  const v = state.view;
  playersBody.replaceChildren(...state.players.map((p) => {
    const seat = p.seat;
    const name = shell.el("td");
    name.append(shell.swatch(PAWN[seat]), p.name + (p.bot ? " (bot)" : ""));
    const detail = shell.el("td", { class: "detail" });
    if (v.mode === "chemin") {
      const strong = v.strong[seat] ? `strong element ${NAMES[v.strong[seat]]}` : "captured";
      const aside = v.set_aside[seat] ? `, set aside ${NAMES[v.set_aside[seat]]}` : "";
      const chosen = v.phase !== "over" ? (v.chosen[seat] ? ", has chosen" : ", choosing") : "";
      detail.append(`${strong}${v.yin_yang[seat] ? " (Yin-Yang face)" : ""}${aside}${chosen}`);
    } else {
      const left = v.pawns[seat].map((sq, i) => (sq ? LETTERS[i] : "–")).join(" ");
      const turn = v.to_act === seat ? (v.phase === "flip" ? ", turning an island over" : ", to move") : "";
      detail.append(`pawns ${left}${turn}`);
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
    .map(([e, p]) => `${NAMES[e]} ${Math.round(p * 100)}%`).join(", ");
  const table = shell.el("table", { class: "wuxing-review" });
  for (const r of rounds) {
    const tr = shell.el("tr");
    const what = r.phase === "discard" ? "discard" : `duel ${r.round}`;
    tr.append(shell.el("td", {}, what));
    for (const seat of [0, 1]) {
      const name = (state.players[seat] || {}).name || `player ${seat}`;
      tr.append(shell.el("td", {}, `${name}: ${NAMES[r.cards[seat]] || "?"} (equilibrium ${mix(r.strategies[seat])})`));
    }
    table.append(tr);
  }
  review.replaceChildren(table);
}
