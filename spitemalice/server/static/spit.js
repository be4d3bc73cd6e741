// A seat at a live Spit table (and, at /spit, the form that opens one; at /spit/ID with no
// seat and token, the table watched: what every seat sees, no face-down card).
// There are no turns: tap one of your stock cards, then a spit pile (a card that has one
// move only goes at once). The server applies moves in the order they arrive; a card the
// other seat beat you to is answered "stale", and you simply play on.
import { connect, element } from "./net.js";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean);  // ["spit"] or ["spit", ID]
const tableId = parts.length > 1 ? parts[1] : "";
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get("token") || "";
const watching = Boolean(tableId) && !fragment.has("seat") && !token;  // a spectator
const mySeat = watching ? 0 : Number(fragment.get("seat"));  // the seat drawn at the bottom
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

let seats = [];        // who sits where
let state = null;      // the latest "spit" message
let selected = null;   // the index of my stock pile picked, or null
let selectedCard = null;  // the card on it when it was picked

const server = connect(onMessage, () => {
  if (!tableId) { showForm(); return; }
  if (watching) { server.send({ type: "watch", table: tableId }); return; }
  if (!token || !Number.isInteger(mySeat)) {
    say("This link has no seat and token: use the link the table gave you.");
    return;
  }
  server.send({ type: "join", table: tableId, seat: mySeat, token });
}, (reason) => {
  $("status").textContent = `The connection closed${reason ? ` (${reason})` : ""}; ` +
    (watching ? "reload the page to watch again." : "reload the page to sit again.");
});

const handlers = {
  created(message) {
    const me = message.seats[0];
    const other = message.seats[1];
    if (!me.link) {  // bots alone: watch them
      location.assign(message.watch);
    } else if (other.link) {
      $("open").hidden = true;
      $("links").hidden = false;
      $("their-link").value = new URL(other.link, location.origin).href;
      $("open-watch-link").value = new URL(message.watch, location.origin).href;
      $("my-link").href = me.link;
    } else {
      location.assign(me.link);
    }
  },
  welcome(message) {
    arrive(message, `table ${message.table}`);
    if (message.replaced) say("This seat was open on another connection, which has been closed.");
  },
  watching(message) {
    arrive(message, `watching table ${message.table}`);
    $("you").hidden = true;
    $("rematch").hidden = true;
    $("spit").hidden = true;
  },
  watchers(message) {
    $("watchers").textContent = message.count === 1 ? "1 person watches." :
      `${message.count} people watch.`;
  },
  seats(message) { seats = message.seats; showSeats(); },
  spit(message) {
    state = message;
    // a pick holds while its card is still on top of that pile
    if (selected !== null && message.view.stock[mySeat][selected][1] !== selectedCard) selected = null;
    show();
  },
  refused(message) { say(`Refused: ${message.message} (${message.clause})`); },
  error(message) {
    if (message.error === "stale") say("Too late: the other card got there first.");
    else say(message.message);
  },
  record(message) { download(message.text, message.name); },
};

function arrive(message, title) {
  seats = message.seats;
  $("board").hidden = false;
  $("title").textContent = title;
  $("sheet").textContent = message.sheet;
  $("rules").disabled = false;
  $("watch-link").value = new URL(`/spit/${message.table}`, location.origin).href;
  showSeats();
}

function showDeal(deal) {
  if (!deal) { $("commitment").textContent = ""; return; }
  $("commitment").textContent = deal.seed === undefined ?
    `Deal committed to before the first move: SHA-256 ${deal.commitment}. ` +
    "The seed that opens it is shown when the game ends." :
    `Deal: seed ${deal.seed}, salt ${deal.salt}, committed to as ${deal.commitment}. ` +
    `Check it: ${deal.check}`;
}

function onMessage(message) {
  const handler = handlers[message.type];
  if (handler) handler(message);
}

function say(text) { $("message").textContent = text; }

function showForm() {
  $("open").hidden = false;
  $("status").textContent = "";
  $("opponent").addEventListener("change", () => {
    $("reaction-row").hidden = $("opponent").value === "human";
  });
  const bot = (kind, name) => ({ name, player: kind });
  $("open").addEventListener("submit", (event) => {
    event.preventDefault();
    const opponent = $("opponent").value;
    const seats = opponent === "watch" ?
      [bot("greedy", "Greedy bot"), bot("random", "Random bot")] :
      [{ name: $("name").value.trim() || "Me", player: "human" },
        { name: opponent === "human" ? "Them" : `${opponent} bot`, player: opponent }];
    const message = { type: "create", ruleset: "spit", seats };
    if (opponent !== "human") message.reaction_ms = Number($("reaction").value);
    server.send(message);
  });
}

function showSeats() {
  const other = 1 - mySeat;
  if (!seats[other]) return;
  const away = (seat) => seats[seat].player === "human" && !seats[seat].connected ? " (not here)" : "";
  $("my-name").textContent = seats[mySeat].name + (watching ? away(mySeat) : "");
  $("their-name").textContent = seats[other].name + away(other);
}

function cardText(card) {
  return card.slice(0, -1) + SUITS[card.slice(-1)];
}

function cardNode(card, count, label, tag = "button") {
  const node = element(tag, "", "pile");
  if (tag === "button") node.type = "button";
  node.setAttribute("aria-label", label);
  if (card) {
    node.classList.add("card");
    if ("HD".includes(card.slice(-1))) node.classList.add("red");
    node.append(element("span", cardText(card), "face"));
    node.dataset.card = card;
  } else {
    node.classList.add("empty");
  }
  if (count > 1) node.append(element("span", String(count), "count"));
  return node;
}

function moveOf(predicate) {
  return state.legal.filter(predicate);
}

function send(move) {
  selected = null;
  say("");
  server.send({ type: "move", move, number: state.number + 1 });
  show();
}

function clickStock(index) {
  const view = state.view;
  const [, top] = view.stock[mySeat][index];
  const prefix = `S${mySeat}.P${index + 1}:`;
  if (selected !== null && top === null) {
    const fill = moveOf((m) => m.startsWith(`S${mySeat}.P${selected + 1}:`) && m.endsWith(`>P${index + 1}`));
    if (fill.length) { send(fill[0]); return; }
  }
  if (top === null || selected === index) { selected = null; show(); return; }
  const moves = moveOf((m) => m.startsWith(prefix));
  if (moves.length === 1) { send(moves[0]); return; }
  selected = index;
  selectedCard = top;
  show();
}

function clickCentre(index) {
  const slap = moveOf((m) => m === `S${mySeat}:slap>C${index + 1}`);
  if (slap.length) { send(slap[0]); return; }
  if (selected === null) { say("Tap one of your cards first, then the pile."); return; }
  const lay = moveOf((m) => m.startsWith(`S${mySeat}.P${selected + 1}:`) && m.endsWith(`>C${index + 1}`));
  if (lay.length) send(lay[0]);
  else say("That card is not one above or below that pile's top.");
}

function show() {
  if (!state) return;
  const view = state.view;
  const other = 1 - mySeat;
  const over = view.outcome !== null;
  $("my-spit").textContent = view.spit_cards[mySeat];
  $("their-spit").textContent = view.spit_cards[other];
  const whose = watching ? `${seats[mySeat] ? seats[mySeat].name : "seat 0"}'s` : "your";
  const mine = view.stock[mySeat].map(([count, top], i) => {
    const label = top ? `${whose} stock pile ${i + 1}: ${top}` : `${whose} empty stock pile ${i + 1}`;
    const node = cardNode(top, count, label, watching ? "div" : "button");
    node.dataset.pile = String(i);
    if (selected === i) node.classList.add("selected");
    if (state.legal.some((m) => m.startsWith(`S${mySeat}.P${i + 1}:`))) node.classList.add("playable");
    if (!watching) node.addEventListener("click", () => clickStock(i));
    return node;
  });
  $("my-stock").replaceChildren(...mine);
  $("their-stock").replaceChildren(...view.stock[other].map(([count, top], i) => {
    return cardNode(top, count, top ? `their stock pile ${i + 1}: ${top}` : `their empty stock pile ${i + 1}`, "div");
  }));
  if (!view.centre.length) {
    $("centre").replaceChildren(element("p", "The spit piles appear here once both say spit.", "hint"));
  } else $("centre").replaceChildren(...view.centre.map(([count, top], i) => {
    const node = cardNode(top, count, `spit pile ${i + 1}: ${top}, ${count} cards`,
      watching ? "div" : "button");
    node.dataset.pile = String(i);
    node.classList.add("spit-pile");
    const target = selected !== null && state.legal.some((m) =>
      m.startsWith(`S${mySeat}.P${selected + 1}:`) && m.endsWith(`>C${i + 1}`));
    if (target || state.legal.includes(`S${mySeat}:slap>C${i + 1}`)) node.classList.add("target");
    if (!watching) node.addEventListener("click", () => clickCentre(i));
    return node;
  }));
  showDeal(state.deal);
  const spit = state.legal.includes(`S${mySeat}:spit`);
  $("spit").hidden = !spit;
  $("status").textContent = watching ? watchedStatus(view) : status(view, spit);
  $("record").disabled = !over;
  $("rematch").disabled = !over;
}

function status(view, spit) {
  const round = `Round ${view.round + 1}. `;
  if (view.outcome) {
    const o = view.outcome;
    if (o.winner === null) return `The game has ended (${o.kind}).`;
    return o.winner === mySeat ? `You win! (${o.scores[mySeat]} points)` :
      `${seats[o.winner] ? seats[o.winner].name : "The other seat"} wins.`;
  }
  if (view.phase === "spit") {
    if (spit) return round + (view.centre.length ? "Nobody can move: say spit again!" : "Say spit to start!");
    return round + "Waiting for the other seat to say spit…";
  }
  if (view.phase === "slap") {
    const mine = view.slaps.some(([seat]) => seat === mySeat);
    return mine ? "Round over: waiting for the other slap…" :
      "Round over: slap a spit pile (the smaller one is better)!";
  }
  return round + "Play! A card one above or below a spit pile's top.";
}

function watchedStatus(view) {
  const name = (seat) => (seats[seat] ? seats[seat].name : `seat ${seat}`);
  if (view.outcome) {
    const o = view.outcome;
    return o.winner === null ? `The game has ended (${o.kind}).` : `${name(o.winner)} wins.`;
  }
  const round = `Round ${view.round + 1}: `;
  if (view.phase === "spit") return round + "waiting for both to say spit.";
  if (view.phase === "slap") return round + "over; both slap a spit pile.";
  return round + `${view.moves} moves made.`;
}

function download(text, name) {
  const blob = new Blob([text], { type: "application/json" });
  const link = element("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

$("spit").addEventListener("click", () => send(`S${mySeat}:spit`));
$("record").addEventListener("click", () => server.send({ type: "record" }));
$("rematch").addEventListener("click", () => server.send({ type: "rematch" }));
$("rules").addEventListener("click", () => $("sheet-dialog").showModal());
$("close-sheet").addEventListener("click", () => $("sheet-dialog").close());
