// The lobby's lists: the seats this browser holds, public tables with a seat free, and
// tables being played (to watch).  One WebSocket asks for them (the "tables" message);
// "Sit down" takes a free seat ("claim") and opens its page.
import { connect, element } from "./net.js";
import { forgetSeat, heldSeats, rememberSeat, seatLink } from "./held.js";

const $ = (id) => document.getElementById(id);
let server = null;

function ask(message) {
  if (server && server.open) server.send(message);
  else server = connect(onMessage, () => server.send(message));
}

function refresh() {
  ask({ type: "tables", mine: heldSeats().map((s) => s.table).slice(0, 50) });
}

function onMessage(message) {
  if (message.type === "tables") showTables(message);
  else if (message.type === "claimed") {
    const link = message.link;
    rememberSeat({ table: message.table, seat: message.seat, token: message.token });
    location.href = link;
  } else if (message.type === "error") {
    $("listing-status").textContent = message.message;
    refresh();
  }
}

function names(table) {
  return table.seats.map((s) => s.name).join(", ");
}

function about(table) {
  const rules = [table.ruleset, ...table.house_rules].join(" + ");
  const match = table.match ? ` · match to ${table.match}` : "";
  return `${rules}${match} · ${names(table)} · game ${table.game}, move ${table.moves}`;
}

function watchLink(table) {
  const link = element("a", "Watch", "button watch");
  link.href = table.watch;
  return link;
}

function showTables(message) {
  const mine = new Map(message.mine.map((t) => [t.table, t]));
  const held = heldSeats();
  $("held").replaceChildren(...held.map((seat) => {
    const item = element("li");
    const live = mine.get(seat.table);
    const state = live ? `game ${live.game} ${live.over ? "over" : "being played"}` : "table closed";
    item.append(element("span", `${seat.ruleset || "table"} · seat ${seat.seat}` +
                               `${seat.name ? ` (${seat.name})` : ""} · ${state}`, "what"));
    if (live) {
      const back = element("a", "Sit down again", "button rejoin");
      back.href = seatLink(seat);
      item.append(back);
    }
    const forget = element("button", "Forget", "forget");
    forget.type = "button";
    forget.addEventListener("click", () => { forgetSeat(seat.table, seat.seat); refresh(); });
    item.append(forget);
    return item;
  }));
  $("held-none").hidden = held.length > 0;
  $("open-tables").replaceChildren(...message.open.map((table) => {
    const item = element("li");
    item.append(element("span", about(table), "what"));
    for (const seat of table.free) {
      const sit = element("button", `Sit at seat ${seat}`, "sit-free");
      sit.type = "button";
      sit.dataset.table = table.table;
      sit.addEventListener("click", () => ask({ type: "claim", table: table.table, seat }));
      item.append(sit);
    }
    item.append(watchLink(table));
    return item;
  }));
  $("open-none").hidden = message.open.length > 0;
  $("playing").replaceChildren(...message.playing.map((table) => {
    const item = element("li");
    const watchers = table.watchers ? ` · ${table.watchers} watching` : "";
    item.append(element("span", about(table) + watchers, "what"), watchLink(table));
    return item;
  }));
  $("playing-none").hidden = message.playing.length > 0;
}

$("refresh-tables").addEventListener("click", refresh);
refresh();
