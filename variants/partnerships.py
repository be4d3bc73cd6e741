"""House rule partnerships: teams of two, partners sitting opposite (rules dossier §6 K3, K11).

Skip-Bo is played "individually or in partnerships" (K3); the sources disagree on the details
(dossier §6, A13).  Reading (a), the default: a seat may play from its partner's pay-off and
discard piles as well as its own and may not discard onto them.  Reading (b), ``--set
partner_piles=share``: a partnership's two pay-off piles and eight discard piles are common, so
a seat may also discard onto its partner's discard piles.  Either way a team wins when both
partners' pay-off piles are empty.  The same rules serve every Spite and Malice rule set that
allows four or six seats (dossier A19: Skip-Bo's partnership rules as a template).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spitemalice import Clause, Ruleset, RulesetError, hookimpl

NAME = "partnerships"
KIND = "house-rule"
DESCRIPTION = ("teams of two sitting opposite (4 or 6 seats); a seat may play from its "
               "partner's piles (--set partner_piles=share: and discard onto them)")
TEAM = 2
ENFORCES = ("team_size", "partner_piles")  # PT-1 states the teams, PT-2 and PT-3 the piles


@hookimpl(wrapper=True)
def spitemalice_ruleset() -> Generator[None, Ruleset, Ruleset]:
    """Teams of two; four seats unless the rule set's own count already forms teams.

    Raises:
        RulesetError: the rule set already plays in teams, or allows fewer than four seats.
    """
    ruleset = yield
    if ruleset.team_size != 1:
        raise RulesetError(f"{NAME} cannot stack on {ruleset.name}: it already plays in teams "
                           f"of {ruleset.team_size}")
    if ruleset.max_players < 2 * TEAM:
        counts = (str(ruleset.max_players) if ruleset.min_players == ruleset.max_players
                  else f"{ruleset.min_players} to {ruleset.max_players}")
        raise RulesetError(
            f"{NAME} cannot stack on {ruleset.name}: partners sit opposite in teams of two, so "
            f"it needs 4 or 6 seats, and {ruleset.name} is for {counts} players")
    players = ruleset.players
    if players % TEAM or players < 2 * TEAM:
        players = 2 * TEAM
    return attrs.evolve(ruleset, team_size=TEAM, players=players)


def _piles_clauses(ruleset: Ruleset) -> list[Clause]:
    if ruleset.partner_piles == "share":
        return [
            Clause("PT-2", "Each partnership's pay-off piles and discard piles are common "
                   "(partner_piles = share): on its turn a seat may play the top card of its "
                   "partner's pay-off pile and of any of its partner's discard piles as well as "
                   "its own; never a card under a top, never a card of the partner's hand.",
                   "hawgstuff (older Wikipedia), dossier §6 partnership reading (b)",
                   reasons=("not-own-pile",)),
            Clause("PT-3", "A seat may end its turn by discarding onto any of the partnership's "
                   "discard piles, its partner's included (four of each partner, eight in all).",
                   "hawgstuff, dossier §6 reading (b) ('two sets of four discard piles')",
                   reasons=("not-own-discard-pile",)),
        ]
    if ruleset.partner_piles == "own":
        return [
            Clause("PT-2", "Each seat plays only from its own pay-off and discard piles, never "
                   "from its partner's (partner_piles = own).",
                   "visualfoodie.com (grade D), dossier §6 (d); likely wrong, kept as an option",
                   reasons=("not-own-pile",)),
            Clause("PT-3", "A seat discards only onto its own discard piles.",
                   "dossier §6 (d)", reasons=("not-own-discard-pile",)),
        ]
    return [
        Clause("PT-2", "On its turn a seat may play the top card of its partner's pay-off pile "
               "and of any of its partner's discard piles, as well as its own (partner_piles = "
               "play); never a card under a top, never a card of the partner's hand.",
               "dossier §6 partnership reading (a): goodsams-florida tournament rules, "
               "gamezrules.com", reasons=("not-own-pile",)),
        Clause("PT-3", "A seat may not discard onto its partner's discard piles; it ends its "
               "turn on its own (--set partner_piles=share allows both, reading (b)).",
               "ASSUMPTION (no source says; finalbosscardgame.com breaks off at 'however they "
               "may not...'; dossier §6, A13)", reasons=("not-own-discard-pile",)),
    ]


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return [
        Clause("PT-1", "Seats play in teams of {team_size:word}, spaced evenly round the "
               "table (partners of two sit opposite), so turns alternate between the teams: "
               "with {players:word} seats the teams are {teams}. A seat count that does not "
               "form two or more whole teams of {team_size:word}, or a rule set for fewer than "
               "four seats, is refused.",
               "SKIPBO-MATTEL K3, K11 ('and your partner's, if playing partnerships'); the "
               "seating ASSUMPTION (dossier A13, A19)",
               events=("dealt",)),
        *_piles_clauses(ruleset),
        Clause("PT-4", "A team wins when both partners' pay-off piles are empty; a seat whose "
               "own pile is empty plays on (from its hand, its discard piles and its "
               "partner's piles). The outcome names the seat whose pay-off pile emptied last "
               "as the winner.",
               "dossier §6 (c): hawgstuff, gamezrules.com, goodsams ('when their own stock "
               "piles have been played'); the named seat LIBRARY",
               events=("win",)),
        Clause("PT-5", f"A team scores as one player of the rule set: a winning team "
               f"{ruleset.win_bonus} points plus {ruleset.points_per_card} per card left in "
               "the other teams' pay-off piles, a drawn hand compared team by team; both "
               "partners show the team's points, and a team wins the match.",
               "ASSUMPTION (K10 read for a team; dossier A13)",
               events=("win", "drawn", "blocked", "turn-limit")),
        Clause("PT-6", "Partners may not show or tell each other their hands: a seat sees its "
               "partner's piles only as every seat sees them (pay-off tops and counts, "
               "discard piles, a hand count). The 2-card penalty for a hint is not modelled.",
               "dossier §6 reading (a): the partner must stay silent (goodsams, gamezrules); "
               "the penalty LIBRARY",
               expects=("unexercised",)),
        Clause("PT-7", "On a Spite and Malice rule set the same partnership rules apply, with "
               "that rule set's own cards, piles and scoring.",
               "ASSUMPTION (dossier A19: Skip-Bo's partnership rules as a template)",
               events=("dealt",)),
    ]
