"""The Resistance family's view and moves as pydantic models: the single source from
which the API and the JSON socket check a move, validate and serialise a view, and
document both (``engine/README.md``, "The view" and "Actions and legal moves").

Model names are the OpenAPI document's component names, hence the family's prefix.
Codes (games, sides, cards, phases, roles) are read from the engine, so the
schemas cannot disagree with it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, RootModel

from games import engine
from games.families.resistance.engine import SIDES, Phase
from games.families.resistance.engine.rules import MISSIONS
from games.families.resistance.engine.state import CARDS
from games.kit import Answer, AtTheTable, Channel, OptionValue, Request

RULESETS = tuple(
    code
    for code in engine.ruleset_codes()
    if engine.get_ruleset(code).family == "resistance"
)
_rulesets = [engine.get_ruleset(code) for code in RULESETS]
MIN_PLAYERS = min(ruleset.min_players for ruleset in _rulesets)
MAX_PLAYERS = max(ruleset.max_players for ruleset in _rulesets)
ROLES = tuple(dict.fromkeys(role for r in _rulesets for role in r.role_codes))
MAX_REJECTIONS = 5
REASONS = (
    "three_successes",
    "three_failures",
    "five_rejections",
    "scout_shot",
    "scout_missed",
)

Ruleset = Literal[RULESETS]  # type: ignore[valid-type]
Side = Literal[SIDES]  # type: ignore[valid-type]
Card = Literal[CARDS]  # type: ignore[valid-type]
Role = Literal[ROLES]  # type: ignore[valid-type]
Seat = Annotated[
    int,
    Field(ge=0, le=MAX_PLAYERS - 1, description="A seat in table order, from 0."),
    AtTheTable,
]
Seats = Annotated[list[Seat], Field(max_length=MAX_PLAYERS)]
Number = Annotated[int, Field(ge=1, le=MISSIONS)]
Votes = Annotated[dict[str, bool], Field(description="Seat (as a string) -> approved.")]


# --- Moves ---------------------------------------------------------------------------


class ResistanceProposeMove(Request):
    """The leader names the team: exactly the mission's size, no seat twice."""

    type: Literal["propose"] = Field(description="The move's kind.")
    team: Annotated[list[Seat], Field(min_length=1, max_length=MAX_PLAYERS)] = Field(
        description="The seats of the team, exactly the mission's `size` of the "
        "seats in `legal[].among`, none twice; another count is "
        "refused with `wrong_team_size`."
    )


class ResistanceVoteMove(Request):
    """Approve or reject the team."""

    type: Literal["vote"] = Field(description="The move's kind.")
    approve: bool = Field(description="true to approve the team, false to reject it.")


class ResistancePlayMove(Request):
    """A team member plays a card; the good side can only play success."""

    type: Literal["play"] = Field(description="The move's kind.")
    card: Card = Field(  # type: ignore[valid-type]
        description="One of `legal[].cards`: a good seat has only `success`."
    )


class ResistanceCheckMove(Request):
    """The check-token holder checks a player's side."""

    type: Literal["check"] = Field(description="The move's kind.")
    target: Seat = Field(description="The seat checked, one of `legal[].among`.")


class ResistanceClaimMove(Request):
    """The holder announces the side found, truthfully or not."""

    type: Literal["claim"] = Field(description="The move's kind.")
    side: Side = Field(  # type: ignore[valid-type]
        description="The side you announce, one of `legal[].sides`: the truth or not."
    )


class ResistanceShootMove(Request):
    """The sniper shoots, hoping to hit the scout."""

    type: Literal["shoot"] = Field(description="The move's kind.")
    target: Seat = Field(description="The seat shot, one of `legal[].among`.")


class ResistanceMove(
    RootModel[
        Annotated[
            ResistanceProposeMove
            | ResistanceVoteMove
            | ResistancePlayMove
            | ResistanceCheckMove
            | ResistanceClaimMove
            | ResistanceShootMove,
            Field(discriminator="type"),
        ]
    ]
):
    """A move at a table of Partisans, Trust No One or Werewolves."""


# --- What a seat may do now (the view's "legal") -------------------------------------


class ResistanceLegalPropose(Answer):
    """Propose a team of `size` seats from `among`."""

    type: Literal["propose"] = Field(description="The move's kind.")
    size: Annotated[int, Field(ge=1, le=MAX_PLAYERS)] = Field(
        description="How many seats the team has."
    )
    among: Seats = Field(description="The seats a team may be made of.")


class ResistanceLegalVote(Answer):
    """Vote: `approve` is one of `choices`."""

    type: Literal["vote"] = Field(description="The move's kind.")
    choices: list[bool] = Field(description="The values `approve` may take.")


class ResistanceLegalPlay(Answer):
    """Play one of `cards`."""

    type: Literal["play"] = Field(description="The move's kind.")
    cards: list[Card] = Field(description="The cards you may play.")  # type: ignore[valid-type]


class ResistanceLegalCheck(Answer):
    """Check one seat of `among`."""

    type: Literal["check"] = Field(description="The move's kind.")
    among: Seats = Field(description="The seats you may check.")


class ResistanceLegalClaim(Answer):
    """Announce one of `sides`."""

    type: Literal["claim"] = Field(description="The move's kind.")
    sides: list[Side] = Field(description="The sides you may announce.")  # type: ignore[valid-type]


class ResistanceLegalShoot(Answer):
    """Shoot one seat of `among`."""

    type: Literal["shoot"] = Field(description="The move's kind.")
    among: Seats = Field(description="The seats you may shoot.")


ResistanceLegal = Annotated[
    ResistanceLegalPropose
    | ResistanceLegalVote
    | ResistanceLegalPlay
    | ResistanceLegalCheck
    | ResistanceLegalClaim
    | ResistanceLegalShoot,
    Field(discriminator="type"),
]


# --- The view ------------------------------------------------------------------------


class ResistanceMission(Answer):
    """A mission of the track: played ones with their result and size played."""

    number: Number = Field(description="The mission, from 1.")
    size: Annotated[int, Field(ge=1, le=MAX_PLAYERS)] = Field(
        description="Its team's size: as played once played, else as it stands now."
    )
    two_fails: bool = Field(description="Whether it fails only with two fail cards.")
    result: Card | None = Field(  # type: ignore[valid-type]
        description="`success` or `fail` once played; null before."
    )
    fails: Annotated[int, Field(ge=0)] | None = Field(
        description="How many fail cards it had, once played; never who played them."
    )


class ResistanceFinishedVote(Answer):
    """A vote that is over: every vote is public."""

    mission: Number = Field(description="The mission the team was proposed for.")
    attempt: Annotated[int, Field(ge=1, le=MAX_REJECTIONS)] = Field(
        description="The proposal's number for that mission, from 1."
    )
    leader: Seat = Field(description="Who proposed.")
    team: Seats = Field(description="The team proposed.")
    votes: Votes = Field(
        description="How each seat voted: every vote is public once over."
    )
    approved: bool = Field(description="Whether the team went on its mission.")
    fails: Annotated[int, Field(ge=0)] | None = Field(
        description="The mission's fail cards, when it was approved and played."
    )
    result: Card | None = Field(  # type: ignore[valid-type]
        description="The mission's result, when it was approved and played."
    )


class ResistanceProposal(Answer):
    """The team on the table: being voted on, or on its mission."""

    leader: Seat = Field(description="Who proposed it.")
    team: Seats = Field(description="The seats on it.")
    voted: Seats = Field(description="Who has voted; never how.")
    votes: Votes | None = Field(description="null while the vote is on.")


class ResistanceTeamPlay(Answer):
    """The mission in progress: who has played a card (never which)."""

    team: Seats = Field(description="The seats on the mission.")
    played: Seats = Field(description="Who has played a card; never which.")


class ResistanceCheckToken(Answer):
    """The check token (preset «С проверкой»)."""

    holder: Seat = Field(description="Who holds the token now.")
    former: Seats = Field(
        description="Everyone who has held it, the holder included (none may "
        "check twice)."
    )
    eligible: Seats = Field(description="The seats the holder may check.")


class ResistanceCheck(Answer):
    """One use of the check token."""

    after_mission: Number = Field(description="The mission after which it was made.")
    holder: Seat = Field(description="Who checked.")
    target: Seat = Field(description="Who was checked.")
    claim: Side | None = Field(  # type: ignore[valid-type]
        description="The side the holder announced; null until then."
    )
    result: Side | None = Field(  # type: ignore[valid-type]
        description="The true side: only for its holder, or at the end."
    )


class ResistanceSniper(Answer):
    """The sniper (preset «С разведчиком»)."""

    phase: bool = Field(description="Whether this is the sniper phase.")
    sniper: Seat | None = Field(
        description="Known to the evil side, and to all at the end."
    )
    target: Seat | None = Field(description="Who was shot; null before the shot.")
    hit: bool | None = Field(
        description="Whether the shot hit the scout; null before the shot."
    )


class ResistanceKnownSeat(Answer):
    """What you were told about another seat."""

    seat: Seat = Field(description="The seat you were told about.")
    side: Side | None = Field(description="Its side, as you were told.")  # type: ignore[valid-type]
    role: Role | None = Field(description="Its role, when you were told it.")  # type: ignore[valid-type]


class ResistanceMe(Answer):
    """You: your side, role and what you were told."""

    seat: Seat = Field(description="Your seat.")
    side: Side = Field(description="Your side.")  # type: ignore[valid-type]
    role: Role = Field(description="Your role.")  # type: ignore[valid-type]
    known: list[ResistanceKnownSeat] = Field(
        description="What you were told about other seats: your evil partners, "
        "the scout's list, your own checks."
    )
    vote: bool | None = Field(description="Your vote now.")
    card: Card | None = Field(description="Your card in the mission in progress.")  # type: ignore[valid-type]
    cards: dict[str, Card] = Field(  # type: ignore[valid-type]
        description="Mission number -> the card you played on it."
    )
    channels: list[Channel] = Field(
        description="The chat channels you may write to now."
    )


class ResistanceOutcome(Answer):
    """Who won and why."""

    winner: Side = Field(description="The side that won.")  # type: ignore[valid-type]
    reason: Literal[REASONS] = Field(description="Why the game ended.")  # type: ignore[valid-type]


class ResistanceRole(Answer):
    """A seat's card, turned up at the end."""

    seat: Seat = Field(description="The seat.")
    side: Side = Field(description="Its side.")  # type: ignore[valid-type]
    role: Role = Field(description="Its role.")  # type: ignore[valid-type]


class ResistanceView(Answer):
    """`engine.view(state, seat)` at a table of Partisans, Trust No One or
    Werewolves: everything your seat may know and nothing else."""

    ruleset: Ruleset = Field(description="The table's game: the view's shape.")  # type: ignore[valid-type]
    players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = Field(
        description="Seats at the table."
    )
    options: dict[str, OptionValue] = Field(
        description="The table's options, every one (defaults filled in)."
    )
    step: Annotated[int, Field(ge=0, description="Actions applied so far.")]
    phase: Literal[tuple(phase.value for phase in Phase)] = Field(  # type: ignore[valid-type]
        description="What the table is doing now."
    )
    leader: Seat = Field(description="Who proposes now.")
    mission: Number = Field(
        description="The current mission; the last one once none follows."
    )
    missions: Annotated[
        list[ResistanceMission], Field(min_length=MISSIONS, max_length=MISSIONS)
    ] = Field(description="The mission track, all five, in order.")
    rejections: Annotated[int, Field(ge=0, le=MAX_REJECTIONS)] = Field(
        description="Proposals rejected in a row for the current mission (the "
        "fifth loses the game for the good side)."
    )
    voters: Seats = Field(
        description="Who votes on a team: everyone, or everyone but the leader "
        "(werewolves)."
    )
    proposal: ResistanceProposal | None = Field(
        description="The team on the table: in the vote (votes hidden) and on its"
        " mission (votes shown)."
    )
    play: ResistanceTeamPlay | None = Field(
        description="The mission in progress: who has played."
    )
    token: ResistanceCheckToken | None = Field(
        description="The check token, with the check option."
    )
    checks: list[ResistanceCheck] = Field(description="Every use of the check token.")
    sniper: ResistanceSniper | None = Field(
        description="The sniper and his shot, with the scout option."
    )
    history: list[ResistanceFinishedVote] = Field(
        description="Every vote that is over, in order."
    )
    me: ResistanceMe | None = Field(description="null for a spectator.")
    legal: list[ResistanceLegal] = Field(
        description="What you may do now; empty when nothing is asked of you."
    )
    waiting_for: Seats = Field(description="Whose move the table awaits.")
    outcome: ResistanceOutcome | None = Field(
        description="Who won and why, once the game is over; else null."
    )
    roles: list[ResistanceRole] | None = Field(
        description="Every role, once the game is over."
    )
