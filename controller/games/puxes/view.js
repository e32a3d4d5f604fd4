// PuXes on the dashboard: the mat as the camera sees it (zones, temples, oracles, the last shot,
// the die an open question is about) and each player's oracles in play and set aside. The questions, announcements and calls are the
// shell's. See the contract at the top of controller/service/web/static/dashboard.js.
//
// Every word is said through /static/i18n.js when it is drawn, in the reader's language: players
// by name and colour ("Ada (red)"), oracles by the face they show, as the engine's texts name them.

import { _, format, naturalList, ngettext, say } from "/static/i18n.js";

const ZONE_FILL = { public_garden: "#5c8f4a", sacred_garden: "#b2536a", temple: "#d7c49e" };
const MARGIN = 40;

// The words, looked up when drawn (the language may change between two draws). Seats 0 to 3 play
// red, blue, green and yellow, the colours the service gives them.
const NAMED = [
  () => _("{name} (red)"), () => _("{name} (blue)"), () => _("{name} (green)"), () => _("{name} (yellow)"),
];
const UNNAMED = [() => _("Red"), () => _("Blue"), () => _("Green"), () => _("Yellow")];
const SYMBOLS = {
  pirate: () => _("pirate"), smiley: () => _("smiley"), soleil: () => _("sun"), bombe: () => _("bomb"),
  "yin-yang": () => _("yin-yang"), sablier: () => _("hourglass"), "tete-de-mort": () => _("skull"),
  pi: () => _("pi"), aum: () => _("aum"),
};
const SET_ASIDE = {
  asleep: () => _("{face} oracle (asleep)"),
  lost: () => _("{face} oracle (lost off the cliff)"),
  out: () => _("{face} oracle (out of the game)"),
};
const TEMPLE_STATUS = { dixe: () => _("DiXé"), removed: () => _("removed") };

let mat, legend, playersTitle, playersList;

export function mount(root, shell) {
  root.classList.add("mat-wrap");
  mat = shell.svg("svg", { id: "mat", role: "img" });
  legend = shell.el("p", { id: "table-legend", class: "small" });
  root.append(mat, legend);
  const players = shell.panel("");
  playersTitle = players.querySelector("h2");
  playersList = shell.el("ul", { id: "table-players", class: "controllers" });
  players.append(playersList);
}

export function update(state, events, shell) {
  mat.setAttribute("aria-label", _("PuXes mat"));
  if (playersTitle) playersTitle.textContent = _("Players");
  if (!state.mat) return;
  const asleep = drawMat(state, shell);
  legend.textContent = _("Solid: oracles in their player's colour (white outline: may move now). Grey: other dice the camera sees (heroes). Dashed outlines and arrows: where the last shot's dice were and where they went.");
  drawPlayers(state, asleep, shell);
}

// A player as every text names them: by name and colour, or by colour alone.
function playerName(state, seat) {
  const p = (state.players || [])[seat] || {};
  const k = seat % NAMED.length;
  return p.name ? format(NAMED[k](), { name: p.name }) : UNNAMED[k]();
}

function faceWord(face) {
  if (!face) return _("no face yet");
  return SYMBOLS[face] ? SYMBOLS[face]() : face;
}

function dieShape(d, size, attrs, shell) {
  const g = shell.svg("g", { transform: `translate(${d.x} ${d.y}) rotate(${d.angle || 0})` });
  g.append(shell.svg("rect", { x: -size / 2, y: -size / 2, width: size, height: size, rx: 2, ...attrs }));
  return g;
}

function drawZones(state, shell) {
  const m = state.mat;
  const nodes = [shell.svg("rect", { x: 0, y: 0, width: m.width_mm, height: m.height_mm, fill: "#2f5d8a", rx: 6,
    "data-kind": "mat" })];
  if (state.area) {
    const a = state.area;
    nodes.push(shell.svg("rect", { x: a.x, y: a.y, width: a.width_mm, height: a.height_mm, fill: "none",
      stroke: "#9ec5ea", "stroke-dasharray": "6 6", "stroke-width": 2 }));
  }
  for (const z of m.zones) {
    const points = z.polygon.map((p) => p.join(",")).join(" ");
    const colour = ZONE_FILL[z.kind] || "#777";
    nodes.push(shell.svg("polygon", { points, fill: colour, "fill-opacity": z.kind === "temple" ? 0.35 : 0.45,
      stroke: colour, "stroke-width": 1.5, "data-zone": z.name }));
  }
  return nodes;
}

function drawLastShot(shot, size, shell) {
  // Where the moved dice were (dashed ghosts) and where they went (arrows).
  const nodes = [];
  for (const m of shot ? shot.moves : []) {
    if (m.from) {
      nodes.push(dieShape({ x: m.from[0], y: m.from[1] }, size, { fill: "none", stroke: shell.seatColour(m.owner),
        "stroke-dasharray": "3 2", "stroke-width": 1.5, "data-ghost": m.die }, shell));
    }
    if (m.from && m.to) {
      nodes.push(shell.svg("line", { x1: m.from[0], y1: m.from[1], x2: m.to[0], y2: m.to[1], stroke: "#fff",
        "stroke-width": 1.5, "marker-end": "url(#arrow)", "data-arrow": m.die }));
    } else if (m.from) {
      nodes.push(shell.svg("text", { x: m.from[0], y: m.from[1] - size, fill: "#fff" }, _("left the area")));
    }
  }
  return nodes;
}

function drawTemple(t, size, shell) {
  const g = shell.svg("g", { "data-temple": t.index, "data-status": t.status });
  const owner = shell.seatColour(t.owner);
  if (t.status === "standing") {
    g.append(dieShape({ x: t.x, y: t.y, angle: 0 }, size, { fill: "#eee", stroke: owner, "stroke-width": 3 }, shell));
    g.append(dieShape({ x: t.x, y: t.y, angle: 45 }, size * 0.7, { fill: "#fff", stroke: owner, "stroke-width": 2 }, shell));
  } else {
    g.append(dieShape({ x: t.x, y: t.y, angle: 0 }, size, { fill: "#666", stroke: owner, "stroke-width": 2 }, shell));
    const word = TEMPLE_STATUS[t.status] ? TEMPLE_STATUS[t.status]() : t.status;
    g.append(shell.svg("text", { x: t.x, y: t.y + size, fill: "#ff8a80" }, word));
  }
  return g;
}

function drawDie(d, size, mayMove, shell) {
  const g = dieShape(d, size, { fill: shell.seatColour(d.owner), "fill-opacity": d.role === "hero" ? 0.45 : 1,
    stroke: mayMove ? "#fff" : "#111", "stroke-width": mayMove ? 3 : 1 }, shell);
  g.setAttribute("data-die", d.id);
  g.setAttribute("data-owner", d.owner);
  if (d.label) g.append(shell.svg("title", {}, say(d.label)));
  g.append(shell.svg("text", { class: "face", x: 0, y: 0 }, d.face ? faceWord(d.face).slice(0, 3) : "?"));
  return g;
}

function drawUnplaced(state, size, shell) {
  // Dice the camera sees that the game places nowhere (heroes just thrown, dice set aside).
  const placed = [...(state.dice || []).filter((d) => d.x !== null && d.y !== null), ...(state.temples || [])];
  return (state.seen || [])
    .filter((s) => !placed.some((d) => Math.hypot(d.x - s.x, d.y - s.y) < size * 0.8))
    .map((s) => dieShape(s, size, { fill: "#ddd", "fill-opacity": 0.35, stroke: "#ddd", "data-seen": "1" }, shell));
}

function arrowHead(shell) {
  const defs = shell.svg("defs");
  const marker = shell.svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6,
    markerHeight: 6, orient: "auto-start-reverse" });
  marker.append(shell.svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#fff" }));
  defs.append(marker);
  return defs;
}

function drawMat(state, shell) {
  const m = state.mat;
  mat.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${m.width_mm + 2 * MARGIN} ${m.height_mm + 2 * MARGIN}`);
  const size = state.die_mm || 16;
  const nodes = [...drawZones(state, shell), ...drawLastShot(state.last_shot, size, shell)];
  for (const t of state.temples || []) nodes.push(drawTemple(t, size, shell));
  for (const s of state.toppled || []) {
    nodes.push(shell.svg("circle", { cx: s.x, cy: s.y, r: size, fill: "none", stroke: "#ff5252", "stroke-width": 2,
      "data-toppled": "1" }));
  }
  const asleep = [];
  const mayMove = state.may_move || [];
  for (const d of state.dice || []) {
    if (d.role === "temple") continue;
    if (d.role === "oracle" && d.status !== "play") asleep.push(d);
    else if (d.x !== null && d.y !== null) nodes.push(drawDie(d, size, mayMove.includes(d.id), shell));
  }
  mat.replaceChildren(arrowHead(shell), ...nodes, ...drawUnplaced(state, size, shell), ...drawAsked(state, size, shell));
  return asleep;
}

function drawAsked(state, size, shell) {
  // The die each open question is about, ringed where the camera sees it (the mat's frame, mm).
  return (state.questions || []).filter((q) => q.data && q.data.x != null && q.data.y != null).map((q) => {
    const ring = shell.svg("circle", { cx: q.data.x, cy: q.data.y, r: size * 1.1, fill: "none", stroke: "#ffb300",
      "stroke-width": 3, "stroke-dasharray": "5 3", "data-asked": q.question_id });
    ring.append(shell.svg("title", {}, say(q.message || q.text)));
    return ring;
  });
}

function drawPlayers(state, asleep, shell) {
  playersList.replaceChildren(...(state.players || []).map((p, seat) => {
    const li = shell.el("li");
    const sleeping = asleep.filter((d) => d.owner === seat);
    const inPlay = (state.dice || []).filter((d) => d.role === "oracle" && d.owner === seat && d.status === "play");
    const counts = format(ngettext("{count} oracle in play", "{count} oracles in play", inPlay.length),
      { count: inPlay.length }) + ", " +
      format(ngettext("{count} set aside", "{count} set aside", sleeping.length), { count: sleeping.length });
    li.append(shell.swatch(shell.seatColour(seat)), playerName(state, seat), shell.el("span", { class: "state" }, counts));
    if (sleeping.length) {
      const names = sleeping.map((d) => format((SET_ASIDE[d.status] || SET_ASIDE.asleep)(), { face: faceWord(d.face) }));
      li.append(shell.el("span", { class: "msg", "data-asleep": seat },
        format(_("set aside: {oracles}"), { oracles: naturalList(names) })));
    }
    return li;
  }));
}
