// @ts-check
// Stones hands: the six stones beside the board and the stones in your hand; the board itself
// is the drawing (stones.js), whose squares a tap acts on (`onPlace`), or, for a game with no
// drawing of its own (the tests' toy), a board of buttons here. Click a stone beside the board
// or a square to pick stones up (a stack on your own stone comes up whole), then a square to
// put them down.
import { html } from "./svg.js";
import { board, button, capital, heldWords, key, modes } from "./hands_board.js";

/**
 * The stones board as its hands see it (firmware/sim/hands.py SquareHands look).
 * @typedef {object} StonesHands
 * @property {"stones"} game
 * @property {string} page  the module that draws these hands (this one)
 * @property {number} rows
 * @property {number} cols
 * @property {Record<string, string[]>} squares  each square's stack, bottom first
 * @property {Record<string, string[]>} held  what each seat's hand holds
 * @property {string[]} beside  the stones beside the board
 */

const mode = { value: "move" };

/** A stone in short, as the board's key says it: "A corner" is "Aco".
 * @param {string} stone */
const shortStone = (stone) => stone.replace(/^(\S+) (\S{1,2})\S*$/, "$1$2");

/** A stone as the rules name it, in the game's edition (the observation's `names`): a seat's
 * own "the keystone", the other's "player B's capstone".
 * @param {string} stone  "A key"
 * @param {string} seat  whose hand holds it
 * @param {import("./service.js").Observation | null} [obs] */
function stoneWords(stone, seat, obs) {
  const [owner, kind] = stone.split(" ");
  const names = obs && typeof obs.names === "object" && obs.names ? obs.names : {};
  const name = /** @type {Record<string, string>} */ (names)[kind] || kind;
  return owner === seat ? `the ${name}` : `player ${owner}'s ${name}`;
}

/** What a seat's hand holds, in words ("" for nothing): hands.js says it of the other hand.
 * @param {StonesHands} table @param {string} seat
 * @param {import("./service.js").Observation | null} [obs]  the game's, for its stones' names */
export function holding(table, seat, obs) {
  return heldWords(table.held[seat], (stone) => stoneWords(stone, seat, obs));
}

/** A tap on a square of the drawing: knock its stack, put down what the hand holds, or pick
 * up what stands there (a stack on your own stone comes up whole).
 * @param {StonesHands} table @param {string} seat @param {import("./hands.js").Act} act
 * @param {string} square */
export function onPlace(table, seat, act, square) {
  const stack = table.squares[square] || [];
  if (mode.value === "knock") act({ act: "knock", square });
  else if (table.held[seat].length) act({ act: "put", seat, square });
  else if (stack.length) act({ act: "lift", seat, square });
}

/** The stones beside the board and player ``seat``'s hand, and where the drawing is not the
 * board (``drawn``), the board's squares as buttons.
 * @param {StonesHands} table
 * @param {string} seat
 * @param {import("./hands.js").Act} act
 * @param {import("./service.js").Observation | null} obs  this game's (hands.js checks), for
 *   its board's size and its stones' names
 * @param {string} who  the seat's name ("player A")
 * @param {boolean} [drawn]  the drawing is the board a person taps */
export function drawHands(table, seat, act, obs, who, drawn = false) {
  const held = table.held[seat];
  const beside = html("div", { class: "hands-pile" },
    ...table.beside.map((p) => button(p, { "data-piece": p },
      () => act({ act: "take", seat, piece: p }))));
  const hand = held.length
    ? html("div", { class: "hands-held", "data-held": held.join(",") },
      `${capital(who)} holds ${holding(table, seat, obs)}: click a square to put it there. `,
      button("lay it beside the board", { "data-act": "back" }, () => act({ act: "back", seat })))
    // (a game over asks for no move: nobody is to play)
    : html("p", { class: "hands-held" }, `${capital(who)}'s hand is empty${
      obs && obs.to_play === null ? "." : ": click a stone."}`);
  // the board first, right under the drawing; what is beside it and the modes below
  return html("div", { class: "hands-stones" }, hand, drawn ? null : squares(table, seat, act, obs),
    modes(mode, { move: "picks up or puts down", knock: "knocks the stack" },
      () => act({ act: "look" })),
    html("section", {}, html("h3", {}, "Beside the board"), beside));
}

/** The board as buttons, for a game whose drawing is not the board tapped.
 * @param {StonesHands} table @param {string} seat @param {import("./hands.js").Act} act
 * @param {import("./service.js").Observation | null} obs */
function squares(table, seat, act, obs) {
  // the game's own board (a 6x4 game on the 8x8 switches); the hands' whole board for a
  // game whose observation has no size (the tests' toy)
  const rows = obs && typeof obs.rows === "number" ? obs.rows : table.rows;
  const cols = obs && typeof obs.cols === "number" ? obs.cols : table.cols;
  const grid = board(rows, cols, (name) => {
    const stack = table.squares[name] || [];
    return { words: stack.length ? stack.join(" / ") : "empty", short: stack.map(shortStone)
      .join(" "), onClick: () => onPlace(table, seat, act, name), marked: stack.length > 0 };
  });
  return html("section", {}, html("h3", {}, `The board (${rows}x${cols}, bottom to top, a stack `
    + "bottom / top)"), grid, key("Aco A's corner, Ake A's key, Aca A's cap (B's alike), a "
      + "stack bottom first", cols));
}
