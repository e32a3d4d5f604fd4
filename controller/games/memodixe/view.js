// MémoDiXe on the dashboard: the square of nine dice (their top faces, and the hidden faces the
// whole table was shown), the dice won, the reserve, whose turn it is and the app's effects. On a
// seat's page, `hand` draws the square again with the hidden faces that player alone was shown.
// Played with real dice under the table camera, a place the camera reads otherwise is outlined.
// See the contract at the top of controller/service/web/static/dashboard.js.

import { _, format, say } from "/static/i18n.js";

const COLUMNS = "abc";
let square, players, info, timer;
let clock = null;         // {remaining, at}: the server's seconds left, and when this page heard them

let wasOver = null;

// A short chime when the game ends (the countdown rang, or « DiXe ! » was right). Browsers play sound
// only after the reader has touched the page, which a player holding a seat always has.
function chime() {
  try {
    const audio = new AudioContext();
    for (const [index, pitch] of [660, 880, 1320].entries()) {
      const tone = audio.createOscillator();
      const level = audio.createGain();
      const start = audio.currentTime + index * 0.18;
      tone.frequency.value = pitch;
      level.gain.setValueAtTime(0.2, start);
      level.gain.exponentialRampToValueAtTime(0.001, start + 0.35);
      tone.connect(level).connect(audio.destination);
      tone.start(start);
      tone.stop(start + 0.4);
    }
  } catch (err) {
    console.warn("no sound:", err);
  }
}

function drawTimer() {
  if (!clock) { timer.hidden = true; return; }
  const left = Math.max(0, Math.ceil(clock.remaining - (performance.now() - clock.at) / 1000));
  timer.hidden = false;
  timer.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  timer.classList.toggle("last", left <= 10);
}

export function mount(root, shell) {
  timer = shell.el("div", { id: "memo-timer", class: "memo-timer", role: "timer", hidden: "" });
  square = shell.el("div", { id: "memo-square", class: "memo-square" });
  root.append(timer, square);
  setInterval(drawTimer, 250);
  const panel = shell.panel(_("Players"));
  players = shell.el("table", { id: "memo-players" });
  info = shell.el("p", { id: "memo-info", class: "small" });
  panel.append(players, info);
}

let faces = {};

function faceWord(face) {
  return face ? say(faces[face] || face) : "";
}

function drawSquare(root, view, shell, mine, seen) {
  root.replaceChildren(...view.square.map((die, place) => {
    const label = `${COLUMNS[place % 3]}${Math.floor(place / 3) + 1}`;
    const cls = ["memo-die", die.empty ? "empty" : "", die.aside ? "aside" : "", die.up ? "up" : ""].join(" ");
    const cell = shell.el("div", { class: cls.trim(), "data-place": label });
    cell.append(shell.el("span", { class: "place" }, label));
    if (die.empty) {
      cell.append(shell.el("span", { class: "top" }, "—"));
    } else if (die.rolling) {
      cell.append(shell.el("span", { class: "top" }, _("rolling…")));
    } else {
      cell.append(shell.el("span", { class: "top" }, faceWord(die.top)));
    }
    if (die.shown) {
      const words = mine ? _("you saw under it: {face}") : _("under it: {face}");
      cell.append(shell.el("span", { class: "under" }, format(words, { face: faceWord(die.shown) })));
    }
    // Played on the table: what the camera reads there, when it is not what the game has.
    const read = seen ? seen.places[place] : undefined;
    const expected = die.up ? die.shown : die.top;
    if (seen && !die.rolling && (read ? read.face !== expected : !die.empty)) {
      const words = read ? format(_("the camera reads: {face}"), { face: read.face ? faceWord(read.face) : "?" })
        : _("the camera sees no die here");
      cell.classList.add("camera-differs");
      cell.append(shell.el("span", { class: "camera" }, words));
    }
    return cell;
  }));
}

export function status(state) {
  const v = state.view;
  return v.waiting_for ? say(v.waiting_for) : format(_("turn {turn}"), { turn: v.turn });
}

export function update(state, events, shell) {
  faces = state.faces || {};
  clock = state.countdown ? { remaining: state.countdown.remaining, at: performance.now() } : null;
  drawTimer();
  const over = Boolean(state.view && state.view.over);
  if (over && wasOver === false) chime();
  wasOver = over;
  const v = state.view;
  if (!v) { square.replaceChildren(); return; }
  drawSquare(square, v, shell, false, state.seen);
  const head = shell.el("tr");
  for (const word of [_("Player"), _("Dice won")]) head.append(shell.el("th", {}, word));
  players.replaceChildren(head, ...(state.players || []).map((p, seat) => {
    const name = seat === v.oni ? `${p.name} (Oni)` : p.name;
    const tr = shell.el("tr", { "data-seat": seat, class: v.to_act.includes(seat) ? "active" : "" });
    tr.append(shell.el("td", {}, name), shell.el("td", {}, String(v.won[seat])));
    return tr;
  }));
  const parts = [format(_("reserve: {count}"), { count: v.reserve })];
  if (v.mode === "oni-contre-tous") parts.push(format(_("bag: {count}"), { count: v.bag }));
  if (v.last_card) {
    const card = (state.cards || {})[v.last_card];
    parts.push(format(_("the app says: {effect}"), { effect: card ? say(card) : v.last_card }));
  }
  if (v.challenge) parts.push(format(_("find a pair of {face}"), { face: faceWord(v.challenge) }));
  info.textContent = parts.join(" · ");
}

// The square as this player alone remembers it: the hidden faces they were shown.
export function hand(root, mine, state, shell) {
  faces = (state && state.faces) || faces;
  drawSquare(root, mine, shell, true);
  root.classList.add("memo-square");
}
