// One table drawing for the live page and the replay: each game's module draws its board
// from a view {obs, players, change, marks, trail, reveals, over}.
import * as highrise from "./highrise.js";
import * as maze from "./maze.js";
import * as stones from "./stones.js";
import { html } from "./svg.js";
import * as towers from "./towers.js";

export const GAMES = { towers, stones, highrise, maze };

/** The drawing and the game's own facts (pile, legend, pieces left) into their places. */
export function drawTable(drawing, facts, game, view) {
  const module = GAMES[game];
  if (!module || !view.obs) {
    drawing.replaceChildren();
    facts.replaceChildren();
    return;
  }
  try {
    drawing.replaceChildren(module.draw(view));
    facts.replaceChildren(module.info(view) || "");
  } catch (error) {
    // an observation this page cannot draw: say so rather than show half a table
    drawing.replaceChildren(html("p", { class: "cannot" }, `this page cannot draw the ${game} table (${error.message}); the words below still follow it`));
  }
}

/** One line a player reads under their name: the score so far, or what counts in this game. */
export function scoreLine(game, obs, player) {
  const module = GAMES[game];
  try {
    return module && obs ? module.scoreLine(obs, player) : "";
  } catch {
    return "";
  }
}

/** What the last action changed, for the drawing to highlight. */
export function changeOf(game, before, after) {
  const module = GAMES[game];
  try {
    return module && after ? module.change(before, after) : null;
  } catch {
    return null;
  }
}

/** What a game keeps from one observation to the next (the maze's route, the towers' blocks
 * over the top), one observation further on; ``action`` is the notation that led there. */
export function trackOf(game, trail, before, after, actions, action = "") {
  const module = GAMES[game];
  try {
    return module?.track && after ? module.track(trail, before, after, actions, action) : null;
  } catch {
    return trail;
  }
}

/** The end: the result in words, then each player's breakdown with pictures. */
export function ending(game, outcome, players) {
  if (!outcome) return [];
  const module = GAMES[game];
  const row = module?.breakdownRow || ((text) => html("li", {}, text));
  const columns = Object.entries(outcome.breakdown || {}).map(([p, rows]) => {
    const score = outcome.scores ? ` ${outcome.scores[p]}` : "";
    const won = outcome.winner === p ? " winner" : "";
    return html("div", { class: `breakdown player-${p.toLowerCase()}${won}`, "data-player": p },
      html("h3", {}, `${players?.[p] || `player ${p}`}${score ? `:${score}` : ""}${won ? " (wins)" : ""}`),
      html("ul", {}, ...rows.map((text) => {
        const item = row(text);
        item.dataset.row = text; // the row as the table wrote it, whatever the picture
        return item;
      })));
  });
  return [html("p", { class: "result" }, outcome.words || ""), html("div", { class: "columns" }, ...columns)];
}
