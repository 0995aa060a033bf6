// @ts-check
// Stones hands: the six stones beside the board, the board itself (the game's rows and
// columns), the stones in your hand. Click a stone beside the board or a square to pick
// stones up (a stack on your own stone comes up whole), then a square to put them down.
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

/** The stones board, for player ``seat``'s hands; ``act(request)`` does one act. */
/**
 * @param {StonesHands} table
 * @param {string} seat
 * @param {import("./hands.js").Act} act
 * @param {import("./service.js").Observation | null} obs  this game's (hands.js checks), for
 *   its board's size
 * @param {string} who  the seat's name ("player A") */
export function drawHands(table, seat, act, obs, who) {
  const held = table.held[seat];
  // the game's own board (a 6x4 game on the 8x8 switches); the hands' whole board for a
  // game whose observation has no size (the tests' toy)
  const rows = obs && typeof obs.rows === "number" ? obs.rows : table.rows;
  const cols = obs && typeof obs.cols === "number" ? obs.cols : table.cols;
  const grid = board(rows, cols, (name) => {
    const stack = table.squares[name] || [];
    const onClick = () => {
      if (mode.value === "knock") act({ act: "knock", square: name });
      else if (held.length) act({ act: "put", seat, square: name });
      else if (stack.length) act({ act: "lift", seat, square: name });
    };
    return { words: stack.length ? stack.join(" / ") : "empty", short: stack.map(shortStone)
      .join(" "), onClick, marked: stack.length > 0 };
  });
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
  return html("div", { class: "hands-stones" }, hand,
    html("section", {}, html("h3", {}, `The board (${rows}x${cols}, bottom to top, a stack `
      + "bottom / top)"), grid, key("Aco A's corner, Ake A's key, Aca A's cap (B's alike), a "
        + "stack bottom first", cols)),
    modes(mode, { move: "picks up or puts down", knock: "knocks the stack" },
      () => act({ act: "look" })),
    html("section", {}, html("h3", {}, "Beside the board"), beside));
}
