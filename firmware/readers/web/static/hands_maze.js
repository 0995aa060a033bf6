// @ts-check
// Maze hands: the obelisk and segments beside the board, the 8x8 board with its pieces and
// walls, what your hand holds. Click a square to lift what stands on it (the obelisk with the
// segments it claimed), another to put it down; stand a wall, then turn it with the Maze
// Master's button (press: the next way, hold: this one).
import { html } from "./svg.js";
import { board, button, capital, heldWords, key, modes } from "./hands_board.js";

/**
 * The maze board as its hands see it (firmware/maze/hands.py look).
 * @typedef {object} MazeHands
 * @property {"maze"} game
 * @property {string} page  the module that draws these hands (this one)
 * @property {number} rows
 * @property {number} cols
 * @property {Record<string, string[]>} squares  what stands on each square, bottom first
 * @property {Record<string, string[]>} held  what each seat's hand holds
 * @property {string[]} beside  the pieces beside the board
 * @property {string[]} walls  the squares a wall stands on
 * @property {number} box  the walls still in the box
 */

const mode = { value: "move" };

/** A square's pieces in short (the board's key says them): the obelisk with how many
 * segments it stands on, or each segment by its number.
 * @param {string[]} stack  bottom first
 * @returns {string[]} */
function shortStack(stack) {
  if (stack[stack.length - 1] === "obelisk") {
    return [stack.length > 1 ? `ob+${stack.length - 1}` : "ob"];
  }
  return stack.map((piece) => piece === "obelisk" ? "ob" : piece.replace("segment ", "s"));
}

/** A piece as the rules name it: "the obelisk", "segment 2" (as its label says).
 * @param {string} piece */
const pieceWords = (piece) => piece === "obelisk" ? "the obelisk" : piece;

/** What a seat's hand holds, in words ("" for nothing): hands.js says it of the other hand.
 * @param {MazeHands} table @param {string} seat */
export function holding(table, seat) {
  return heldWords(table.held[seat], pieceWords);
}

/** The maze board, for ``seat``'s hands (A the Architect, B the Maze Master). */
/**
 * @param {MazeHands} table
 * @param {string} seat
 * @param {import("./hands.js").Act} act
 * @param {unknown} _obs  (the board is always 8x8)
 * @param {string} name  the seat's role ("the Architect") */
export function drawHands(table, seat, act, _obs, name) {
  const held = table.held[seat];
  const walls = new Set(table.walls);
  const grid = board(table.rows, table.cols, (name) => {
    const stack = table.squares[name] || [];
    const onClick = () => {
      if (mode.value === "wall") {
        act({ act: walls.has(name) ? "unstand" : "stand", square: name });
      } else if (mode.value === "knock") act({ act: "knock", square: name });
      else if (held.length) act({ act: "put", seat, square: name });
      else if (stack.length) act({ act: "lift", seat, square: name });
    };
    const wall = walls.has(name);
    const words = [...stack, ...(wall ? ["wall"] : [])];
    const short = [...shortStack(stack), ...(wall ? ["w"] : [])];
    return { words: words.length ? words.join(" / ") : "·", short: short.join(" "), onClick,
      marked: words.length > 0 };
  });
  const beside = html("div", { class: "hands-pile" },
    ...table.beside.map((p) => button(p, { "data-piece": p },
      () => act({ act: "take", seat, piece: p }))));
  const who = capital(name);
  const hand = held.length
    ? html("div", { class: "hands-held", "data-held": held.join(",") },
      `${who} holds ${holding(table, seat)}: click a square to put it there. `,
      button("lay it beside the board", { "data-act": "back" }, () => act({ act: "back", seat })))
    : html("p", { class: "hands-held" }, `${who}'s hand is empty.`);
  // the board first, right under the drawing; what is beside it and the modes below
  return html("div", { class: "hands-maze" }, hand,
    html("section", {}, html("h3", {}, "The board (row 1, the Architect's edge, at the bottom)"),
      grid, key("ob the obelisk, ob+2 the obelisk on 2 segments it claimed, s2 segment 2, "
        + "w a wall", table.cols)),
    modes(mode, { move: "picks up or puts down", wall: `stands a wall (${table.box} in `
      + "the box) or takes it off", knock: "knocks a piece off" }, () => act({ act: "look" })),
    html("p", {}, "A wall's facing: the table lights one; press the Maze Master's button (B) "
      + "for the next, hold it on the one you want."),
    html("section", {}, html("h3", {}, "Beside the board"), beside));
}
