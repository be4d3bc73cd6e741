// A table watched by a spectator: what every seat may see (drawn by board.js, seat 0 at the
// bottom), the move log, who sits where and how many watch.  Nothing here is clickable: a
// spectator makes no move.  Each move is said in words to a screen reader (#spoken).
import { connect, element } from "./net.js";
import { drawTable, moveWords, situation } from "./board.js";
import { howToPlay } from "./howto.js";
import { showDeal, showMatch, showWatchers } from "./standing.js";
import { playerWords, showClock, showReaction, showTakeover } from "./presence.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
let seats = [];
let game = 1;

const server = connect(onMessage, () => {
  server.send({ type: "watch", table: tableId, picture: false });
}, (reason) => {
  $("status").textContent = `The connection to the server closed${reason ? ` (${reason})` : ""}; ` +
    "reload the page to watch again.";
});

const handlers = {
  watching(message) {
    // a live Spit table is watched at its own page (/spit/ID)
    if (message.watch !== location.pathname && message.watch.startsWith("/spit/")) {
      location.replace(message.watch);
      return;
    }
    seats = message.seats;
    game = message.game;
    $("title").textContent = `· watching ${message.ruleset.name}` +
      (message.ruleset.house_rules.length ? ` + ${message.ruleset.house_rules.join(" + ")}` : "") +
      ` · table ${message.table} · game ${message.game}`;
    document.title = `spitemalice: watching ${message.ruleset.name}`;
    $("sheet").textContent = message.sheet;
    $("rules").disabled = false;
    $("replay").hidden = true;
    showSeats();
    showMatch($("match"), message.match, seats);
  },
  seats(message) { seats = message.seats; showSeats(); },
  public(message) { showPublic(message); showClock($("clock"), message.clock, seatName); },
  reaction(message) { showReaction(message, $("bubbles"), speak); },
  takeover(message) { showTakeover(message, $("log"), speak); },
  watchers(message) { showWatchers($("watchers"), message.count); },
  error(message) {
    $("status").textContent = message.message;
    $("status").classList.add("bad");
    if (message.error === "no-table") {
      $("replay").hidden = false;  // a finished table closes; its games are replayed
    }
  },
};

function onMessage(message) {
  const handler = handlers[message.type];
  if (handler) handler(message);
}

function speak(text) {
  $("spoken").textContent = text;
}

function seatName(seat) {
  const found = seats.find((s) => s.seat === seat);
  return found ? found.name : `seat ${seat}`;
}

function showSeats() {
  $("seats").replaceChildren(...seats.map((seat) => {
    const item = element("li", "", seat.connected ? "here" : "away");
    item.append(element("span", `${seat.seat}`, "number"), element("span", seat.name, "name"),
                element("span", playerWords(seat), "kind"));
    return item;
  }));
}

function logEntry(seat, move, note) {
  const item = element("li");
  item.append(element("bdi", seatName(seat)), `: ${move}`);
  if (note) item.append(element("span", ` \u2014 ${note}`, "log-note"));
  return item;
}

function names() {
  const found = [];
  for (const seat of seats) found[seat.seat] = seat.name;
  return found;
}

let latest = null;

function showPublic(message) {
  latest = message;
  drawTable($("picture"), message.table, { names: names(), me: null });
  $("situation").disabled = false;
  const log = $("log");
  if (message.log) {
    log.replaceChildren(...message.log.map((entry) => logEntry(entry.seat, entry.move, entry.note)));
  } else if (message.last) {
    log.append(logEntry(message.last.seat, message.last.move, message.last.note));
  }
  log.scrollTop = log.scrollHeight;
  if (message.last) {
    if (message.last.to) {
      const pile = $("picture").querySelector(`.pile[data-zone="${message.last.to}"]`);
      if (pile) pile.classList.add("last");
    }
    $("spoken").textContent = `${seatName(message.last.seat)} ` +
      `${moveWords(message.last, names(), null)}.` +
      (message.last.note ? ` ${message.last.note}.` : "");
  }
  const table = message.table;
  if (table.outcome) {
    const scores = table.outcome.scores ? ` · scores ${table.outcome.scores.join(", ")}` : "";
    const who = table.outcome.kind === "win" && table.outcome.winner !== null
      ? `${seatName(table.outcome.winner)} won` : table.outcome.kind;
    $("status").textContent = `Game over: ${who}${scores}`;
    $("replay").href = `/replay#${tableId}-${message.game}`;
    $("replay").hidden = false;
  } else {
    $("status").textContent = `${seatName(table.seat)} to play · move ${message.number + 1}`;
  }
  if (message.match !== undefined) showMatch($("match"), message.match, seats);
  showDeal($("deal"), message.deal);
}

$("rules").addEventListener("click", () => $("sheet-dialog").showModal());
$("situation").addEventListener("click", () => {
  if (latest) $("spoken").textContent = situation(latest.table, names(), null);
});
howToPlay($("how"), $("how-dialog"));
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey || document.querySelector("dialog[open]")) return;
  if (event.key === "s" && !$("situation").disabled) $("situation").click();
  else if (event.key === "?") $("how").click();
});
$("close-sheet").addEventListener("click", () => $("sheet-dialog").close());
