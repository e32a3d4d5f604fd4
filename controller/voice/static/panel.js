// The table's voice on the dashboard: what keeps it silent or that it is muted, shown to everyone
// (#voice-status), and the referee's controls in the Referee panel (#voice-controls): mute, volume,
// the language it speaks, a test sentence. Its state comes from GET /api/voice; changes go to
// POST /api/voice with the referee's token (the box of the Referee panel, or the link's cookie).

import { _, say, onLanguage } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 5000;

let voice = null;       // the last status from the service
let controls = null;    // the controls, made once

function make(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

async function send(body) {
  const headers = { "Content-Type": "application/json" };
  const token = $("table-token") ? $("table-token").value : "";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch("/api/voice", { method: "POST", headers, body: JSON.stringify(body) });
  const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  const result = $("referee-result");
  if (response.ok) {
    voice = data;
    if (result) result.textContent = _("done");
  } else {
    if (result) result.textContent = say(data.message || data.error);
    if ($("referee")) $("referee").open = true;
  }
  draw();
  return response.ok;
}

function build(box) {
  const title = make("span", { class: "voice-title" });
  const mute = make("button", { "data-voice": "mute" });
  mute.addEventListener("click", () => send({ mute: !(voice && voice.mute) }));
  const volumeLabel = make("label");
  const volumeWord = make("span");
  const volume = make("input", { type: "range", min: "0", max: "100", step: "5", "data-voice": "volume" });
  volume.addEventListener("change", () => send({ volume: Number(volume.value) }));
  volumeLabel.append(volumeWord, " ", volume);
  const langLabel = make("label");
  const langWord = make("span");
  const lang = make("select", { "data-voice": "lang" });
  lang.addEventListener("change", () => send({ lang: lang.value }));
  langLabel.append(langWord, " ", lang);
  const test = make("button", { "data-voice": "test" });
  test.addEventListener("click", () => send({ test: true }));
  const row = make("div");
  Object.assign(row.style, { display: "flex", flexWrap: "wrap", alignItems: "center", gap: ".4rem", margin: ".4rem 0" });
  row.append(title, mute, volumeLabel, langLabel, test);
  box.append(row);
  return { title, mute, volume, volumeWord, lang, langWord, test };
}

function draw() {
  const status = $("voice-status");
  const box = $("voice-controls");
  const on = Boolean(voice && voice.enabled);
  if (box) box.hidden = !on;
  if (status) {
    const words = !on ? "" : voice.problem ? `${_("Voice:")} ${say(voice.problem)}` : voice.mute ? _("The voice is muted.") : "";
    status.textContent = words;
    status.hidden = !words;
  }
  if (!on || !box) return;
  if (!controls) controls = build(box);
  controls.title.textContent = _("Voice:");
  controls.mute.textContent = voice.mute ? _("Unmute the voice") : _("Mute the voice");
  controls.volumeWord.textContent = _("Volume");
  if (document.activeElement !== controls.volume) controls.volume.value = String(voice.volume);
  controls.langWord.textContent = _("Language spoken");
  controls.lang.replaceChildren(...Object.entries(voice.languages || {}).map(([code, name]) => {
    const option = make("option", { value: code }, name);
    return option;
  }));
  controls.lang.value = voice.lang;
  controls.test.textContent = _("Test the voice");
}

async function refresh() {
  try {
    const response = await fetch("/api/voice", { cache: "no-store" });
    if (response.ok) voice = await response.json();
  } catch (err) {
    console.error(err);
  }
  draw();
}

onLanguage(draw);
refresh();
setInterval(refresh, REFRESH_MS);
