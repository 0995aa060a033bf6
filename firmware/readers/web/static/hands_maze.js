// @ts-check
// Maze hands: the obelisk and segments beside the board, what your hand holds, the walls. The
// board itself is the drawing (maze.js), whose squares a tap acts on (`onPlace`): lift a
// square's top piece (the obelisk with the segments it claimed, as a hand lifts the wooden
// obelisk), put what the hand holds down; the Maze Master's empty hand stands a wall on an
// empty square or takes one off. A tap beside the board takes a piece lying there, or lays
// the hand's back. The wall's facing: the Maze Master's button (press: the next way, hold:
// this one). For a game with no drawing of its own, a board of buttons here.
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

/** A square's pieces in short, bottom first (the board's key says them): each segment by its
 * number, and the obelisk with how many segments it claimed (those a hand lifts with it).
 * @param {string[]} stack  bottom first
 * @param {Set<string>} obelisk  the obelisk's own pieces (obeliskPieces) */
function shortStack(stack, obelisk) {
  const carried = stack[stack.length - 1] === "obelisk" ? lifted(stack, obelisk) : 0;
  const under = stack.slice(0, stack.length - carried).map((piece) =>
    piece === "obelisk" ? "ob" : piece.replace("segment ", "s"));
  return carried ? [...under, carried > 1 ? `ob+${carried - 1}` : "ob"] : under;
}

/** A piece as the rules name it: "the obelisk", "segment 2" (as its label says).
 * @param {string} piece */
const pieceWords = (piece) => piece === "obelisk" ? "the obelisk" : piece;

/** The pieces of the obelisk as the game has it: segment 1 and the segments it claimed
 * (every one placed that no longer stands out on its own; none before the game).
 * @param {import("./service.js").Observation | null} obs */
function obeliskPieces(obs) {
  const seen = /** @type {{game?: string, phase?: string, numbers?: Record<string, number>}} */
    (obs || {});
  if (seen.game !== "maze" || !seen.numbers || seen.phase === "first_segment"
    || seen.phase === "segments") return new Set(["obelisk"]);
  const out = new Set(Object.values(seen.numbers).map((n) => `segment ${n}`));
  return new Set(["obelisk", ...[2, 3, 4, 5].map((n) => `segment ${n}`)
    .filter((piece) => !out.has(piece))]);
}

/** How many pieces off the top of ``stack`` a person's hand lifts: the obelisk with the
 * segments it claimed (not one it merely stands on, unclaimed), or else the top piece alone.
 * @param {string[]} stack  bottom first
 * @param {Set<string>} obelisk  the obelisk's own pieces (obeliskPieces) */
export function lifted(stack, obelisk) {
  if (stack[stack.length - 1] !== "obelisk") return 1;
  let count = 1;
  while (count < stack.length && obelisk.has(stack[stack.length - 1 - count])) count += 1;
  return count;
}

/** A square in words, for its title and a screen reader: its pieces top first ("the obelisk
 * on segment 2"), a wall, or "empty".
 * @param {string[]} stack  bottom first @param {boolean} wall */
function squareWords(stack, wall) {
  const words = [...(stack.length ? [heldWords(stack, pieceWords)] : []),
    ...(wall ? ["a wall"] : [])];
  return words.length ? words.join(" and ") : "empty";
}

/** What a seat's hand holds, in words ("" for nothing): hands.js says it of the other hand.
 * @param {MazeHands} table @param {string} seat */
export function holding(table, seat) {
  return heldWords(table.held[seat], pieceWords);
}

/** What the page last knew of the game (drawHands keeps it): which segments the obelisk
 * claimed, which a hand lifts with it. @type {{obs: import("./service.js").Observation | null}} */
const known = { obs: null };

/** A tap on one of the drawing's places: a square, or beside the board ("beside:segment
 * 2"): the act the panel's board and pile make there.
 * @param {MazeHands} table @param {string} seat @param {import("./hands.js").Act} act
 * @param {string} place */
export function onPlace(table, seat, act, place) {
  const held = table.held[seat];
  if (place.startsWith("beside:")) {
    const piece = place.slice("beside:".length);
    if (held.length) act({ act: "back", seat });
    else if (table.beside.includes(piece)) act({ act: "take", seat, piece });
    return;
  }
  const stack = table.squares[place] || [];
  const wall = table.walls.includes(place);
  if (mode.value === "wall") act({ act: wall ? "unstand" : "stand", square: place });
  else if (mode.value === "knock") act({ act: "knock", square: place });
  else if (held.length) act({ act: "put", seat, square: place });
  else if (stack.length) act({ act: "lift", seat, square: place,
    count: lifted(stack, obeliskPieces(known.obs)) });
  // the Maze Master's empty hand on an empty square: a wall from the box, or off again
  else if (seat === "B" && (wall || table.box > 0)) {
    act({ act: wall ? "unstand" : "stand", square: place });
  }
}

/** The maze's hands for ``seat`` (A the Architect, B the Maze Master): what the hand holds,
 * the modes, what lies beside the board, and, where the drawing is not the board
 * (``drawn``), the board's squares as buttons.
 * @param {MazeHands} table
 * @param {string} seat
 * @param {import("./hands.js").Act} act
 * @param {import("./service.js").Observation | null} obs  the game's: which segments the
 *   obelisk claimed, which a hand lifts with it
 * @param {string} name  the seat's role ("the Architect")
 * @param {boolean} [drawn]  the drawing is the board a person taps */
export function drawHands(table, seat, act, obs, name, drawn = false) {
  known.obs = obs;
  const held = table.held[seat];
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
    drawn ? null : squares(table, seat, act),
    modes(mode, { move: "picks up or puts down", wall: `stands a wall (${table.box} in `
      + "the box) or takes it off", knock: "knocks a piece off" }, () => act({ act: "look" })),
    html("p", {}, "A wall's facing: the table lights one; press the Maze Master's button (B) "
      + "for the next, hold it on the one you want."),
    html("section", {}, html("h3", {}, "Beside the board"), beside));
}

/** The board as buttons, for a page whose drawing is not the board tapped.
 * @param {MazeHands} table @param {string} seat @param {import("./hands.js").Act} act */
function squares(table, seat, act) {
  const walls = new Set(table.walls);
  const obelisk = obeliskPieces(known.obs);
  const grid = board(table.rows, table.cols, (name) => {
    const stack = table.squares[name] || [];
    const wall = walls.has(name);
    const short = [...shortStack(stack, obelisk), ...(wall ? ["w"] : [])];
    return { words: squareWords(stack, wall), short: short.join(" "),
      onClick: () => onPlace(table, seat, act, name), marked: stack.length > 0 || wall };
  });
  return html("section", {}, html("h3", {}, "The board (row 1, the Architect's edge, at the bottom)"),
    grid, key("ob the obelisk, ob+2 the obelisk on 2 segments it claimed, s2 segment 2 "
      + "(a square's pieces bottom first), w a wall", table.cols));
}
