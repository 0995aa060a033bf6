// @ts-check
// What the square boards' hands share (stones, High Rise, the maze): a board of square
// buttons, A's edge at the bottom, each named like b3, and plain buttons for the acts.
import { html } from "./svg.js";

/** What a square shows of itself, and what a click on it does.
 * @typedef {{words: string, onClick: () => void, marked?: boolean}} Cell */

/** A plain button.
 * @param {string} words
 * @param {import("./svg.js").Attrs} attrs
 * @param {() => void} onClick
 * @param {boolean} [enabled] */
export function button(words, attrs, onClick, enabled = true) {
  const node = html("button", { type: "button", ...attrs, disabled: enabled ? null : "" }, words);
  node.addEventListener("click", onClick);
  return node;
}

/** @param {number} row @param {number} col */
export function squareName(row, col) {
  return `${"abcdefgh"[col]}${row + 1}`;
}

/** A rows x cols grid; ``cell(name)`` gives each square's words and what a click does.
 * @param {number} rows
 * @param {number} cols
 * @param {(name: string) => Cell} cell */
export function board(rows, cols, cell) {
  const grid = html("div", { class: "hands-board" });
  grid.style.setProperty("--cols", String(cols)); // from script: the page allows no inline style
  for (let row = rows - 1; row >= 0; row--) {
    for (let col = 0; col < cols; col++) {
      const name = squareName(row, col);
      const { words, onClick, marked } = cell(name);
      grid.append(button(`${name}: ${words}`, { "data-hand-square": name,
        class: marked ? "marked" : null }, onClick));
    }
  }
  return grid;
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
