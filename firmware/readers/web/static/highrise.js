// @ts-check
// High Rise: the board grid, each stack's pyramids in their owners' colours, and the pieces
// left. Nothing hidden is in the observation before the end (no pyramid's size); then each
// stack is shown as its reveal event comes: value, pips, who controls it, points.
// The drawing is the board a person acts on (`oneBoard`): each square's cover drawn as it
// stands (never what it hides), the table's lights on the squares, a tap on a square the
// hands' act there (hands_highrise.js `onPlace`), and where the wooden set differs from the
// game the table accepted (a pyramid not yet taken, one lifted, one leaning, a cover off),
// both drawn, the square outlined to put right.
import { leanFrom, besides } from "./hands_highrise.js";
import { glowOn } from "./lights.js";
import { board, counted, html, outlineView, squareName, svg } from "./svg.js";
import { tapTargets } from "./taps.js";

/** @typedef {import("./service.js").Reveal} Reveal */

/**
 * High Rise's public observation (engine/highrise/game.py): whose turn, the pieces left and
 * whose pyramids stand where; what the stacks hold only once every pyramid is placed.
 * @typedef {object} HighriseObservation
 * @property {"highrise"} game
 * @property {number} rows
 * @property {number} cols
 * @property {string | null} to_play
 * @property {number} plies
 * @property {Record<string, number>} pieces_left
 * @property {Record<string, string[]>} [owners]  whose pyramid each is, by square, bottom first
 * @property {Reveal[]} [stacks]
 */

/** @typedef {{players: string[]}} HighriseChange the players who placed a pyramid */
/** @typedef {import("./table.js").View<HighriseObservation, HighriseChange>} HighriseView */

/** One High Rise square as the wooden set has it (the hands' look: hands_highrise.js).
 * @typedef {{square: string, cover: boolean, pyramids: number, top: string | null}} Wood */

/** The wooden set as this page's hands last saw it, by square (null: not known here, a
 * guest's page or a replay), and a pyramid leaning across two squares.
 * @param {HighriseView} view
 * @returns {{squares: Record<string, Wood>, leaning: {pyramid: string, squares: string[]} | null} | null} */
function woodOf(view) {
  const set = view.set && view.set.game === "highrise" ? view.set : null;
  if (!set || !Array.isArray(set.squares)) return null;
  const squares = /** @type {Wood[]} */ (set.squares);
  const leaning = /** @type {{pyramid: string, squares: string[]} | null} */ (set.leaning || null);
  return { squares: Object.fromEntries(squares.map((s) => [s.square, s])), leaning };
}

/** @param {HighriseView} view */
export function draw(view) {
  const seen = view.obs;
  const b = board(seen.rows, seen.cols, 78, "the High Rise board");
  const shown = view.reveals || {};
  const wood = woodOf(view);
  drawCovers(b, seen, shown, wood);
  // the board as it stands: each stack's pyramids, bottom first, in their owners' colours
  // (a tier a pyramid, whatever its size: nobody sees that)
  for (const [name, owners] of Object.entries(seen.owners || {})) {
    const spot = b.place(name);
    if (!spot || shown[name]) continue;
    const s = b.size;
    const n = owners.length;
    const step = Math.min(0.1, 0.5 / Math.max(1, n - 1)); // a tall stack fits its square
    const shrink = Math.min(0.08, 0.45 / n);
    const tiers = owners.map((owner, k) => {
      const w = s * (0.7 - k * shrink);
      return svg("rect", { x: spot.x + (s - w) / 2, y: spot.y + s * (0.78 - k * step), width: w,
        height: s * step * 0.9, rx: 2, class: `tier player-${owner.toLowerCase()}` });
    });
    b.layer.append(svg("g", { class: "stack", "data-square": name, "data-height": n },
      ...tiers, svg("text", { x: spot.x + s / 2, y: spot.y + s * 0.2, class: "height" },
        `${n}`)));
  }
  for (const [name, stack] of Object.entries(shown)) {
    const spot = b.place(name);
    if (!spot) continue;
    const owner = stack.controller ? `player-${stack.controller.toLowerCase()}` : "nobody";
    const x = spot.x;
    const y = spot.y;
    const s = b.size;
    b.layer.append(svg("g", { class: `revealed ${owner}`, "data-square": name, "data-value": stack.value },
      svg("rect", { x: x + 3, y: y + 3, width: s - 6, height: s - 6, rx: 5, class: "controller" }),
      svg("text", { x: x + s / 2, y: y + s * 0.5, class: "value" }, stack.value),
      svg("text", { x: x + s / 2, y: y + s * 0.72, class: "pips" }, `A ${stack.pips.A} · B ${stack.pips.B}`),
      svg("text", { x: x + s - 8, y: y + 17, class: "points" }, `${stack.points}`),
      svg("text", { x: x + 8, y: y + 17, class: "who" }, stack.controller || "–")));
  }
  outlineView(b, view);
  glowOn(b, view.lights || []);
  if (wood) drawSet(b, seen, wood);
  const tap = view.tap;
  // a tap that begins (or ends) a lean marks where it may go at once, on this drawing
  if (tap) drawLean(b, seen);
  tapTargets(b.root, squaresOf(b, seen, wood), tap && ((name) => {
    tap(name);
    drawLean(b, seen);
  }));
  return b.root;
}

/** The drawing is the board a person acts on: its lights and its squares to tap. */
export const oneBoard = true;

/** Each square's cover, a neutral large pyramid the stacks stand on: as the wooden set has
 * it where it is known, else as the game has it (a cover on every square until its stack is
 * revealed). Only that it is there: what it hides stays hidden until the end.
 * @param {import("./svg.js").Board} b @param {HighriseObservation} seen
 * @param {Record<string, Reveal>} shown @param {ReturnType<typeof woodOf>} wood */
function drawCovers(b, seen, shown, wood) {
  const s = b.size;
  for (let row = 0; row < seen.rows; row += 1) {
    for (let col = 0; col < seen.cols; col += 1) {
      const name = squareName(row, col);
      const { x, y } = b.at(row, col);
      if (shown[name] || (wood && !wood.squares[name]?.cover)) continue;
      b.layer.append(svg("polygon", { class: "cover", "data-cover": name,
        points: `${x + s * 0.12},${y + s * 0.93} ${x + s * 0.88},${y + s * 0.93} `
          + `${x + s * 0.7},${y + s * 0.8} ${x + s * 0.3},${y + s * 0.8}` }));
    }
  }
}

/** Where the wooden set differs from the game the table accepted, at a glance: the set's
 * top pyramid drawn hollow at the square's corner with how many stand there, the game's
 * stack faint where the set has fewer, a cover missing drawn dashed, a pyramid leaning
 * drawn across its two squares; each such square outlined dashed, the place to put right.
 * @param {import("./svg.js").Board} b @param {HighriseObservation} seen
 * @param {NonNullable<ReturnType<typeof woodOf>>} wood */
function drawSet(b, seen, wood) {
  const s = b.size;
  const leaning = new Set(wood.leaning?.squares || []);
  for (const [name, w] of Object.entries(wood.squares)) {
    const spot = b.place(name);
    const game = seen.owners?.[name] || [];
    if (!spot) continue;
    const same = w.pyramids === game.length && (!w.top || w.top.startsWith(`${game[game.length - 1]} `));
    if (same && w.cover && !leaning.has(name)) continue;
    if (w.pyramids < game.length) {
      b.layer.querySelector(`g.stack[data-square="${name}"]`)?.classList.add("lifted");
    }
    if (!w.cover) {
      b.layer.append(svg("polygon", { class: "cover wood", points: `${spot.x + s * 0.12},`
        + `${spot.y + s * 0.93} ${spot.x + s * 0.88},${spot.y + s * 0.93} ${spot.x + s * 0.7},`
        + `${spot.y + s * 0.8} ${spot.x + s * 0.3},${spot.y + s * 0.8}` }));
    }
    if (!same && w.top) {
      const owner = w.top.split(" ")[0].toLowerCase();
      b.layer.append(svg("g", { class: "wood", "data-wood": name },
        pyramid(spot.x + s * 0.8, spot.y + s * 0.08, s * 0.3, `tier wood player-${owner}`),
        svg("text", { x: spot.x + s * 0.8, y: spot.y + s * 0.47, class: "wood-count" }, w.pyramids)));
    }
    b.layer.append(svg("rect", { x: spot.x + 4, y: spot.y + 4, width: s - 8, height: s - 8, rx: 3,
      class: "outline differs", "data-differs": name }));
  }
  const [one, two] = (wood.leaning?.squares || []).map((name) => b.place(name));
  if (one && two && wood.leaning) {
    const owner = wood.leaning.pyramid.split(" ")[0].toLowerCase();
    b.layer.append(pyramid((one.x + two.x) / 2 + s / 2, (one.y + two.y) / 2 + s * 0.15, s * 0.7,
      `tier wood leaning player-${owner}`));
  }
}

/** A pyramid seen from the side, its tip at (``x``, ``y``), ``h`` tall.
 * @param {number} x @param {number} y @param {number} h @param {string} cls */
function pyramid(x, y, h, cls) {
  return svg("polygon", { class: cls, points: `${x},${y} ${x + h * 0.6},${y + h} ${x - h * 0.6},${y + h}` });
}

/** A lean begun (its first square tapped): that square marked, and each square beside it
 * marked as one to tap for the pyramid's other side.
 * @param {import("./svg.js").Board} b @param {HighriseObservation} seen */
function drawLean(b, seen) {
  for (const mark of b.layer.querySelectorAll(".lean-from, .lean-to")) mark.remove();
  const first = leanFrom();
  const spot = first ? b.place(first) : null;
  if (!first || !spot) return;
  const s = b.size;
  b.layer.append(svg("rect", { x: spot.x + 3, y: spot.y + 3, width: s - 6, height: s - 6, rx: 4,
    class: "lean-from", "data-lean-from": first }));
  for (const name of besides(first, seen.rows, seen.cols)) {
    const to = b.place(name);
    if (to) {
      b.layer.append(svg("rect", { x: to.x + 6, y: to.y + 6, width: s - 12, height: s - 12,
        rx: 4, class: "lean-to", "data-lean-to": name }));
    }
  }
}

/** Every square as a place to tap, said as the wooden set has it (what a tap acts on), or as
 * the game has it where the set is not known.
 * @param {import("./svg.js").Board} b @param {HighriseObservation} seen
 * @param {ReturnType<typeof woodOf>} wood
 * @returns {import("./taps.js").Target[]} */
function squaresOf(b, seen, wood) {
  /** @type {import("./taps.js").Target[]} */
  const targets = [];
  for (let row = 0; row < seen.rows; row += 1) {
    for (let col = 0; col < seen.cols; col += 1) {
      const name = squareName(row, col);
      const { x, y } = b.at(row, col);
      const w = wood?.squares[name];
      const n = w ? w.pyramids : (seen.owners?.[name] || []).length;
      const words = [w && !w.cover ? "no cover" : "its cover",
        n ? `${counted(n, "pyramid")}${w?.top ? `, top ${w.top}` : ""}` : ""].filter(Boolean);
      targets.push({ name, x, y, width: b.size, height: b.size, label: `${name}: ${words.join(", ")}` });
    }
  }
  return targets;
}

/** @param {HighriseView} view */
export function info(view) {
  const seen = view.obs;
  const changed = new Set(view.change?.players || []);
  // each player starts with as many pyramids as the other: half of all there were
  const start = Math.max(1, (seen.pieces_left.A + seen.pieces_left.B + seen.plies) / 2);
  const bars = ["A", "B"].map((p) => {
    const left = seen.pieces_left[p];
    return html("div", { class: `pieces${changed.has(p) ? " newest" : ""}` },
      html("span", { class: "who" }, view.players?.[p] || `player ${p}`),
      html("progress", { max: start, value: left, class: `player-${p.toLowerCase()}` }),
      html("span", { class: "left" }, `${left} left`));
  });
  const note = seen.stacks || Object.keys(view.reveals || {}).length
    ? html("p", { class: "hidden-note" }, "each stack: who controls it (top left), its value (large), the pips of A and B, the points it scores (top right)")
    : html("p", { class: "hidden-note" }, "the stacks' values and pips stay hidden until every pyramid is placed");
  return html("div", { class: "highrise-info" }, ...bars, note);
}

/** @param {HighriseObservation} seen @param {string} p */
export function scoreLine(seen, p) {
  return `${counted(seen.pieces_left?.[p] ?? 0, "pyramid")} left`;
}

/** @param {HighriseObservation | null} before @param {HighriseObservation} after
 * @returns {HighriseChange} */
export function change(before, after) {
  if (!before) return { players: [] };
  return { players: ["A", "B"].filter((p) => after.pieces_left[p] < before.pieces_left[p]) };
}

/** Each stack: revealed at the end, by square; null before it.
 * @param {HighriseObservation} seen */
export function reveals(seen) {
  return seen.stacks ? Object.fromEntries(seen.stacks.map((s) => [s.square, s])) : null;
}

/** @param {string} row */
export const breakdownRow = (row) => {
  const found = /^([a-h][1-8]): (.*)$/.exec(row);
  return found ? html("li", {}, html("span", { class: "square-name" }, found[1]), html("span", {}, found[2]))
    : html("li", {}, row);
};
