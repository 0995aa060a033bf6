// @ts-check
// High Rise: the board grid, each stack's pyramids in their owners' colours, and the pieces
// left. Nothing hidden is in the observation before the end (no pyramid's size); then each
// stack is shown as its reveal event comes: value, pips, who controls it, points.
import { board, counted, html, outlineView, svg } from "./svg.js";

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

/** @param {HighriseView} view */
export function draw(view) {
  const seen = view.obs;
  const b = board(seen.rows, seen.cols, 78, "the High Rise board");
  const shown = view.reveals || {};
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
  return b.root;
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
