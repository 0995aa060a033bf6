// @ts-check
// The finished games of this table: each downloadable as its record (JSON, text), and
// replayable move by move with the same drawing as the live table.
import { finishedGames, replayOf } from "./service.js";
import { counted, html } from "./svg.js";
import { changeOf, drawTable, ending, messageOf, revealsOf, trackOf } from "./table.js";

/**
 * @typedef {import("./service.js").GameSummary} GameSummary
 * @typedef {import("./service.js").Replay} Replay
 * @typedef {import("./table.js").PageView} PageView
 */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** List the finished games (newest first) under the history heading. */
export async function openHistory() {
  const list = $("games");
  $("history").hidden = false;
  list.replaceChildren(html("li", { class: "wait" }, "reading the table's finished games…"));
  try {
    const { games, warnings } = await finishedGames();
    const items = games.map((g) => html("li", { "data-game-id": g.id },
      html("span", { class: "game-line" }, `${g.when} · ${g.game}${g.options && g.options !== "the defaults" ? ` (${g.options})` : ""} · ${g.result}`),
      html("span", { class: "actions" },
        html("a", { href: g.json, download: `obelisk-${g.game}-${g.id}.json`, class: "download json" }, "record (JSON)"),
        html("a", { href: g.text, download: `obelisk-${g.game}-${g.id}.txt`, class: "download text" }, "score sheet (text)"),
        replayButton(g))));
    list.replaceChildren(...(items.length ? items : [html("li", { class: "none" }, "no finished games on this table yet")]),
      ...warnings.map((w) => html("li", { class: "warning" }, w)));
  } catch (error) {
    list.replaceChildren(html("li", { class: "warning" }, `the history cannot be read: ${messageOf(error)}`));
  }
}

/** @param {GameSummary} game */
function replayButton(game) {
  const button = html("button", { type: "button", class: "replay" }, "replay");
  button.addEventListener("click", () => replay(game.replay));
  return button;
}

// ------------------------------------------------------------------ replay

/**
 * The game being replayed, its views, and the step shown.
 * @type {{game: string | null, page: string, steps: Replay["steps"], at: number, views: PageView[],
 *   outcome: Replay["outcome"], players: Replay["players"] | null}}
 */
const shown = { game: null, page: "", steps: [], at: 0, views: [], outcome: null, players: null };

/** @param {string} url */
async function replay(url) {
  const panel = $("replay");
  panel.hidden = false;
  $("replay-title").textContent = "loading the game…";
  try {
    const game = await replayOf(url);
    Object.assign(shown, { game: game.game, page: game.page, steps: game.steps, outcome: game.outcome,
      players: game.players, at: 0 });
    shown.views = views(game);
    $("replay-title").textContent = `${game.game}, ${game.when}${game.options !== "the defaults" ? ` (${game.options})` : ""}`;
    replayStep.max = String(game.steps.length - 1);
    show(0);
    panel.scrollIntoView({ behavior: "smooth", block: "start" });
  } catch (error) {
    $("replay-title").textContent = `this game cannot be replayed: ${messageOf(error)}`;
  }
}

/** Every step's view: what changed, the route so far, at the end the revealed stacks.
 * @param {Replay} game
 * @returns {PageView[]} */
function views(game) {
  /** @type {unknown} */
  let trail = null;
  return game.steps.map((step, i) => {
    const before = i ? game.steps[i - 1].observation : null;
    trail = trackOf(game.page, trail, before, step.observation, i, step.move);
    const last = i === game.steps.length - 1;
    return { obs: step.observation, players: game.players, change: i ? changeOf(game.page, before, step.observation) : null,
      marks: [], trail, reveals: revealsOf(game.page, step.observation), over: last };
  });
}

/** @param {number} at the step to show */
function show(at) {
  shown.at = Math.max(0, Math.min(shown.steps.length - 1, at));
  const step = shown.steps[shown.at];
  const last = shown.at === shown.steps.length - 1;
  drawTable($("replay-drawing"), $("replay-facts"), shown.page, shown.views[shown.at]);
  const who = step.player ? `${shown.players?.[step.player] || `player ${step.player}`} ` : "";
  $("replay-move").textContent = shown.at ? `${shown.at} of ${shown.steps.length - 1}. ${who}${step.text}` : `the start (${counted(shown.steps.length - 1, "move")})`;
  replayStep.value = String(shown.at);
  $("replay-ending").replaceChildren(...(last ? ending(shown.page, shown.outcome, shown.players) : []));
  $("replay-ending").hidden = !last;
  button("replay-back").disabled = shown.at === 0;
  button("replay-first").disabled = shown.at === 0;
  button("replay-forward").disabled = last;
  button("replay-last").disabled = last;
}

/** @param {string} id */
const button = (id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));
const replayStep = /** @type {HTMLInputElement} */ (document.getElementById("replay-step"));

$("replay-first").addEventListener("click", () => show(0));
$("replay-back").addEventListener("click", () => show(shown.at - 1));
$("replay-forward").addEventListener("click", () => show(shown.at + 1));
$("replay-last").addEventListener("click", () => show(shown.steps.length - 1));
replayStep.addEventListener("input", () => show(Number(replayStep.value)));
$("replay-close").addEventListener("click", () => {
  $("replay").hidden = true;
});
$("replay").addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") show(shown.at + 1);
  if (e.key === "ArrowLeft") show(shown.at - 1);
});
