// The pages' words in the reader's language: the same gettext catalogues as the service
// (controller/i18n.py), fetched as JSON from /api/i18n/LANG. Each phone chooses its own language;
// the public state carries sentences as messages ({msg, args}) so every page says them itself.
//
//   import { _, say, ngettext } from "/static/i18n.js";
//   _("Players")                         a marked sentence, translated
//   say({msg: "{player} wins", args})    a message, its arguments said in the same language
//   say("plain text")                    a string that is not a message, as it is

const STORE_KEY = "bitbox-lang";
const PLURAL = { en: (n) => (n === 1 ? 0 : 1), fr: (n) => (n > 1 ? 1 : 0) };

let lang = "en";
let names = [];             // the players' names by seat, for messages that name a seat
let catalogue = {};
let languages = { en: "English", fr: "Français" };
const listeners = [];

// The players' names by seat (from the public state's players), said for {"seat": n} arguments.
export function setNames(list) {
  names = list || [];
}

export function language() {
  return lang;
}

export function languageNames() {
  return languages;
}

// Marks a sentence for the catalogue without saying it (it is said later, through _()).
export function N_(msgid) {
  return msgid;
}

export function _(msgid) {
  const found = catalogue[msgid];
  return typeof found === "string" && found ? found : msgid;
}

export function ngettext(singular, plural, n) {
  const forms = catalogue[singular];
  if (Array.isArray(forms)) {
    const form = forms[(PLURAL[lang] || PLURAL.en)(n)];
    if (form) return form;
  }
  return n === 1 ? singular : plural;
}

export function format(template, values) {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name) => (name in values ? values[name] : whole));
}

export function naturalList(words) {
  if (!words.length) return _("nobody");
  if (words.length === 1) return words[0];
  return format(_("{head} and {last}"), { head: words.slice(0, -1).join(", "), last: words[words.length - 1] });
}

export function say(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && !Array.isArray(value)) {
    if ("msg" in value) {
      const values = {};
      for (const [name, arg] of Object.entries(value.args || {})) values[name] = say(arg);
      return format(_(value.msg), values);
    }
    if ("list" in value) return naturalList(value.list.map(say));
    if ("seat" in value && Object.keys(value).length === 1) {
      const name = names[value.seat];
      return name !== undefined ? name : format(_("player {number}"), { number: value.seat + 1 });
    }
  }
  if (typeof value === "boolean") return value ? _("yes") : _("no");
  return String(value);
}

export function preferred(serverDefault) {
  const stored = localStorage.getItem(STORE_KEY);
  if (stored && stored in languages) return stored;
  for (const wanted of navigator.languages || [navigator.language || ""]) {
    const code = String(wanted).slice(0, 2).toLowerCase();
    if (code in languages) return code;
  }
  return serverDefault in languages ? serverDefault : "en";
}

// Loads `code`'s catalogue, remembers the choice on this phone, and tells every listener.
export async function setLanguage(code, remember = true) {
  const response = await fetch(`/api/i18n/${encodeURIComponent(code)}`, { credentials: "same-origin" });
  if (!response.ok) return false;
  const data = await response.json();
  lang = data.lang;
  catalogue = data.catalogue;
  languages = data.languages;
  document.documentElement.lang = lang;
  if (remember) localStorage.setItem(STORE_KEY, lang);
  for (const listener of listeners) listener(lang);
  return true;
}

export function onLanguage(listener) {
  listeners.push(listener);
}

// The page's fixed words (marked data-i18n / data-i18n-title in its HTML) and its language menu
// (<select id="language">) in the chosen language.
export function translatePage() {
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = _(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-title]")) node.title = _(node.dataset.i18nTitle);
  const menu = document.getElementById("language");
  if (!menu) return;
  menu.replaceChildren(...Object.entries(languages).map(([code, name]) => {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    return option;
  }));
  menu.value = lang;
}

// Starts a page in this phone's language (its last choice, else the browser's, else the service's)
// and calls `redraw` each time the reader picks another one from the menu.
export async function startLanguage(redraw) {
  const fallback = await fetch("/api/i18n").then((r) => r.json()).catch(() => ({ default: "en" }));
  await setLanguage(preferred(fallback.default), false).catch((err) => console.error(err));
  translatePage();
  onLanguage(() => { translatePage(); redraw(); });
  const menu = document.getElementById("language");
  if (menu) menu.addEventListener("change", () => { setLanguage(menu.value); });
}
