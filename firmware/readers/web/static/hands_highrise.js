// @ts-check
// High Rise hands: the 3x3 board on its load cells, each square's cover and stack (nested
// pyramids: only the top one shows), and your pyramids by size. Pick a size, then a square.
// The board itself is the drawing (highrise.js), whose squares a tap acts on (`onPlace`); the
// sizes and the modes also stand in the bar at the bottom (reach.js `data-reach-as`), and a
// lean's second square is asked there (`data-reach-say`) and marked on the drawing (`leanFrom`).
// Where the drawing is not yet the board tapped, the panel draws the board as buttons.
import { counted, html } from "./svg.js";
import { board, button, capital, key, modes, squareName } from "./hands_board.js";

/**
 * The High Rise board as its hands see it (firmware/highrise/hands.py look).
 * @typedef {object} HighriseHands
 * @property {"highrise"} game
 * @property {string} page  the module that draws these hands (this one)
 * @property {number} rows
 * @property {number} cols
 * @property {{square: string, cover: boolean, pyramids: number, top: string | null}[]} squares
 * @property {{pyramid: string, squares: string[]} | null} leaning
 * @property {Record<string, Record<string, number>>} supply  each seat's pyramids left, by size
 * @property {number[]} counts  the load cells' counts
 */

const mode = { value: "set" };

/** A pyramid in short, as the board's key says it: "A large" is "AL".
 * @param {string} pyramid */
const shortPyramid = (pyramid) => pyramid.replace(/^(\S+) (\S)\S*$/, (_, seat, size) =>
  `${seat}${size.toUpperCase()}`);
/** The pyramid size chosen, kept for this tab: a reload mid-game keeps it (where it went
 * back to small, and the next tap set the wrong size). */
const SIZE_KEPT = "obelisk-highrise-size";
const SIZES = ["small", "medium", "large"];
/** @type {{size: string, lean: string | null, asked: string}} */
const chosen = { size: SIZES.find((s) => s === sessionStorage.getItem(SIZE_KEPT)) || "small",
  lean: null, asked: "" };

/** The size a ring asks for (the computer's pyramid, or a hint's) becomes the size chosen
 * when the ask comes, as a person reads it off the ring and picks that pyramid up; the
 * person may choose another after. (It stayed where it was, and a tap put the wrong size.)
 * @param {string} seat @param {Record<string, string>} asks */
function takeUpAsked(seat, asks) {
  const size = asks[seat] || "";
  if (size === chosen.asked) return;
  chosen.asked = size;
  if (SIZES.includes(size)) {
    chosen.size = size;
    sessionStorage.setItem(SIZE_KEPT, size);
  }
}

/** The square a lean's first tap picked, while the second is to pick (null: none): the
 * drawing marks where it may lean onto. */
export function leanFrom() {
  return mode.value === "lean" ? chosen.lean : null;
}

/** The squares beside ``square`` (a row or a column away): a pyramid leans across two of them.
 * @param {string} square @param {number} rows @param {number} cols @returns {string[]} */
export function besides(square, rows, cols) {
  const col = "abcdefgh".indexOf(square[0]);
  const row = Number(square.slice(1)) - 1;
  return [[row + 1, col], [row - 1, col], [row, col + 1], [row, col - 1]]
    .filter(([r, c]) => r >= 0 && r < rows && c >= 0 && c < cols)
    .map(([r, c]) => squareName(r, c));
}

/** A tap on a square (the drawing's, or the panel's own board): what the mode chosen does
 * there. A lean takes two taps: the first picks a square (again: no longer), the second one
 * beside it; a square not beside it is picked instead.
 * @param {HighriseHands} table @param {string} seat @param {import("./hands.js").Act} act
 * @param {string} square */
export function onPlace(table, seat, act, square) {
  const s = table.squares.find((q) => q.square === square);
  if (!s) return;
  if (mode.value === "cover") act({ act: s.cover ? "uncover" : "cover", square });
  else if (mode.value === "lift") act({ act: "lift", square });
  else if (mode.value !== "lean") act({ act: "set", seat, square, size: chosen.size });
  else if (chosen.lean && besides(chosen.lean, table.rows, table.cols).includes(square)) {
    const first = chosen.lean;
    chosen.lean = null;
    act({ act: "lean", seat, square: first, other: square, size: chosen.size });
  } else {
    chosen.lean = chosen.lean === square ? null : square;
    act({ act: "look" });
  }
}

/** The board as buttons, for a page whose drawing is not (yet) the board tapped.
 * @param {HighriseHands} table @param {string} seat @param {import("./hands.js").Act} act */
function squares(table, seat, act) {
  const leaning = new Set(table.leaning ? table.leaning.squares : []);
  const grid = board(table.rows, table.cols, (name) => {
    const s = table.squares.find((q) => q.square === name) || { cover: false, pyramids: 0, top: null };
    const words = [s.cover ? "cover" : "no cover",
      s.pyramids ? `${counted(s.pyramids, "pyramid")}, top ${s.top}` : "",
      table.leaning && leaning.has(name) ? `${table.leaning.pyramid} leaning` : ""].filter(Boolean).join(", ");
    const short = [s.cover ? "c" : "",
      s.pyramids && s.top ? `${s.pyramids}${shortPyramid(s.top)}` : "",
      table.leaning && leaning.has(name) ? "lean" : ""].filter(Boolean).join(" ");
    return { words, short, onClick: () => onPlace(table, seat, act, name),
      marked: chosen.lean === name };
  });
  return html("section", {}, html("h3", {}, `The board (${table.rows}x${table.cols}, a load cell `
    + "under each square)"), grid, key("c a cover, 2AL 2 pyramids with A's large on top (S "
      + "small, M medium), lean one leaning", table.cols));
}

/** What the bar says while a lean's second square is to pick (null: nothing to say): one
 * short line, so the drawing keeps its room on a small phone (its first square tapped
 * again, or another mode, and no lean is begun). */
function leanWords() {
  const first = leanFrom();
  return first ? html("p", { class: "hands-lean", "data-reach-say": "" }, `Lean from ${first}: now tap `
    + "a marked square.")
    : null;
}

/** The High Rise board, for player ``seat``'s hands; ``act(request)`` does one act.
 * @param {HighriseHands} table
 * @param {string} seat
 * @param {import("./hands.js").Act} act
 * @param {unknown} _obs  (the board is the hands' own)
 * @param {string} who  the seat's name ("player A")
 * @param {boolean} [drawn]  the drawing is the board a person taps
 * @param {Record<string, string>} [asks]  the size each seat's ring asks for now */
export function drawHands(table, seat, act, _obs, who, drawn = false, asks = {}) {
  takeUpAsked(seat, asks);
  const left = table.supply[seat];
  const sizes = html("div", { class: "hands-sizes" }, `${capital(who)}'s pyramids: `,
    ...SIZES.map((size) => button(`${size} (${left[size]} left)`,
      { "data-size": size, "aria-pressed": String(chosen.size === size),
        "data-reach-as": `size-${size}`, "data-reach-words": `${size} (${left[size]})` },
      () => {
        chosen.size = size;
        sessionStorage.setItem(SIZE_KEPT, size);
        act({ act: "look" });
      }, left[size] > 0,
      `${who} has no ${size} pyramid left`)));
  const ways = modes(mode, { set: "sets the chosen pyramid there", lift: "lifts the top pyramid off",
    cover: "puts its cover on or off", lean: "leans the pyramid across two squares" },
  () => { chosen.lean = null; act({ act: "look" }); });
  for (const node of ways.querySelectorAll("[data-mode]")) { // the modes of play in the bar
    const el = /** @type {HTMLElement} */ (node);
    if (el.dataset.mode !== "cover") {
      el.dataset.reachAs = `mode-${el.dataset.mode}`;
      el.dataset.reachWords = String(el.dataset.mode);
    }
  }
  // the board right under the pyramids to choose from (where it is the panel's), the modes
  // below it
  return html("div", { class: "hands-highrise" }, sizes, leanWords(),
    drawn ? null : squares(table, seat, act), ways);
}
