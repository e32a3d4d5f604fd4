// Praxis on the dashboard: the universe of six grids (artefacts, portals and ships with their
// faces), each player's points, spaceport and hand size, and the pile. On a seat's page, `hand`
// draws that player's own artefacts. See the contract at the top of controller/service/web/static/dashboard.js.

import { _, format, language } from "/static/i18n.js";

const CELL = 46;
const SHIP_COLOURS = ["#e53935", "#1e88e5", "#43a047", "#fdd835"];

let board, table, pile;

export function mount(root, shell) {
  board = shell.svg("svg", { id: "universe", role: "img", "aria-label": "Praxis" });
  root.append(board);
  const players = shell.panel(_("Players"));
  table = shell.el("table", { id: "praxis-players" });
  pile = shell.el("p", { id: "praxis-pile", class: "small" });
  players.append(table, pile);
}

function artefactName(state, key) {
  const known = (state.artefacts || {})[key];
  if (!known) return key;
  return language() === "fr" ? known.fr : known.en;
}

export function status(state) {
  const v = state.view;
  if (v.ending) return _("last round: a player has 36 points");
  return format(_("turn {turn}"), { turn: v.turn });
}

export function update(state, events, shell) {
  const v = state.view;
  if (!v || !state.lattice) { board.replaceChildren(); return; }
  const { height, width, cells } = state.lattice;
  board.setAttribute("viewBox", `0 0 ${width * CELL} ${height * CELL}`);
  board.setAttribute("width", width * CELL);
  board.setAttribute("height", height * CELL);
  const shapes = [];
  for (const [label, [r, c]] of Object.entries(cells)) {
    const grid = Number(label.split(".")[0]);
    const g = shell.svg("g", { "data-cell": label });
    g.append(shell.svg("rect", { x: c * CELL + 1, y: r * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 4,
      class: `cell grid-${grid}` }));
    const content = v.cells[label];
    if (content) {
      const known = (state.artefacts || {})[content];
      const text = shell.svg("text", { x: c * CELL + CELL / 2, y: r * CELL + CELL / 2 + 5, "text-anchor": "middle",
        class: content === "portal" ? "portal" : "artefact" }, known ? known.code : content);
      text.append(shell.svg("title", {}, artefactName(state, content)));
      g.append(text);
    } else {
      g.append(shell.svg("text", { x: c * CELL + 4, y: r * CELL + 12, "text-anchor": "start", class: "label" }, label));
    }
    shapes.push(g);
  }
  for (const ship of v.ships) {
    if (!ship.cell || !cells[ship.cell]) continue;
    const [r, c] = cells[ship.cell];
    const g = shell.svg("g", { "data-ship": `${ship.seat}.${ship.ship}` });
    g.append(shell.svg("rect", { x: c * CELL + 8, y: r * CELL + 8, width: CELL - 16, height: CELL - 16, rx: 6,
      fill: SHIP_COLOURS[ship.seat % SHIP_COLOURS.length], class: "ship" }));
    g.append(shell.svg("text", { x: c * CELL + CELL / 2, y: r * CELL + CELL / 2 + 6, "text-anchor": "middle",
      class: "face" }, String(ship.face)));
    shapes.push(g);
  }
  board.replaceChildren(...shapes);
  drawPlayers(state, shell);
}

function drawPlayers(state, shell) {
  const v = state.view;
  const head = shell.el("tr");
  for (const word of [_("Player"), _("Points"), _("Spaceport"), _("Hand")]) head.append(shell.el("th", {}, word));
  const rows = (state.players || []).map((p, seat) => {
    const tr = shell.el("tr", { "data-seat": seat, class: v.active === seat && !v.over ? "active" : "" });
    const name = shell.el("td");
    name.append(shell.swatch(SHIP_COLOURS[seat % SHIP_COLOURS.length]), ` ${p.name}`);
    const port = (v.spaceports[seat] || []).map((key) => artefactName(state, key)).join(", ") || "—";
    tr.append(name, shell.el("td", {}, String(v.scores[seat])), shell.el("td", {}, port),
      shell.el("td", {}, String(v.hand_sizes[seat])));
    return tr;
  });
  table.replaceChildren(head, ...rows);
  pile.textContent = format(_("draw pile: {pile}, discarded: {discard}"), { pile: v.pile, discard: v.discard });
}

// A seat's own hand, on its phone only.
export function hand(root, mine, state, shell) {
  const list = shell.el("ul", { class: "praxis-hand" });
  for (const key of mine.hand || []) {
    const known = ((state && state.artefacts) || {})[key];
    const value = known ? format(_("{points} pt"), { points: known.value }) : "";
    list.append(shell.el("li", { "data-artefact": key }, `${artefactName(state || {}, key)} ${value}`.trim()));
  }
  root.replaceChildren(list);
}
