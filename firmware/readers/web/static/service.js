// @ts-check
// The page's one link to its server (`obelisk web`, firmware/readers/web/server.py): the table's
// events, the controls (controls.py), the simulated hands (hands.py) and the finished games
// (records.py). No other module of the page calls fetch or opens an EventSource; the types
// below say what each answer holds, as the server sends it.

// ------------------------------------------------------------------ what the table tells

/**
 * A game's public observation after an action. Each game's module (towers.js, stones.js,
 * highrise.js, maze.js) names its own fields; the page itself reads only these few.
 * @typedef {{game?: string, to_move?: string[]} & Record<string, unknown>} Observation
 */

/** @typedef {{strip: string, owner: string, cols: number, colours: string[], places?: string[],
 *   says?: string}} Strip one strip of the table's LEDs ("ring" A, "board", "tower" B, "zone"),
 * each LED's colour as #rrggbb; `places`: the square (or rod) each LED lights, "" for one
 * beyond the game's board; `says`: what a ring tells, in words (High Rise: the size asked) */
/** @typedef {Record<string, unknown>} Move an action as its record's data ({a: "place", ...}) */
/** @typedef {Record<string, string>} Players the seats' names: {A: "player A", ...} */
/** @typedef {Record<string, string | number | boolean | null>} Options a game's options */

/**
 * A finished game's result (engine/core.py Outcome.to_dict).
 * @typedef {object} Outcome
 * @property {string} termination
 * @property {string | null} winner
 * @property {Record<string, number> | null} scores
 * @property {Record<string, string[]>} breakdown  each player's rows, as the table writes them
 * @property {string} words  the result in one line
 */

/**
 * One High Rise stack shown at the end (the `reveal` event, and the observation's stacks).
 * @typedef {object} Reveal
 * @property {string} square
 * @property {number} value
 * @property {Record<string, number>} pips
 * @property {string | null} controller
 * @property {number} points
 */

/** @typedef {{device: string, words: string}} Missing a device the table cannot use */

/**
 * A place the table points at (firmware/core/events.py Mark): its words, and as values a square
 * of the board, or cubes on a tower, or a zone pad by colour, and what it is there.
 * @typedef {{words: string, square?: string, tower?: string, zone?: string, kind?: string,
 *   cells?: number[][]}} Place
 */

/**
 * Each kind of the table's events and its fields (firmware/core/events.py SCHEMA).
 * @typedef {{
 *   table: {game: string, options: Options, players: Players, state: string,
 *     turn: string | null, doing: string, problem: string, actions: number,
 *     observation: Observation, moves?: {n: number, player: string, text: string}[]},
 *   start: {game: string, options: Options, players: Players, first: string | null,
 *     observation: Observation},
 *   resumed: {game: string, options: Options, actions: number, observation: Observation},
 *   turn: {player: string, doing: string},
 *   setup: {problem: string, observation?: Observation},
 *   accepted: {player: string, action: string, text: string, move?: Move,
 *     observation: Observation},
 *   refused: {message: string, where: Place[], kind: "rule" | "takeback" | "task" | "fault",
 *     player?: string},
 *   repaired: {},
 *   takeback: {undone: number, actions: number, why: string, observation: Observation},
 *   timer: {player: string, state: string, seconds: number, left: number},
 *   offer: {kind: string, players: string[], candidates: string[], pick?: number, computer?: string,
 *     afar?: boolean},
 *   pause: {state: string},
 *   remote: {state: string, message: string},
 *   match: {state: string, ask: {kind: string, by: string, n: number, agreed: number, to: number},
 *     message: string},
 *   game_over: {game: string, outcome: Outcome, observation: Observation},
 *   reveal: Reveal,
 *   notice: {message: string, player?: string},
 *   options: {game: string, options: Options},
 *   calibrated: {sizes: number[], tolerance: number},
 *   asked: {player: string, action: string, text: string, where: Place[], by: string},
 *   hint: {player: string, action: string, text: string, where: Place[]},
 *   devices: {missing: Missing[]},
 *   scanner: {scan_us: number, load_us: number | null},
 *   lights: {strips: Strip[]},
 * }} TableEventFields
 */

/**
 * What the page's server adds to each of the table's events (firmware/readers/web/follow.py dressed).
 * @typedef {object} Dressed
 * @property {string} words  the event in a line, as the terminal view says it
 * @property {string} [board]  the board as text, for an event with an observation
 * @property {string} [page]  for an event naming its game: the page module its declaration
 *   names to draw it ("": none; the board as text then)
 */

/**
 * Every event the page receives, by kind: the table's, dressed, and the two its server
 * sends itself: `absent` (the table stopped) and `live` (the backlog is all in).
 * @typedef {{[K in keyof TableEventFields]: {event: K} & TableEventFields[K] & Dressed
 *   & (K extends "table" ? {table_key?: string} : {})}
 *   & {absent: {event: "absent", words: string, board?: undefined},
 *      live: {event: "live", words?: undefined, board?: undefined}}} PageEvents
 */
/** @typedef {keyof PageEvents} EventKind */
/** @typedef {PageEvents[EventKind]} PageEvent */

/** How soon a page refused a place among the live pages asks again (the server's `retry`). */
const AGAIN_MS = 2000;

/**
 * Follow the table's events (`/events`): `take` gets each event of the kinds named, in
 * order; `lost` is called when the page's server is out of reach (the browser tries again
 * by itself, as soon as the server's `retry` says). A page refused (too many pages are
 * open: a 503, after which a browser never tries again by itself) asks again after
 * `AGAIN_MS`, until it gets a place.
 * @param {readonly string[]} kinds  the kinds to listen for (the others pass unheard)
 * @param {(event: PageEvent) => void} take
 * @param {() => void} lost
 */
export function followTable(kinds, take, lost) {
  const source = new EventSource("/events");
  for (const kind of kinds) {
    source.addEventListener(kind, (message) => take(JSON.parse(message.data)));
  }
  source.onerror = () => {
    lost();
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(() => followTable(kinds, take, lost), AGAIN_MS);
    }
  };
}

// ------------------------------------------------------------------ the controls

/** @typedef {{ok?: false, error?: string}} Refusal an answer that did not do it, and why */

/**
 * `GET /session`: this phone's session, if it has one.
 * @typedef {object} SessionAnswer
 * @property {boolean} [session]
 * @property {string} [token]  the token the commands carry in their header
 * @property {string} [closed]  while PIN entry is closed: what opens it again
 * @property {string} [error]
 */

/** @typedef {{ok?: boolean, token?: string, error?: string}} PinAnswer `POST /session` */

/**
 * What the table can do now (firmware/service/control.py status), for the controls' buttons.
 * @typedef {object} Can
 * @property {boolean} pause
 * @property {boolean} resume
 * @property {string[]} decline  the players who may decline a bonus
 * @property {string[]} takeback  the players who may still confirm a takeback
 * @property {{player: string, pick: number, candidates: string[]} | null} choose
 * @property {boolean} start
 * @property {boolean} end
 * @property {boolean} new
 * @property {boolean} hint
 * @property {boolean} [answer]  a match: the other table asks something of the person here
 * @property {boolean} [claim]  a match: the other table was out of touch long enough to claim
 */

/**
 * One of a game's options, as the new-game form offers it (firmware/service/control.py games).
 * @typedef {object} GameOption
 * @property {string} name
 * @property {string} flag  "--ply-limit"
 * @property {string} label  what a person calls it: "move limit"
 * @property {string} help
 * @property {boolean} switch  a checkbox rather than a value
 * @property {string[] | null} choices
 * @property {string | null} metavar
 */

/**
 * `POST /control/status`: the table's state and the commands that make sense now.
 * @typedef {object} ControlStatus
 * @property {true} ok
 * @property {string} game
 * @property {Options} options
 * @property {string} state
 * @property {string} problem
 * @property {Can} can
 * @property {{seat: string, level: number} | null} solo
 * @property {{match: string, seat: string} | null} [remote]  a match with another table
 * @property {Record<string, {help: string, options: GameOption[], seats?: Record<string, string>}>} games
 *   each game's options, and its seats as it names them (none named: player A, B)
 * @property {string} [pin_mark]
 */

/** @typedef {{ok: true, state: string, message: string}} Done a command carried out */

/**
 * The status and the JSON an answer carried; status 0 when the server was out of reach.
 * @template T
 * @typedef {{status: number, data: T}} Answer
 */

/**
 * One request to the controls, with this phone's token when it has one. A server out of
 * reach, or an answer that is not JSON, comes back as a refusal in words.
 * @template T
 * @param {string} method
 * @param {string} path
 * @param {object | undefined} body
 * @param {string} token
 * @returns {Promise<Answer<T | Refusal>>}
 */
async function call(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Obelisk-Token"] = token;
  let response;
  try {
    response = await fetch(path, { method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    return { status: 0, data: { error: "the page's server is out of reach; try again" } };
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = { error: `the server answered ${response.status}` };
  }
  return { status: response.status, data };
}

/**
 * Whether this phone has a session (and its token).
 * @param {string} token
 * @returns {Promise<Answer<SessionAnswer>>}
 */
export const askSession = (token) => call("GET", "/session", undefined, token);

/**
 * A session for the table's PIN.
 * @param {string} pin
 * @param {string} token
 * @returns {Promise<Answer<PinAnswer>>}
 */
export const openSession = (pin, token) => call("POST", "/session", { pin }, token);

/**
 * This phone's session ends.
 * @param {string} token
 * @returns {Promise<Answer<Refusal | {ok: true}>>}
 */
export const endSession = (token) => call("DELETE", "/session", undefined, token);

/**
 * The table's state and what it can do now.
 * @param {string} token
 * @returns {Promise<Answer<ControlStatus | Refusal>>}
 */
export const tableStatus = (token) => call("POST", "/control/status", undefined, token);

/**
 * A command to the table (`pause`, `new`...), with its fields.
 * @param {string} name
 * @param {object} fields
 * @param {string} token
 * @returns {Promise<Answer<Done | Refusal>>}
 */
export const command = (name, fields, token) => call("POST", `/control/${name}`, fields, token);

// ------------------------------------------------------------------ the hands

/**
 * What is on a simulated table, as its hands see it. Each game's hands module
 * (the one its declaration names: `page`) reads its own fields.
 * @typedef {{game: string, page: string} & Record<string, unknown>} HandsTable
 */

/**
 * One act of a person's hands ({act: "lift", seat: "A", square: "b2"}), or a finger on one
 * of the table's buttons ({press: "menu", hold: false}).
 * @typedef {({act: string} & Record<string, unknown>) | {press: string, hold: boolean}}
 *   HandsRequest
 */

/**
 * What /hands answers: a look also carries the game's last observation (its board's size).
 * @typedef {{ok?: boolean, error?: string, table?: HandsTable, observation?: Observation}}
 *   HandsAnswer
 */

/**
 * `GET /hands` (look) or `POST /hands` (act); throws when the server is out of reach or
 * answers something that is not JSON.
 * @param {"GET" | "POST"} method
 * @param {HandsRequest | undefined} body
 * @param {string} token  this phone's session token ("": none)
 * @returns {Promise<{status: number, answer: HandsAnswer}>}
 */
export async function hands(method, body, token) {
  /** @type {Record<string, string>} */
  const headers = body ? { "Content-Type": "application/json" } : {};
  if (body && token) headers["X-Obelisk-Token"] = token;
  const response = await fetch("/hands", {
    method, headers, credentials: "same-origin",
    body: body ? JSON.stringify(body) : undefined, cache: "no-store",
  });
  return { status: response.status, answer: await response.json() };
}

/**
 * The token of this phone's PIN session (the controls' one), "" when it has none or the
 * server cannot say.
 * @returns {Promise<string>}
 */
export async function sessionToken() {
  try {
    const response = await fetch("/session", { cache: "no-store", credentials: "same-origin" });
    /** @type {SessionAnswer} */
    const data = await response.json();
    return data.session ? data.token || "" : "";
  } catch {
    return "";
  }
}

// ------------------------------------------------------------------ the finished games

/**
 * A finished game in the list (firmware/readers/web/records.py), with where to get it.
 * @typedef {object} GameSummary
 * @property {string} id
 * @property {string} when
 * @property {string} game
 * @property {string} options  in words ("the defaults")
 * @property {string} result
 * @property {string} json  its record's address
 * @property {string} text  its score sheet's address
 * @property {string} replay  its replay's address
 */

/** @typedef {{games: GameSummary[], warnings: string[]}} GameList */

/**
 * A finished game move by move: the public observation after each action.
 * @typedef {object} Replay
 * @property {string} id
 * @property {string} game
 * @property {string} page  the page module that draws it (the declaration's; "": none)
 * @property {string} when
 * @property {string} options
 * @property {Players} players
 * @property {Outcome | null} outcome
 * @property {{player: string | null, text: string, move?: Move, observation: Observation}[]} steps
 */

/**
 * The JSON at `url`; throws an Error in words when the server refused it.
 * @param {string} url
 * @returns {Promise<any>} the answer, as the server sent it
 */
async function fetched(url) {
  const answer = await fetch(url, { cache: "no-cache" });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(body.error || `${url} answered ${answer.status}`);
  return body;
}

/**
 * The finished games, newest first, and what could not be read.
 * @returns {Promise<GameList>}
 */
export const finishedGames = () => fetched("/games");

/**
 * One finished game, from its summary's `replay` address.
 * @param {string} url
 * @returns {Promise<Replay>}
 */
export const replayOf = (url) => fetched(url);
