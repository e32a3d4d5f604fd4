// The bitbox dashboard: draws the public game state sent by the console as server-sent events.
// No build step: plain browser JavaScript. Everything shown comes from /api/events; the console
// never sends a program before it is revealed, so nothing here has to hide anything.
"use strict";

const COLOURS = { red: "#e53935", blue: "#1e88e5", green: "#43a047", yellow: "#fdd835" };
const CELL = 40;
const STEP_MS = 160;
const SVG_NS = "http://www.w3.org/2000/svg";

let lastSeq = 0;
let current = null;       // the latest state message
let chain = Promise.resolve();
window.__bitbox = { shown: {}, messages: 0 };

// ---- small helpers ----------------------------------------------------------------------------

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function svg(tag, attrs = {}, text = "") {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const centre = (pix) => [pix[1] * CELL + CELL / 2, pix[0] * CELL + CELL / 2];
const colourOf = (state, piece) => COLOURS[(state.piece_names || [])[piece]] || "#999";

// ---- pages ------------------------------------------------------------------------------------

function route() {
  const page = (location.hash.replace(/^#\//, "") || "console").split("/")[0];
  const known = ["console", "table"];
  const show = known.includes(page) ? page : "console";
  for (const name of known) {
    document.getElementById(`page-${name}`).hidden = name !== show;
    document.querySelector(`nav a[data-page="${name}"]`).classList.toggle("active", name === show);
  }
}
window.addEventListener("hashchange", route);

// ---- the board --------------------------------------------------------------------------------

function drawBoard(state, positions) {
  const board = document.getElementById("board");
  const view = state.view;
  const rows = view.board;
  const width = (rows[0].length - 1) / 2;
  const height = (rows.length - 1) / 2;
  board.setAttribute("viewBox", `-6 -6 ${width * CELL + 12} ${height * CELL + 12}`);
  board.replaceChildren();

  // Walls and Pix from the drawn grid: '|' and '-' between Pix, 'o' start Pix, '*' bonus Pix.
  for (let r = 0; r < rows.length; r++) {
    for (let c = 0; c < rows[r].length; c++) {
      const ch = rows[r][c];
      if (r % 2 === 1 && c % 2 === 0 && ch === "|") {
        const x = (c / 2) * CELL, y = ((r - 1) / 2) * CELL;
        board.appendChild(svg("line", { x1: x, y1: y, x2: x, y2: y + CELL, class: "wall", stroke: "#4fc3f7", "stroke-width": 4, "stroke-linecap": "round" }));
      } else if (r % 2 === 0 && c % 2 === 1 && ch === "-") {
        const x = ((c - 1) / 2) * CELL, y = (r / 2) * CELL;
        board.appendChild(svg("line", { x1: x, y1: y, x2: x + CELL, y2: y, class: "wall", stroke: "#4fc3f7", "stroke-width": 4, "stroke-linecap": "round" }));
      } else if (r % 2 === 1 && c % 2 === 1) {
        const pix = [(r - 1) / 2, (c - 1) / 2];
        const [x, y] = centre(pix);
        const start = ch === "o";
        board.appendChild(svg("circle", { cx: x, cy: y, r: start ? 5 : 3, fill: start ? "#ef5350" : "#eceff1", class: start ? "pix start" : "pix" }));
      }
    }
  }

  // Free start Pix during placement, numbered as the number wheel counts them.
  const placement = state.placement;
  if (placement) {
    placement.candidates.forEach((pix, i) => {
      const [x, y] = centre(pix);
      const chosen = placement.selected === i;
      board.appendChild(svg("circle", { cx: x, cy: y, r: 13, fill: chosen ? "#ffffff" : "none", stroke: chosen ? "#fff" : "#ef5350", "stroke-width": 2, class: chosen ? "candidate chosen" : "candidate" }));
      board.appendChild(svg("text", { x, y, fill: chosen ? "#000" : "#ef9a9a" }, String(i)));
    });
  }

  // Bonus cubes still in place.
  for (const pix of view.bonus_cubes) {
    const [x, y] = centre(pix);
    board.appendChild(svg("rect", { x: x - 8, y: y - 8, width: 16, height: 16, rx: 2, fill: "#cfd8dc", stroke: "#90a4ae", class: "bonus" }));
  }

  // Every player's cube; Bugs sharing a Pix are drawn side by side.
  const where = {};
  view.pieces.forEach((p) => {
    const pix = positions && positions[p.piece] ? positions[p.piece] : p.pix;
    if (!pix) return;
    const key = pix.join(",");
    (where[key] = where[key] || []).push({ ...p, pix });
  });
  for (const group of Object.values(where)) {
    group.forEach((p, i) => {
      const [cx, cy] = centre(p.pix);
      const shift = (i - (group.length - 1) / 2) * 9;
      const pixoid = p.role === "pixoid";
      const size = pixoid ? 28 : 22;
      const g = svg("g", { class: `piece ${p.role}`, id: `piece-${p.piece}`, "data-piece": p.piece,
        transform: `translate(${cx + shift} ${cy + shift})` });
      if (pixoid) g.appendChild(svg("rect", { x: -size / 2 - 4, y: -size / 2 - 4, width: size + 8, height: size + 8, rx: 6, fill: "none", stroke: "#fff59d", "stroke-width": 3 }));
      g.appendChild(svg("rect", { x: -size / 2, y: -size / 2, width: size, height: size, rx: 4, fill: colourOf(state, p.piece), stroke: "#000", "stroke-width": 1.5 }));
      g.appendChild(svg("text", { x: 0, y: 0, fill: "#000" }, pixoid ? "P" : "B"));
      board.appendChild(g);
    });
  }
}

async function animateMoves(state, moves) {
  // Pixoid moves first, whole path; then the Bugs together, step by step.
  const positions = {};
  for (const m of moves) positions[m.piece] = m.from;
  drawBoard(state, positions);
  const pixoid = moves.filter((m) => m.role === "pixoid");
  const bugs = moves.filter((m) => m.role !== "pixoid");
  for (const group of [pixoid, bugs]) {
    const steps = Math.max(0, ...group.map((m) => m.path.length - 1));
    for (let i = 1; i <= steps; i++) {
      for (const m of group) positions[m.piece] = m.path[Math.min(i, m.path.length - 1)];
      drawBoard(state, positions);
      await sleep(STEP_MS);
    }
  }
}

// ---- the panels -------------------------------------------------------------------------------

function drawStatus(state) {
  const status = document.getElementById("status");
  const banner = document.getElementById("banner");
  banner.hidden = !state.paused;
  banner.textContent = state.paused || "";
  if (!state.game) {
    status.textContent = state.status === "idle" ? "No game is being played." : state.notice;
    return;
  }
  const v = state.view;
  const g = state.game;
  let text = `${g.title} #${g.id} — round ${v.round} of ${v.rounds}, turn ${v.turn}`;
  if (g.over) {
    const names = g.winners.map((s) => state.players[s].name).join(" and ");
    text = `${g.title} #${g.id} — game over: ${names} win${g.winners.length === 1 ? "s" : ""}`;
  } else if (state.status === "aborted") {
    text += " — aborted";
  } else if (state.phase === "placement") {
    text += " — placing cubes on start Pix";
  } else if (state.phase === "programming") {
    text += " — secret programming";
  }
  status.textContent = text;
}

function drawPlayers(state) {
  const body = document.querySelector("#players tbody");
  body.replaceChildren();
  const v = state.view;
  state.players.forEach((p) => {
    const tr = el("tr", { "data-seat": p.seat });
    const name = el("td");
    const pieces = v.pieces.filter((x) => x.controller === p.seat);
    for (const x of pieces) {
      const sw = el("span", { class: "swatch" });
      sw.style.background = colourOf(state, x.piece);
      name.appendChild(sw);
    }
    name.appendChild(document.createTextNode(p.name + (p.bot ? " (bot)" : "")));
    const role = el("td", { class: p.seat === v.pixoid_seat ? "role-pixoid" : "" }, p.seat === v.pixoid_seat ? "Pixoid" : "Bug");
    const score = el("td", { class: "score" }, String(state.scores[p.seat]));
    tr.append(name, role, score);
    body.appendChild(tr);
  });
  document.getElementById("reserve").textContent =
    `Reserve: ${v.reserve} of 12 cubes left · Pixoid holds ${v.reserve_taken} reserve + ${v.bonus_taken} bonus cubes`;
}

function drawControllers(state) {
  const list = document.getElementById("controllers");
  list.replaceChildren();
  for (const c of state.controllers) {
    const li = el("li", { "data-controller": c.id });
    const sw = el("span", { class: "swatch" });
    sw.style.background = COLOURS[c.colour] || "#999";
    li.appendChild(sw);
    const owner = c.owner_name ? ` — ${c.owner_name}` : "";
    const label = c.id === c.colour ? c.id : `${c.id} (${c.colour})`;
    li.appendChild(document.createTextNode(`${label}${owner}`));
    let word = "ready to program", cls = "off";
    if (!c.connected) { word = "unplugged"; cls = "unplugged"; }
    else if (c.locked) { word = "locked"; cls = "locked"; }
    else if (c.refused) { word = "refused"; cls = "unplugged"; }
    else if (c.turning) { word = "turning"; cls = "turning"; }
    li.appendChild(el("span", { class: `state ${cls}` }, word));
    if (c.message) li.appendChild(el("span", { class: "msg" }, c.message));
    list.appendChild(li);
  }
  const waiting = document.getElementById("waiting");
  if (state.waiting_for && state.waiting_for.length) {
    const who = state.waiting_for.map((w) => `${w.name} (${w.pieces.map((p) => state.piece_names[p]).join(", ")})`);
    waiting.textContent = `Waiting for: ${who.join(", ")}`;
  } else {
    waiting.textContent = "";
  }
}

function drawLog(state) {
  const list = document.getElementById("log");
  list.replaceChildren();
  for (const e of state.log.slice().reverse()) {
    list.appendChild(el("li", { class: `kind-${e.kind}` }, e.text));
  }
}

function drawTurnResult(state, revealed) {
  const box = document.getElementById("turn-result");
  const last = revealed ? revealed.data : (state.view && state.view.last_turn);
  if (!last) { box.replaceChildren(); return; }
  const key = `r${last.round}-t${last.turn}`;
  if (box.dataset.turn === key && !revealed) return;
  box.replaceChildren(el("strong", {}, `Turn ${last.turn} of round ${last.round}: `));
  for (const p of last.programs) {
    const span = el("span", { class: "prog" });
    const sw = el("span", { class: "swatch" });
    sw.style.background = colourOf(state, p.piece);
    span.append(sw, document.createTextNode(`${p.role === "pixoid" ? "Pixoid" : "Bug"} ${p.direction} ${p.distance}`));
    box.appendChild(span);
  }
  box.dataset.turn = key;
  requestAnimationFrame(() => {
    if (!(key in window.__bitbox.shown)) window.__bitbox.shown[key] = performance.timeOrigin + performance.now();
  });
}

function drawPanels(state, revealed) {
  drawStatus(state);
  if (!state.game) return;
  drawPlayers(state);
  drawControllers(state);
  drawLog(state);
  drawTurnResult(state, revealed);
}

// ---- the live stream --------------------------------------------------------------------------

async function handle(message) {
  if (message.seq <= lastSeq) return;
  lastSeq = message.seq;
  current = message;
  window.__bitbox.messages += 1;
  const state = message.state;
  const events = message.events || [];
  if (state && state.table) { drawTable(state); return; }
  const revealed = events.filter((e) => e.kind === "revealed").pop();
  drawPanels(state, revealed);
  if (!state.game) { document.getElementById("board").replaceChildren(); return; }
  const moves = events.filter((e) => e.kind === "moved").map((e) => e.data);
  if (moves.length) {
    await animateMoves(state, moves);
  }
  if (current === message || !moves.length) drawBoard(current.state);
}

function connect() {
  const link = document.getElementById("link");
  const source = new EventSource("/api/events");
  source.addEventListener("open", () => { link.textContent = "live"; link.classList.add("live"); });
  source.addEventListener("error", () => { link.textContent = "reconnecting…"; link.classList.remove("live"); });
  source.addEventListener("state", (ev) => {
    const message = JSON.parse(ev.data);
    chain = chain.then(() => handle(message)).catch((err) => console.error(err));
  });
}

// ---- referee controls -------------------------------------------------------------------------

function setupReferee() {
  const params = new URLSearchParams(location.search);
  const input = document.getElementById("token");
  if (params.get("token")) input.value = params.get("token");
  for (const button of document.querySelectorAll("#referee button")) {
    button.addEventListener("click", async () => {
      const result = document.getElementById("referee-result");
      const response = await fetch(`/api/game/${button.dataset.command}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${input.value}` },
        body: button.dataset.body || "{}",
      });
      const data = await response.json();
      result.textContent = response.ok ? "done" : data.error;
    });
  }
}


// ---- the table page (PuXes) -------------------------------------------------------------------

const ZONE_FILL = { public_garden: "#5c8f4a", sacred_garden: "#b2536a", temple: "#d7c49e" };
let tableState = null;
let tableRouted = false;

function tableToken() { return document.getElementById("table-token").value; }

async function tablePost(path, body) {
  const result = document.getElementById("table-result");
  const response = await fetch(`/api/table/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${tableToken()}` },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  result.textContent = response.ok ? "done" : data.error;
  if (!response.ok) {
    document.getElementById("table-referee").open = true;
    const banner = document.getElementById("table-banner");
    banner.hidden = false;
    banner.textContent = data.error;
    setTimeout(() => { banner.hidden = true; }, 6000);
  }
  return response.ok;
}

function dieShape(d, size, attrs) {
  const g = svg("g", { transform: `translate(${d.x} ${d.y}) rotate(${d.angle || 0})` });
  g.append(svg("rect", { x: -size / 2, y: -size / 2, width: size, height: size, rx: 2, ...attrs }));
  return g;
}

function drawMat(state) {
  const mat = state.mat;
  const board = document.getElementById("mat");
  const margin = 40;
  board.setAttribute("viewBox", `${-margin} ${-margin} ${mat.width_mm + 2 * margin} ${mat.height_mm + 2 * margin}`);
  const nodes = [];
  nodes.push(svg("rect", { x: 0, y: 0, width: mat.width_mm, height: mat.height_mm, fill: "#2f5d8a", rx: 6,
                           "data-kind": "mat" }));
  if (state.area) {
    const a = state.area;
    nodes.push(svg("rect", { x: a.x, y: a.y, width: a.width_mm, height: a.height_mm, fill: "none",
                             stroke: "#9ec5ea", "stroke-dasharray": "6 6", "stroke-width": 2 }));
  }
  for (const z of mat.zones) {
    const points = z.polygon.map((p) => p.join(",")).join(" ");
    const colour = z.kind === "temple" ? ZONE_FILL.temple : (ZONE_FILL[z.kind] || "#777");
    nodes.push(svg("polygon", { points, fill: colour, "fill-opacity": z.kind === "temple" ? 0.35 : 0.45,
                                stroke: colour, "stroke-width": 1.5, "data-zone": z.name }));
  }
  const players = state.players || [];
  const colour = (owner) => (players[owner] || {}).colour || "#bbb";
  const size = state.die_mm || 16;
  // the last shot: where the moved dice were (ghosts) and where they went (arrows)
  const shot = state.last_shot;
  if (shot) {
    for (const m of shot.moves) {
      if (m.from) {
        nodes.push(dieShape({ x: m.from[0], y: m.from[1] }, size, { fill: "none", stroke: colour(m.owner),
          "stroke-dasharray": "3 2", "stroke-width": 1.5, "data-ghost": m.die }));
      }
      if (m.from && m.to) {
        nodes.push(svg("line", { x1: m.from[0], y1: m.from[1], x2: m.to[0], y2: m.to[1], stroke: "#fff",
          "stroke-width": 1.5, "marker-end": "url(#arrow)", "data-arrow": m.die }));
      } else if (m.from) {
        nodes.push(svg("text", { x: m.from[0], y: m.from[1] - size, fill: "#fff" }, "left"));
      }
    }
  }
  for (const t of state.temples || []) {
    const g = svg("g", { "data-temple": t.index, "data-status": t.status });
    if (t.status === "standing") {
      g.append(dieShape({ x: t.x, y: t.y, angle: 0 }, size, { fill: "#eee", stroke: colour(t.owner), "stroke-width": 3 }));
      g.append(dieShape({ x: t.x, y: t.y, angle: 45 }, size * 0.7, { fill: "#fff", stroke: colour(t.owner), "stroke-width": 2 }));
    } else {
      g.append(dieShape({ x: t.x, y: t.y, angle: 0 }, size, { fill: "#666", stroke: colour(t.owner), "stroke-width": 2 }));
      g.append(svg("text", { x: t.x, y: t.y + size, fill: "#ff8a80" }, t.status === "dixe" ? "DiXé" : t.status));
    }
    nodes.push(g);
  }
  for (const s of state.toppled || []) {
    nodes.push(svg("circle", { cx: s.x, cy: s.y, r: size, fill: "none", stroke: "#ff5252", "stroke-width": 2,
                               "data-toppled": "1" }));
  }
  const asleep = [];
  for (const d of state.dice || []) {
    if (d.role === "temple") continue;
    if (d.role === "oracle" && d.status !== "play") { asleep.push(d); continue; }
    if (d.x === null || d.y === null) continue;
    const hero = d.role === "hero";
    const g = dieShape(d, size, { fill: colour(d.owner), "fill-opacity": hero ? 0.45 : 1,
      stroke: (state.may_move || []).includes(d.id) ? "#fff" : "#111", "stroke-width": (state.may_move || []).includes(d.id) ? 3 : 1 });
    g.setAttribute("data-die", d.id);
    g.setAttribute("data-owner", d.owner);
    g.append(svg("text", { class: "face", x: 0, y: 0 }, (d.face || "?").slice(0, 3)));
    nodes.push(g);
  }
  // dice the camera sees that the game places nowhere (heroes just thrown, dice set aside)
  const placed = (state.dice || []).filter((d) => d.x !== null && d.y !== null);
  for (const t of state.temples || []) placed.push(t);
  for (const s of state.seen || []) {
    if (placed.some((d) => Math.hypot(d.x - s.x, d.y - s.y) < size * 0.8)) continue;
    nodes.push(dieShape(s, size, { fill: "#ddd", "fill-opacity": 0.35, stroke: "#ddd", "data-seen": "1" }));
  }
  const defs = svg("defs");
  const marker = svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6,
                                 orient: "auto-start-reverse" });
  marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#fff" }));
  defs.append(marker);
  board.replaceChildren(defs, ...nodes);
  return asleep;
}

function drawTable(state) {
  tableState = state;
  if (!tableRouted) {
    tableRouted = true;
    document.querySelector('nav a[data-page="console"]').hidden = true;
    if (!location.hash.startsWith("#/table")) location.hash = "#/table";
  }
  const status = document.getElementById("table-status");
  const players = state.players || [];
  const name = (seat) => (players[seat] || {}).name || `player ${seat}`;
  if (state.over) status.textContent = `Game #${state.game_id} is over. Winner: ${(state.winners || []).join(" and ") || "nobody"}.`;
  else if (state.status !== "playing") status.textContent = `Game #${state.game_id}: ${state.status}`;
  else status.textContent = `Game #${state.game_id}, turn ${state.turn}: ${state.prompt || ""}`;
  if (!state.mat) return;
  const asleep = drawMat(state);
  const legend = document.getElementById("table-legend");
  legend.textContent = "Solid: oracles in their player's colour (white outline: may move now). Grey: other dice the " +
    "camera sees (heroes). Dashed outlines and arrows: where the last shot's dice were and where they went.";
  const list = document.getElementById("table-players");
  list.replaceChildren(...players.map((p, seat) => {
    const li = el("li");
    li.append(el("span", { class: "swatch", style: `background:${p.colour}` }), `${p.name}`);
    const sleeping = asleep.filter((d) => d.owner === seat);
    const oracles = (state.dice || []).filter((d) => d.role === "oracle" && d.owner === seat && d.status === "play");
    li.append(el("span", { class: "state" }, `${oracles.length} in play, ${sleeping.length} asleep`));
    if (sleeping.length) {
      li.append(el("span", { class: "msg", "data-asleep": seat },
        "asleep: " + sleeping.map((d) => `oracle ${d.id} (${d.status})`).join(", ")));
    }
    return li;
  }));
  const questions = document.getElementById("questions");
  const open = state.questions || [];
  document.getElementById("questions-panel").classList.toggle("pending", open.length > 0);
  questions.replaceChildren(...(open.length ? open.map((q) => {
    const li = el("li", { "data-question": q.question_id });
    li.append(el("span", {}, q.text), el("span", { class: "why" }, q.reason));
    for (const choice of q.choices) {
      const b = el("button", { "data-choice": choice }, choice);
      b.addEventListener("click", () => tablePost("answer", { question_id: q.question_id, choice }));
      li.append(b);
    }
    return li;
  }) : [el("li", { class: "small" }, "No question for the players.")]));
  const choices = document.getElementById("choices");
  const offered = state.choices || [];
  choices.replaceChildren(...(offered.length ? offered.map((c) => {
    const li = el("li");
    const b = el("button", { "data-action": JSON.stringify(c.action) }, `${name(c.player)}: ${c.text}`);
    b.addEventListener("click", () => tablePost("action", { player: c.player, action: c.action }));
    li.append(b);
    return li;
  }) : [el("li", { class: "small" }, "Nothing to announce now: play on the table.")]));
  const calls = document.getElementById("calls");
  calls.replaceChildren(...(state.calls || []).slice().reverse().map((c) => {
    const li = el("li", { "data-call": c.call_id });
    const head = el("span", { class: c.overruled_by ? "overruled" : "" });
    head.append(el("span", { class: "decision" }, `#${c.call_id} ${c.decision}`), c.reason);
    li.append(head);
    if (c.alternatives && c.alternatives.length && !c.overruled_by) {
      const select = el("select", { "aria-label": `overrule call ${c.call_id}` });
      for (const alt of c.alternatives) select.append(el("option", { value: alt }, alt));
      const b = el("button", { "data-overrule": c.call_id }, "Overrule");
      b.addEventListener("click", () => tablePost("overrule", { call_id: c.call_id, decision: select.value }));
      const row = el("div");
      row.append(select, " ", b);
      li.append(row);
    }
    return li;
  }));
  const log = document.getElementById("table-log");
  log.replaceChildren(...(state.log || []).slice().reverse().map((e) => el("li", { class: `kind-${e.kind}` }, e.text)));
}

function setupTableToken() {
  const params = new URLSearchParams(location.search);
  if (params.get("token")) document.getElementById("table-token").value = params.get("token");
}

route();
setupReferee();
setupTableToken();
connect();
