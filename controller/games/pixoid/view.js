// Pixoid on the dashboard: the board, each turn's moves step by step, the players with their
// roles and scores, the reserve, and the programs revealed by the last turn. See the contract at
// the top of controller/service/web/static/dashboard.js. Every word is said through
// /static/i18n.js when it is drawn, in the reader's language; players are named by name and colour,
// pieces as the engine's texts name them ("Pixoid", "the blue Bug").

import { _, format, language } from "/static/i18n.js";

const CELL = 40;
const STEP_MS = 160;
const WALL = { class: "wall", stroke: "#4fc3f7", "stroke-width": 4, "stroke-linecap": "round" };

// The view's words, looked up when drawn (the language may change between two draws).
const DIRECTIONS = { up: () => _("up"), right: () => _("right"), down: () => _("down"), left: () => _("left") };
const NAMED = {
  red: () => _("{name} (red)"), blue: () => _("{name} (blue)"), green: () => _("{name} (green)"),
  yellow: () => _("{name} (yellow)"),
};
const BUGS = {
  red: () => _("the red Bug"), blue: () => _("the blue Bug"), green: () => _("the green Bug"),
  yellow: () => _("the yellow Bug"),
};
const PHASES = { placement: () => _("placing the cubes"), programming: () => _("secret programming") };

let board, turnResult, playersTitle, playersBody, reserve;

export function mount(root, shell) {
  board = shell.svg("svg", { id: "board", role: "img" });
  turnResult = shell.el("div", { id: "turn-result", class: "turn-result", "data-turn": "" });
  root.append(board, turnResult);
  const players = shell.panel("");
  playersTitle = players.querySelector("h2");
  const table = shell.el("table", { id: "players" });
  playersBody = shell.el("tbody");
  table.append(playersBody);
  reserve = shell.el("p", { id: "reserve", class: "reserve" });
  players.append(table, reserve);
}

export function status(state) {
  const v = state.view;
  const phase = PHASES[state.phase];
  const words = format(_("round {round} of {rounds}, turn {turn}"), { round: v.round, rounds: v.rounds, turn: v.turn });
  return phase && state.status !== "aborted" ? `${words} — ${phase()}` : words;
}

export async function update(state, events, shell) {
  board.setAttribute("aria-label", _("Pixoid board"));
  if (playersTitle) playersTitle.textContent = _("Players");
  if (!state.game) {
    board.replaceChildren();
    return;
  }
  drawPlayers(state, shell);
  drawTurnResult(state, events.filter((e) => e.kind === "revealed").pop(), shell);
  const moves = events.filter((e) => e.kind === "moved").map((e) => e.data);
  if (moves.length) {
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));  // the programs on screen first
    await animateMoves(state, moves, shell);
  }
  drawBoard(state, shell);
}

const centre = (pix) => [pix[1] * CELL + CELL / 2, pix[0] * CELL + CELL / 2];
const colourOf = (state, piece, shell) => shell.colour((state.piece_names || [])[piece]);
const roleName = (role) => (role === "pixoid" ? _("Pixoid") : _("Bug"));

// A player by name and colour ("Ada (red)"); seat i plays the cube of colour i.
function playerName(state, seat, name) {
  const colour = (state.piece_names || [])[seat];
  return colour in NAMED ? format(NAMED[colour](), { name }) : name;
}

// A piece: "Pixoid", or its Bug by colour ("the blue Bug").
function pieceName(state, piece, role) {
  const colour = (state.piece_names || [])[piece];
  return role === "pixoid" || !(colour in BUGS) ? _("Pixoid") : BUGS[colour]();
}

// ---- the board --------------------------------------------------------------------------------

function drawGrid(rows, shell) {
  // The drawn grid: '|' and '-' are walls between Pix, 'o' a start Pix; every other odd cell a Pix.
  const nodes = [];
  for (let r = 0; r < rows.length; r++) {
    for (let c = 0; c < rows[r].length; c++) {
      const ch = rows[r][c];
      if (r % 2 === 1 && c % 2 === 0 && ch === "|") {
        const x = (c / 2) * CELL, y = ((r - 1) / 2) * CELL;
        nodes.push(shell.svg("line", { x1: x, y1: y, x2: x, y2: y + CELL, ...WALL }));
      } else if (r % 2 === 0 && c % 2 === 1 && ch === "-") {
        const x = ((c - 1) / 2) * CELL, y = (r / 2) * CELL;
        nodes.push(shell.svg("line", { x1: x, y1: y, x2: x + CELL, y2: y, ...WALL }));
      } else if (r % 2 === 1 && c % 2 === 1) {
        const [x, y] = centre([(r - 1) / 2, (c - 1) / 2]);
        const start = ch === "o";
        nodes.push(shell.svg("circle", { cx: x, cy: y, r: start ? 5 : 3, fill: start ? "#ef5350" : "#eceff1",
          class: start ? "pix start" : "pix" }));
      }
    }
  }
  return nodes;
}

function drawCandidates(placement, shell) {
  // Free start Pix during placement, numbered as the number wheel counts them.
  if (!placement) return [];
  return placement.candidates.flatMap((pix, i) => {
    const [x, y] = centre(pix);
    const chosen = placement.selected === i;
    return [
      shell.svg("circle", { cx: x, cy: y, r: 13, fill: chosen ? "#ffffff" : "none", stroke: chosen ? "#fff" : "#ef5350",
        "stroke-width": 2, class: chosen ? "candidate chosen" : "candidate" }),
      shell.svg("text", { x, y, fill: chosen ? "#000" : "#ef9a9a" }, String(i)),
    ];
  });
}

function drawPiece(p, shift, state, shell) {
  const [cx, cy] = centre(p.pix);
  const pixoid = p.role === "pixoid";
  const size = pixoid ? 28 : 22;
  const g = shell.svg("g", { class: `piece ${p.role}`, id: `piece-${p.piece}`, "data-piece": p.piece,
    transform: `translate(${cx + shift} ${cy + shift})` });
  g.append(shell.svg("title", {}, pieceName(state, p.piece, p.role)));
  if (pixoid) {
    g.append(shell.svg("rect", { x: -size / 2 - 4, y: -size / 2 - 4, width: size + 8, height: size + 8, rx: 6,
      fill: "none", stroke: "#fff59d", "stroke-width": 3 }));
  }
  g.append(shell.svg("rect", { x: -size / 2, y: -size / 2, width: size, height: size, rx: 4,
    fill: colourOf(state, p.piece, shell), stroke: "#000", "stroke-width": 1.5 }));
  g.append(shell.svg("text", { x: 0, y: 0, fill: "#000" }, pixoid ? "P" : "B"));
  return g;
}

function drawBoard(state, shell, positions = {}) {
  const view = state.view;
  const rows = view.board;
  const width = (rows[0].length - 1) / 2;
  const height = (rows.length - 1) / 2;
  board.setAttribute("viewBox", `-6 -6 ${width * CELL + 12} ${height * CELL + 12}`);
  const nodes = [...drawGrid(rows, shell), ...drawCandidates(state.placement, shell)];
  for (const pix of view.bonus_cubes) {
    const [x, y] = centre(pix);
    nodes.push(shell.svg("rect", { x: x - 8, y: y - 8, width: 16, height: 16, rx: 2, fill: "#cfd8dc", stroke: "#90a4ae",
      class: "bonus" }));
  }
  // Cubes sharing a Pix are drawn side by side.
  const where = {};
  for (const p of view.pieces) {
    const pix = positions[p.piece] || p.pix;
    if (pix) (where[pix.join(",")] ||= []).push({ ...p, pix });
  }
  for (const group of Object.values(where)) {
    group.forEach((p, i) => nodes.push(drawPiece(p, (i - (group.length - 1) / 2) * 9, state, shell)));
  }
  board.replaceChildren(...nodes);
}

async function animateMoves(state, moves, shell) {
  // The Pixoid moves first, its whole path; then the Bugs together, step by step.
  const positions = {};
  for (const m of moves) positions[m.piece] = m.from;
  drawBoard(state, shell, positions);
  const pixoid = moves.filter((m) => m.role === "pixoid");
  const bugs = moves.filter((m) => m.role !== "pixoid");
  for (const group of [pixoid, bugs]) {
    const steps = Math.max(0, ...group.map((m) => m.path.length - 1));
    for (let i = 1; i <= steps; i++) {
      for (const m of group) positions[m.piece] = m.path[Math.min(i, m.path.length - 1)];
      drawBoard(state, shell, positions);
      await shell.sleep(STEP_MS);
    }
  }
}

// ---- the panels -------------------------------------------------------------------------------

function drawPlayers(state, shell) {
  const v = state.view;
  playersBody.replaceChildren(...state.players.map((p) => {
    const name = shell.el("td");
    for (const x of v.pieces.filter((x) => x.controller === p.seat)) name.append(shell.swatch(colourOf(state, x.piece, shell)));
    const who = playerName(state, p.seat, p.name);
    name.append(p.bot ? format(_("{player}, played by the computer"), { player: who }) : who);
    const pixoid = p.seat === v.pixoid_seat;
    const tr = shell.el("tr", { "data-seat": p.seat });
    tr.append(name, shell.el("td", { class: pixoid ? "role-pixoid" : "" }, roleName(pixoid ? "pixoid" : "bug")),
      shell.el("td", { class: "score" }, String(state.scores[p.seat])));
    return tr;
  }));
  reserve.textContent = format(_("Reserve: {left} of 12 left · Pixoid's cubes: {taken} from the reserve + {bonus} bonus"),
    { left: v.reserve, taken: v.reserve_taken, bonus: v.bonus_taken });
}

function drawTurnResult(state, revealed, shell) {
  const last = revealed ? revealed.data : state.view.last_turn;
  if (!last) {
    turnResult.replaceChildren();
    return;
  }
  const key = `r${last.round}-t${last.turn}`;
  if (turnResult.dataset.turn === key && turnResult.dataset.lang === language() && !revealed) return;
  const title = format(_("Turn {turn} of round {round}:"), { turn: last.turn, round: last.round });
  turnResult.replaceChildren(shell.el("strong", {}, `${title} `));
  for (const p of last.programs) {
    const span = shell.el("span", { class: "prog" });
    const way = p.direction in DIRECTIONS ? DIRECTIONS[p.direction]() : p.direction;
    span.append(shell.swatch(colourOf(state, p.piece, shell)),
      format(_("{piece}: {direction} {distance}"), { piece: roleName(p.role), direction: way, distance: p.distance }));
    turnResult.append(span);
  }
  turnResult.dataset.turn = key;
  turnResult.dataset.lang = language();
  shell.shown(key);
}
