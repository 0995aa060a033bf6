// @ts-check
// The hands panel: a person's hands on the simulated table (`obelisk play`). It asks /hands
// what is on the table and sends each act there; the table itself learns of an act only
// through its sensors, and the rest of the page shows what it made of it, as for wooden pieces.
// Each game draws its own part, in the module its declaration names (`hands_page`, which
// the hands' table carries as `page`); this file holds what they share.
// The hands see the simulated table's whole board (8x8 switches), the game perhaps part of
// it (stones on 6x4): the panel draws nothing until it has the game's observation, from the
// look's answer or the table's events, so its first frame is already the game's own size.
import { hands as ask, sessionToken, tableStatus } from "./service.js";
import { capital } from "./hands_board.js";
import { oneBoard } from "./table.js";
import { html } from "./svg.js";

/**
 * @typedef {import("./service.js").HandsRequest} HandsRequest
 * @typedef {import("./service.js").HandsTable} HandsTable
 * @typedef {import("./service.js").Observation} Observation
 */

/** @typedef {(request: HandsRequest) => Promise<void>} Act does one act, then draws again */

/**
 * The contract of a game's hands module (hands_towers.js...): it draws its own table, for the
 * hands of the seat chosen, each act through `act`; `obs` is the game's last observation, `name`
 * the seat's name ("player A", "the Architect"). A game whose hands hold pieces says what a
 * seat's hand holds (`holding`: "" for nothing; `obs` for the pieces' names), for the panel
 * to say it of the other hand. Where the game's drawing is its one board (table.js `oneBoard`:
 * `drawn`), the module says what a tap on one of the drawing's places does (`onPlace`) and
 * draws no board of its own; elsewhere (a game drawn in words only, the tests' toy) it does.
 * `asks`: the piece each seat's ring asks for now, by seat (High Rise: the size the computer
 * asks for, or a hint's), for hands that choose what a tap puts to take it up.
 * @typedef {{drawHands(table: HandsTable, seat: string, act: Act, obs: Observation | null,
 *   name: string, drawn?: boolean, asks?: Record<string, string>): Element, holding?(table: HandsTable, seat: string,
 *   obs: Observation | null): string, onPlace?(table: HandsTable, seat: string, act: Act,
 *   place: string): void}} HandsModule
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
 * The panel's state: what is on the table, whose hands act (``follow``: the seat whose turn it
 * is, unless the person chose one), whose turn it is, the game's module, the seats' names.
 * @type {{table: HandsTable | null, seat: string, follow: boolean, turn: string | null,
 *   acts: number, busy: boolean, said: string | undefined, page: string | null,
 *   draw: HandsModule["drawHands"] | null, holding: HandsModule["holding"] | null,
 *   onPlace: HandsModule["onPlace"] | null, token: string,
 *   obs: Observation | null, names: Record<string, string>, moved: string | null,
 *   guest: boolean, drawing: string, next: string | null, mine: string | null,
 *   asks: Record<string, string>}}
 * ``guest``: the hands' view was refused this page (no PIN's session): it asks no more
 * until a session begins. ``drawing``: the game's page module (the events' ``page``), which
 * says whether the drawing is the board a person taps. ``next``: a place tapped while an act
 * was on its way, tapped once it is answered. ``mine``: in a match, the seat of the person
 * here (the table event's ``match``): their hands before any turn is known.
 */
const hands = { table: null, seat: "A", follow: true, turn: null, acts: 0, busy: false, said: "",
  page: null, draw: null, holding: null, onPlace: null, token: "", obs: null, names: {},
  moved: null, guest: false, drawing: "", next: null, mine: null, asks: {} };

/** A seat as the game names it ("player A"; the maze's roles: "the Architect").
 * @param {string} seat */
const nameOf = (seat) => hands.names[seat] || `player ${seat}`;

/** Events after which the hands' last answer no longer holds: the game has moved on, or
 * the table is there again (whole: "the page lost the table" no longer holds). */
const MOVED_ON = new Set(["accepted", "takeback", "repaired", "start", "game_over", "table"]);

/** What a table event says of whose turn it is (undefined: nothing).
 * @param {Record<string, unknown>} e */
function turnOf(e) {
  if (e.event === "turn") return /** @type {string} */ (e.player);
  if (e.event === "table") return /** @type {string | null} */ (e.turn);
  if (e.event === "start") return /** @type {string | null} */ (e.first);
  if (e.event === "game_over") return null;
  return undefined;
}

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

/** Do one act (or a button press), then draw the table as it is after it; ``still``: the
 * act came from the drawing, which the person is looking at: the page does not scroll.
 * @param {HandsRequest} request @param {boolean} [still] */
export async function act(request, still = false) {
  if (hands.busy) return;
  hands.busy = true;
  sent += 1;
  panel.dataset.busy = "1";
  try {
    const answer = await send(request);
    hands.said = answer.ok ? "" : answer.error;
    if (answer.table) keep(answer.table);
    if (request.press) await look(true);
  } catch {
    hands.said = "the page lost the table: is `obelisk play` still running?";
  } finally {
    hands.busy = false;
    hands.acts += 1;
    panel.dataset.acts = String(hands.acts);
    delete panel.dataset.busy;
    await draw();
    // (a button pressed again and again stays where it is, and so does a tap on the drawing)
    if (!request.press && !still) inView();
    const next = hands.next;
    hands.next = null;
    if (next) tapPlace(next);
  }
}

/** A tap on one of the drawing's places (a square): the act the game's hands make there,
 * by the hands of the seat that acts now; nothing on a page without hands.
 * @param {string} place */
export function tapPlace(place) {
  const table = hands.table;
  if (!table || hands.guest || !hands.onPlace || !oneBoard(hands.drawing)) return;
  if (hands.busy) { // (a quick finger: the stone taken, then at once its square)
    hands.next = place;
    return;
  }
  hands.onPlace(table, seatNow(), (request) => act(request, true), place);
}

/** After an act, what the hands hold now and where it goes (the panel's top: a held block
 * and the rods, a held stone and the squares) is brought into view below the board, unless
 * the panel's top is in view already; never on a game whose drawing is its one board (the
 * squares are there, and the bar holds the rest: the page stays where the person looks). */
function inView() {
  if (document.body.classList.contains("one-board")) return;
  const top = panel.getBoundingClientRect().top;
  const below = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  if (top < below || top > innerHeight * 0.8) panel.scrollIntoView({ block: "start" });
}

/** What is on the table now, kept for the panel and told to the rest of the page (the
 * drawing says where the wooden set differs from the game meanwhile); null: nothing known.
 * @param {HandsTable | null} table */
function keep(table) {
  hands.table = table;
  window.dispatchEvent(new CustomEvent("obelisk:hands", { detail: table }));
}

/** How many acts were sent: a look sent before the last of them, or while one was on its
 * way, may answer with the table as it stood before it (the server takes them in turn). */
let sent = 0;

/** Look at the table (``own``: the act on its way asks it, after a button's press). */
async function look(own = false) {
  const before = sent;
  const stale = () => (hands.busy && !own) || sent !== before;
  const ahead = stale();
  try {
    const { status, answer } = await call("GET");
    if (status === 404) return false;
    hands.guest = status === 403;
    if (hands.guest) forget(); // a guest's page (no PIN's session, or no longer): no hands
    // an act's own answer is newer than a look asked before it: kept, the look's not (a
    // stone taken, then the look's older answer: the hand empty again, the tap on the
    // square that followed would put nothing down)
    if (answer.table && !ahead && !stale()) keep(answer.table);
    if (answer.observation && !hands.obs) hands.obs = answer.observation; // the events' is newer
    return true;
  } catch {
    return false;
  } finally {
    panel.dataset.looks = String(Number(panel.dataset.looks || 0) + 1); // (for the tests)
  }
}

/** No hands panel: this page watches only, and moves nothing. */
function forget() {
  keep(null);
  panel.hidden = true;
  panel.replaceChildren();
}

/** The seat whose hands act now: the one whose turn it is, unless the person chose; but
 * while the hand of the seat that just moved still holds a piece (the maze's obelisk lifted
 * for a claim the table took as made), that hand, to put it down where the game has it. */
function seatNow() {
  if (hands.follow && !hands.turn && hands.mine) hands.seat = hands.mine;
  if (hands.follow && hands.turn) {
    const mover = hands.moved;
    hands.seat = mover && mover !== hands.turn && holds(mover) ? mover : hands.turn;
  }
  return hands.seat;
}

/** What a seat's hand holds, in words ("" for nothing): the game's module says it.
 * @param {string} seat */
function holds(seat) {
  return hands.table && hands.holding ? hands.holding(hands.table, seat, hands.obs) : "";
}

function seats() {
  /** @param {string} seat @param {string} words */
  const choose = (seat, words) => {
    const pressed = seat === "turn" ? hands.follow : !hands.follow && hands.seat === seat;
    const button = html("button", { type: "button", "data-seat": seat,
      "aria-pressed": String(pressed) }, words);
    button.addEventListener("click", () => {
      hands.follow = seat === "turn";
      if (!hands.follow) hands.seat = seat;
      draw();
    });
    return button;
  };
  return html("div", { class: "hands-seats" }, "Acting as: ",
    choose("turn", "whoever's turn it is"), choose("A", nameOf("A")), choose("B", nameOf("B")));
}

/** Whose hands these are, and a warning when they are not the mover's: the sensors cannot
 * tell whose piece it is, so the table counts what they do for the player to move.
 * @returns {[HTMLElement, HTMLElement | null]} */
function whose() {
  const seat = seatNow();
  const moving = /** @type {string[]} */ (hands.obs?.to_move || (hands.turn ? [hands.turn] : []));
  const turn = hands.follow ? hands.turn : null;
  const still = turn && seat !== turn ? ` (${holds(seat)} still in them: put it down where the `
    + `game has it; then ${nameOf(turn)}'s turn)` : ""; // the mover's piece to put down
  const head = html("h2", { "data-hands-of": seat },
    `${capital(nameOf(seat))}'s hands on the wooden set`,
    still || (turn ? " (whose turn it is)" : ""));
  if (!hands.turn || hands.follow || moving.includes(seat)) return [head, null];
  return [head, html("p", { class: "hands-warning", role: "alert" },
    `It is ${nameOf(hands.turn)}'s turn: what these hands do, the table counts as `
    + `${nameOf(hands.turn)}'s (its sensors cannot tell whose piece it is).`)];
}

/** What the other hands hold, if anything, and a button to act with them: a piece lifted by one
 * seat's hands stays in them when the turn (and the panel) goes to the other (a takeback).
 * @param {HandsTable} table @param {string} seat  whose hands the panel shows */
function otherHands(table, seat) {
  const holding = hands.holding;
  return ["A", "B"].filter((other) => other !== seat).flatMap((other) => {
    const held = holding ? holding(table, other, hands.obs) : "";
    if (!held) return [];
    const use = html("button", { type: "button", "data-act-as": other },
      `act with ${nameOf(other)}'s hands`);
    use.addEventListener("click", () => {
      hands.follow = false;
      hands.seat = other;
      draw();
    });
    return [html("p", { class: "hands-holder", "data-holder": other },
      `${capital(nameOf(other))} holds ${held} (these are ${nameOf(seat)}'s hands): `, use)];
  });
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

/** The game's observation, once it is of the game these hands play (else null).
 * @param {HandsTable} table */
const observed = (table) => (hands.obs && hands.obs.game === table.game ? hands.obs : null);

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
  if (pressing) { // a finger is down on the panel: drawn once it lifts, its tap landed
    drawLater = true;
    return;
  }
  const table = hands.table;
  if (!table || !observed(table)) return; // the game's size comes with its observation
  if (hands.page !== table.page || !hands.draw) {
    /** @type {HandsModule} */
    const module = await import(`./${table.page}.js`); // the module the game declares
    // both together, once the module is in: a draw meanwhile loads it too
    hands.page = table.page;
    hands.draw = module.drawHands;
    hands.holding = module.holding || null;
    hands.onPlace = module.onPlace || null;
  }
  // what the hands could not do, said in the bar too, where a person looks (reach.js)
  const said = html("p", { id: "hands-said", role: "status",
    "data-reach-say": hands.said ? "" : null }, hands.said);
  const [head, warning] = whose(); // the warning under the board the wrong hands act on
  const seat = seatNow();
  panel.replaceChildren(head, seats(), said, ...otherHands(table, seat),
    hands.draw(table, seat, act, observed(table), nameOf(seat), oneBoard(hands.drawing),
      hands.asks),
    ...(warning ? [warning] : []),
    buttons(), sweeps());
  panel.hidden = false;
}

// A finger (or the mouse) down on the panel: drawing it again now would take the button
// from under it, and the tap would do nothing. The panel waits until it lifts, and after
// the tap's click (which follows the lift in the same turn of the page's loop).
let pressing = false;
let drawLater = false;
panel.addEventListener("pointerdown", () => { pressing = true; });
for (const kind of ["pointerup", "pointercancel"]) {
  window.addEventListener(kind, () => {
    if (!pressing) return;
    pressing = false;
    if (drawLater) setTimeout(() => { drawLater = false; draw(); });
  });
}

/** @type {Promise<void> | null} a look on its way, asked for as the game moved on */
let looking = null;

/** Look at the table again, then draw (once, however many events ask meanwhile). */
function lookAgain() {
  looking ??= look().then(() => {
    looking = null;
    if (!hands.busy) draw();
  });
}

/** The piece each seat's ring asks for, by seat, from a ``lights`` event's strips (a value
 * beside the ring's words: firmware/core/lighting.py).
 * @param {unknown} strips @returns {Record<string, string>} */
function piecesAsked(strips) {
  /** @type {Record<string, string>} */
  const asks = {};
  for (const strip of Array.isArray(strips) ? strips : []) {
    if (strip?.strip === "ring" && typeof strip.piece === "string") asks[strip.owner] = strip.piece;
  }
  return asks;
}

// Listening from the start: the table's first events (its whole state) may come before the
// look's answer does.
window.addEventListener("obelisk:event", (e) => { // the game's board size, whose turn
  if (!(e instanceof CustomEvent) || !e.detail) return;
  const turn = turnOf(e.detail);
  if (turn !== undefined) hands.turn = turn;
  const players = e.detail.event === "table" || e.detail.event === "start" ? e.detail.players
    : null;
  if (players) { // the seats' names, without the mark of the computer's seat
    hands.names = Object.fromEntries(Object.entries(players).map(([seat, name]) =>
      [seat, String(name).replace(/ \([^)]*\)$/, "")]));
  }
  if (typeof e.detail.page === "string") hands.drawing = e.detail.page;
  if (e.detail.event === "table") hands.mine = e.detail.match?.seat || null;
  if (MOVED_ON.has(e.detail.event)) hands.said = "";
  // who moved last: their hand may still hold the piece it moved (seatNow)
  if (e.detail.event === "accepted") hands.moved = e.detail.player;
  else if (["takeback", "start", "game_over"].includes(e.detail.event)) hands.moved = null;
  if (e.detail.observation) hands.obs = e.detail.observation;
  const asks = e.detail.event === "lights" ? piecesAsked(e.detail.strips) : null;
  const asked = asks !== null && JSON.stringify(asks) !== JSON.stringify(hands.asks);
  if (asked) hands.asks = asks;
  if (hands.busy) return;
  if (hands.table && MOVED_ON.has(e.detail.event)) lookAgain(); // the set too, as it stands
  else if (turn !== undefined || e.detail.observation || asked) draw();
});

// The controls tell when this phone's PIN session begins or ends: the panel comes at once
// (not at the next look), with the session's token, and goes when the phone only watches.
window.addEventListener("obelisk:session", async (e) => {
  if (!(e instanceof CustomEvent) || !e.detail) return;
  hands.token = e.detail.token || "";
  if (!e.detail.session) forget();
  if (await look()) draw();
});

async function start() {
  if (!(await look())) return; // no simulated table here: no panel
  await token();
  await draw();
  setInterval(async () => { // another page's hands may have moved something (a guest's
    // page is refused the view: it looks again once a session begins, "obelisk:session")
    if (!hands.busy && !hands.guest && (await look()) && !hands.busy) draw();
  }, 2000);
}

start();
