// @ts-check
// The hands panel: a person's hands on the simulated table (`obelisk play`). It asks /hands
// what is on the table and sends each act there; the table itself learns of an act only
// through its sensors, and the rest of the page shows what it made of it, as for wooden pieces.
// Each game draws its own part, in the module its declaration names (`hands_page`, which
// the hands' table carries as `page`); this file holds what they share.
import { hands as ask, sessionToken, tableStatus } from "./service.js";
import { html } from "./svg.js";

/**
 * @typedef {import("./service.js").HandsRequest} HandsRequest
 * @typedef {import("./service.js").HandsTable} HandsTable
 * @typedef {import("./service.js").Observation} Observation
 */

/** @typedef {(request: HandsRequest) => Promise<void>} Act does one act, then draws again */

/**
 * The contract of a game's hands module (hands_towers.js...): it draws its own table, for the
 * hands of the seat chosen, each act through `act`; `obs` is the game's last observation.
 * @typedef {{drawHands(table: HandsTable, seat: string, act: Act, obs: Observation | null):
 *   Element}} HandsModule
 */
/**
 * Each game's hands module against the contract: types only, since this file loads the one
 * a table needs when it needs it.
 * @template {HandsModule} M
 * @typedef {M} Fits
 */
/**
 * @typedef {[Fits<typeof import("./hands_towers.js")>, Fits<typeof import("./hands_stones.js")>,
 *   Fits<typeof import("./hands_highrise.js")>, Fits<typeof import("./hands_maze.js")>]}
 *   HandsModules
 */

const panel = /** @type {HTMLElement} */ (document.getElementById("hands"));
/**
 * The panel's state: what is on the table, whose hands act, the game's module.
 * @type {{table: HandsTable | null, seat: string, acts: number, busy: boolean,
 *   said: string | undefined, page: string | null, draw: HandsModule["drawHands"] | null,
 *   token: string, obs: Observation | null}}
 */
const hands = { table: null, seat: "A", acts: 0, busy: false, said: "", page: null, draw: null,
  token: "", obs: null };

/** @param {"GET" | "POST"} method @param {HandsRequest} [body] */
const call = (method, body) => ask(method, body, hands.token);

/** The token of this phone's PIN session (the controls' one): the hands need it too. */
async function token() {
  hands.token = await sessionToken();
}

/** @param {HandsRequest} request */
async function send(request) {
  let { status, answer } = await call("POST", request);
  if (status === 403) { // a session entered (or ended) since: ask for the token again
    await token();
    ({ status, answer } = await call("POST", request));
  }
  return answer;
}

/** Do one act (or a button press), then draw the table as it is after it.
 * @type {Act} */
export async function act(request) {
  if (hands.busy) return;
  hands.busy = true;
  panel.dataset.busy = "1";
  try {
    const answer = await send(request);
    hands.said = answer.ok ? "" : answer.error;
    if (answer.table) hands.table = answer.table;
    if (request.press) await look();
  } catch {
    hands.said = "the page lost the table: is `obelisk play` still running?";
  } finally {
    hands.busy = false;
    hands.acts += 1;
    panel.dataset.acts = String(hands.acts);
    delete panel.dataset.busy;
    await draw();
  }
}

async function look() {
  try {
    const { status, answer } = await call("GET");
    if (status === 404) return false;
    if (answer.table) hands.table = answer.table;
    return true;
  } catch {
    return false;
  }
}

function seats() {
  /** @param {string} seat */
  const choose = (seat) => {
    const button = html("button", { type: "button", "data-seat": seat,
      "aria-pressed": String(hands.seat === seat) }, `player ${seat}'s hands`);
    button.addEventListener("click", () => { hands.seat = seat; draw(); });
    return button;
  };
  return html("div", { class: "hands-seats" }, "Acting as: ", choose("A"), choose("B"));
}

function buttons() {
  /** @param {string} name @param {boolean} hold @param {string} words */
  const press = (name, hold, words) => {
    const button = html("button", { type: "button", "data-press": name,
      "data-hold": hold ? "1" : null }, words);
    button.addEventListener("click", () => act({ press: name, hold }));
    return button;
  };
  return html("div", { class: "hands-buttons" }, "The table's buttons: ",
    press("A", false, "press A"), press("A", true, "hold A"),
    press("B", false, "press B"), press("B", true, "hold B"),
    press("menu", false, "menu"));
}

/** Every piece at once, as an arm sweeps a wooden board: put away, or set out for a new game
 * of the options the table's status names (the game's defaults when it cannot say). */
function sweeps() {
  const setUp = async () => {
    let answer = await tableStatus(hands.token);
    if (answer.status === 403) { // a session entered since: ask for the token again
      await token();
      answer = await tableStatus(hands.token);
    }
    const { status, data } = answer;
    const game = status === 200 && data.ok && data.game === hands.table?.game;
    await act(game ? { act: "setup", options: data.options } : { act: "setup" });
  };
  const clear = html("button", { type: "button", "data-act": "clear" }, "clear the table");
  clear.addEventListener("click", () => act({ act: "clear" }));
  const setup = html("button", { type: "button", "data-act": "setup" },
    "set it up for a new game");
  setup.addEventListener("click", setUp);
  return html("div", { class: "hands-sweeps" }, "The whole table: ", clear, setup);
}

async function draw() {
  const table = hands.table;
  if (!table) return;
  if (hands.page !== table.page || !hands.draw) {
    /** @type {HandsModule} */
    const module = await import(`./${table.page}.js`); // the module the game declares
    // both together, once the module is in: a draw meanwhile loads it too
    hands.page = table.page;
    hands.draw = module.drawHands;
  }
  const said = html("p", { id: "hands-said", role: "status" }, hands.said);
  panel.replaceChildren(
    html("h2", {}, "Your hands on the table"), seats(), said,
    hands.draw(table, hands.seat, act, hands.obs), buttons(), sweeps());
  panel.hidden = false;
}

async function start() {
  if (!(await look())) return; // no simulated table here: no panel
  await token();
  window.addEventListener("obelisk:event", (e) => { // the game's board size, whose turn
    if (e instanceof CustomEvent && e.detail && e.detail.observation) {
      hands.obs = e.detail.observation;
      if (!hands.busy) draw();
    }
  });
  await draw();
  setInterval(async () => { // another page's hands may have moved something
    if (!hands.busy && (await look()) && !hands.busy) draw();
  }, 2000);
}

start();
