// @ts-check
// What the square boards' hands share (stones, High Rise, the maze): a board of square
// buttons, A's edge at the bottom, each named like b3, and plain buttons for the acts.
import { html } from "./svg.js";

/** What a square shows of itself, and what a click on it does: ``words`` in full where its
 * button is wide enough (always in its title, and what a screen reader says), ``short`` (a
 * few letters the board's key explains) where it is not, as on a phone.
 * @typedef {{words: string, short: string, onClick: () => void, marked?: boolean}} Cell */

/** A plain button; one greyed out says why in its title (``why``).
 * @param {string} words
 * @param {import("./svg.js").Attrs} attrs
 * @param {() => void} onClick
 * @param {boolean} [enabled]
 * @param {string} [why]  why it is greyed out, when it is */
export function button(words, attrs, onClick, enabled = true, why = "") {
  const title = enabled ? attrs.title : why || attrs.title;
  const node = html("button", { type: "button", ...attrs, title, disabled: enabled ? null : "" },
    words);
  node.addEventListener("click", onClick);
  return node;
}

/** Words that begin a sentence ("the Architect" -> "The Architect").
 * @param {string} words */
export function capital(words) {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a hand holds, in words: its pieces top first, each on the one below ("the obelisk on
 * segment 2").
 * @param {string[]} pieces  bottom first, as the hands' table lists them
 * @param {(piece: string) => string} words  a piece in words ("the obelisk") */
export function heldWords(pieces, words) {
  return [...pieces].reverse().map(words).join(" on ");
}

/** @param {number} row @param {number} col */
export function squareName(row, col) {
  return `${"abcdefgh"[col]}${row + 1}`;
}

/** A rows x cols grid; ``cell(name)`` gives each square's words and what a click does. Each
 * square says its name and its words, or its short words on a narrow button (hands.css):
 * no word is ever cut in two.
 * @param {number} rows
 * @param {number} cols
 * @param {(name: string) => Cell} cell */
export function board(rows, cols, cell) {
  const grid = html("div", { class: "hands-board" });
  grid.style.setProperty("--cols", String(cols)); // from script: the page allows no inline style
  for (let row = rows - 1; row >= 0; row--) {
    for (let col = 0; col < cols; col++) {
      const name = squareName(row, col);
      const { words, short, onClick, marked } = cell(name);
      const full = `${name}: ${words}`;
      const square = html("button", { type: "button", "data-hand-square": name, title: full,
        "aria-label": full, class: marked ? "marked" : null },
      html("span", { class: "long" }, full), html("span", { class: "short" }, `${name} ${short}`));
      square.addEventListener("click", onClick);
      grid.append(square);
    }
  }
  return grid;
}

/** The short words' key, under a board; none under a board of four columns or fewer, whose
 * squares have room for their full words on any phone.
 * @param {string} words
 * @param {number} cols */
export function key(words, cols) {
  return cols > 4 ? html("p", { class: "hands-key" }, `On a narrow screen, in short: ${words}.`)
    : null;
}

/** A row of mode buttons; ``mode.value`` is the one pressed.
 * @param {{value: string}} mode
 * @param {Record<string, string>} choices  each mode's words
 * @param {() => void} redraw */
export function modes(mode, choices, redraw) {
  return html("div", { class: "hands-mode" }, "A click on a square: ",
    ...Object.entries(choices).map(([name, words]) => button(words,
      { "data-mode": name, "aria-pressed": String(mode.value === name) },
      () => { mode.value = name; redraw(); })));
}
