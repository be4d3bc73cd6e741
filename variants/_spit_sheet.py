"""Spit's rule sheet: each clause in our words, citing the seed's sentence (SEED-SPIT,
``seeds/003_e9502e360636f7c8.txt``, French) or marked ASSUMPTION where the seed is silent."""

from __future__ import annotations

from spitemalice import Clause, Ruleset

S = "SEED-SPIT"


def _seed(*sentences: str) -> str:
    return f"{S}: " + " ".join(f"« {sentence} »" for sentence in sentences)


def _deal() -> list[Clause]:
    return [
        Clause("SP-1", "Two seats play with one 52-card pack, shuffled by the game's seed and "
               "dealt 26 cards to each; suits never matter.",
               _seed("Mélangez les cartes et distribuez-les uniformément aux joueurs, de sorte "
                     "que chaque joueur reçoive 26 cartes."),
               reasons=("no-such-seat",), events=("dealt",)),
        Clause("SP-2", "Each seat lays out five stock piles of 1, 2, 3, 4 and 5 cards and turns "
               "the top card of each face up; only a face-up top card moves.",
               _seed("Chaque joueur distribue ensuite cinq piles de cartes alignées devant lui",
                     "Retournez la carte du dessus de chaque pile face visible."),
               reasons=("no-such-pile", "empty-pile", "not-on-pile")),
        Clause("SP-3", "The other 11 cards are the seat's spit cards, face down; nobody sees "
               "them, their holder included (no view shows them).",
               _seed("Chaque joueur aura désormais 11 cartes en main. Il ne doit pas regarder "
                     "ces cartes, elles sont appelées « cartes crachées »."),
               events=("dealt", "laid-out-again")),
        Clause("SP-4", "The game starts at the spit barrier: each seat holding a spit card says "
               "spit; once every such seat has, each turns its top spit card face up onto the "
               "centre, making the spit piles (pile 1 seat 0's, pile 2 seat 1's). ASSUMPTION "
               "(together, without a clock): the barrier waits for every seat that holds a "
               "spit card, in any order, and then all of them flip at once.",
               _seed("Lorsque les deux joueurs sont prêts, ils disent « crache » simultanément "
                     "et chaque joueur retourne la carte crache du dessus") + "; ASSUMPTION",
               reasons=("already-answered", "no-spit-card", "not-now")),
    ]


def _play() -> list[Clause]:
    return [
        Clause("SP-5", "There are no turns: both seats move at once, each one card at a time, "
               "and every move names its seat; a move is refused for a seat that does not "
               "make it.",
               _seed("Le jeu se déroule ensuite aussi vite que les joueurs peuvent se déplacer.",
                     "Chaque joueur ne peut déplacer qu'une seule carte à la fois."),
               reasons=("wrong-seat",)),
        Clause("SP-6", "A seat lays the top card of one of its stock piles on a spit pile when "
               "it is one rank above or below the pile's top card, round the corner: an ace "
               "goes on a king or a two, a king or a two on an ace.",
               _seed("il doit s'agir de la carte suivante dans la séquence (soit supérieure, "
                     "soit inférieure). Les couleurs et les suites n'ont aucune importance.",
                     "Lorsqu'un As apparaît sur une pile de cartes, un Roi ou un 2 peut être "
                     "joué dessus."),
               reasons=("not-adjacent",)),
        Clause("SP-7", "When a card leaves a stock pile, the card under it is turned face up "
               "at once. ASSUMPTION: the seed's « peut » (may) is taken as at once, so a "
               "position has no face-down top card.",
               _seed("Lorsqu'un joueur déplace une carte d'une de ses réserves vers une pile de "
                     "crachats, il peut retourner la carte suivante de la réserve face "
                     "visible.") + "; ASSUMPTION",
               events=("turned-up",)),
        Clause("SP-8", "A seat with an empty stock pile may move the top card of another of its "
               "stock piles into it, and the card under that one is turned up; a seat never "
               "has more than five stock piles. ASSUMPTION: only from a pile of two or more "
               "cards (moving a lone card changes nothing, and games must end).",
               _seed("il peut déplacer la carte face visible d'une autre réserve pour remplir "
                     "l'emplacement vide.",
                     "Un joueur ne peut jamais avoir plus de cinq réserves.") + "; ASSUMPTION",
               reasons=("slot-not-empty", "fill-single")),
        Clause("SP-9", "A card laid on a spit pile stays there. When both seats aim at the "
               "same pile, the first to touch it lays its card. ASSUMPTION (who touches "
               "first): the move that arrives first is applied (on a live table, the order "
               "the server receives them; in a simulation, the study's seeded arrival "
               "policy); a move that no longer fits when it arrives is refused as any "
               "illegal move, and its seat decides again.",
               _seed("le joueur dont la carte touche la pile de cartes à gratter en premier "
                     "peut placer sa carte.",
                     "Une fois qu'une carte est officiellement jouée, elle ne peut plus être "
                     "retirée.") + "; ASSUMPTION",
               events=("stale",)),
        Clause("SP-10", "When neither seat can move a card (no lay, no fill), the game waits "
               "at the spit barrier again and each seat holding a spit card turns one onto "
               "its own spit pile (onto the one pile when there is one). ASSUMPTION: each "
               "onto the pile on its side.",
               _seed("Si le jeu atteint un point où aucun joueur ne peut jouer de sa réserve, "
                     "les deux joueurs disent à nouveau « crache » simultanément")
               + "; ASSUMPTION", events=("barrier-again",)),
    ]


def _rounds() -> list[Clause]:
    return [
        Clause("SP-11", "A round ends when a seat has played out its stock piles, or when "
               "neither can move and no seat holds a spit card.",
               _seed("Un tour se termine lorsque l'une des deux choses suivantes se produit : "
                     "soit un joueur n'a plus de cartes en stock en les jouant toutes, soit "
                     "aucun joueur ne peut faire un jeu légal"), events=("round-over",)),
        Clause("SP-12", "With two spit piles both seats then slap one: different piles, each "
               "takes the pile it slapped; the same pile, the first hand takes it and the "
               "other seat the other pile. ASSUMPTION (who is first): the slap that arrives "
               "first; the second seat's only slap is then the pile left, which it takes "
               "whichever it aimed at.",
               _seed("Si les joueurs tapent sur des piles différentes, chacun prend la pile "
                     "qu'il a frappée. S'ils tapent sur la même pile, le joueur qui est "
                     "arrivé en premier (dont la main est en bas) prend cette pile ; l'autre "
                     "joueur prend l'autre pile.") + "; ASSUMPTION",
               reasons=("pile-taken",)),
        Clause("SP-13", "Each seat adds its stock and spit cards to the pile it took, shuffles "
               "them (by the game's seed) and lays out again as in SP-2 and SP-3; the next "
               "round starts at the spit barrier (SP-4).",
               _seed("Les deux joueurs ajoutent ensuite les cartes de réserve et les cartes de "
                     "spit restantes de leur côté à la pile de spit qu'ils ont prise et "
                     "mélangent leurs cartes."), events=("laid-out-again",)),
        Clause("SP-14", "A seat with fewer than 15 cards fills its stock piles in order as far "
               "as its cards go and has no spit card, so it does not spit and the round has "
               "one spit pile. ASSUMPTION: piles 1 to 5 are filled in order; a seat with "
               "exactly 15 cards likewise has no spit card.",
               _seed("ce joueur distribue les cartes en cinq piles aussi loin que possible",
                     "il n'y aura qu'une seule pile de crachats.") + "; ASSUMPTION",
               events=("short-layout",)),
        Clause("SP-15", "With one spit pile there is no slap: the seat that plays out its "
               "stock first takes nothing and the other takes the pile. ASSUMPTION: when the "
               "round ends with nobody out, the seat that spat on the pile takes it.",
               _seed("le premier joueur à se débarrasser de ses cartes de réserve ne prend "
                     "rien au centre. Son adversaire prend la pile") + "; ASSUMPTION",
               events=("one-pile",)),
    ]


def _end(ruleset: Ruleset) -> list[Clause]:
    if ruleset.points_per_card:
        win = Clause("SP-16", "The points game (points_per_card = {points_per_card}): at the "
                     "end of each round each seat scores {points_per_card} point(s) per card "
                     "it still holds (stock and spit cards, before taking a pile); when a seat "
                     "reaches {match_target} (match_target) the game ends and the lowest score "
                     "wins, equal scores a draw. ASSUMPTION: a seat left with no card ends the "
                     "game too.",
                     _seed("chaque joueur marquant un point pour chaque carte restante à la fin "
                           "de chaque manche. Lorsqu'au moins un joueur marque 100 points ou "
                           "plus, la partie se termine. Le joueur qui a le score le plus bas "
                           "est le grand gagnant.") + "; ASSUMPTION",
                     events=("win", "drawn"))
    else:
        win = Clause("SP-16", "The standard game (points_per_card = 0): a seat that plays out "
                     "its stock while holding no spit card wins; it scores the cards the "
                     "other seat holds. Otherwise the game goes on.",
                     _seed("Si le joueur qui n'a pas de cartes Spit en main est également celui "
                           "qui se débarrasse de ses réserves en premier, il remporte la "
                           "partie."),
                     events=("win",))
    return [
        win,
        Clause("SP-17", "A game that reaches {turn_limit} moves (turn_limit) ends with no "
               "winner.", "LIBRARY (termination guarantee)",
               events=("turn-limit",), expects=("unexercised",)),
        Clause("SP-18", "No move may be made once the game has ended.", "LIBRARY",
               reasons=("game-over",)),
    ]


def clauses(ruleset: Ruleset) -> list[Clause]:
    """The rule sheet, SP-1 to SP-18."""
    return [*_deal(), *_play(), *_rounds(), *_end(ruleset)]
