// "How to play" in one screen, for every page that has a button with the id "how" (the
// terminal game's `help` says the same: spitemalice/play/howto.py).
import { element } from "./net.js";

const PARTS = [
  ["The goal", "Be the first to play every card of your pay-off pile. Only its top card " +
   "is face up; play it onto a build pile and the next one turns up."],
  ["Build piles", "They are shared by everyone and go up one rank at a time from the lowest " +
   "card (an ace, or 1): A, 2, 3 and so on up to the top rank, when the pile is complete " +
   "and leaves the table (the next piles then move up a number, and the page says so). " +
   "Suits do not matter. Some cards are wild and stand for any rank the rule sheet allows."],
  ["A turn", "Your hand is refilled from the draw pile. Play as many cards as you can onto " +
   "the build piles, from your hand, the top of your pay-off pile or the top of a discard " +
   "pile. Empty your hand and you draw again. The turn ends when you put one card from " +
   "your hand onto one of your discard piles."],
  ["How it ends", "The game ends the moment someone plays the last card of their pay-off " +
   "pile: they win and score. If the draw pile runs out, or nobody can move, the rule " +
   "sheet says how the game is scored."],
  ["On this page", "Choose a card, then the pile it goes to: the piles it may go to are " +
   "outlined. Tab and Enter do the same from the keyboard; Escape lets go of a card. " +
   "H asks for a hint, S reads the table aloud to a screen reader, ? opens this screen."],
  ["The rules in full", "The Rule sheet button shows this table's own rules, clause by " +
   "clause; a refused move names the clause that forbids it."],
];

/** Fill the dialog `dialog` with the text above, and open it from the button `button`. */
export function howToPlay(button, dialog) {
  const body = element("div", "", "howto");
  body.append(element("h2", "How to play Spite and Malice"));
  for (const [title, text] of PARTS) {
    const part = element("p");
    part.append(element("strong", `${title}. `), text);
    body.append(part);
  }
  const close = element("button", "Close");
  close.type = "button";
  close.addEventListener("click", () => dialog.close());
  dialog.replaceChildren(body, close);
  button.disabled = false;
  button.addEventListener("click", () => dialog.showModal());
}
