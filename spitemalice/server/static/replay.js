// The replay page: step through a finished game the server holds, or a record file the
// person picks (sent to the server, at most MAX_FILE bytes, and replayed there), forward and
// back or to any move; each position is drawn by the server (every hand face up) and each
// move is said in words.
import { element } from "./net.js";
import { drawTable } from "./board.js";

const $ = (id) => document.getElementById(id);
let game = null;       // the game's summary (GET /games/ID)
let at = 0;            // the position shown: moves made so far
const drawn = new Map();

async function getJson(path) {
  const answer = await fetch(path);
  if (!answer.ok) throw new Error(await answer.text());
  return answer.json();
}

async function listGames() {
  try {
    const found = (await getJson("/games")).games;
    $("games").replaceChildren(...found.map((g) => {
      const item = element("li");
      const link = element("a", `${g.seats.join(" v ")} · ${g.ruleset} · ${g.outcome} · ` +
                                `${g.moves} moves`);
      link.href = `#${g.game}`;
      link.dataset.game = g.game;
      item.append(link);
      return item;
    }));
    $("games-none").hidden = found.length > 0;
  } catch (error) {
    $("status").textContent = `The finished games could not be listed: ${error.message}`;
  }
}

async function open(gameId) {
  $("status").textContent = "";
  try {
    game = await getJson(`/games/${gameId}`);
  } catch (error) {
    game = null;
    $("status").textContent = error.message;
    return;
  }
  drawn.clear();
  const rules = [game.ruleset, ...game.house_rules].join(" + ");
  $("title").textContent = `· replay ${rules} · ${game.seats.map((s) => s.name).join(" v ")}`;
  $("outcome").textContent = `Game over: ${game.outcome}` +
    (game.practice ? " · a practice game (moves were taken back)" : "");
  document.title = `spitemalice: replay ${game.game}`;
  showDeal(game.deal);
  $("log").replaceChildren(...game.moves.map((move) => {
    const item = element("li");
    item.append(element("bdi", game.seats[move.seat].name), `: ${move.move}`);
    item.title = move.words;
    item.addEventListener("click", () => show(move.number));
    return item;
  }));
  $("slider").max = String(game.moves.length);
  await show(0);
}

// A record a server dealt with a commitment: what was announced, what the record reveals,
// whether it holds (the server checked it as spitemalice check does), how to check it.
function showDeal(deal) {
  $("deal").hidden = !deal;
  if (!deal) return;
  $("deal-summary").textContent = deal.holds ?
    "A deal anyone can check: the revealed seed opens the commitment announced before the first move." :
    `This deal does not check: ${deal.problem}`;
  $("deal").classList.toggle("bad", !deal.holds);
  $("deal-commitment").textContent = deal.commitment;
  $("deal-seed").textContent = deal.seed;
  $("deal-salt").textContent = deal.salt;
  $("deal-how").textContent = deal.check;
}

async function show(number) {
  if (!game) return;
  at = Math.max(0, Math.min(number, game.moves.length));
  $("slider").value = String(at);
  $("where").textContent = `move ${at} of ${game.moves.length}`;
  $("described").textContent = at === 0 ? "The deal." : `${at}. ${game.moves[at - 1].words}.`;
  for (const [index, item] of [...$("log").children].entries()) {
    item.classList.toggle("current", index === at - 1);
  }
  const current = $("log").children[at - 1];
  if (current) current.scrollIntoView({ block: "nearest" });
  const wanted = at;
  if (!drawn.has(wanted)) {
    try {
      drawn.set(wanted, (await getJson(`/games/${game.game}/${wanted}`)).table);
    } catch (error) {
      $("status").textContent = error.message;
      return;
    }
  }
  if (wanted !== at) return;  // stepped on meanwhile
  drawTable($("picture"), drawn.get(wanted), { names: game.seats.map((s) => s.name) });
  $("picture").dataset.number = String(wanted);
}

$("first").addEventListener("click", () => show(0));
$("back").addEventListener("click", () => show(at - 1));
$("forward").addEventListener("click", () => show(at + 1));
$("last").addEventListener("click", () => show(game ? game.moves.length : 0));
$("slider").addEventListener("input", () => show(Number($("slider").value)));
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
  const step = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0,
                 End: game ? game.moves.length : 0 }[event.key];
  if (step !== undefined) {
    event.preventDefault();
    show(step);
  }
});
window.addEventListener("hashchange", () => open(location.hash.slice(1)));

const MAX_FILE = 2 * 1024 * 1024;  // replays.MAX_FILE_BYTES

$("record-file").addEventListener("change", async () => {
  const file = $("record-file").files[0];
  if (!file) return;
  $("status").textContent = "";
  if (file.size > MAX_FILE) {
    $("status").textContent = `${file.name} is ${file.size.toLocaleString("en")} bytes; the ` +
      `server replays a record file of at most ${MAX_FILE.toLocaleString("en")}.`;
    return;
  }
  const answer = await fetch("/games", { method: "POST", body: await file.text(),
                                         headers: { "Content-Type": "application/json" } });
  if (!answer.ok) {
    $("status").textContent = await answer.text();
    return;
  }
  const gameId = (await answer.json()).game;
  if (location.hash === `#${gameId}`) open(gameId);
  else location.hash = gameId;
});

listGames();
if (location.hash.length > 1) open(location.hash.slice(1));
