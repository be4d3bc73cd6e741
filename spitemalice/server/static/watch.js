// A table watched by a spectator: the server's picture of what every seat may see, the
// move log and who sits where.  Nothing here is clickable: a spectator makes no move.
import { connect, element } from "./net.js";
import { showMatch } from "./standing.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
let seats = [];
let game = 1;

const server = connect(onMessage, () => {
  server.send({ type: "watch", table: tableId, picture: true });
}, (reason) => {
  $("status").textContent = `The connection to the server closed${reason ? ` (${reason})` : ""}; ` +
    "reload the page to watch again.";
});

const handlers = {
  watching(message) {
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
  public(message) { showPublic(message); },
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

function seatName(seat) {
  const found = seats.find((s) => s.seat === seat);
  return found ? found.name : `seat ${seat}`;
}

function showSeats() {
  $("seats").replaceChildren(...seats.map((seat) => {
    const item = element("li", "", seat.connected ? "here" : "away");
    item.append(element("span", `${seat.seat}`, "number"), element("span", seat.name, "name"),
                element("span", seat.player === "human" ? "person" : `bot: ${seat.player}`, "kind"));
    return item;
  }));
}

function logEntry(seat, move) {
  const item = element("li");
  item.append(element("bdi", seatName(seat)), `: ${move}`);
  return item;
}

function showPublic(message) {
  $("picture").innerHTML = message.picture;  // drawn by the server, every text escaped
  const svg = $("picture").querySelector("svg");
  if (svg) svg.removeAttribute("height");
  const log = $("log");
  if (message.log) {
    log.replaceChildren(...message.log.map((entry) => logEntry(entry.seat, entry.move)));
  } else if (message.last) {
    log.append(logEntry(message.last.seat, message.last.move));
  }
  log.scrollTop = log.scrollHeight;
  if (message.last && message.last.to) {
    const pile = $("picture").querySelector(`g.pile[data-zone="${message.last.to}"]`);
    if (pile) pile.classList.add("last");
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
}

$("rules").addEventListener("click", () => $("sheet-dialog").showModal());
$("close-sheet").addEventListener("click", () => $("sheet-dialog").close());
