// @ts-check
// Towers hands: the pile, the two zone pads, the block in your hand (turn it), and both
// towers' blocks; with a block in hand, a rod is where its corner goes (lower it there, or
// hover over it). Lift a block off, knock a tower. The rods, the pads, the pile and the free
// blocks are tapped on the drawing (towers.js, `onPlace`); what is not a place (turning the
// block, hovering, knocking) stands in the bar at the bottom as well (reach.js, `data-reach-as`).
import { button, capital } from "./hands_board.js";
import { counted, html } from "./svg.js";
import { blockName, cellsWords } from "./towers.js";

/**
 * @typedef {import("./hands.js").Act} Act
 * @typedef {{id: string, colour: string, cells: number[][]}} Block  cells: [x, y, level]
 */
/**
 * The block in a hand: how it is turned (of how many ways), its shape so turned, and the
 * rods its corner may go on.
 * @typedef {Block & {turn: number, turns: number, shape: number[][], spots: number[][]}} Held
 */
/**
 * The towers table as its hands see it (firmware/towers/hands.py look).
 * @typedef {object} TowersHands
 * @property {"towers"} game
 * @property {string} page  the module that draws these hands (this one)
 * @property {number} width
 * @property {number} levels
 * @property {Block[]} pile
 * @property {Block[]} fallen  knocked off, lying on the table
 * @property {(Block | null)[]} pads  the building zone's two pads
 * @property {Record<string, Held | null>} held  by seat
 * @property {(Block & {at: number[][], free: boolean})[][]} towers  A's, then B's; `at`: its
 *   cells on the tower, `free`: nothing on top of it
 * @property {number | null} hovering  the tower a hand hovers over
 */

const SIDE = 3;

/** What a seat's hand holds, in words ("" for nothing): hands.js says it of the other hand.
 * @param {TowersHands} table @param {string} seat */
export function holding(table, seat) {
  const held = table.held[seat];
  return held ? `the ${blockName(held)}` : "";
}

/** A block's shape seen from above: each rod it covers, with its cubes' levels.
 * @param {number[][]} cells */
function shape(cells) {
  const grid = html("div", { class: "hands-shape", "aria-hidden": "true" });
  for (let y = SIDE - 1; y >= 0; y--) {
    for (let x = 0; x < SIDE; x++) {
      const levels = cells.filter((c) => c[0] === x && c[1] === y).map((c) => c[2] + 1);
      grid.append(html("span", { class: levels.length ? "full" : "" }, levels.join("")));
    }
  }
  return grid;
}

/** The pile by colour, as a person sees it (one button a colour takes its next block), then
 * each block lying knocked off the table (two of a colour told apart by their count).
 * @param {TowersHands} table @param {string} seat @param {Act} act @param {Held | null} held */
function pile(table, seat, act, held) {
  const list = html("div", { class: "hands-pile" });
  /** @type {Map<string, Block[]>} */
  const colours = new Map();
  for (const b of table.pile) colours.set(b.colour, [...(colours.get(b.colour) || []), b]);
  for (const [colour, blocks] of colours) {
    const next = blocks[0];
    list.append(button(`${colour} ×${blocks.length}`, { "data-block": next.id,
      class: `block ${colour}`, title: `take a ${blockName(next)} from the pile` },
    () => act({ act: "take", seat, block: next.id }), !held, full(held)));
  }
  for (const b of table.fallen) {
    const alike = table.fallen.filter((f) => f.colour === b.colour);
    const which = alike.length > 1 ? `, ${alike.indexOf(b) + 1} of ${alike.length}` : "";
    list.append(button(`${blockName(b)} (knocked off${which})`, { "data-block": b.id,
      class: `block ${b.colour}` }, () => act({ act: "take", seat, block: b.id }), !held,
    full(held)));
  }
  const fallen = table.fallen.length ? ` (${counted(table.fallen.length, "block")} lying on `
    + "the table, knocked off)" : "";
  return html("section", {}, html("h3", {}, `The pile: take a block${fallen}`), list);
}

/** @param {TowersHands} table @param {string} seat @param {Act} act @param {Held | null} held */
function pads(table, seat, act, held) {
  const row = html("div", { class: "hands-pads" });
  table.pads.forEach((b, pad) => {
    const cell = html("div", { class: "pad", "data-pad-now": b ? b.id : "" },
      html("strong", {}, `zone pad ${pad + 1}: `), b ? blockName(b) : "empty");
    if (b) {
      cell.append(button("take it", { "data-take-pad": pad },
        () => act({ act: "take", seat, pad }), !held, full(held)));
    } else {
      cell.append(button("set the block here", { "data-set-pad": pad },
        () => act({ act: "set", seat, pad }), !!held, "the hand is empty: take a block first"));
    }
    row.append(cell);
  });
  return html("section", {}, html("h3", {}, "The building zone"), row);
}

/** @param {string} seat @param {string} name  the seat's name @param {Held | null} held
 * @param {Act} act */
function hand(seat, name, held, act) {
  if (!held) return html("p", { class: "hands-held" }, `${capital(name)}'s hand is empty.`);
  return html("div", { class: "hands-held", "data-held": held.id, "data-turn": held.turn },
    html("p", {}, `${capital(name)} holds the ${blockName(held)}, ${held.turns > 1
      ? `turned ${held.turn + 1} of ${counted(held.turns, "way")}` : "the same whichever way it turns"}`
      + " (from above, each rod with its cubes' levels):"),
    shape(held.shape),
    button("turn it", { "data-act": "turn", "data-reach-as": "turn",
      "data-reach-words": "turn the block" }, () => act({ act: "turn", seat }), held.turns > 1,
      `the ${blockName(held)} looks the same whichever way it turns`),
    button("back to the pile", { "data-act": "back" }, () => act({ act: "back", seat })),
    button("take the hand away", { "data-act": "away" }, () => act({ act: "away", seat })));
}

/**
 * @param {TowersHands} table
 * @param {number} index  0: A's tower, 1: B's
 * @param {string} seat
 * @param {Act} act
 * @param {Held | null} held
 * @param {{value: string}} mode  lower or hover
 * @param {boolean} drawn  the drawing is the board tapped: no rods here */
function tower(table, index, seat, act, held, mode, drawn) {
  const blocks = table.towers[index];
  const heights = Array(SIDE * SIDE).fill(0);
  for (const b of blocks) for (const [x, y, z] of b.at) {
    heights[y * SIDE + x] = Math.max(heights[y * SIDE + x], z + 1);
  }
  const spots = new Set((held ? held.spots : []).map(([x, y]) => `${x},${y}`));
  const grid = html("div", { class: "hands-rods" });
  for (let y = SIDE - 1; y >= 0; y--) {
    for (let x = 0; x < SIDE; x++) {
      const name = `${"abc"[x]}${y + 1}`;
      const can = spots.has(`${x},${y}`);
      grid.append(button(`${name}: ${heights[y * SIDE + x]}`, {
        "data-tower": index, "data-at": `${x},${y}`,
        title: `${mode.value} the block with its corner on rod ${name}`,
      }, () => act({ act: mode.value, seat, tower: index, at: [x, y] }), can,
      `rod ${name}: ${greyRod(held)}`));
    }
  }
  const list = html("ul", { class: "hands-tower-blocks" });
  for (const b of [...blocks].reverse()) {
    list.append(html("li", {}, `${blockName(b)} at ${cellsWords(b.at)}`, " ",
      button("lift it off", { "data-lift": b.id, "data-tower": index },
        () => act({ act: "lift", seat, tower: index, block: b.id }), b.free && !held,
        b.free ? full(held) : "another block rests on it: lift that one first")));
  }
  const owner = "AB"[index];
  return html("section", { class: "hands-tower", "data-tower-of": owner },
    html("h3", {}, `Player ${owner}'s tower`, table.hovering === index ? " (a hand hovers)" : ""),
    drawn ? null : grid, list,
    button("knock the tower", { "data-knock": index, "data-reach-words": `knock tower ${owner}`,
      // in the bar while the hand is empty (turning and hovering take its place while a
      // block is held: the bar keeps its height, the drawing its size)
      "data-reach-as": held ? null : `knock-${owner}` },
    () => act({ act: "knock", tower: index }), blocks.length > 0, "the tower is empty"));
}

/** Why a rod is greyed out for a corner: nothing in the hand, or the block as it is turned
 * would stand off the tower with its corner there.
 * @param {Held | null} held */
function greyRod(held) {
  return held ? `the ${blockName(held)}${turned(held)} would stick out of the tower with its `
    + `corner here: ${held.turns > 1 ? "turn it, or " : ""}choose a rod that is not grey`
    : "the hand is empty: take a block from the pile or a zone pad first";
}

/** ", turned as it is" of a block that turns more than one way (one that looks the same
 * whichever way it turns: nothing).
 * @param {Held} held */
function turned(held) {
  return held.turns > 1 ? ", turned as it is," : "";
}

/** Why a take is greyed out: the hand holds a block already.
 * @param {Held | null} held */
function full(held) {
  return held ? `the hand holds the ${blockName(held)}: set it down first` : "";
}

const mode = { value: "lower" };

/** A tap on one of the drawing's places (towers.js names them): a rod ("rod-A-b2") lowers
 * the held block with its corner there (or hovers it, in that mode); a zone pad ("pad-1")
 * takes its block, or sets the held one on it; the pile ("pile-red") gives a block of its
 * colour, or takes the held one back; a free block ("block-G01") is lifted off; the hand
 * ("hand") turns its block.
 * @param {TowersHands} table @param {string} seat @param {Act} act @param {string} place */
export function onPlace(table, seat, act, place) {
  const held = table.held[seat];
  const [kind, first, second] = place.split("-");
  if (kind === "rod" && held) {
    const tower = "AB".indexOf(first);
    const at = ["abc".indexOf(second[0]), Number(second.slice(1)) - 1];
    if (held.spots.some(([x, y]) => x === at[0] && y === at[1])) {
      act({ act: mode.value, seat, tower, at });
    }
  } else if (kind === "pad") onPad(table, seat, act, Number(first) - 1);
  else if (kind === "pile") onPile(table, seat, act, first);
  else if (kind === "block" && !held) {
    const tower = table.towers.findIndex((t) => t.some((b) => b.id === first && b.free));
    if (tower >= 0) act({ act: "lift", seat, tower, block: first });
  } else if (kind === "hand" && held && held.turns > 1) act({ act: "turn", seat });
}

/** A zone pad tapped: its block taken into an empty hand, or the held block set on it.
 * @param {TowersHands} table @param {string} seat @param {Act} act @param {number} pad */
function onPad(table, seat, act, pad) {
  const held = table.held[seat];
  if (table.pads[pad] && !held) act({ act: "take", seat, pad });
  else if (!table.pads[pad] && held) act({ act: "set", seat, pad });
}

/** The pile tapped: a block of its colour into an empty hand (a knocked-off one once the
 * pile has none), or the held block back.
 * @param {TowersHands} table @param {string} seat @param {Act} act @param {string} colour */
function onPile(table, seat, act, colour) {
  if (table.held[seat]) {
    act({ act: "back", seat });
    return;
  }
  const block = [...table.pile, ...table.fallen].find((b) => b.colour === colour);
  if (block) act({ act: "take", seat, block: block.id });
}

/** The towers table, for player ``seat``'s hands; ``act(request)`` does one act.
 * @param {TowersHands} table
 * @param {string} seat
 * @param {Act} act
 * @param {unknown} _obs  (the board is the hands' own)
 * @param {string} who  the seat's name ("player A")
 * @param {boolean} [drawn]  the drawing is the board tapped: its rods are the drawing's */
export function drawHands(table, seat, act, _obs, who, drawn = false) {
  const held = table.held[seat];
  const modes = html("div", { class: "hands-mode" }, drawn ? "A rod tapped: " : "A rod below: ",
    ...["lower", "hover"].map((m) => {
      const b = button(m === "lower" ? "lowers the block there" : "hovers it there",
        { "data-mode": m, "aria-pressed": String(mode.value === m),
          // the other mode, in the bar while a block is held
          "data-reach-as": held && mode.value !== m ? `mode-${m}` : null,
          "data-reach-words": m === "lower" ? "a rod lowers it" : "a rod hovers it" },
        () => { mode.value = m; act({ act: "look" }); });
      return b;
    }));
  // the rods greyed out say why, under the towers, as each one's title does
  const grey = !held || held.spots.length < SIDE * SIDE;
  const why = grey ? html("p", { class: "hands-why" }, held
    ? `A grey rod: the ${blockName(held)}${turned(held)} would stick out of the tower with `
      + `its corner there; ${held.turns > 1 ? "turn it, or " : ""}choose another rod.`
    : `The rods are grey while ${who}'s hand is empty: take a block from the pile or a zone `
      + "pad first.") : null;
  // what acts on the towers first, beside the drawing; the zone and the pile below
  return html("div", { class: "hands-towers" },
    hand(seat, who, held, act), modes, html("div", { class: "hands-both" },
      tower(table, 0, seat, act, held, mode, drawn), tower(table, 1, seat, act, held, mode, drawn)),
    why,
    pads(table, seat, act, held), pile(table, seat, act, held));
}
