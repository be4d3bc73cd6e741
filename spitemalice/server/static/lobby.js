// The lobby: fill the form from the server's catalog, send "create", show each seat's link.
import { connect, element } from "./net.js";

const $ = (id) => document.getElementById(id);
let catalog = null;

// The server closes a connection that sits at no seat after a minute (limits.JOIN_SECONDS),
// so the lobby opens one for the catalog and opens another when a table is asked for.
let server = connect(onMessage, () => server.send({ type: "catalog" }));

function send(message) {
  if (server.open) server.send(message);
  else server = connect(onMessage, () => server.send(message), (reason) => {
    if (!$("open").disabled) return;  // closed after its answer, as expected
    $("status").textContent = `The server closed the connection${reason ? `: ${reason}` : ""}.`;
    $("status").classList.add("bad");
    $("open").disabled = false;
  });
}

let sentFile = false;  // whether the last create carried a rule-set file's text

function onMessage(message) {
  if (message.type === "catalog") showCatalog(message);
  else if (message.type === "created") showCreated(message);
  else if (message.type === "error") {
    $("status").textContent = message.message;
    $("status").classList.add("bad");
    $("open").disabled = false;
    if (sentFile && message.message.includes("ruleset_file")) fileError(message.message);
  }
}

function showCatalog(message) {
  catalog = message;
  const select = $("ruleset");
  for (const ruleset of message.rulesets) {
    const option = element("option", ruleset.name);
    option.value = ruleset.name;
    select.append(option);
  }
  const rules = $("house-rules");
  for (const rule of message.house_rules) {
    const label = element("label", "", "choice");
    const box = element("input");
    box.type = "checkbox";
    box.value = rule.name;
    box.name = "house-rule";
    // the description on the page, not only as a tooltip: a phone shows no tooltip
    label.append(box, ` ${rule.name}`, element("span", rule.description, "about"));
    rules.append(label);
  }
  select.addEventListener("change", rulesetChanged);
  $("seat-count").addEventListener("change", () => seatRows(Number($("seat-count").value)));
  rulesetChanged();
  $("ruleset-file").addEventListener("input", fileChanged);
  $("ruleset-upload").addEventListener("change", upload);
  $("clear-file").addEventListener("click", () => {
    $("ruleset-file").value = "";
    $("ruleset-upload").value = "";
    fileChanged();
  });
}

// -- a rule-set file pasted or uploaded (sent as text: the server reads it as data only) --

const encoder = new TextEncoder();

function fileText() {
  const text = $("ruleset-file").value;
  return text.trim() ? text : "";
}

function fileChanged() {
  fileError("");
  const text = fileText();
  const select = $("ruleset");
  select.disabled = Boolean(text);
  const size = encoder.encode(text).length;
  $("file-size").textContent = text ? `${size.toLocaleString("en")} of ` +
    `${catalog.ruleset_file_bytes.toLocaleString("en")} bytes` : "";
  if (!text) {
    rulesetChanged();
    return;
  }
  // The seat counts offered are those of the file's base, when it names an installed one.
  const base = /^\s*base\s*=\s*["']([^"']+)["']/m.exec(text);
  const known = base && catalog.rulesets.find((r) => r.name === base[1]);
  if (known && select.value !== known.name) {
    select.value = known.name;
    rulesetChanged();
  }
  $("ruleset-about").textContent = known
    ? `From the file: ${known.name} with the file's own rules.`
    : "From the file: its base rule set with the file's own rules.";
}

async function upload() {
  const file = $("ruleset-upload").files[0];
  if (!file) return;
  if (file.size > catalog.ruleset_file_bytes) {
    fileError(`${file.name} is ${file.size.toLocaleString("en")} bytes; the server takes a ` +
              `rule-set file of at most ${catalog.ruleset_file_bytes.toLocaleString("en")}.`);
    return;
  }
  $("ruleset-file").value = await file.text();
  $("file-box").open = true;
  fileChanged();
}

/** Show the reader's message under the text, and select the line it names. */
function fileError(text) {
  const box = $("file-error");
  box.textContent = text;
  box.hidden = !text;
  if (!text) return;
  $("file-box").open = true;
  const at = /table\.toml:(\d+):(\d+):/.exec(text) || /line (\d+), column (\d+)/.exec(text);
  if (!at) return;
  const area = $("ruleset-file");
  const lines = area.value.split("\n");
  const line = Math.min(Number(at[1]), lines.length) - 1;
  const start = lines.slice(0, line).reduce((sum, l) => sum + l.length + 1, 0);
  area.focus();
  area.setSelectionRange(start, start + lines[line].length);
  const height = parseFloat(getComputedStyle(area).lineHeight) || 16;
  area.scrollTop = Math.max(0, (line - 2) * height);  // the line in view, one line above it
}

function rulesetChanged() {
  const ruleset = catalog.rulesets.find((r) => r.name === $("ruleset").value);
  $("ruleset-about").textContent = ruleset.description;
  const count = $("seat-count");
  const before = Number(count.value) || 2;
  count.replaceChildren(...ruleset.players.map((n) => {
    const option = element("option", String(n));
    option.value = String(n);
    return option;
  }));
  count.value = String(ruleset.players.includes(before) ? before : ruleset.players[0]);
  seatRows(Number(count.value));
}

function seatRows(count) {
  const rows = $("seats");
  const kept = [...rows.querySelectorAll(".seat-row")].map((row) => ({
    player: row.querySelector("select").value, name: row.querySelector("input").value }));
  rows.replaceChildren();
  for (let seat = 0; seat < count; seat++) {
    const row = element("div", "", "seat-row");
    const player = element("select");
    player.name = `player-${seat}`;
    for (const kind of catalog.players) {
      const option = element("option", kind === "human" ? "a person" : `bot: ${kind}`);
      option.value = kind;
      player.append(option);
    }
    const name = element("input");
    name.name = `name-${seat}`;
    name.maxLength = 40;
    name.required = true;
    const old = kept[seat];
    player.value = old ? old.player : (seat === 0 ? "human" : "greedy");
    name.value = old ? old.name : (seat === 0 ? "Player 1" : player.value);
    player.addEventListener("change", () => {
      if (catalog.players.includes(name.value) || /^Player \d+$/.test(name.value)) {
        name.value = player.value === "human" ? `Player ${seat + 1}` : player.value;
      }
    });
    row.append(element("span", `Seat ${seat}`, "seat-number"), player, name);
    rows.append(row);
  }
}

function params(text) {
  const found = {};
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const [key, ...rest] = part.split("=");
    found[key] = rest.join("=");  // the server reads values as --set does
  }
  return found;
}

$("create").addEventListener("submit", (event) => {
  event.preventDefault();
  $("status").textContent = "";
  $("status").classList.remove("bad");
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => ({
    name: row.querySelector("input").value.trim() || "?",
    player: row.querySelector("select").value }));
  const houseRules = [...document.querySelectorAll("input[name=house-rule]:checked")]
    .map((box) => box.value);
  const text = fileText();
  fileError("");
  if (encoder.encode(text).length > catalog.ruleset_file_bytes) {
    fileError(`The file is ${encoder.encode(text).length.toLocaleString("en")} bytes; the ` +
              `server takes at most ${catalog.ruleset_file_bytes.toLocaleString("en")}.`);
    return;
  }
  $("open").disabled = true;
  sentFile = Boolean(text);
  const rules = text ? { ruleset_file: text } : { ruleset: $("ruleset").value };
  send({ type: "create", ...rules, house_rules: houseRules,
         params: params($("params").value), seats,
         public: $("public").checked, match: $("match").checked,
         ...($("clock").value ? { clock: Number($("clock").value) } : {}) });
});

function showCreated(message) {
  $("table-id").textContent = message.table;
  const links = $("links");
  links.replaceChildren();
  for (const seat of message.seats) {
    const item = element("li");
    item.append(element("span", `Seat ${seat.seat}: ${seat.name}`, "seat-name"));
    if (seat.link) {
      const url = new URL(seat.link, location.origin).href;
      const anchor = element("a", "sit here", "sit");
      anchor.href = url;
      anchor.id = `sit-${seat.seat}`;
      const copy = element("input", "", "link");
      copy.readOnly = true;
      copy.value = url;
      copy.addEventListener("focus", () => copy.select());
      item.append(anchor, copy);
    } else {
      item.append(element("span", ` (bot: ${seat.player})`, "bot"));
    }
    links.append(item);
  }
  const watch = element("li");
  const anchor = element("a", "watch link", "sit");
  anchor.href = new URL(message.watch, location.origin).href;
  anchor.id = "watch-link";
  watch.append(element("span", "Anyone may watch", "seat-name"), anchor);
  links.append(watch);
  $("created").hidden = false;
  $("open").disabled = false;
  $("created").scrollIntoView({ block: "start" });  // the links, not below the fold
}
