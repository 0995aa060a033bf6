// The page: everything it shows comes from the table's events (/events).
const $ = (id) => document.getElementById(id);
const KEEP = 30; // lines of the log kept on screen
let over = false; // the game shown has ended

function show(event) {
  if (event.board) $("board").textContent = event.board;
  switch (event.event) {
    case "absent":
      $("status").textContent = event.words;
      return;
    case "table":
      over = event.state === "over";
      $("title").textContent = `Obelisk Table: ${event.game}`;
      $("status").textContent = `${event.state}, ${event.actions} actions played`;
      $("turn").textContent = event.turn ? `player ${event.turn}: ${event.doing}` : "";
      problem(event.problem);
      $("ending").hidden = true;
      break;
    case "turn":
      $("turn").textContent = event.words;
      break;
    case "refused":
      problem(`${event.message}${event.where.length ? ` (${event.where.join(", ")})` : ""}`);
      break;
    case "repaired": case "accepted": case "start": case "resumed": case "takeback":
      problem("");
      break;
    case "game_over":
      over = true;
      $("turn").textContent = "";
      $("ending").hidden = false;
      $("ending").textContent = [event.words,
        ...Object.entries(event.outcome.breakdown).flatMap(([p, rows]) => rows.map((r) => `${p}: ${r}`)),
      ].join("\n");
      break;
  }
  if (event.event !== "table") log(event);
}

function problem(text) {
  $("problem").hidden = !text;
  $("problem").textContent = text ? `Not allowed: ${text}` : "";
}

function log(event) {
  const item = document.createElement("li");
  item.className = event.event;
  item.textContent = event.words;
  $("log").prepend(item);
  while ($("log").children.length > KEEP) $("log").lastChild.remove();
}

const source = new EventSource("/events");
source.onmessage = () => {};
for (const kind of ["table", "absent", "start", "resumed", "turn", "accepted", "refused",
  "repaired", "takeback", "timer", "offer", "pause", "game_over", "reveal", "notice",
  "options", "calibrated"]) {
  source.addEventListener(kind, (message) => show(JSON.parse(message.data)));
}
source.onerror = () => {
  $("status").textContent = over ? "the game is over and the table has stopped; waiting for the next one…"
    : "the table is not answering; trying again…";
};
