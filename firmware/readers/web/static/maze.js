// @ts-check
// The maze: the 8x8 board, its L-shaped walls, the obelisk, the segments still to claim, and
// the route the obelisk took (gathered from the observations as they come). With hands on
// the page (obelisk play) it is the board a person acts on (`oneBoard`): its squares tapped,
// the table's lights on them, the wooden set drawn where it differs (maze_set.js), and
// beside the board what lies there, the walls in the box and what a hand holds.
import { glowOn } from "./lights.js";
import { drawSet, sideStrip } from "./maze_set.js";
import { board, counted, html, outlineView, squareName, svg } from "./svg.js";
import { tapTargets } from "./taps.js";

/**
 * The maze's public observation (engine/maze/game.py).
 * @typedef {object} MazeObservation
 * @property {"maze"} game
 * @property {number} size
 * @property {string} phase
 * @property {string | null} to_play
 * @property {string | null} obelisk  its square; null before it stands
 * @property {string[]} segments  the squares of the segments still to claim
 * @property {Record<string, number>} numbers  each of those squares' segment number (2 to 5:
 *   the label its wooden piece carries; the obelisk is segment 1)
 * @property {number} claimed
 * @property {[string, string][]} walls  [square, orientation: "NE"...]
 * @property {number} turn
 * @property {number} turns_left
 * @property {number} walls_left
 */

/** @typedef {{from: string[], to: string[]}} MazeChange the squares left and reached */
/**
 * The obelisk's route so far and where on it it claimed a segment (``number``: how many it
 * had then; ``segment``: the number of the segment it claimed there, when known), each with
 * the actions played when it came (a takeback drops what came after).
 * @typedef {{route: {square: string, n: number}[],
 *   claims: {square: string, number: number, segment?: number, n: number}[]}} MazeTrail
 */
/** @typedef {import("./table.js").View<MazeObservation, MazeChange, MazeTrail>} MazeView */

/** Each side of a square, as its two corners (x, y in squares, from the top left).
 * @type {Record<string, number[][]>} */
const SIDES = { N: [[0, 0], [1, 0]], S: [[0, 1], [1, 1]], E: [[1, 0], [1, 1]], W: [[0, 0], [0, 1]] };

/** @param {MazeView} view */
export function draw(view) {
  const seen = view.obs;
  const size = seen.size || 8;
  const b = board(size, size, 46, "the maze");
  const s = b.size;
  /** @param {string} name @returns {number[] | null} */
  const centre = (name) => {
    const spot = b.place(name);
    return spot ? [spot.x + s / 2, spot.y + s / 2] : null;
  };
  const trail = view.trail || { route: [], claims: [] };
  // the route, oldest first, under everything else
  const route = trail.route.map((step) => centre(step.square)).filter((point) => point !== null);
  if (route.length > 1) {
    b.layer.append(svg("polyline", { points: route.map(([x, y]) => `${x},${y}`).join(" "), class: "route" }));
    route.slice(0, -1).forEach(([x, y]) => b.layer.append(svg("circle", { cx: x, cy: y, r: 3, class: "route-dot" })));
  }
  // where on its route the obelisk claimed each segment: a stop of the route, not a piece
  // (the obelisk carries what it claimed; the square stands empty once it moves on)
  for (const claim of trail.claims) {
    const point = centre(claim.square);
    if (point) {
      b.layer.append(svg("g", { class: "claimed", "data-square": claim.square,
        "data-claim": claim.number },
      svg("title", {}, claimWords(claim)),
      svg("circle", { cx: point[0], cy: point[1], r: 6, class: "route-dot" })));
    }
  }
  // each segment still out, with the number its wooden piece carries
  for (const name of seen.segments) {
    const spot = b.place(name);
    const number = seen.numbers?.[name];
    if (spot) {
      const piece = segmentAt(spot.x, spot.y, s, number, "");
      piece.dataset.square = name;
      piece.querySelectorAll(".segment, .segment-number").forEach((node) => {
        /** @type {SVGElement} */ (node).dataset.square = name;
      });
      b.layer.append(piece);
    }
  }
  for (const [name, orientation] of seen.walls) {
    const spot = b.place(name);
    if (!spot) continue;
    const wall = wallAt(spot.x, spot.y, s, orientation, "");
    wall.dataset.square = name;
    b.layer.append(wall);
  }
  if (seen.obelisk) {
    const spot = b.place(seen.obelisk);
    if (spot) {
      const obelisk = obeliskAt(spot.x, spot.y, s, "");
      obelisk.dataset.square = seen.obelisk;
      b.layer.append(obelisk);
    }
  }
  outlineView(b, view);
  glowOn(b, view.lights || []);
  const set = drawSet(b, view, { obelisk: obeliskAt, segment: segmentAt, wall: wallAt });
  const beside = set ? sideStrip(b, set, { obelisk: obeliskAt, segment: segmentAt, wall: wallAt })
    : [];
  tapTargets(b.root, [...squaresOf(b, size, set), ...beside], view.tap);
  return b.root;
}

/** The drawing is the board a person acts on: its lights and its squares to tap. */
export const oneBoard = true;

/** The obelisk standing on a square's spot (``x``, ``y``: its top left; ``s`` its side).
 * @param {number} x @param {number} y @param {number} s @param {string} cls
 * @returns {SVGElement} */
export function obeliskAt(x, y, s, cls) {
  const cx = x + s / 2;
  return svg("polygon", { class: `obelisk ${cls}`.trim(), points: `${cx},${y + 5} `
    + `${cx + 6},${y + 12} ${cx + 8},${y + s - 6} ${cx - 8},${y + s - 6} ${cx - 6},${y + 12}` });
}

/** A segment on a square's spot, with the number its wooden piece carries.
 * @param {number} x @param {number} y @param {number} s @param {number | undefined} number
 * @param {string} cls @returns {SVGElement} */
export function segmentAt(x, y, s, number, cls) {
  const g = svg("g", { class: `segment-piece ${cls}`.trim() },
    svg("rect", { x: x + s * 0.27, y: y + s * 0.27, width: s * 0.46, height: s * 0.46, rx: 3,
      class: "segment" }));
  if (number) {
    g.append(svg("text", { x: x + s / 2, y: y + s / 2, class: "segment-number",
      "font-size": 14, "font-weight": 700 }, number));
  }
  return g;
}

/** A wall standing on a square's spot, its L along the two sides it blocks.
 * @param {number} x @param {number} y @param {number} s @param {string} orientation
 * @param {string} cls @returns {SVGElement} */
export function wallAt(x, y, s, orientation, cls) {
  /** @param {number[]} corner */
  const pt = ([u, v]) => `${x + u * s},${y + v * s}`;
  return svg("polyline", { points: wallLine(orientation).map(pt).join(" "),
    class: `wall ${cls}`.trim(), "data-orientation": orientation });
}

/** Every square of the board as a place to tap, named as the hands name it, said as the
 * wooden set has it (what a tap acts on), or as empty where the set is not known.
 * @param {import("./svg.js").Board} b @param {number} size  the board's rows and columns
 * @param {import("./maze_set.js").MazeSet | null} set
 * @returns {import("./taps.js").Target[]} */
function squaresOf(b, size, set) {
  /** @type {import("./taps.js").Target[]} */
  const targets = [];
  const walls = new Set(set?.walls || []);
  for (let row = 0; row < size; row += 1) {
    for (let col = 0; col < size; col += 1) {
      const name = squareName(row, col);
      const { x, y } = b.at(row, col);
      const stack = set?.squares[name] || [];
      const words = [...(stack.length ? [[...stack].reverse().map((p) => p === "obelisk"
        ? "the obelisk" : p).join(" on ")] : []), ...(walls.has(name) ? ["a wall"] : [])];
      targets.push({ name, x, y, width: b.size, height: b.size,
        label: `${name}: ${words.length ? words.join(" and ") : "empty"}` });
    }
  }
  return targets;
}

/** Where the obelisk went down or claimed a segment, in words ("the obelisk claimed segment 4
 * on g7 (then 2 of 5 segments)").
 * @param {MazeTrail["claims"][number]} claim */
function claimWords(claim) {
  if (claim.number === 1) return `the obelisk, segment 1, went down on ${claim.square}`;
  const which = claim.segment ? `segment ${claim.segment}` : "a segment";
  return `the obelisk claimed ${which} on ${claim.square} (then ${claim.number} of ${SEGMENTS} `
    + "segments)";
}

/** A wall's L along the two sides it blocks ("NE": north and east), as three corners of its
 * square: an end, the corner the two sides share, the other end.
 * @param {string} orientation
 * @returns {number[][]} */
function wallLine(orientation) {
  const [first, second] = orientation.split("").map((side) => SIDES[side]);
  const shared = first.find(([x, y]) => second.some(([u, v]) => u === x && v === y));
  if (!shared) throw new Error(`a wall facing ${orientation} is no L`);
  const [one, other] = [first, second].map((side) => side.find(([x, y]) => x !== shared[0] || y !== shared[1]));
  if (!one || !other) throw new Error(`a wall facing ${orientation} is no L`);
  return [one, shared, other];
}

/** The obelisk's segments in the box (the rules' "Box Contents"); the Architect puts the first
 * on the board, the Maze Master the others, and the obelisk claims them back. */
const SEGMENTS = 5;

/** Whether the segments are still being put on the board (before the first turn).
 * @param {MazeObservation} seen */
const settingOut = (seen) => seen.phase === "first_segment" || seen.phase === "segments";

/** What the segments count: during the setup, those on the board and those still to place;
 * then those the obelisk has (segment 1 is its own) and those still to claim.
 * @param {MazeObservation} seen */
function segmentWords(seen) {
  if (settingOut(seen)) {
    const out = seen.claimed + seen.segments.length;
    return `${out} of ${SEGMENTS} segments on the board, ${SEGMENTS - out} to place`;
  }
  const left = SEGMENTS - seen.claimed;
  return `the obelisk: ${seen.claimed} of ${SEGMENTS} segments${left ? `, ${left} to claim` : ""}`;
}

/** The pieces the game has on the board that lie beside it on the wooden set (knocked off,
 * or laid there), each with where the game has it, in a line; null when none does, before
 * the turns begin or after the end, or with no hands on this page. The switches cannot see a
 * segment leave from under the obelisk: the page, seeing the set, says it.
 * @param {MazeObservation} seen
 * @param {import("./service.js").HandsTable | null | undefined} set */
function offTheBoard(seen, set) {
  const wooden = /** @type {{game?: string, beside?: unknown}} */ (set || {});
  if (wooden.game !== "maze" || !Array.isArray(wooden.beside)) return null;
  if (!["wall", "move"].includes(seen.phase)) return null;
  /** @type {Record<string, string>} */
  const out = Object.fromEntries(Object.entries(seen.numbers || {})
    .map(([square, n]) => [`segment ${n}`, square]));
  const lost = /** @type {string[]} */ (wooden.beside).map((piece) => {
    if (piece === "obelisk") return `the obelisk lies beside the board; the game has it on ${seen.obelisk}`;
    if (out[piece]) return `${piece} lies beside the board; the game has it on ${out[piece]}`;
    return `${piece} lies beside the board; the game has it in the obelisk on ${seen.obelisk}`;
  });
  if (!lost.length) return null;
  return html("p", { class: "off-the-board", role: "status" },
    `On the wooden set now: ${lost.join("; ")}. Put ${lost.length > 1 ? "them" : "it"} back `
    + "there.");
}

/** @param {MazeView} view */
export function info(view) {
  const seen = view.obs;
  return html("div", { class: "maze-info" }, offTheBoard(seen, view.set),
    html("span", { class: "stat" }, segmentWords(seen)),
    html("span", { class: "stat" }, turnWords(seen)),
    html("span", { class: "stat" }, `${counted(seen.walls_left, "wall")} left`));
}

/** The turns, as the terminal counts them (firmware/maze/screen.py turn_words): the turn
 * under way ("turn 1 of 20"); once the game is over, the turns played ("5 of 15 turns
 * played"): no turn is under way then, and those left were never played.
 * @param {MazeObservation} seen */
function turnWords(seen) {
  const total = seen.turn + seen.turns_left;
  if (seen.phase === "over") return `${seen.turn} of ${total} turns played`;
  return seen.turns_left ? `turn ${seen.turn + 1} of ${total}` : "no turns left";
}

/** The Architect's segments and turns left (the turn under way counted, as "turn 6 of 15"
 * leaves 10), the Maze Master's walls left; once over, the turns the Architect took.
 * @param {MazeObservation} seen @param {string} p */
export function scoreLine(seen, p) {
  if (p !== "A") return `${counted(seen.walls_left, "wall")} left`;
  if (seen.phase === "over") {
    return `${seen.claimed} of ${SEGMENTS} segments in ${counted(seen.turn, "turn")}`;
  }
  const turns = `${counted(seen.turns_left, "turn")} left`;
  return settingOut(seen) ? turns : `${seen.claimed} of ${SEGMENTS} segments · ${turns}`;
}

/** @param {MazeObservation | null} before @param {MazeObservation} after
 * @returns {MazeChange} */
export function change(before, after) {
  /** @type {string[]} */
  const from = [];
  /** @type {string[]} */
  const to = [];
  if (!before) return { from, to };
  if (after.obelisk && after.obelisk !== before.obelisk) {
    if (before.obelisk) from.push(before.obelisk);
    to.push(after.obelisk);
  }
  const walls = new Set(before.walls.map(([sq, o]) => `${sq} ${o}`));
  for (const [sq, o] of after.walls) if (!walls.has(`${sq} ${o}`)) to.push(sq);
  const segments = new Set(before.segments);
  for (const sq of after.segments) if (!segments.has(sq)) to.push(sq);
  return { from, to };
}

/** The route and the claims so far, one observation further on (``n``: actions played;
 * a takeback drops what came after it).
 * @param {MazeTrail | null} trail
 * @param {MazeObservation | null} before
 * @param {MazeObservation} after
 * @param {number} n
 * @returns {MazeTrail} */
export function track(trail, before, after, n) {
  const out = { route: (trail?.route || []).filter((s) => s.n <= n),
    claims: (trail?.claims || []).filter((c) => c.n <= n) };
  if (!after.obelisk) return out;
  const last = out.route[out.route.length - 1];
  if (!last || last.square !== after.obelisk) out.route.push({ square: after.obelisk, n });
  if (before && after.claimed > before.claimed) {
    // which segment, when the obelisk claimed just the one on the square it came to
    const segment = after.claimed === before.claimed + 1 ? before.numbers?.[after.obelisk]
      : undefined;
    for (let number = before.claimed + 1; number <= after.claimed; number += 1) {
      out.claims.push({ square: after.obelisk, number, segment, n });
    }
  }
  return out;
}

/** @param {string} row */
export const breakdownRow = (row) => html("li", {}, row);
