// @ts-check
// The maze's wooden set on its drawing (obelisk play's hands): where the set differs from the
// game the table accepted, both at a glance (the game's piece faint where it was, the set's
// drawn hollow where it stands, each square outlined dashed: the place to put right), a
// wall stood while its facing is chosen drawn facing the way the table lights, and a strip
// under the board with what lies beside it, the walls in the box and what a hand holds.
import { svg } from "./svg.js";

/**
 * The maze's wooden set as the hands see it (firmware/maze/hands.py look).
 * @typedef {object} MazeSet
 * @property {"maze"} game
 * @property {Record<string, string[]>} squares  what stands on each square, bottom first
 * @property {Record<string, string[]>} held  what each seat's hand holds
 * @property {string[]} beside  the pieces beside the board
 * @property {string[]} walls  the squares a wall stands on
 * @property {number} box  the walls still in the box
 */

/**
 * How maze.js draws each piece on a square's spot (passed in: this module draws the set,
 * maze.js the game).
 * @typedef {{obelisk(x: number, y: number, s: number, cls: string): SVGElement,
 *   segment(x: number, y: number, s: number, n: number | undefined, cls: string): SVGElement,
 *   wall(x: number, y: number, s: number, orientation: string, cls: string): SVGElement}}
 *   Painters
 */

/** The wooden pieces in the box's order: the obelisk (segment 1), then segments 2 to 5. */
const PIECES = ["obelisk", "segment 2", "segment 3", "segment 4", "segment 5"];

/** A wall on offer in words, as the table says it ("wall on h1 (north and east sides)").
 * @type {RegExp} */
const OFFERED_WALL = /wall on ([a-h][1-8]) \((north|south) and (east|west) sides\)/;

/** The wooden set, where the view has the maze's (else null).
 * @param {import("./maze.js").MazeView} view @returns {MazeSet | null} */
function setOf(view) {
  const set = view.set;
  return set && set.game === "maze" && set.squares ? /** @type {MazeSet} */ (/** @type {unknown} */ (set))
    : null;
}

/** Where each wooden piece stands on the set (by piece; none beside or in a hand).
 * @param {MazeSet} set @returns {Record<string, string>} */
function woodAt(set) {
  /** @type {Record<string, string>} */
  const at = {};
  for (const [square, stack] of Object.entries(set.squares)) {
    for (const piece of stack) at[piece] = square;
  }
  return at;
}

/** Each piece the game has out on its own (the obelisk, the segments not claimed) with its
 * square on the game's board and on the set (null: not on the board); the segments the
 * obelisk claimed go with it and are left out.
 * @param {import("./maze.js").MazeObservation} seen @param {MazeSet} set
 * @returns {{piece: string, game: string | null, wood: string | null}[]} */
function placesOf(seen, set) {
  const wood = woodAt(set);
  /** @type {Record<string, string>} */
  const game = Object.fromEntries(Object.entries(seen.numbers || {})
    .map(([square, n]) => [`segment ${n}`, square]));
  const settingOut = seen.phase === "first_segment" || seen.phase === "segments";
  return PIECES.flatMap((piece) => {
    const there = piece === "obelisk" ? seen.obelisk : game[piece] || null;
    if (piece !== "obelisk" && !there && !settingOut) return []; // claimed: in the obelisk
    return [{ piece, game: there, wood: wood[piece] || null }];
  });
}

/** Where the set differs from the game, drawn over the game; the set, or null with none.
 * @param {import("./svg.js").Board} b @param {import("./maze.js").MazeView} view
 * @param {Painters} paint @returns {MazeSet | null} */
export function drawSet(b, view, paint) {
  const set = setOf(view);
  if (!set) return null;
  const seen = view.obs;
  /** @type {Set<string>} */
  const differs = new Set();
  for (const { piece, game, wood } of placesOf(seen, set)) {
    if (game === wood) continue;
    const number = piece === "obelisk" ? undefined : Number(piece.split(" ")[1]);
    if (game) { // the game's piece, faint: it was here
      const kind = piece === "obelisk" ? ".obelisk" : ".segment-piece";
      b.layer.querySelector(`${kind}[data-square="${game}"]`)?.classList.add("lifted");
      differs.add(game);
    }
    const spot = wood ? b.place(wood) : null;
    if (wood && spot) { // the wooden piece, hollow: it stands here, not taken yet
      const drawn = piece === "obelisk" ? paint.obelisk(spot.x, spot.y, b.size, "wood")
        : paint.segment(spot.x, spot.y, b.size, number, "wood");
      drawn.dataset.wood = piece;
      b.layer.append(drawn);
      differs.add(wood);
    }
  }
  wallsOf(b, view, set, paint).forEach((square) => differs.add(square));
  for (const name of differs) {
    const spot = b.place(name);
    if (spot) {
      b.layer.append(svg("rect", { x: spot.x + 3, y: spot.y + 3, width: b.size - 6,
        height: b.size - 6, rx: 3, class: "outline differs", "data-differs": name }));
    }
  }
  return set;
}

/** The walls the set and the game do not share: one stood on the set drawn dashed, facing
 * the way the table lights it while its facing is chosen (a small dashed frame before the
 * table offers one); one the game has that the set lacks faint. The squares, to outline.
 * @param {import("./svg.js").Board} b @param {import("./maze.js").MazeView} view
 * @param {MazeSet} set @param {Painters} paint @returns {string[]} */
function wallsOf(b, view, set, paint) {
  const game = new Set(view.obs.walls.map(([square]) => square));
  const offer = view.offer?.kind === "choose" ? view.offer.candidates[view.offer.pick ?? 0] : "";
  const lit = OFFERED_WALL.exec(offer || "");
  /** @type {string[]} */
  const out = [];
  for (const square of set.walls.filter((w) => !game.has(w))) {
    const spot = b.place(square);
    if (!spot) continue;
    const facing = lit && lit[1] === square ? `${lit[2][0]}${lit[3][0]}`.toUpperCase() : "";
    const drawn = facing ? paint.wall(spot.x, spot.y, b.size, facing, "wood")
      : svg("rect", { x: spot.x + 8, y: spot.y + 8, width: b.size - 16, height: b.size - 16,
        class: "wall wood" });
    drawn.dataset.wood = "wall";
    drawn.dataset.square = square;
    b.layer.append(drawn);
    if (!facing) out.push(square);
  }
  for (const square of game) {
    if (set.walls.includes(square)) continue;
    b.layer.querySelector(`.wall[data-square="${square}"]`)?.classList.add("lifted");
    out.push(square);
  }
  return out;
}

/** The strip under the board: the pieces beside it (each tapped to take it in the hand, or
 * to lay the hand's piece back beside the board), the walls in the box, and what each hand
 * holds, drawn as it looks, a little smaller than on the board. The targets to tap there.
 * @param {import("./svg.js").Board} b @param {MazeSet} set @param {Painters} paint
 * @returns {import("./taps.js").Target[]} */
export function sideStrip(b, set, paint) {
  const [, , width, height] = (b.root.getAttribute("viewBox") || "").split(" ").map(Number);
  const s = b.size * 0.8; // a piece's spot here
  const top = height + 2;
  const tall = s + 8;
  b.root.setAttribute("viewBox", `0 0 ${width} ${top + tall + 2}`);
  const strip = svg("g", { class: "beside" },
    svg("rect", { x: 2, y: top, width: width - 4, height: tall, rx: 6, class: "beside-ground" }),
    svg("text", { x: 8, y: top + 7, class: "beside-label" }, "beside the board"));
  /** @type {import("./taps.js").Target[]} */
  const targets = [];
  /** @param {string} piece @param {number} x @param {string} cls */
  const pieceAt = (piece, x, cls) => piece === "obelisk" ? paint.obelisk(x, top + 6, s, cls)
    : paint.segment(x, top + 6, s, Number(piece.split(" ")[1]), cls);
  PIECES.forEach((piece, i) => {
    const x = 6 + i * s;
    const lies = set.beside.includes(piece);
    if (lies) {
      const drawn = pieceAt(piece, x, "");
      drawn.dataset.beside = piece;
      strip.append(drawn);
    }
    targets.push({ name: `beside:${piece}`, x, y: top, width: s, height: tall,
      label: lies ? `${piece === "obelisk" ? "the obelisk" : piece} beside the board`
        : "beside the board" });
  });
  const boxX = 10 + PIECES.length * s;
  strip.append(svg("g", { class: "box", "data-box": set.box },
    svg("title", {}, `${set.box} walls in the box`),
    paint.wall(boxX, top + 12, s * 0.6, "SW", ""),
    svg("text", { x: boxX + s * 0.6 + 4, y: top + tall / 2 + 2, class: "box-count" },
      `×${set.box}`)));
  const handX = boxX + s * 1.5;
  strip.append(svg("text", { x: handX, y: top + 7, class: "beside-label" }, "in a hand"));
  Object.entries(set.held).flatMap(([seat, pieces]) => pieces.map((p) => [seat, p]))
    .forEach(([seat, piece], i) => {
      const drawn = pieceAt(piece, handX + i * s * 0.6 - s * 0.15, "held");
      drawn.dataset.held = `${seat} ${piece}`;
      strip.append(drawn);
    });
  b.root.append(strip);
  return targets;
}
