// @ts-check
// High Rise hands: the 3x3 board on its load cells, each square's cover and stack (nested
// pyramids: only the top one shows), and your pyramids by size. Pick a size, then a square.
import { counted, html } from "./svg.js";
import { board, button, capital, key, modes } from "./hands_board.js";

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
/** @type {{size: string, lean: string | null}} */
const chosen = { size: "small", lean: null };

/** The High Rise board, for player ``seat``'s hands; ``act(request)`` does one act.
 * @param {HighriseHands} table
 * @param {string} seat
 * @param {import("./hands.js").Act} act
 * @param {unknown} _obs  (the board is the hands' own)
 * @param {string} who  the seat's name ("player A") */
export function drawHands(table, seat, act, _obs, who) {
  const squares = Object.fromEntries(table.squares.map((s) => [s.square, s]));
  const leaning = new Set(table.leaning ? table.leaning.squares : []);
  const grid = board(table.rows, table.cols, (name) => {
    const s = squares[name];
    const onClick = () => {
      if (mode.value === "cover") act({ act: s.cover ? "uncover" : "cover", square: name });
      else if (mode.value === "lift") act({ act: "lift", square: name });
      else if (mode.value === "lean" && !chosen.lean) { chosen.lean = name; act({ act: "look" }); }
      else if (mode.value === "lean") {
        const first = chosen.lean;
        chosen.lean = null;
        act({ act: "lean", seat, square: first, other: name, size: chosen.size });
      } else act({ act: "set", seat, square: name, size: chosen.size });
    };
    const words = [s.cover ? "cover" : "no cover",
      s.pyramids ? `${counted(s.pyramids, "pyramid")}, top ${s.top}` : "",
      table.leaning && leaning.has(name) ? `${table.leaning.pyramid} leaning` : ""].filter(Boolean).join(", ");
    const short = [s.cover ? "c" : "",
      s.pyramids && s.top ? `${s.pyramids}${shortPyramid(s.top)}` : "",
      table.leaning && leaning.has(name) ? "lean" : ""].filter(Boolean).join(" ");
    return { words, short, onClick, marked: chosen.lean === name };
  });
  const left = table.supply[seat];
  const sizes = html("div", { class: "hands-sizes" }, `${capital(who)}'s pyramids: `,
    ...["small", "medium", "large"].map((size) => button(`${size} (${left[size]} left)`,
      { "data-size": size, "aria-pressed": String(chosen.size === size) },
      () => { chosen.size = size; act({ act: "look" }); }, left[size] > 0,
      `${who} has no ${size} pyramid left`)));
  // the board right under the pyramids to choose from, the modes below it
  return html("div", { class: "hands-highrise" }, sizes,
    html("section", {}, html("h3", {}, `The board (${table.rows}x${table.cols}, a load cell `
      + "under each square)"), grid, key("c a cover, 2AL 2 pyramids with A's large on top (S "
        + "small, M medium), lean one leaning", table.cols)),
    modes(mode, { set: "sets the chosen pyramid there", lift: "lifts the top pyramid off",
      cover: "puts its cover on or off", lean: "leans the pyramid across two squares" },
    () => { chosen.lean = null; act({ act: "look" }); }));
}
