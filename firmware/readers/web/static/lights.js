// @ts-check
// The table's LEDs on the page, as the table lights them: each ring as a ring, the lights under
// the board's squares and the rods each on its square, the zone pads in a row; each light in
// its own colour (firmware/core/table_lights.py tells them, strip by strip).
import { html, svg } from "./svg.js";

/** @typedef {import("./service.js").Strip} Strip */

/** A ring of the table's LEDs, each pixel in its colour (dark: off), clockwise from the top.
 * @param {Strip} ring @param {string} label */
export function ringOf(ring, label) {
  const n = ring.colours.length;
  const dots = ring.colours.map((colour, i) => {
    const angle = (2 * Math.PI * i) / n - Math.PI / 2;
    return svg("circle", { cx: 20 + 15 * Math.cos(angle), cy: 20 + 15 * Math.sin(angle), r: 2.6,
      fill: lit(colour), class: colour === "#000000" ? "led off" : "led" });
  });
  return svg("svg", { viewBox: "0 0 40 40", class: "leds-ring", role: "img", "aria-label": label,
    "data-ring": ring.owner }, ...dots);
}

/** The colour a ring mostly shows (its lit pixels' commonest; null: all out), for a player's
 * card to glow in it: on a game whose drawing is its one board, the ring is drawn around the
 * card as well as in it.
 * @param {Strip} ring @returns {string | null} */
export function ringColour(ring) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const colour of ring.colours) {
    if (colour !== "#000000") counts.set(colour, (counts.get(colour) || 0) + 1);
  }
  let best = null;
  let most = 0;
  for (const [colour, n] of counts) {
    if (n > most) [best, most] = [colour, n];
  }
  return best;
}

/** An LED's colour as the page shows it: off is a dark grey, so it reads as a light that is out.
 * @param {string} colour */
function lit(colour) {
  return colour === "#000000" ? "#3a3a3a" : colour;
}

/** The table's other LEDs (under the board's squares, the rods, the zone pads), each strip laid
 * out as the table's: the lights of squares (or rods) each on its square, a1 at the bottom left
 * (the strip's `places`: a 3x3 game's lights on an 8-wide strip drawn as its 3x3 board); any
 * other strip a row of ``cols`` lights, row 0 at the bottom. Drawn as SVG with each light's
 * ``fill``: the page's Content-Security-Policy allows no inline styles.
 * @param {HTMLElement} box @param {Strip[]} lights */
export function drawLights(box, lights) {
  const strips = lights.filter((s) => s.strip !== "ring");
  box.hidden = !strips.length;
  box.replaceChildren(html("h2", {}, "The table's lights"), ...strips.map((s) => {
    const step = 14;
    const spots = s.colours.map((_, i) => spotOf(s, i));
    const rows = 1 + Math.max(0, ...spots.map((spot) => spot?.row ?? 0));
    const cols = 1 + Math.max(0, ...spots.map((spot) => spot?.col ?? 0));
    const dots = s.colours.flatMap((colour, i) => {
      const spot = spots[i];
      if (!spot) return []; // an LED beyond the game's board
      const name = s.places?.[i];
      return [svg("circle", { cx: 7 + spot.col * step, cy: 7 + (rows - 1 - spot.row) * step, r: 5.5,
        fill: lit(colour), class: colour === "#000000" ? "led off" : "led",
        "data-led": String(i), "data-colour": colour, "data-square": name || null },
      name ? svg("title", {}, name) : null)];
    });
    const name = { board: "the board", tower: `tower ${s.owner}`, zone: "the zone pads" }[s.strip]
      || `${s.strip} ${s.owner}`;
    const named = s.places ? " (each on its square)" : "";
    return html("figure", { class: "leds-strip", "data-strip": `${s.strip}${s.owner}` },
      svg("svg", { viewBox: `0 0 ${cols * step} ${rows * step}`, width: cols * step,
        height: rows * step, role: "img", "aria-label": `${name}'s lights${named}` }, ...dots),
      html("figcaption", {}, name));
  }));
}

/** Where LED ``i`` of a strip is drawn: on its square (``places``: "a1" is row 0, column 0;
 * none for an LED beyond the game's board), or in rows of ``cols``.
 * @param {Strip} s @param {number} i @returns {{row: number, col: number} | null} */
function spotOf(s, i) {
  if (!s.places) return { row: Math.floor(i / s.cols), col: i % s.cols };
  const name = s.places[i] || "";
  if (!name) return null;
  return { row: Number(name.slice(1)) - 1, col: "abcdefgh".indexOf(name[0]) };
}

/** The board's lights drawn on the game's drawing, each lit square glowing in its colour
 * under the pieces: the squares a person acts on are the ones the table lights (a game whose
 * drawing is its one board; the strips' ``places`` say which square each LED lights).
 * @param {import("./svg.js").Board} b @param {Strip[]} lights */
export function glowOn(b, lights) {
  const grid = b.root.querySelector("g.grid");
  if (!grid) return;
  for (const s of lights.filter((strip) => strip.strip === "board" && strip.places)) {
    s.colours.forEach((colour, i) => {
      const name = s.places?.[i] || "";
      const spot = name && colour !== "#000000" ? b.place(name) : null;
      if (!spot) return; // out, or beyond the game's board
      grid.append(svg("rect", { x: spot.x + 1, y: spot.y + 1, width: b.size - 2, height: b.size - 2,
        rx: 4, fill: colour, class: "glow", "data-lit": name, "data-colour": colour }));
    });
  }
}
