// @ts-check
// Towers: the two towers as stacked cubes, seen from one corner (isometric), the building
// zone's pads, the pile and the hands. Everything from the public observation.
import { counted, html, points, svg } from "./svg.js";
import { tapTargets } from "./taps.js";

/** @typedef {{id: string, colour: string}} Block a block off the towers */
/**
 * A block where its cubes are: the cells they fill ([col, row, level], from 0).
 * @typedef {{id: string, colour: string, cells: number[][]}} Cubes
 */
/** @typedef {Cubes & {by: string}} PlacedBlock a block on a tower, and who placed it */

/**
 * The towers game's public observation (engine/towers/game.py): everything is in view.
 * @typedef {object} TowersObservation
 * @property {"towers"} game
 * @property {number} width  rods along a side
 * @property {number} levels  cubes up to the top of the rods
 * @property {string} phase
 * @property {number} turn
 * @property {string} active
 * @property {string[]} to_move
 * @property {Record<string, PlacedBlock[]>} towers  by player
 * @property {Record<string, number>} pile  blocks of each colour
 * @property {Block[]} zone  the blocks on the zone's pads
 * @property {Record<string, Block | null>} hands
 * @property {string[]} bonus  the players who may put a black block on the other tower
 * @property {number} blacks_left
 * @property {Record<string, number>} scores
 * @property {Record<string, number>} penalties
 */

/** @typedef {{blocks: string[], zone: string[]}} TowersChange the blocks newly placed */
/**
 * The blocks seen over the top so far, each with its player and the actions played when
 * it was (a takeback drops what came after).
 * @typedef {{over: (Cubes & {player: string, n: number})[]}} TowersTrail
 */
/** @typedef {import("./service.js").Move} Move */
/** @typedef {import("./table.js").View<TowersObservation, TowersChange, TowersTrail>} TowersView */
/** @typedef {{cell: number[], kind: string, player: string}} Mark a cube a refusal marks */

const W = 15; // half a cube's width on screen
const H = 8.5; // half its depth
const Z = 17; // its height
/** @type {Record<string, number>} */
const SHADE = { top: 1.18, left: 0.9, right: 0.7 };
/** @type {Record<string, string>} */
const COLOURS = { black: "#2b2b2b", yellow: "#f2c230", red: "#d63a2f", green: "#3f9b45",
  blue: "#2f6fd6" };

/** Where a grid corner (x, y) at height z lands on screen.
 * @param {number} x @param {number} y @param {number} z
 * @returns {number[]} */
const corner = (x, y, z) => [(x + y) * W, (x - y) * H - z * Z];

/** @param {string} colour @param {number} factor */
function shade(colour, factor) {
  const hex = COLOURS[colour] || "#999999";
  /** @param {number} i */
  const channel = (i) => Math.max(0, Math.min(255, Math.round(parseInt(hex.slice(i, i + 2), 16) * factor)));
  return `rgb(${channel(1)},${channel(3)},${channel(5)})`;
}

/** One cube's three visible faces (painted back to front by the caller).
 * @param {number[]} cell [x, y, z]
 * @param {string | null} fill  its colour; null: an outline only
 * @param {string} cls */
function cube([x, y, z], fill, cls) {
  /** @param {number} h */
  const L = (h) => corner(x, y, h);
  /** @param {number} h */
  const B = (h) => corner(x + 1, y, h);
  /** @param {number} h */
  const R = (h) => corner(x + 1, y + 1, h);
  /** @param {number} h */
  const T = (h) => corner(x, y + 1, h);
  /** @param {number[][]} list @param {string} part */
  const face = (list, part) => svg("polygon", { points: points(list),
    fill: fill ? shade(fill, SHADE[part]) : "none", class: `face ${part}` });
  return svg("g", { class: cls, "data-cell": `${x},${y},${z}` },
    face([L(z + 1), B(z + 1), B(z), L(z)], "left"),
    face([B(z + 1), R(z + 1), R(z), B(z)], "right"),
    face([L(z + 1), B(z + 1), R(z + 1), T(z + 1)], "top"));
}

/** A refusal's marks on the towers: each a cube of a tower, as the event's values say.
 * @param {import("./service.js").Place[] | undefined} marks
 * @returns {Mark[]} */
function towerMarks(marks) {
  return (marks || []).flatMap((m) => (m.tower && m.cells?.length
    ? [{ player: m.tower, cell: m.cells[0], kind: m.kind || "" }] : []));
}

/** Playing alone: the computer's asked move (or a hint) from its event's marks: the blocks
 * it wants in the zone (by colour, with the shape to fetch from the pile, none for the one
 * to take) and the cubes its block fills on a tower.
 * @param {import("./service.js").Place[] | undefined} where */
export function askedOf(where) {
  /** @type {{colour: string, cells: number[][] | null}[]} */
  const zone = [];
  /** @type {{player: string, cell: number[]}[]} */
  const cubes = [];
  for (const mark of where || []) {
    const { zone: colour, tower: player, cells = [] } = mark;
    if (colour) zone.push({ colour, cells: cells.length ? cells : null });
    else if (player) cubes.push(...cells.map((cell) => ({ player, cell })));
  }
  return { zone, cubes };
}

/** A block's shape as a small picture, for a pad the computer wants filled.
 * @param {string} colour @param {number[][]} cells @param {string} kind */
function shapePicture(colour, cells, kind) {
  const g = svg("g", {});
  [...cells].sort((a, b) => a[2] - b[2] || (a[0] - a[1]) - (b[0] - b[1]))
    .forEach((cell) => g.append(cube(cell, colour, "cube")));
  return svg("svg", { viewBox: "-4 -60 100 80", class: `asked-shape ${kind}`, "data-ask": kind,
    "data-colour": colour, "data-cells": cells.map((c) => c.join(",")).join(" ") }, g);
}

/**
 * One tower: its base plate and rods, its cubes (those gone over the top as ghosts), the
 * rim at the rods' top, a refusal's marks and the computer's block.
 * @param {Cubes[]} blocks
 * @param {{width: number, levels: number, top: number, newest: Set<string>, marks: Mark[],
 *   over: boolean, gone: Cubes[], asked?: {cell: number[]}[], kind?: string}} how
 */
function tower(blocks, { width, levels, top, newest, marks, over, gone, asked = [], kind = "ask" }) {
  const g = svg("g", { class: "tower" });
  // the base plate and its rods, named as the rules name them
  const base = [corner(0, 0, 0), corner(width, 0, 0), corner(width, width, 0), corner(0, width, 0)];
  g.append(svg("polygon", { points: points(base), class: "plate" }));
  for (let x = 0; x < width; x += 1) {
    for (let y = 0; y < width; y += 1) {
      const [cx, cy] = corner(x + 0.5, y + 0.5, 0);
      const [, ty] = corner(x + 0.5, y + 0.5, levels);
      g.append(svg("line", { x1: cx, y1: cy, x2: cx, y2: ty, class: "rod" }));
    }
  }
  /** @type {{cell: number[], block: Cubes, gone?: boolean}[]} */
  const cells = [];
  for (const block of blocks) {
    for (const cell of block.cells) cells.push({ cell, block });
  }
  // blocks taken off for going over the top: drawn where they were, as ghosts
  for (const block of gone) {
    for (const cell of block.cells) cells.push({ cell, block, gone: true });
  }
  // painter's order: lower levels first, then the farther cubes
  cells.sort((a, b) => a.cell[2] - b.cell[2] || (a.cell[0] - a.cell[1]) - (b.cell[0] - b.cell[1]));
  for (const { cell, block, gone: ghost } of cells) {
    const classes = ["cube", `colour-${block.colour}`];
    if (ghost) classes.push("gone");
    if (newest.has(block.id)) classes.push("newest");
    if (cell[2] >= levels) classes.push("over-top");
    const drawn = cube(cell, block.colour, classes.join(" "));
    drawn.setAttribute("data-block", block.id);
    g.append(drawn);
  }
  // the top of the rods: a cube above this line is over the top
  const rim = [corner(0, 0, levels), corner(width, 0, levels), corner(width, width, levels),
    corner(0, width, levels)];
  g.append(svg("polygon", { points: points(rim), class: over ? "rim over" : "rim" }));
  for (const mark of marks) {
    const drawn = cube(mark.cell, null, `mark ${mark.kind}`);
    drawn.setAttribute("data-mark", mark.kind);
    g.append(drawn);
  }
  for (const { cell } of asked) { // the computer's block, where it goes and turned as it goes
    const drawn = cube(cell, null, `mark ${kind}`);
    drawn.setAttribute("data-ask", kind);
    g.append(drawn);
  }
  for (let x = 0; x < width; x += 1) {
    const [lx, ly] = corner(x + 0.5, 0, 0);
    g.append(svg("text", { x: lx - 6, y: ly + 14, class: "coord small" }, "abc"[x] || ""));
  }
  for (let y = 0; y < width; y += 1) {
    const [lx, ly] = corner(width, y + 0.5, 0);
    g.append(svg("text", { x: lx + 8, y: ly + 12, class: "coord small" }, y + 1));
  }
  g.dataset.top = String(top);
  return g;
}

/** @param {TowersView} view */
export function draw(view) {
  const seen = view.obs;
  const width = seen.width || 3;
  const levels = seen.levels || 9;
  const standing = new Set(["A", "B"].flatMap((p) => seen.towers[p].map((b) => b.id)));
  const gone = (view.trail?.over || []).filter((b) => !standing.has(b.id));
  let top = levels;
  for (const block of [...seen.towers.A, ...seen.towers.B, ...gone]) {
    for (const [, , z] of block.cells) top = Math.max(top, z + 1);
  }
  top += 1; // room to show a cube that would go over
  const marks = towerMarks(view.marks);
  const newest = new Set(view.change?.blocks || []);
  const asked = askedOf(view.asked?.where);
  const span = 2 * width * W; // one tower's width on screen
  const gap = 50; // room for both names with a penalty ("tower A: 12 (−3)") side by side
  const margin = 26; // a name is wider than a narrow tower: room on either side
  const height = width * 2 * H + top * Z + 44;
  const across = 2 * span + gap + 12 + 2 * margin;
  const root = svg("svg", { viewBox: `${-margin} 0 ${across} ${height}`, class: "drawing towers",
    role: "img", "aria-label": "the two towers" });
  root.setAttribute("viewBox", `${-margin} 0 ${across} ${height + ROW}`);
  /** @type {import("./taps.js").Target[]} */
  const targets = [];
  const set = woodenSet(view.set);
  const holds = Boolean(set && Object.values(set.held).some((b) => b));
  ["A", "B"].forEach((p, i) => {
    const over = (seen.penalties?.[p] ?? 0) > 0;
    const g = tower(seen.towers[p], { width, levels, top, newest, over,
      gone: gone.filter((b) => b.player === p),
      marks: marks.filter((m) => m.player === p),
      asked: asked.cubes.filter((c) => c.player === p), kind: view.asked?.kind });
    const left = 6 + i * (span + gap);
    const base = top * Z + width * H + 6;
    g.setAttribute("transform", `translate(${left},${base})`);
    g.setAttribute("data-player", p);
    // (the game over, the drawing is the game's end, as its replay draws it: no lights)
    if (!view.over) glowRods(g, p, view.lights || [], width);
    cornerOf(g, p, asked.cubes.filter((c) => c.player === p).map((c) => c.cell));
    if (set) differs(g, seen.towers[p], set.towers[i] || []);
    root.append(g);
    root.append(svg("text", { x: left + span / 2, y: height - 6, class: `tower-name player-${p.toLowerCase()}` },
      `tower ${p}: ${seen.scores?.[p] ?? 0}${over ? ` (−${seen.penalties[p]})` : ""}`));
    // with a block in a hand, a rod is where its corner goes; with none, a free block lifts
    if (holds) {
      const block = held(view, set)?.[1];
      greyRods(g, p, width, block);
      targets.push(...rodTargets(p, width, left, base, block));
    }
    else if (set) targets.push(...blockTargets(p, set.towers[i] || [], left, base));
  });
  root.append(row(view, set, height - 2, targets));
  tapTargets(root, targets, view.tap);
  return root;
}

/** The drawing is the board a person acts on: the rods, the zone's pads, the pile and the
 * blocks are tapped on it, and the table's lights glow on it. */
export const oneBoard = true;

const ROW = 62; // the row under the towers: the zone's pads, the pile, the hand
const PAD = 44; // a zone pad's side
const PILE = 27; // a pile colour's room across
const PILE_COLOURS = ["black", "yellow", "red", "green", "blue"];

/**
 * The wooden set as the hands panel saw it last (firmware/towers/hands.py look): what the
 * drawing taps, and where it shows that the set differs from the game.
 * @typedef {{id: string, colour: string, cells: number[][]}} WoodBlock
 * @typedef {WoodBlock & {turn: number, turns: number, shape: number[][], spots: number[][]}} WoodHeld
 * @typedef {{game: string, pads: (WoodBlock | null)[], pile: WoodBlock[],
 *   fallen: WoodBlock[], held: Record<string, WoodHeld | null>,
 *   towers: (WoodBlock & {at: number[][], free: boolean})[][]}} WoodenSet
 */

/** The towers' wooden set out of what the page was handed (null: none, or another game's).
 * @param {import("./service.js").HandsTable | null | undefined} set
 * @returns {WoodenSet | null} */
function woodenSet(set) {
  if (!set || set.game !== "towers" || !Array.isArray(set.towers)) return null;
  return /** @type {WoodenSet} */ (/** @type {unknown} */ (set));
}

/** A rod's diamond on its tower's plate, in the tower's own coordinates.
 * @param {number} x @param {number} y @param {number} [z] */
const diamond = (x, y, z = 0) => [corner(x, y, z), corner(x + 1, y, z), corner(x + 1, y + 1, z),
  corner(x, y + 1, z)];

/** A rod's name, as the rules name it ("a1").
 * @param {number} x @param {number} y */
const rodName = (x, y) => `${"abc"[x]}${y + 1}`;

/** The lit rods of player ``p``'s tower (the table's "tower" strips), each glowing in its
 * colour on the plate, under the cubes.
 * @param {SVGElement} g @param {string} p
 * @param {import("./service.js").Strip[]} lights @param {number} width */
function glowRods(g, p, lights, width) {
  const strip = lights.find((s) => s.strip === "tower" && s.owner === p);
  const plate = g.querySelector(".plate");
  if (!strip || !plate) return;
  strip.colours.forEach((colour, i) => {
    const name = strip.places?.[i] || rodName(i % width, Math.floor(i / width));
    const x = "abc".indexOf(name[0]);
    const y = Number(name.slice(1)) - 1;
    if (colour === "#000000" || x < 0) return;
    plate.after(svg("polygon", { points: points(diamond(x, y)), fill: colour, class: "glow",
      "data-lit": `${p}:${name}`, "data-colour": colour }));
  });
}

/** Where the wooden tower differs from the game's: a block the game has but the set has not
 * (lifted off, in a hand) drawn faint; a block on the set the game has not taken drawn as a
 * dashed outline where it stands, the place to put right. Told apart by colour and cells
 * (two blocks of one colour are alike to the table).
 * @param {SVGElement} g @param {Cubes[]} game
 * @param {(WoodBlock & {at: number[][]})[]} wood */
function differs(g, game, wood) {
  /** @param {{colour: string}} b @param {number[][]} cells */
  const key = (b, cells) => `${b.colour}:${cells.map((c) => c.join(",")).sort().join(" ")}`;
  const onWood = new Set(wood.map((b) => key(b, b.at)));
  const inGame = new Set(game.map((b) => key(b, b.cells)));
  for (const b of game) {
    if (onWood.has(key(b, b.cells))) continue;
    for (const node of g.querySelectorAll(`[data-block="${b.id}"]`)) node.classList.add("lifted");
  }
  for (const b of wood) {
    if (inGame.has(key(b, b.at))) continue;
    const cells = [...b.at].sort((m, n) => m[2] - n[2] || (m[0] - m[1]) - (n[0] - n[1]));
    for (const cell of cells) {
      const drawn = cube(cell, b.colour, "cube wood");
      drawn.setAttribute("data-differs", b.id);
      g.append(drawn);
    }
  }
}

/** The rods where the held block, as it is turned, would stick out of the tower with its
 * corner there: greyed on the plate.
 * @param {SVGElement} g @param {string} p @param {number} width
 * @param {WoodHeld | Block | undefined} block */
function greyRods(g, p, width, block) {
  if (!block || !("spots" in block)) return;
  const spots = new Set(block.spots.map((s) => s.join()));
  const plate = g.querySelector(".plate");
  for (let x = 0; x < width; x += 1) {
    for (let y = 0; y < width; y += 1) {
      if (spots.has(`${x},${y}`)) continue;
      plate?.after(svg("polygon", { points: points(diamond(x, y)), class: "cannot",
        "data-cannot": `${p}:${rodName(x, y)}` }));
    }
  }
}

/** Each rod of player ``p``'s tower as a place to tap: its diamond on the plate, saying
 * whether the held block (as it is turned) may go there with its corner, and why not.
 * @param {string} p @param {number} width @param {number} left @param {number} base
 * @param {WoodHeld | Block | undefined} block  the block in the hand the drawing shows
 * @returns {import("./taps.js").Target[]} */
function rodTargets(p, width, left, base, block) {
  const spots = block && "spots" in block ? new Set(block.spots.map((s) => s.join())) : null;
  /** @type {import("./taps.js").Target[]} */
  const targets = [];
  for (let x = 0; x < width; x += 1) {
    for (let y = 0; y < width; y += 1) {
      const spot = diamond(x, y).map(([sx, sy]) => [sx + left, sy + base]);
      const can = !spots || spots.has(`${x},${y}`);
      targets.push({ name: `rod-${p}-${rodName(x, y)}`, ...boxOf(spot), points: points(spot),
        label: `rod ${rodName(x, y)} of tower ${p}: ${can ? "the held block's corner goes here"
          : `the ${blockName(block || { colour: "" })}, turned as it is, would stick out of `
            + "the tower with its corner here"}` });
    }
  }
  return targets;
}

/** Each free block of player ``p``'s wooden tower (nothing on top of it) as a place to tap:
 * the box of its cubes, the nearer and higher drawn over the others.
 * @param {string} p @param {(WoodBlock & {at: number[][], free: boolean})[]} wood
 * @param {number} left @param {number} base
 * @returns {import("./taps.js").Target[]} */
function blockTargets(p, wood, left, base) {
  return wood.filter((b) => b.free).map((b) => {
    const spots = b.at.flatMap(([x, y, z]) => [corner(x, y, z), corner(x + 1, y + 1, z + 1),
      corner(x + 1, y, z), corner(x, y + 1, z + 1)]).map(([sx, sy]) => [sx + left, sy + base]);
    return { name: `block-${b.id}`, ...boxOf(spots),
      label: `the ${blockName(b)} on tower ${p} at ${cellsWords(b.at)}: lift it off` };
  });
}

/** Where the corner of the asked block goes: the rod of its box's corner (the cell nearest
 * a1, which for some shapes, the T-shaped green, no cube fills), marked at the level the
 * block's bottom will stand, as the hand's picture marks it.
 * @param {SVGElement} g @param {string} p @param {number[][]} cells */
function cornerOf(g, p, cells) {
  if (!cells.length) return;
  const x = Math.min(...cells.map((c) => c[0]));
  const y = Math.min(...cells.map((c) => c[1]));
  const z = Math.min(...cells.map((c) => c[2]));
  const [cx, cy] = corner(x + 0.5, y + 0.5, z);
  g.append(svg("g", { class: "corner", "data-corner": `${p}:${rodName(x, y)}` },
    svg("polygon", { points: points(diamond(x, y, z)) }), svg("circle", { cx, cy, r: 3 })));
}

/** The row under the towers: the zone's two pads, the pile by colour and the block in a
 * hand, each a place to tap (``targets`` gets them), drawn as the wooden set has them where
 * the page knows it, with the table's lights on the pads.
 * @param {TowersView} view @param {WoodenSet | null} set @param {number} top
 * @param {import("./taps.js").Target[]} targets */
function row(view, set, top, targets) {
  const g = svg("g", { class: "towers-row" });
  [0, 1].forEach((i) => g.append(pad(view, set, i, -20 + i * (PAD + 6), top, targets)));
  const counts = pileCounts(view.obs, set);
  PILE_COLOURS.forEach((colour, i) => {
    const x = 80 + i * PILE;
    g.append(mini([[0, 0, 0]], colour, x + 2, top + 22, 0.75, "pile-cube"),
      svg("text", { x: x + PILE / 2 - 2, y: top + 44, class: "pile-count" }, `×${counts[colour]}`));
    targets.push({ name: `pile-${colour}`, x, y: top + 2, width: PILE - 2, height: PAD + 2,
      label: `the pile: ${counts[colour]} ${colour}; with a block in the hand, it goes back` });
  });
  g.append(svg("text", { x: 80 + (PILE * PILE_COLOURS.length) / 2, y: top + 58,
    class: "pile-name" }, "the pile"));
  const hand = held(view, set);
  if (hand) {
    const [who, block] = hand;
    const x = 220;
    g.append(svg("text", { x: x + 24, y: top + 58, class: "hand-name" }, `${who}'s hand`));
    const shape = "shape" in block ? block.shape : [[0, 0, 0]];
    const drawn = mini(shape, block.colour, x, top + 40, 0.5, "held");
    drawn.setAttribute("data-held", block.id);
    if ("turn" in block) {
      drawn.setAttribute("data-turn", String(block.turn));
      drawn.append(svg("circle", { cx: (corner(0.5, 0.5, 0)[0]), cy: corner(0.5, 0.5, 0)[1],
        r: 4, class: "corner", "data-corner": "hand" }));
      targets.push({ name: "hand", x, y: top, width: 48, height: ROW - 2,
        label: `the ${blockName(block)} in player ${who}'s hand, turned ${block.turn + 1} of `
          + `${block.turns}, its corner marked: tap to turn it` });
    }
    g.append(drawn);
  }
  return g;
}

/** One zone pad: what stands on it (the wooden set's block, or the game's), the computer's
 * asked block for it, its light, and, where the set and the game differ, a dashed outline.
 * @param {TowersView} view @param {WoodenSet | null} set @param {number} i
 * @param {number} x @param {number} top @param {import("./taps.js").Target[]} targets */
function pad(view, set, i, x, top, targets) {
  const seen = view.obs;
  const block = set ? set.pads[i] : seen.zone[i] || null;
  const g = svg("g", { class: "zone-pad", "data-pad": i + 1 });
  const light = view.over ? null : (view.lights || []).find((s) => s.strip === "zone")?.colours[i];
  g.append(svg("rect", { x, y: top + 2, width: PAD, height: PAD, rx: 4, class: "pad-plate" }));
  if (light && light !== "#000000") {
    g.append(svg("rect", { x: x + 2, y: top + 4, width: PAD - 4, height: PAD - 4, rx: 3,
      fill: light, class: "glow", "data-lit": `pad-${i + 1}`, "data-colour": light }));
  }
  const wanted = askedOf(view.asked?.where).zone;
  const shape = !block ? wanted.filter((w) => w.cells)[i - seen.zone.length] : null;
  if (block) g.append(mini([[0, 0, 0]], block.colour, x + 8, top + 34, 0.95, "pad-cube"));
  else if (shape?.cells) {
    const low = shape.cells.map(([cx, cy, cz]) => [cx, cy, cz]);
    const drawn = mini(low, null, x + 4, top + 38, 0.34, `mark ${view.asked?.kind || "ask"}`);
    drawn.setAttribute("data-asked-pad", view.asked?.kind || "ask");
    g.append(drawn);
  }
  const missing = set ? padsDiffer(seen, set)[i] : null;
  if (missing !== null) { // the game's block lifted off this pad (drawn faint), or one it has not
    if (missing) g.append(mini([[0, 0, 0]], missing, x + 8, top + 34, 0.95, "pad-cube lifted"));
    g.append(svg("rect", { x: x + 1, y: top + 3, width: PAD - 2, height: PAD - 2, rx: 4,
      class: "outline differs", "data-differs": `pad-${i + 1}` }));
  }
  g.append(svg("text", { x: x + PAD / 2, y: top + 58, class: "pad-name" }, `pad ${i + 1}`));
  targets.push({ name: `pad-${i + 1}`, x, y: top + 2, width: PAD, height: PAD,
    label: `zone pad ${i + 1}: ${block ? blockName(block) : "empty"}` });
  return g;
}

/** Which pads of the wooden set differ from the game's zone (told by colour, as the pads
 * weigh them): for each pad, null where they agree, "" for a block the game has not taken,
 * or the colour of the game's block no longer on an empty pad (in a hand).
 * @param {TowersObservation} seen @param {WoodenSet} set @returns {(string | null)[]} */
function padsDiffer(seen, set) {
  const left = seen.zone.map((b) => b.colour);
  const out = set.pads.map((b) => {
    const at = b ? left.indexOf(b.colour) : -1;
    if (at >= 0) left.splice(at, 1);
    return b && at < 0 ? "" : null;
  });
  return out.map((d, i) => (set.pads[i] || !left.length ? d : left.shift() || null));
}

/** How many blocks of each colour lie in the pile: the wooden set's (knocked-off blocks
 * lying on the table count with it), or the game's.
 * @param {TowersObservation} seen @param {WoodenSet | null} set
 * @returns {Record<string, number>} */
function pileCounts(seen, set) {
  /** @type {Record<string, number>} */
  const counts = Object.fromEntries(PILE_COLOURS.map((c) => [c, 0]));
  if (set) for (const b of [...set.pile, ...set.fallen]) counts[b.colour] = (counts[b.colour] || 0) + 1;
  else Object.assign(counts, seen.pile, { black: seen.blacks_left });
  return counts;
}

/** The block in a hand, and whose: the wooden set's (its shape as it is turned) for the seat
 * to move first (its seat, "A"), or the game's where the page has no set.
 * @param {TowersView} view @param {WoodenSet | null} set
 * @returns {[string, WoodHeld | Block] | null} */
function held(view, set) {
  const order = [...new Set([...view.obs.to_move, "A", "B"])];
  const hands = set ? set.held : view.obs.hands;
  const seat = order.find((p) => hands[p]);
  const block = seat ? hands[seat] : null;
  return seat && block ? [seat, block] : null;
}

/** A small picture of cubes (a block's shape, a pile's cube) at (x, y), scaled.
 * @param {number[][]} cells @param {string | null} colour @param {number} x
 * @param {number} y @param {number} scale @param {string} cls */
function mini(cells, colour, x, y, scale, cls) {
  const g = svg("g", { class: cls, transform: `translate(${x},${y}) scale(${scale})` });
  [...cells].sort((a, b) => a[2] - b[2] || (a[0] - a[1]) - (b[0] - b[1]))
    .forEach((cell) => g.append(cube(cell, colour, colour ? "cube" : "cube outline")));
  return g;
}

/** The box around points. @param {number[][]} spots */
function boxOf(spots) {
  const xs = spots.map(([x]) => x);
  const ys = spots.map(([, y]) => y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** A small cube picture for a colour, for lists and the breakdown.
 * @param {string | null} colour  null: an outline (a cube over the top)
 * @param {string} label
 * @param {string} [extra]  more classes */
export function chip(colour, label, extra = "") {
  const icon = svg("svg", { viewBox: "-1 -27 32 37", class: "chip-cube", "aria-hidden": "true" },
    cube([0, 0, 0], colour, "cube"));
  return html("span", { class: `chip ${extra}`.trim(), "data-colour": colour }, icon, label);
}

/** A block as the table and the players can tell it: its colour ("red block"). The wooden
 * blocks carry no labels, and the zone pads weigh only a colour: the id stays the page's
 * data, never its words.
 * @param {{colour: string}} block */
export function blockName(block) {
  return `${block.colour} block`;
}

/** Where a block's cubes are on a tower, in words: its rods, bottom level first, then its
 * levels ("a1, b1, a2 (level 3)", "a1 (levels 1-2)"), counted from 1 as the rules do.
 * @param {number[][]} cells  [col, row, level], from 0 */
export function cellsWords(cells) {
  const sorted = [...cells].sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
  const rods = [...new Set(sorted.map(([x, y]) => `${"abc"[x]}${y + 1}`))];
  const low = sorted[0][2] + 1;
  const high = sorted[sorted.length - 1][2] + 1;
  return `${rods.join(", ")} (${low === high ? `level ${low}` : `levels ${low}-${high}`})`;
}

/**
 * The wooden set as the page's hands panel saw it last (firmware/towers/hands.py look), what
 * the drawing compares with the game of it.
 * @typedef {{game: string, pads: (Block | null)[], held: Record<string, Block | null>}} TowersSet
 */

/** Where the wooden set differs from the game about the building zone or a hand, what the
 * set has there, in a line: between a hand's act and the table accepting it, or while the
 * passive player holds a zone block the game counts taken once it is placed. Null when they
 * agree, or with no hands on this page.
 * @param {TowersObservation} seen
 * @param {import("./service.js").HandsTable | null | undefined} set
 * @param {Record<string, string> | null | undefined} players  the seats' names */
function onTheSet(seen, set, players) {
  if (!set || set.game !== "towers" || !Array.isArray(set.pads)) return null;
  const wooden = /** @type {TowersSet} */ (/** @type {unknown} */ (set));
  /** @param {(Block | null)[]} blocks */
  const colours = (blocks) => blocks.flatMap((b) => (b ? [b.colour] : [])).sort().join();
  /** @param {Block | null | undefined} block */
  const colour = (block) => block?.colour || "";
  if (colours(wooden.pads) === colours(seen.zone)
    && ["A", "B"].every((p) => colour(wooden.held[p]) === colour(seen.hands[p]))) return null;
  const pads = wooden.pads.map((b, i) => `zone pad ${i + 1}: ${b ? blockName(b) : "empty"}`);
  const held = ["A", "B"].flatMap((p) => {
    const block = wooden.held[p];
    return block ? [`${players?.[p] || `player ${p}`} holds the ${blockName(block)}`] : [];
  });
  return html("p", { class: "on-the-set" },
    `On the wooden set now: ${[...held, ...pads].join("; ")}.`);
}

/** @param {TowersView} view */
export function info(view) {
  const seen = view.obs;
  const chosen = new Set(view.change?.zone || []);
  const kind = view.asked?.kind || "ask";
  const wanted = askedOf(view.asked?.where).zone;
  // from the pile, onto the empty pads
  const fromPile = wanted.flatMap(({ colour, cells }) => (cells ? [{ colour, cells }] : []));
  const take = wanted.filter((w) => !w.cells).map((w) => w.colour); // off a pad
  const pads = [0, 1].map((i) => {
    const block = seen.zone[i];
    const taken = block && take.includes(block.colour);
    const shape = !block && fromPile.length ? fromPile.shift() : null;
    const pad = html("div", { class: `pad${block && chosen.has(block.id) ? " newest" : ""}${
      taken || shape ? ` asked ${kind}` : ""}` },
    html("span", { class: "pad-name" }, `zone pad ${i + 1}`),
    block ? chip(block.colour, blockName(block)) : shape ? shapePicture(shape.colour, shape.cells, kind)
      : html("span", { class: "empty" }, "empty"));
    if (taken) pad.setAttribute("data-ask", kind);
    return pad;
  });
  const pile = Object.entries(seen.pile).map(([colour, n]) => chip(colour, `× ${n}`));
  const hands = ["A", "B"].flatMap((p) => {
    const held = seen.hands[p];
    const who = view.players?.[p] || `player ${p}`;
    return held ? [html("div", { class: "hand" }, `${who} holds the `,
      chip(held.colour, blockName(held)))] : [];
  });
  const bonus = seen.bonus?.length
    ? html("p", { class: "bonus" }, `flat bonus: ${seen.bonus.map((p) => view.players?.[p] || `player ${p}`).join(" and ")} may put a black block on the other tower`)
    : null;
  return html("div", { class: "towers-info" },
    html("div", { class: "pads" }, ...pads),
    hands,
    html("div", { class: "pile" }, html("span", { class: "label" }, "pile"), ...pile,
      chip("black", `× ${seen.blacks_left} left`, "blacks")),
    bonus, onTheSet(seen, view.set, view.players));
}

/** @param {TowersObservation} seen @param {string} p */
export function scoreLine(seen, p) {
  const penalty = seen.penalties?.[p] ? `, −${seen.penalties[p]} over the top` : "";
  const score = seen.scores?.[p] ?? 0;
  return `${score} ${Math.abs(score) === 1 ? "point" : "points"}${penalty}`;
}

/** @param {TowersObservation | null} before @param {TowersObservation} after
 * @returns {TowersChange} */
export function change(before, after) {
  /** @param {TowersObservation} seen */
  const ids = (seen) => new Set(["A", "B"].flatMap((p) => seen.towers[p].map((b) => b.id)));
  const had = before ? ids(before) : new Set();
  const zoneHad = new Set((before?.zone || []).map((b) => b.id));
  return {
    blocks: [...ids(after)].filter((id) => !had.has(id)),
    zone: after.zone.map((b) => b.id).filter((id) => !zoneHad.has(id)),
  };
}

/** The blocks seen over the top so far: the end of the turn takes them off (in the same
 * observation when the game ends there), so the drawing keeps them to show where they were.
 * ``n``: actions played (a takeback drops what came after it); ``move``: the action that
 * led to ``after``, as its record's data ({a: "place", tower, block, cells}).
 * @param {TowersTrail | null} trail
 * @param {TowersObservation | null} before
 * @param {TowersObservation} after
 * @param {number} n
 * @param {Move} [move]
 * @returns {TowersTrail} */
export function track(trail, before, after, n, move) {
  const levels = after.levels || 9;
  const over = (trail?.over || []).filter((b) => b.n <= n);
  /** @param {Cubes & {player: string}} block */
  const add = (block) => {
    if (block.cells.some(([, , z]) => z >= levels) && !over.some((b) => b.id === block.id)) {
      over.push({ ...block, n });
    }
  };
  for (const player of ["A", "B"]) {
    for (const block of after.towers[player]) add({ ...block, player });
  }
  if (move?.a === "place") {
    const id = String(move.block);
    const cells = /** @type {[number, number, number][]} */ (move.cells);
    add({ id, player: String(move.tower), cells, colour: colourOf(before, id) });
  }
  return { over };
}

/** A block's colour from where it was before it was placed (a hand, the zone, a tower).
 * @param {TowersObservation | null} seen @param {string} id */
function colourOf(seen, id) {
  const found = [...Object.values(seen?.hands || {}), ...(seen?.zone || []),
    ...(seen ? [...seen.towers.A, ...seen.towers.B] : [])].find((b) => b && b.id === id);
  return found ? found.colour : id.startsWith("K") ? "black" : "grey";
}

/** The breakdown's rows with pictures: blocks by colour, cubes over the top. */
/** @param {string} row */
export function breakdownRow(row) {
  const blocks = /^(\d+) (black|yellow|red|green|blue): ([+-]\d+)$/.exec(row);
  if (blocks) {
    const n = Number(blocks[1]);
    const cubes = Array.from({ length: Math.min(n, 15) }, () => chip(blocks[2], ""));
    return html("li", { class: "scored" }, html("span", { class: "cubes" }, ...cubes),
      html("span", { class: "row-text" }, `${n} ${blocks[2]}`), html("b", { class: "points" }, blocks[3]));
  }
  const over = /^(\d+) cubes? over the top: (-\d+)$/.exec(row);
  if (over) {
    const cubes = Array.from({ length: Math.min(Number(over[1]), 15) }, () => chip(null, "", "over-top"));
    return html("li", { class: "penalty" }, html("span", { class: "cubes" }, ...cubes),
      html("span", { class: "row-text" }, `${counted(Number(over[1]), "cube")} over the top`), html("b", { class: "points" }, over[2]));
  }
  return html("li", {}, row);
}
