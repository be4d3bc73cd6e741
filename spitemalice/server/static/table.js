// A seat at a table: the seat's view drawn in the page (board.js), your seat at the bottom.
// Select a card, then a pile (click, tap, or Tab and Enter): the move goes to the server,
// which referees it.  Each move is said in words to a screen reader (#spoken).
import { connect, element } from "./net.js";
import { drawTable, moveWords, situation } from "./board.js";
import { howToPlay } from "./howto.js";
import { rememberSeat } from "./held.js";
import { showDeal, showMatch, showWatchers } from "./standing.js";
import { playerWords, reactionButtons, showClock, showReaction, showTakeover } from "./presence.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const fragment = new URLSearchParams(location.hash.slice(1));
const mySeat = Number(fragment.get("seat"));
const token = fragment.get("token") || "";

let seats = [];          // who sits where: {seat, name, player, connected}
let state = null;        // the latest "state" message
let selected = null;     // {zone, cards}
let mayUndo = false;
let finished = false;
let moves = [];          // the move log: {seat, move}
let undoing = false;     // an undo was asked for: say what it means when it is done

const server = connect(onMessage, () => {
  if (!token || !Number.isInteger(mySeat)) {
    say("This link has no seat and token: use the link the table's creator gave you.", "bad");
    return;
  }
  server.send({ type: "join", table: tableId, seat: mySeat, token, picture: false });
}, (reason) => {
  $("status").textContent = `The connection to the server closed${reason ? ` (${reason})` : ""}; ` +
    "reload the page to sit again.";
  for (const button of document.querySelectorAll(".buttons button")) button.disabled = true;
});

const handlers = {
  welcome(message) {
    seats = message.seats;
    mayUndo = message.undo;
    $("title").textContent = `· ${message.ruleset.name}` +
      (message.ruleset.house_rules.length ? ` + ${message.ruleset.house_rules.join(" + ")}` : "") +
      ` · table ${message.table} · game ${message.game}`;
    document.title = `spitemalice: ${message.ruleset.name}, seat ${message.seat}`;
    rememberSeat({ table: tableId, seat: mySeat, token, name: seats[mySeat].name,
                   ruleset: message.ruleset.name });
    showMatch($("match"), message.match, seats);
    $("sheet").textContent = message.sheet;
    $("rules").disabled = false;
    reactionButtons($("reactions"), (message) => server.send(message));
    showSeats();
    say(message.replaced ? "This seat was open on another connection, which has been told and " +
        "closed. If that was not you, someone else has this seat's link." : "",
        message.replaced ? "bad" : "");
  },
  seats(message) { seats = message.seats; showSeats(); },
  state(message) {
    showState(message);
    showClock($("clock"), message.clock, seatName);
    if (message.match !== undefined) showMatch($("match"), message.match, seats);
    showDeal($("deal"), message.deal);
  },
  refused(message) {
    say(`Refused: ${message.message}`, "bad",
        message.clause ? `${message.clause}: ${message.clause_text}` : "");
  },
  error(message) { undoing = false; say(message.message, "bad"); },
  hint(message) {
    const move = state && state.legal.find((m) => m.move === message.move);
    // "play 9♥ from your hand on build pile 2": the move as advice to you
    const words = move ? moveWords(move, names(), mySeat)
      .replace(/^(play|discard|pass)(e?s)\b/, "$1") : "";
    say(`Hint (${message.player}): ${words ? `${words[0].toUpperCase()}${words.slice(1)} ` +
        `(${message.move})` : message.move}.`, "hint");
    speak(`Hint: ${words || message.move}.`);
    if (!move) return;
    mark([move.to], "hinted");
    for (const node of $("picture").querySelectorAll(`button.card[data-zone="${move.from}"]`)) {
      if (move.cards.includes(node.dataset.card)) node.classList.add("hinted");
    }
  },
  watchers(message) { showWatchers($("watchers"), message.count); },
  reaction(message) { showReaction(message, $("bubbles"), speak); },
  takeover(message) {
    showTakeover(message, $("log"), speak);
    if (message.seat === mySeat) say(`${message.message}. You may watch it play your seat.`, "bad");
  },
  record(message) { download(message.text, message.name); },
};

function onMessage(message) {
  const handler = handlers[message.type];
  if (handler) handler(message);
}

function say(text, kind = "", detail = "") {
  // The box keeps its height whether it holds a message or not (style.css), so a message
  // neither covers the table nor moves it under the pointer; any click puts it away.
  const box = $("message");
  box.replaceChildren();
  box.className = `message ${kind}${text ? "" : " empty"}`;
  if (!text) return;
  box.append(element("p", text));
  if (detail) box.append(element("p", detail, "clause"));
}

function seatName(seat) {
  const found = seats.find((s) => s.seat === seat);
  return found ? found.name : `seat ${seat}`;
}

function showSeats() {
  $("seats").replaceChildren(...seats.map((seat) => {
    const item = element("li", "", seat.connected ? "here" : "away");
    const who = playerWords(seat);
    item.append(element("span", `${seat.seat}`, "number"), element("span", seat.name, "name"),
                element("span", seat.seat === mySeat ? (seat.takeover ? `you; ${who}` : "you") : who,
                        "kind"));
    item.title = seat.connected ? "at the table" : "not at the table now";
    return item;
  }));
}

function names() {
  const found = [];
  for (const seat of seats) found[seat.seat] = seat.name;
  return found;
}

function showState(message) {
  const before = state;
  state = message;
  selected = null;
  const onTurnBefore = before && before.view.outcome === null && before.view.seat === mySeat;
  drawTable($("picture"), message.view, { names: names(), me: mySeat, live: true,
    newPile: message.may_open && !message.view.outcome });
  const log = $("log");
  if (message.log && undoing) {
    undoing = false;
    say("Taken back. Undo is for practice: you have seen the cards drawn after that move, " +
        "so the game's record marks it as a practice game.", "hint");
  }
  if (message.log) {
    moves = message.log;
    log.replaceChildren(...moves.map((entry) => logEntry(entry.seat, entry.move, entry.note)));
  } else if (message.last) {
    moves.push({ seat: message.last.seat, move: message.last.move, note: message.last.note });
    log.append(logEntry(message.last.seat, message.last.move, message.last.note));
  }
  log.scrollTop = log.scrollHeight;
  if (message.last) {
    mark([message.last.to], "last");
    const words = moveWords(message.last, names(), mySeat);
    speak((message.last.seat === mySeat ? `You ${words.replace(/^(play|discard|pass)(e?s)\b/, "$1")}`
      : `${seatName(message.last.seat)} ${words}`) + "." +
          (message.last.note ? ` ${message.last.note}.` : ""));
    if (message.last.note && message.last.seat !== mySeat) say(`${message.last.note}.`, "note");
  }
  const view = message.view;
  finished = view.outcome !== null;
  const onTurn = !finished && view.seat === mySeat;
  $("status").textContent = statusLine(view);
  $("status").classList.toggle("your-turn", onTurn);
  if (onTurn && !onTurnBefore) speak("Your turn.");
  if (finished) speak(statusLine(view));
  $("pass").disabled = !onTurn;
  $("hint").disabled = !onTurn;
  $("situation").disabled = false;
  $("undo").disabled = !mayUndo || finished || !moves.some((entry) => entry.seat === mySeat);
  $("record").disabled = !finished;
  $("rematch").disabled = !finished;
  for (const node of $("picture").querySelectorAll("button.card, button.slot")) {
    node.addEventListener("click", clicked);
  }
  if (onTurn) markMovable();
}

/** Say `text` to a screen reader (the live region), not on screen. */
function speak(text) {
  $("spoken").textContent = text;
}

/** Cards that have a legal move get the class "movable" (the pointer shows it). */
function markMovable() {
  for (const node of $("picture").querySelectorAll("button.card")) {
    const zone = node.dataset.zone;
    if (state.legal.some((m) => m.from === zone && m.cards.includes(node.dataset.card))) {
      node.classList.add("movable");
    }
  }
}

function logEntry(seat, move, note) {
  // <bdi>: a name written right to left stays apart from the move text beside it
  const item = element("li", "", seat === mySeat ? "mine" : "");
  item.append(element("bdi", seatName(seat)), `: ${move}`);
  if (note) item.append(element("span", ` \u2014 ${note}`, "log-note"));
  return item;
}

function statusLine(view) {
  if (view.outcome) {
    const outcome = view.outcome;
    const scores = outcome.scores ? ` · scores ${outcome.scores.join(", ")}` : "";
    if (outcome.kind === "win" && outcome.winner !== null) {
      const who = outcome.winner === mySeat ? "You won" : `${seatName(outcome.winner)} won`;
      return `Game over: ${who}${scores}`;
    }
    return `Game over: ${outcome.kind}${scores}`;
  }
  if (view.seat === mySeat) return "Your turn: select a card, then click a pile.";
  return `${seatName(view.seat)} to play…`;
}

function mark(zones, className) {
  for (const zone of zones) {
    if (!zone) continue;
    const pile = $("picture").querySelector(`.pile[data-zone="${zone}"]`);
    if (pile) pile.classList.add(className);
  }
}

function clear(className) {
  for (const node of $("picture").querySelectorAll(`.${className}`)) {
    node.classList.remove(className);
  }
}

// -- clicks -------------------------------------------------------------------------

function clicked(event) {
  event.stopPropagation();
  if (!state || finished || state.view.seat !== mySeat) return;
  const node = event.currentTarget;
  const zone = node.dataset.zone;
  const cardNode = node.classList.contains("card") ? node : null;
  say("");
  clear("hinted");
  if (selected && zone !== selected.zone) {
    // A highlighted pile takes the selected card(s); so does any pile the person could not
    // play from (the server then says why not).  A card that has moves of its own is
    // selected instead.
    const isTarget = state.legal.some((m) => m.from === selected.zone && m.to === zone &&
                                             same(m.cards, selected.cards));
    const canSelect = cardNode && state.legal.some((m) => m.from === zone);
    if (isTarget || !canSelect) {
      send(moveFor(selected, zone));
      return;
    }
  }
  if (!cardNode) return;
  const card = cardNode.dataset.card;
  if (selected && selected.cards.includes(card) && selected.cards.length === 1 &&
      cardNode.classList.contains("selected")) {
    unselect();
    return;
  }
  if (selected && zone.endsWith("-hand") && pairs(selected.cards[0], card)) {
    select(zone, [selected.cards[0], card], cardNode);
    return;
  }
  select(zone, [card], cardNode);
}

function pairs(first, second) {
  return state.legal.some((m) => m.cards.length === 2 && m.cards.includes(first) &&
                                 m.cards.includes(second));
}

function select(zone, cards, cardNode) {
  unselect();
  selected = { zone, cards };
  cardNode.classList.add("selected");
  const targets = state.legal.filter((m) => m.from === zone && same(m.cards, cards));
  mark(targets.map((m) => m.to), "target");
}

function unselect() {
  selected = null;
  clear("selected");
  clear("target");
}

function same(a, b) {
  return a.length === b.length && a.every((card, i) => card === b[i]);
}

/** The move's text for cards from one zone to another: the legal move's own text when
 * there is one, else written from the zones (docs/formats.md) for the server to refuse
 * with its reason and clause. */
function moveFor(selection, target) {
  const legal = state.legal.find((m) => m.from === selection.zone && m.to === target &&
                                        same(m.cards, selection.cards));
  if (legal) return legal.move;
  return `${source(selection)}>${destination(target)}`;
}

function owner(zone) {
  const seat = Number(zone.match(/^seat(\d+)/)[1]);
  return seat === mySeat ? "" : `S${seat}.`;
}

function source(selection) {
  const cards = selection.cards.join("+");
  const zone = selection.zone;
  let found = zone.match(/-payoff(\d+)$/);
  if (found) return `${owner(zone)}P${found[1] === "1" ? "" : found[1]}:${cards}`;
  found = zone.match(/-discard(\d+)$/);
  if (found) return `${owner(zone)}D${found[1]}:${cards}`;
  return cards;
}

function destination(zone) {
  if (zone === "build-new") return "B+";
  let found = zone.match(/^build(\d+)$/);
  if (found) return `B${found[1]}`;
  found = zone.match(/-discard(\d+)$/);
  if (found) return `${owner(zone)}D${found[1]}`;
  found = zone.match(/-payoff(\d+)$/);
  return found ? `P${found[1]}` : zone;  // not a target: the server says why
}

function send(move) {
  unselect();
  server.send({ type: "move", move, number: state.number + 1 });
}

$("picture").addEventListener("click", () => { if (selected) unselect(); });
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") unselect();
  if (event.ctrlKey || event.altKey || event.metaKey || document.querySelector("dialog[open]")) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
  const key = event.key.toLowerCase();
  if (key === "h" && !$("hint").disabled) $("hint").click();
  else if (key === "s" && !$("situation").disabled) $("situation").click();
  else if (key === "?" && !$("how").disabled) $("how").click();
  else return;
  event.preventDefault();
});
$("situation").addEventListener("click", () => {
  if (!state) return;
  const text = situation(state.view, names(), mySeat);
  say(text, "situation");
  speak(text);
});
howToPlay($("how"), $("how-dialog"));
$("pass").addEventListener("click", () => send("pass"));
$("hint").addEventListener("click", () => { say("Thinking…", "hint"); server.send({ type: "hint" }); });
$("undo").addEventListener("click", () => { undoing = true; server.send({ type: "undo" }); });
$("rematch").addEventListener("click", () => server.send({ type: "rematch" }));
$("record").addEventListener("click", () => server.send({ type: "record" }));
$("rules").addEventListener("click", () => $("sheet-dialog").showModal());
$("close-sheet").addEventListener("click", () => $("sheet-dialog").close());

function download(text, name) {
  // The record's own text: parsing it here would round its 128-bit seed to a double.
  const blob = new Blob([text], { type: "application/json" });
  const link = element("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}
