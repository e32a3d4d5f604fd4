// Dice duel on the dashboard: the score, who has chosen (never what) and the last round revealed.
// See the contract at the top of controller/service/web/static/dashboard.js.

let score, last;

export function mount(root, shell) {
  score = shell.el("p", { id: "duel-score", class: "status" });
  last = shell.el("p", { id: "duel-last" });
  root.append(score, last);
}

export function status(state) {
  return `round ${state.view.round}, first to ${state.view.target}`;
}

export function update(state, events, shell) {
  if (!state.game) { score.textContent = ""; last.textContent = ""; return; }
  const v = state.view;
  score.textContent = v.points.map((p, seat) =>
    `${shell.seatName(seat)} ${p}${v.chosen[seat] ? " (chosen)" : ""}`).join(" — ");
  if (v.last) {
    last.textContent = `Round ${v.last.round}: ${v.last.picks.map((n, seat) => `${shell.seatName(seat)} ${n}`)
      .join(", ")}; the die shows ${v.last.roll}.`;
    shell.shown(`duel-${v.last.round}`);
  }
}
