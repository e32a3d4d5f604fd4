// What the dashboard and the phones' pages share: making elements, the controllers' colours, the
// `shell` a game's view is given (see the contract at the top of dashboard.js), and loading that view.

import { _, format } from "/static/i18n.js";

export const COLOURS = { red: "#e53935", blue: "#1e88e5", green: "#43a047", yellow: "#fdd835" };
const SVG_NS = "http://www.w3.org/2000/svg";

export const $ = (id) => document.getElementById(id);

function make(node, attrs, text) {
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

export const el = (tag, attrs = {}, text = "") => make(document.createElement(tag), attrs, text);
export const svg = (tag, attrs = {}, text = "") => make(document.createElementNS(SVG_NS, tag), attrs, text);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function colour(name) {
  if (COLOURS[name]) return COLOURS[name];
  return typeof name === "string" && name.startsWith("#") ? name : "#999";
}

export function swatch(css) {
  const node = el("span", { class: "swatch" });
  node.style.background = css;
  return node;
}

// Notes when `key` is first on screen (benchmarks read window.__bitbox.shown[key], ms since the epoch).
export function shown(key) {
  requestAnimationFrame(() => {
    if (!(key in window.__bitbox.shown)) window.__bitbox.shown[key] = performance.timeOrigin + performance.now();
  });
}

// The shell of a page whose public state `state()` returns; `post` sends a referee's request.
export function makeShell(state, post = async () => false) {
  const player = (seat) => ((state() && state().players) || [])[seat] || {};
  return {
    el, svg, sleep, post, colour, swatch, shown,
    seatName: (seat) => player(seat).name || format(_("player {number}"), { number: seat + 1 }),
    seatColour: (seat) => colour(player(seat).colour),
    panel: (title) => {
      const section = el("section");
      section.append(el("h2", {}, title));
      $("game-panels").append(section);
      return section;
    },
  };
}

// A phone page's slot for the game's view (#view, its panels in #game-panels): loads the view's
// module once per game and mounts it.
export class ViewSlot {
  constructor(shell) {
    this.shell = shell;
    this.script = undefined;
    this.module = null;
  }

  async load(ui) {
    const script = ui ? ui.script : null;
    if (script === this.script) return this.module;
    this.script = script;
    this.module = null;
    $("game-panels").replaceChildren();
    const root = el("div", { id: "view", class: "game-view" });
    $("view").replaceWith(root);
    if (ui && ui.style && !document.querySelector("link[data-view]")) {
      document.head.append(el("link", { rel: "stylesheet", href: ui.style, "data-view": "" }));
    }
    if (!script) return null;
    try {
      const module = await import(script);
      module.mount(root, this.shell);
      this.module = module;
    } catch (err) {
      console.error(err);
    }
    return this.module;
  }
}
