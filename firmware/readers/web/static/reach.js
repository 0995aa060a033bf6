// @ts-check
// In reach: on a game whose drawing is its one board (table.js `oneBoard`), a bar fixed at the
// bottom of the screen holds the turn line (two lines; a tap shows it whole), a refusal
// standing (what to put right, its first lines; a tap shows it whole) and whatever the
// turn asks a person to press: the table's buttons (press and hold A or B, the menu), the
// hands' setting out, and the controls' Start, Resume, Agree and Decline, or, for a guest,
// the PIN's form. Each of its buttons presses the one of the panel it stands for, so a press
// here is the same act as there. A game's hands may put more of the panel's buttons in the bar
// (`data-reach-as`: its name there, `data-reach-words`: its words there, the panel's pressed
// and greyed out shown alike) and lines of their own under the turn line (`data-reach-say`:
// what the hands could not do, the second square a lean asks for).
// The drawing above it is sized to leave it room.
import { html } from "./svg.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const bar = $("reach");
const line = $("reach-line");
const row = $("reach-buttons");
const say = $("reach-say");

/** The controls' buttons the bar stands in for, while the table offers them: what a turn
 * asks to press (the rest stay in "Run the table"). */
const ASKED = ["ctl-start", "ctl-resume", "ctl-agree", "ctl-disagree"];
const ASKED_TOO = /^ctl-(takeback|decline)-/;

/** The buttons the bar stands in for now, each with its words: what the game's hands put in
 * the bar, the table's buttons (with the hands), setting out the pieces before a game, and
 * the controls the table offers.
 * @returns {[HTMLElement, string, string][]} the button, the bar's words, its name */
function standIns() {
  /** @type {[HTMLElement, string, string][]} */
  const found = [];
  for (const node of document.querySelectorAll("#hands:not([hidden]) [data-reach-as]")) {
    const el = /** @type {HTMLElement} */ (node);
    found.push([el, el.dataset.reachWords || el.textContent || "", el.dataset.reachAs || ""]);
  }
  for (const node of document.querySelectorAll("#hands:not([hidden]) [data-press]")) {
    const el = /** @type {HTMLElement} */ (node);
    const name = `${el.dataset.hold ? "hold" : "press"}-${el.dataset.press}`;
    found.push([el, el.textContent || name, name]);
  }
  const setUp = document.querySelector('#hands:not([hidden]) [data-act="setup"]');
  if (setUp && document.body.dataset.state === "setup") {
    found.unshift([/** @type {HTMLElement} */ (setUp), "set the pieces out", "setup"]);
  }
  for (const node of document.querySelectorAll("#controls-buttons:not([hidden]) button[id]")) {
    const el = /** @type {HTMLElement} */ (node);
    if (ASKED.includes(el.id) || ASKED_TOO.test(el.id)) {
      found.unshift([el, el.textContent || el.id, el.id.replace(/^ctl-/, "")]);
    }
  }
  return found;
}

let drawn = "";

/** The bar's buttons again, only when what they stand for changed (a button drawn again
 * under a finger would lose its tap): the same buttons in the same order keep their nodes,
 * only their words and state brought up to date (a count of pieces left, the one chosen). */
function fill() {
  const found = standIns();
  const said = [...document.querySelectorAll("#hands:not([hidden]) [data-reach-say]")]
    .map((node) => node.textContent || "").filter(Boolean).join(" · ");
  if (said !== say.textContent) { // a line more or less: the drawing's room again
    say.textContent = said;
    say.hidden = !said;
    room();
  }
  const asked = awaited();
  const now = JSON.stringify(found.map(([original, words, name]) => [words, name,
    original.getAttribute("aria-pressed"), original.hasAttribute("disabled"), asked.has(name)]));
  if (now === drawn && row.childElementCount === found.length) return;
  drawn = now;
  const names = found.map(([, , name]) => name);
  const kept = [...row.children].map((b) => /** @type {HTMLElement} */ (b));
  if (kept.length === names.length && kept.every((b, i) => b.dataset.reach === names[i])) {
    found.forEach(([original, words, name], i) => {
      standFor(kept[i], original, words).classList.toggle("asked", asked.has(name));
    });
    return;
  }
  row.replaceChildren(...found.map(([original, words, name]) => {
    const button = html("button", { type: "button", "data-reach": name,
      class: original.classList.contains("main") ? "main" : null });
    // the one it stands for, as it is then (the panel may have drawn it again since)
    const id = original.id;
    button.addEventListener("click", () => {
      const now = id ? document.getElementById(id)
        : standIns().find(([, , n]) => n === name)?.[0];
      now?.click();
    });
    button.classList.toggle("asked", asked.has(name));
    return standFor(button, original, words);
  }));
}

/** The table's buttons an offer waits for ("press-A", "hold-A"), as app.js names them on the
 * offer: they stand out in the bar, where alike they were read past. */
function awaited() {
  const offer = document.querySelector("#offer:not([hidden])");
  const names = offer instanceof HTMLElement ? offer.dataset.presses || "" : "";
  return new Set(names.split(" ").filter(Boolean));
}

/** A stand-in's words and state as its original's now: pressed, greyed out (and why).
 * @param {HTMLElement} button @param {HTMLElement} original @param {string} words */
function standFor(button, original, words) {
  if (button.textContent !== words) button.textContent = words;
  for (const name of ["aria-pressed", "title"]) {
    const value = original.getAttribute(name);
    if (value === null) button.removeAttribute(name);
    else button.setAttribute(name, value);
  }
  button.toggleAttribute("disabled", original.hasAttribute("disabled"));
  return button;
}

/** Moves ``node`` into ``box`` (first), once. @param {HTMLElement} node @param {HTMLElement} box */
function into(node, box) {
  if (node.parentElement !== box) box.prepend(node);
}

/** The bar on or off (the page calls it after drawing): the turn line, a refusal (what to
 * put right, beside the turn it holds up: the drawing keeps its size, where a box above it
 * would take half of it) and a guest's PIN form move into it, and back; the drawing gets the
 * room above it.
 * @param {boolean} on */
export function placeReach(on) {
  bar.hidden = !on;
  const turn = $("turn");
  const pin = $("pin-form");
  const problem = $("problem");
  if (on) {
    into(turn, line);
    into(problem, bar);
    if (pin.parentElement !== bar) bar.append(pin);
    fill();
    room();
    return;
  }
  into(turn, $("turn-row"));
  if (problem.parentElement === bar) $("link").after(problem);
  if (pin.parentElement === bar) $("controls-guest").after(pin);
}

/** The drawing's height leaves the bar in view below it, on the page as it first shows. */
function room() {
  const drawing = $("drawing");
  const top = drawing.getBoundingClientRect().top + window.scrollY;
  const free = window.innerHeight - bar.offsetHeight - top - 16;
  document.documentElement.style.setProperty("--reach-h", `${bar.offsetHeight}px`);
  document.documentElement.style.setProperty("--board-room", `${Math.max(160, free)}px`);
}

// the turn line in the bar: two lines, a tap shows it whole (and a tap again, two lines)
$("turn").addEventListener("click", () => {
  if ($("turn").parentElement === line) $("turn").classList.toggle("whole");
});
// the panels the bar stands in for change between the table's events (a PIN taken, the
// controls' status asked again, the hands drawn after an act), and an offer comes or goes
const watch = new MutationObserver(() => { if (!bar.hidden) fill(); });
for (const id of ["controls", "hands", "offer"]) {
  watch.observe($(id), { childList: true, subtree: true, attributes: true,
    attributeFilter: ["hidden", "aria-pressed", "disabled", "data-presses"] });
}
addEventListener("resize", () => { if (!bar.hidden) room(); });
// the bar taller or shorter (a button more, the turn line wrapping, shown whole): the page's
// room below and what is scrolled into view keep clear of it, measured again each time
new ResizeObserver(() => { if (!bar.hidden) room(); }).observe(bar);
