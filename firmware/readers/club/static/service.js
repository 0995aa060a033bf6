// @ts-check
// The club page's one link to its server (`obelisk club`, firmware/readers/club/viewer.py): its
// Server-Sent Events. No other module of this page opens an EventSource or calls fetch.

/**
 * A table's retained state, as the club folds its events (firmware/readers/club/state.py); the
 * page reads only these fields.
 * @typedef {object} ClubState
 * @property {string | null} [game]
 * @property {boolean} [running]
 * @property {string} [phase]
 * @property {string | null} [turn]
 * @property {string} [doing]
 * @property {Record<string, number> | null} [scores]
 * @property {{words: string} | null} [outcome]
 * @property {{event: string, words: string} | null} [last]
 * @property {{match: string, seat: string} | null} [match]  a match with another table
 * @property {number} [updated]  when the table last told (seconds since 1970)
 */

/**
 * `table`: one table, its status and state. `event`: one of a table's events, as
 * `obelisk mqtt` published it. `result`: a finished game and where to download it.
 * @typedef {{table: string, status: string, state: ClubState | null}} TableNews
 * @typedef {{table: string, data: {event: string, words?: string}}} EventNews
 * @typedef {{table: string, id: string, table_game_id: string, game: string, when: string,
 *   result: string, json: string, text: string, match?: string}} ResultNews
 */

/**
 * What the page does with each: the stream opened, lost (the browser tries again by
 * itself), and each kind of news.
 * @typedef {object} ClubHandlers
 * @property {() => void} open
 * @property {() => void} lost
 * @property {(news: TableNews) => void} table
 * @property {(news: EventNews) => void} event
 * @property {(news: ResultNews) => void} result
 * @property {() => void} live  the backlog is all in
 */

/**
 * Follow the club's events (`/events`).
 * @param {ClubHandlers} on
 * @returns {EventSource}
 */
export function followClub(on) {
  const events = new EventSource("/events");
  events.addEventListener("open", () => on.open());
  events.addEventListener("error", () => on.lost());
  events.addEventListener("table", (message) => on.table(JSON.parse(message.data)));
  events.addEventListener("event", (message) => on.event(JSON.parse(message.data)));
  events.addEventListener("result", (message) => on.result(JSON.parse(message.data)));
  events.addEventListener("live", () => on.live());
  return events;
}
