// @ts-check
// Stones: the board with its stacks, each stone by kind (its shape) and owner (its colour).
import { glowOn } from "./lights.js";
import { board, counted, html, outlineView, squareName, svg } from "./svg.js";
import { tapTargets } from "./taps.js";

/**
 * The stones game's public observation (engine/stones/game.py).
 * @typedef {object} StonesObservation
 * @property {"stones"} game
 * @property {number} rows
 * @property {number} cols
 * @property {Record<string, string[]>} stacks  by square, bottom first: "A corner"
 * @property {Record<string, string>} names  each kind's name in this game
 * @property {string | null} to_play
 * @property {number} plies
 * @property {Record<string, boolean[]>} symmetry  each player's [colour, shape]; none while
 *   the stones are set out
 * @property {Record<string, string | null>} pillar  where each player's capstone stands on
 *   the other's stack
 */

/** @typedef {{from: string[], to: string[]}} StonesChange the squares left and reached */
/** @typedef {import("./table.js").View<StonesObservation, StonesChange>} StonesView */

const SHAPES = ["square", "diamond", "circle", "triangle"];

/** The kinds in the order the observation names them, each with a shape.
 * @param {StonesObservation} seen
 * @returns {Record<string, string>} */
function kinds(seen) {
  return Object.keys(seen.names || {}).reduce((out, kind, i) => ({ ...out, [kind]: SHAPES[i % SHAPES.length] }), {});
}

/** One stone: its shape by kind, its colour by owner.
 * @param {string} shape
 * @param {string} owner
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 * @param {string} cls */
function stone(shape, owner, cx, cy, r, cls) {
  const attrs = { class: `stone player-${owner.toLowerCase()} ${cls}`.trim() };
  switch (shape) {
    case "square":
      return svg("rect", { ...attrs, x: cx - r, y: cy - r * 0.8, width: 2 * r, height: 1.6 * r, rx: 2 });
    case "diamond":
      return svg("polygon", { ...attrs, points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}` });
    case "triangle":
      return svg("polygon", { ...attrs, points: `${cx},${cy - r} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}` });
    default:
      return svg("circle", { ...attrs, cx, cy, r: r * 0.9 });
  }
}

/** @param {StonesView} view */
export function draw(view) {
  const seen = view.obs;
  const b = board(seen.rows, seen.cols, 64, "the stones board");
  const shapes = kinds(seen);
  for (const [name, stack] of Object.entries(seen.stacks)) {
    const spot = b.place(name);
    if (!spot) continue;
    const g = svg("g", { class: "stack", "data-square": name, "data-stack": stack.join("|") });
    stack.forEach((piece, i) => {
      const [owner, kind] = piece.split(" ");
      const lift = (i - (stack.length - 1) / 2) * 9; // the top stone drawn highest
      g.append(stone(shapes[kind] || "circle", owner, spot.x + b.size / 2,
        spot.y + b.size / 2 - lift, b.size * 0.27, i === stack.length - 1 ? "top" : "under"));
    });
    if (stack.length > 1) {
      g.append(svg("text", { x: spot.x + b.size - 7, y: spot.y + 13, class: "count" }, stack.length));
    }
    b.layer.append(g);
  }
  outlineView(b, view);
  glowOn(b, view.lights || []);
  drawSet(b, view, shapes);
  drawKey(b, seen, shapes);
  tapTargets(b.root, squaresOf(b, view), view.tap);
  return b.root;
}

const KEY = 22; // the key's row under the board's letters

/** Which shape is which stone, each in both players' colours, in a row under the board: in
 * the drawing, it stays in view with the board (under it, it lay beneath the bar).
 * @param {import("./svg.js").Board} b @param {StonesObservation} seen
 * @param {Record<string, string>} shapes */
function drawKey(b, seen, shapes) {
  const names = Object.entries(seen.names || {});
  if (!names.length) return;
  const [, , width, top] = (b.root.getAttribute("viewBox") || "").split(" ").map(Number);
  b.root.setAttribute("viewBox", `0 0 ${width} ${top + KEY}`);
  // each item as wide as its name (about 5.6 units a letter at the key's size), the room
  // left shared out between them
  const wide = names.map(([, name]) => 25 + name.length * 5.6);
  const gap = Math.max(0, width - b.at(0, 0).x - wide.reduce((a, w) => a + w, 0)) / names.length;
  let x = b.at(0, 0).x + gap / 2;
  names.forEach(([kind, name], i) => {
    const y = top + KEY / 2 - 2;
    b.root.append(svg("g", { class: "key-item", "data-kind": kind },
      stone(shapes[kind], "A", x + 6, y, 5, ""), stone(shapes[kind], "B", x + 17, y, 5, ""),
      svg("text", { x: x + 25, y, class: "key-name" }, name)));
    x += wide[i] + gap;
  });
}

/** The drawing is the board a person acts on: its lights and its squares to tap. */
export const oneBoard = true;

/** Every square of the game's board as a place to tap, named as the hands name it, and said
 * as the wooden set has it (what a tap acts on), or the game where the set is not known.
 * @param {import("./svg.js").Board} b @param {StonesView} view
 * @returns {import("./taps.js").Target[]} */
function squaresOf(b, view) {
  const seen = view.obs;
  const wood = view.set && view.set.game === "stones"
    ? /** @type {Record<string, string[]> | undefined} */ (view.set.squares) : undefined;
  /** @type {import("./taps.js").Target[]} */
  const targets = [];
  for (let row = 0; row < seen.rows; row += 1) {
    for (let col = 0; col < seen.cols; col += 1) {
      const name = squareName(row, col);
      const { x, y } = b.at(row, col);
      const stack = (wood || seen.stacks)[name] || [];
      targets.push({ name, x, y, width: b.size, height: b.size,
        label: `${name}: ${stack.length ? stack.join(" / ") : "empty"}` });
    }
  }
  return targets;
}

/** Where the wooden set differs from the game the table accepted, at a glance: a stone
 * lifted off a square (in a hand, or put down where the table has not taken it) stays drawn
 * there faint, a stone standing where the game has none is drawn hollow, and each such
 * square is outlined dashed: the place to put right.
 * @param {import("./svg.js").Board} b @param {StonesView} view
 * @param {Record<string, string>} shapes */
function drawSet(b, view, shapes) {
  const set = view.set && view.set.game === "stones" ? view.set : null;
  const squares = /** @type {Record<string, string[]> | undefined} */ (set?.squares);
  if (!squares) return;
  const seen = view.obs;
  for (const name of new Set([...Object.keys(squares), ...Object.keys(seen.stacks)])) {
    const spot = b.place(name);
    const wood = squares[name] || [];
    const game = seen.stacks[name] || [];
    if (!spot || wood.join() === game.join()) continue;
    b.layer.querySelector(`g.stack[data-square="${name}"]`)?.classList.add("lifted");
    wood.forEach((piece, i) => {
      const [owner, kind] = piece.split(" ");
      b.layer.append(stone(shapes[kind] || "circle", owner, spot.x + b.size * 0.72,
        spot.y + b.size * 0.3 - i * 6, b.size * 0.16, "wood"));
    });
    b.layer.append(svg("rect", { x: spot.x + 4, y: spot.y + 4, width: b.size - 8,
      height: b.size - 8, rx: 3, class: "outline differs", "data-differs": name }));
  }
}

/** @param {StonesView} view */
export function info(view) {
  const seen = view.obs;
  const pillars = ["A", "B"].filter((p) => seen.pillar?.[p])
    .map((p) => html("p", { class: "notice" }, `${view.players?.[p] || `player ${p}`}'s capstone stands on ${seen.pillar[p]}: it must come off`));
  return html("div", { class: "stones-info" }, // (the key to the shapes: in the drawing)
    html("p", { class: "plies" }, `${counted(seen.plies, "move")} played`),
    pillars);
}

/** The symmetries a player holds; nothing while the stones are set out (the setup's board
 * holds none: the rules check symmetry after each move).
 * @param {StonesObservation} seen @param {string} p */
export function scoreLine(seen, p) {
  const held = seen.symmetry?.[p];
  if (!held) return "";
  const [colour, shape] = held;
  // no-break spaces: a narrow card never leaves a mark alone at the start of a line
  return `symmetry: colour\u00a0${colour ? "✓" : "–"}, shape\u00a0${shape ? "✓" : "–"}`;
}

/** @param {StonesObservation | null} before @param {StonesObservation} after
 * @returns {StonesChange} */
export function change(before, after) {
  /** @type {string[]} */
  const from = [];
  /** @type {string[]} */
  const to = [];
  if (!before) return { from, to };
  for (const name of new Set([...Object.keys(before.stacks), ...Object.keys(after.stacks)])) {
    const was = before.stacks[name] || [];
    const now = after.stacks[name] || [];
    if (now.length < was.length) from.push(name);
    else if (now.length > was.length || now.join() !== was.join()) to.push(name);
  }
  return { from, to };
}

/** @param {string} row */
export const breakdownRow = (row) => html("li", {}, row);
