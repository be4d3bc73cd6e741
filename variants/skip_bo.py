"""The skip-bo rule set: Mattel's numbered-card game of the Spite and Malice family.

162 cards (1-12 twelve times each and 18 wild SKIP-BO cards, written ``SB``), 2-6 players,
a pay-off pile ("stock pile" in Skip-Bo's words) of 30 cards with 2-4 players and 20 with 5-6,
hand of five, up to four shared build piles from 1 to 12, four discard piles per seat that take
any card, completed piles set aside until the draw pile runs out, the winner scoring 25 plus 5
per card left in the opponents' pay-off piles, match to 500 (rules dossier §6, K1-K11).  Every
rule but the face of the wild card is a :class:`Ruleset` value; the deck hook gives the jokers
Skip-Bo's face.  Played with standard packs instead of the numbered cards (K2), the kings are
SKIP-BO cards too: the wild hook adds them to ``wild_ranks`` unless it was given, and the deck
holds each pack's own two jokers, not the numbered game's 18, unless ``jokers`` was given
(SK-26).
"""

from __future__ import annotations

from spitemalice import SKIP_BO, Clause, Deck, Ruleset, WildRule, hookimpl, stated_deck

from ._common import play_clauses

NAME = "skip-bo"
KIND = "ruleset"
ENFORCES = ("recycle_under_tops",)  # the electronic edition's option: SK-7 states it
DESCRIPTION = ("Mattel's Skip-Bo: 1-12 twelve times and 18 wild SKIP-BO cards, 2-6 players, "
               "pay-off piles of 30 (20 from 5 players), build 1 to 12")

RULESET = Ruleset(
    name=NAME,
    title="Skip-Bo",
    version="1.0",
    players=2, min_players=2, max_players=6,
    packs=0, draw_pack=144, jokers=18,
    wild_ranks=frozenset({0}), wild_excluded=frozenset(),
    build_ceiling=12, max_build_piles=4, completed_piles="set-aside",
    payoff_piles=1, payoff_size=30, payoff_size_many=20, hand_size=5, first_seat="cut-left",
    discard_piles=4, discard_forbidden=frozenset(), max_discard_cards=1,
    exhaustion="tie", win_bonus=25, points_per_card=5, match_target=500,
)

M = "SKIPBO-MATTEL"  # rules dossier §6: the Mattel sheets and their copies
W = "SKIPBO-WIKI"
KING = 13
"""The king's rank: with standard packs A to Q are Skip-Bo's numbers 1 to 12 and the kings
SKIP-BO cards (K2, SK-26)."""


JOKERS_PER_PACK = 2
"""The jokers of a standard pack: K2's three packs "with jokers" hold 6, which with the 12
kings make Skip-Bo's 18 SKIP-BO cards (SK-26)."""


def pack_jokers(ruleset: Ruleset) -> int:
    """The jokers a deck of standard packs holds by K2's reading (SK-26): two a pack, or
    ``jokers_per_pack`` a pack where that is set; 0 without standard packs."""
    return (ruleset.jokers_per_pack or JOKERS_PER_PACK) * ruleset.seat_packs


def kings_are_skip_bo(ruleset: Ruleset) -> bool:
    """Whether K2's reading applies: the deck is made of standard packs and the build piles stop
    below the king, so a king can only be a SKIP-BO card (SK-26)."""
    return bool(ruleset.seat_packs) and ruleset.build_ceiling < KING


def _deck_clause(ruleset: Ruleset) -> Clause:
    total = ruleset.draw_pack + 52 * ruleset.seat_packs + ruleset.seat_jokers
    parts = [_numbers_words(ruleset)] if ruleset.draw_pack else []
    if ruleset.seat_packs:  # a user's deck: Skip-Bo's own has no standard packs
        packs = "1 standard pack" if ruleset.seat_packs == 1 else \
            f"{ruleset.seat_packs} standard packs"
        wild = _wild_pack_ranks(ruleset)
        kings = ("; A to Q are 1 to 12, the kings SKIP-BO cards: SK-26"
                 if kings_are_skip_bo(ruleset) and wild == [KING] else
                 f"; the {' and the '.join(map(_rank_words, wild))} wild: wild_ranks"
                 if wild else "")
        parts.append(f"{packs} of 52 cards A to K in four suits (packs{kings})")
    if ruleset.seat_jokers:
        named = "jokers, jokers_per_pack" if ruleset.jokers_per_pack else "jokers"
        parts.append(f"{ruleset.seat_jokers} wild SKIP-BO cards ({named}), written SB")
    if not parts:  # refused at load (no cards to deal); the clause still reads
        parts.append("no cards")
    suits = "" if ruleset.seat_packs else "; suits do not exist"
    separate = (f" The pay-off piles are dealt from a separate pack of {ruleset.payoff_pack} "
                f"numbered cards 1 to {ruleset.build_ceiling} (payoff_pack); its cards left "
                "over after the deal join the draw pile." if ruleset.payoff_pack else "")
    return Clause("SK-1", f"The deck is {total} cards: {', '.join(parts[:-1])}"
                  f"{' and ' if len(parts) > 1 else ''}{parts[-1]}{suits}.{_wild_count(ruleset)}"
                  f"{separate}",
                  f"{M} K1; {W} K1", events=("dealt",))


def _wild_pack_ranks(ruleset: Ruleset) -> list[int]:
    """The ranks of the standard packs (A to K) that are wild in force (``wild_ranks``)."""
    return sorted((r for r in ruleset.wild_ranks if 1 <= r <= KING), reverse=True) \
        if ruleset.seat_packs else []


def _rank_words(rank: int) -> str:
    """A rank's cards in a clause: "kings", "aces", "7s" (0: the jokers)."""
    return {0: "jokers", 1: "aces", 11: "jacks", 12: "queens", KING: "kings"}.get(rank,
                                                                                f"{rank}s")


def _wild_count(ruleset: Ruleset) -> str:
    """SK-1's count of every wild card when ranks of the packs are wild besides the jokers
    (the jokers alone are counted where the deck lists them)."""
    wild = _wild_pack_ranks(ruleset)
    if not wild:
        return ""
    jokers = ruleset.seat_jokers if 0 in ruleset.wild_ranks else 0
    count = jokers + 4 * ruleset.seat_packs * len(wild)
    return f" With the {' and the '.join(map(_rank_words, wild))}, {count} cards are wild."


def _numbers_words(ruleset: Ruleset) -> str:
    runs, extra = divmod(ruleset.draw_pack, ruleset.build_ceiling)
    copies = f"{runs} times each" if not extra else f"{runs} or {runs + 1} times each"
    return (f"the numbers 1 to {ruleset.build_ceiling}, {copies} ({ruleset.draw_pack} cards, "
            "draw_pack)")


def _payoff_clause(ruleset: Ruleset) -> Clause:
    many = ruleset.payoff_size_many or ruleset.payoff_size
    sizes = (f"{_size_words(ruleset.payoff_size)} with 2 to 4 players and "
             f"{many or _size_words(0)} with 5 or 6" if many != ruleset.payoff_size
             else _size_words(ruleset.payoff_size))
    return Clause("SK-9", f"Each seat is dealt one pay-off pile (Skip-Bo's stock pile) of {sizes} "
                  "(payoff_size, payoff_size_many), face down with its top card turned face "
                  "up; only that top card may be played.", f"{M} K4",
                  reasons=("empty-pile@payoff", "buried-card@payoff"))


def _size_words(size: int) -> str:
    """A pay-off pile's size in SK-9's words: 0 shares the separate pay-off pack out."""
    return f"{size} cards" if size else "an equal share of the separate pay-off pack"


def _wild_clause(ruleset: Ruleset) -> Clause:
    allowed = [r for r in range(1, ruleset.build_ceiling + 1) if r not in ruleset.wild_excluded]
    if not allowed:
        stands = "it stands for no number (wild_excluded)"
    elif allowed == list(range(allowed[0], allowed[-1] + 1)):
        stands = f"it stands for any number from {allowed[0]} to {allowed[-1]}"
    else:
        stands = f"it stands for any of {', '.join(map(str, allowed))}"
    if len(allowed) < ruleset.build_ceiling:
        stands += " (wild_excluded)"
    start = ("so it may start a build pile as its 1" if allowed[:1] == [1]
             else "so it may not start a build pile")
    return Clause("SK-4", f"A SKIP-BO card is wild: {stands}, {start}.", f"{M} K5; fixya",
                  reasons=("wild-cannot-start", "wild-excluded"))


def _recycle_clause(ruleset: Ruleset) -> Clause:
    text = ("When a required draw finds the draw pile used up, the set-aside completed piles "
            "are shuffled to form a new draw pile and the draw goes on.")
    if not ruleset.recycle_under_tops:
        return Clause("SK-7", text + " The cards under the build-pile tops stay where they are "
                      "(recycle_under_tops = false; true is the electronic edition's rule).",
                      f"{M} K8 (scribd sheet)",
                      events=("recycled",))
    return Clause("SK-7", text + " When no completed pile is set aside, the cards under the top "
                  "card of every build pile are shuffled to form it instead; each build pile "
                  "keeps its top card and goes on from the number it stood at "
                  "(recycle_under_tops = true, the electronic edition's rule).",
                  f"{M} K8 (scribd sheet; the electronic edition: Mattel handheld manual, "
                  "manualshive)",
                  events=("recycled", "recycled-under-tops"))


def _first_seat_clause(ruleset: Ruleset) -> Clause:
    if ruleset.first_seat == "youngest":
        return Clause("SK-11", "The youngest player plays first; the library seats the youngest "
                      "at seat 0, so seat 0 plays first in every game (first_seat = youngest); "
                      "turns go round in seat order.",
                      f"{M} K9 (modern sheet); seat 0 and every game ASSUMPTION",
                      events=("dealt",))
    if ruleset.first_seat == "cut-left":
        return Clause("SK-11", "Each player cuts a card and the highest deals (SKIP-BO cards do "
                      "not count); the library makes the cut a seeded random pick. The seat "
                      "after the dealer plays first and turns go round in seat order; in a "
                      "match the deal passes to the next seat each game (first_seat = "
                      "cut-left; first_seat = youngest is the modern sheet's rule).",
                      f"{M} K9 (older sheet); the seeded cut LIBRARY",
                      events=("dealt",))
    return Clause("SK-11", f"The first seat follows first_seat = {ruleset.first_seat}, a "
                  "setting outside Skip-Bo's own rules.", "LIBRARY",
                  events=("dealt",))


VALIDATE_SETTINGS = {"SK-26": {"packs": 3, "draw_pack": 0}}
"""SK-26 is in force only with standard packs (K2's three): validate plays a few checked
games so, where the configuration has none, and counts the clause's coverage there."""


def _standard_packs_clause(ruleset: Ruleset) -> Clause:
    """SK-26: K2's standard-card game, kings and jokers the SKIP-BO cards, said for the
    setting in force: whether the deck has standard packs, and whether the build piles stop
    below the king (the kings wild) or reach it (the kings numbers).  With standard packs
    each deal exercises it (event ``dealt``); without them it is not in force and declares
    itself unexercised."""
    packs = ("standard packs in place of Skip-Bo's numbered cards (packs or packs_per_seat, "
             "and draw_pack = 0)")
    if not ruleset.seat_packs:
        return Clause("SK-26", f"With {packs}, each pack brings its two jokers, and with build "
                      "piles that stop below the king the kings are SKIP-BO cards too. This "
                      "deck has no standard packs.", f"{W} K2", expects=("unexercised",))
    named = "jokers, jokers_per_pack" if ruleset.jokers_per_pack else "jokers"
    plural = "" if ruleset.seat_jokers == 1 else "s"
    jokers = (f"The deck is made of {packs}. It holds {ruleset.seat_jokers} joker{plural} "
              f"({named}); without jokers given, the rule set's own count is two a pack (K2: "
              "three packs with their jokers), or jokers_per_pack a pack where that is set.")
    wild = [_rank_words(rank) for rank in sorted(ruleset.wild_ranks, reverse=True)
            if rank or ruleset.seat_jokers]  # jokers only when the deck holds some
    here = f" Here the wild cards are the {' and the '.join(wild)} (wild_ranks)."
    if not kings_are_skip_bo(ruleset) and KING in ruleset.wild_ranks:
        kings = (f" The build piles run up to {ruleset.build_ceiling}, so the rule set does "
                 "not make the kings SKIP-BO cards, but the wild_ranks given makes them wild."
                 + here)
    elif not kings_are_skip_bo(ruleset):
        kings = (f" The build piles run up to {ruleset.build_ceiling}, so a king is the number "
                 "13, not a SKIP-BO card, and wild_ranks is left as it is.")
    else:  # a wild_ranks given without the king is refused at load: the kings would be dead
        kings = (" The build piles stop below the king, so A to Q are the numbers 1 to 12 and "
                 "the kings are SKIP-BO cards, wild like the jokers: wild_ranks gains 13, "
                 "unless wild_ranks is given (--set or a file), which holds as given." + here)
    # In force: every game deals the deck this clause composes, as SK-1's (coverage counts it
    # by "dealt"); it once named nothing and declared itself unexercised, so no game under
    # packs or packs_per_seat could show it (validate said "never exercised (intended)").
    return Clause("SK-26", jokers + kings, f"{W} K2", events=("dealt",))


def clauses(ruleset: Ruleset) -> list[Clause]:
    """The rule sheet, its parameter-dependent clauses written from ``ruleset``: the deal and
    the build piles (SK-1 to SK-11), then discards, the end and scoring (SK-12 on), then the
    standard-card game (SK-26)."""
    return [*_deal_and_build_clauses(ruleset), *_discard_and_end_clauses(ruleset),
            *play_clauses("SK", 21), _standard_packs_clause(ruleset)]


def _deal_and_build_clauses(ruleset: Ruleset) -> list[Clause]:
    top = ruleset.build_ceiling
    return [
        _deck_clause(ruleset),
        Clause("SK-2", f"{ruleset.min_players} to {ruleset.max_players} players, alone or in "
               "partnerships (the partnerships house rule). A player count the deck cannot "
               "deal pay-off piles and hands for is refused.",
               f"{M} K3 (pasobher copy); {W} K3; deal check LIBRARY",
               events=("dealt",)),
        Clause("SK-3", f"A build pile starts with a 1 and rises by exactly one number, up to "
               f"{top}.", f"{M} K5", reasons=("wrong-rank",)),
        _wild_clause(ruleset),
        Clause("SK-5", f"At most {ruleset.max_build_piles or 'any number of'} build piles are "
               "open at once; they are shared by all seats.", f"{M} K5",
               reasons=("build-pile-limit",)),
        Clause("SK-6", f"A build pile that reaches {top} is complete: it is set aside and a new "
               "pile may be started in its place.", f"{M} K5; dossier scenario 2",
               events=("pile-completed",)),
        _recycle_clause(ruleset),
        Clause("SK-8", "When a required draw finds no card at all (the draw pile empty"
               + (", no completed piles set aside and no card under a build-pile top"
                  if ruleset.recycle_under_tops else " and no completed piles set aside")
               + "), the game ends drawn. A draw that finds fewer cards than it needs takes "
               "those there are, and the seat plays on.",
               "ASSUMPTION (no sheet covers it; dossier K8, A6, A21)",
               events=("drawn", "short-draw")),
        _payoff_clause(ruleset),
        Clause("SK-10", f"Each seat holds a hand of {ruleset.hand_size}, drawn up to "
               f"{ruleset.hand_size} at the start of its turn. A seat that plays every hand card "
               f"draws {ruleset.hand_size} more at once and goes on.", f"{M} K7",
               events=("dealt", "hand-emptied")),
        _first_seat_clause(ruleset),
    ]


def _discard_and_end_clauses(ruleset: Ruleset) -> list[Clause]:
    return [
        Clause("SK-12", f"Each seat has {ruleset.discard_piles} discard piles of its own. Only "
               "the top card of a discard pile may be played, and only by its owner; cards "
               "never move from one discard pile to another.", f"{M} K6 (fixya; handheld "
               "manual)", reasons=("buried-card@discard", "not-on-pile@discard",
                                    "empty-pile@discard", "not-own-pile",
                                    "not-own-discard-pile")),
        Clause("SK-13", "Any hand card may be discarded, on any discard pile, in any order, a "
               "SKIP-BO card included; a discard pile has no size limit.",
               f"{M} K6 ('any card'); the wild card: dossier §6 edge rules, literal reading",
               reasons=("forbidden-discard",)),
        Clause("SK-14", "A SKIP-BO card on a discard pile stays wild: played from the top of the "
               "pile it stands for whatever number the build pile needs.",
               "ASSUMPTION (dossier A14, the literal reading of K6; georgiee/"
               "angular-workshop-skipbo#7 converts it instead)",
               expects=("unexercised",)),
        Clause("SK-15", "A turn ends when the seat puts exactly one hand card on one of its "
               "discard piles; cards go to discard piles only from the hand.", f"{M} K6, K7",
               reasons=("discard-count", "pair-unequal")),
        Clause("SK-16", "A seat may discard and end its turn even when it could still play.",
               "ilovetranslation FAQ (dossier §6 edge rules); K7",
               expects=("unexercised",)),
        Clause("SK-17", "A discard that empties the hand ends the turn like any other; the seat "
               f"draws {ruleset.hand_size} at the start of its next turn, not at once.",
               "finalbosscardgame.com (dossier §6 edge rules)",
               expects=("unexercised",)),
        Clause("SK-18", "A seat that plays the last card of its pay-off pile wins the game at "
               "once, with no discard.", f"{M} K7, K11 (the object of the game)",
               events=("win",)),
        Clause("SK-19", f"The winner scores {ruleset.win_bonus} points plus "
               f"{ruleset.points_per_card} for every card left in the opponents' pay-off piles "
               "(win_bonus, points_per_card); nobody else scores. A drawn, blocked or timed-out "
               "game scores nothing.", f"{M} K10 (scribd sheet; finalbosscardgame.com); the "
               "drawn game ASSUMPTION",
               events=("win", "drawn", "blocked", "turn-limit")),
        Clause("SK-20", f"A match is played to {ruleset.match_target} points (match_target).",
               f"{M} K10",
               events=("match-won",), expects=("unexercised",)),
    ]


@hookimpl
def spitemalice_ruleset() -> Ruleset:
    return RULESET


@hookimpl
def spitemalice_wild(ruleset: Ruleset) -> WildRule | None:
    """The kings as SKIP-BO cards when the deck is made of standard packs (SK-26, K2): the
    resolved ``wild_ranks`` and 13.  A ``wild_ranks`` given with ``--set`` or in a file holds
    as given (the loader lets a rule set's own answer give way to it); ``None`` (the values as
    they are) for the numbered cards, or when the build piles reach the king."""
    if not kings_are_skip_bo(ruleset):
        return None
    return WildRule(ruleset.wild_ranks | {KING}, ruleset.wild_excluded)


@hookimpl
def spitemalice_deck(ruleset: Ruleset) -> Deck:
    """The deck the values state, every joker a SKIP-BO card (clause SK-1): the numbered
    cards, and standard packs (``packs``) or a separate pay-off pack when they are set; the
    wild cards' face is Skip-Bo's own.  With standard packs the jokers are each pack's own,
    :func:`pack_jokers` (SK-26, K2): this answer is the rule set's ``jokers`` there, and a
    ``jokers`` given holds as given (the loader lets the rule set's own answer give way)."""
    deck = stated_deck(ruleset, joker=SKIP_BO)
    # The SKIP-BO cards go last, where this rule set has always had them: a deal shuffles
    # the cards in this order, so a seed (and every committed record) deals as before.
    others = tuple(card for card in deck.cards if card is not SKIP_BO)
    jokers = pack_jokers(ruleset) if ruleset.seat_packs else len(deck.cards) - len(others)
    return Deck(others + (SKIP_BO,) * jokers, deck.payoff_cards)


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return clauses(ruleset)
