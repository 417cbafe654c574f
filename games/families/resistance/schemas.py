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
from games.kit import Answer, Channel, OptionValue, Request

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
    int, Field(ge=0, le=MAX_PLAYERS - 1, description="A seat in table order, from 0.")
]
Seats = Annotated[list[Seat], Field(max_length=MAX_PLAYERS)]
Number = Annotated[int, Field(ge=1, le=MISSIONS)]
Votes = Annotated[dict[str, bool], Field(description="Seat (as a string) -> approved.")]


# --- Moves ---------------------------------------------------------------------------


class ResistanceProposeMove(Request):
    """The leader names the team: exactly the mission's size, no seat twice."""

    type: Literal["propose"]
    team: Annotated[list[Seat], Field(min_length=1, max_length=MAX_PLAYERS)]


class ResistanceVoteMove(Request):
    """Approve or reject the team."""

    type: Literal["vote"]
    approve: bool


class ResistancePlayMove(Request):
    """A team member plays a card; the good side can only play success."""

    type: Literal["play"]
    card: Card  # type: ignore[valid-type]


class ResistanceCheckMove(Request):
    """The check-token holder checks a player's side."""

    type: Literal["check"]
    target: Seat


class ResistanceClaimMove(Request):
    """The holder announces the side found, truthfully or not."""

    type: Literal["claim"]
    side: Side  # type: ignore[valid-type]


class ResistanceShootMove(Request):
    """The sniper shoots, hoping to hit the scout."""

    type: Literal["shoot"]
    target: Seat


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

    type: Literal["propose"]
    size: Annotated[int, Field(ge=1, le=MAX_PLAYERS)]
    among: Seats


class ResistanceLegalVote(Answer):
    """Vote: `approve` is one of `choices`."""

    type: Literal["vote"]
    choices: list[bool]


class ResistanceLegalPlay(Answer):
    """Play one of `cards`."""

    type: Literal["play"]
    cards: list[Card]  # type: ignore[valid-type]


class ResistanceLegalCheck(Answer):
    """Check one seat of `among`."""

    type: Literal["check"]
    among: Seats


class ResistanceLegalClaim(Answer):
    """Announce one of `sides`."""

    type: Literal["claim"]
    sides: list[Side]  # type: ignore[valid-type]


class ResistanceLegalShoot(Answer):
    """Shoot one seat of `among`."""

    type: Literal["shoot"]
    among: Seats


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

    number: Number
    size: Annotated[int, Field(ge=1, le=MAX_PLAYERS)]
    two_fails: bool
    result: Card | None  # type: ignore[valid-type]
    fails: Annotated[int, Field(ge=0)] | None


class ResistanceFinishedVote(Answer):
    """A vote that is over: every vote is public."""

    mission: Number
    attempt: Annotated[int, Field(ge=1, le=MAX_REJECTIONS)]
    leader: Seat
    team: Seats
    votes: Votes
    approved: bool
    fails: Annotated[int, Field(ge=0)] | None
    result: Card | None  # type: ignore[valid-type]


class ResistanceProposal(Answer):
    """The team on the table: being voted on, or on its mission."""

    leader: Seat
    team: Seats
    voted: Seats = Field(description="Who has voted; never how.")
    votes: Votes | None = Field(description="null while the vote is on.")


class ResistanceTeamPlay(Answer):
    """The mission in progress: who has played a card (never which)."""

    team: Seats
    played: Seats


class ResistanceCheckToken(Answer):
    """The check token (preset «С проверкой»)."""

    holder: Seat
    former: Seats
    eligible: Seats


class ResistanceCheck(Answer):
    """One use of the check token."""

    after_mission: Number
    holder: Seat
    target: Seat
    claim: Side | None  # type: ignore[valid-type]
    result: Side | None = Field(  # type: ignore[valid-type]
        description="The true side: only for its holder, or at the end."
    )


class ResistanceSniper(Answer):
    """The sniper (preset «С разведчиком»)."""

    phase: bool = Field(description="Whether this is the sniper phase.")
    sniper: Seat | None = Field(
        description="Known to the evil side, and to all at the end."
    )
    target: Seat | None
    hit: bool | None


class ResistanceKnownSeat(Answer):
    """What you were told about another seat."""

    seat: Seat
    side: Side | None  # type: ignore[valid-type]
    role: Role | None  # type: ignore[valid-type]


class ResistanceMe(Answer):
    """You: your side, role and what you were told."""

    seat: Seat
    side: Side  # type: ignore[valid-type]
    role: Role  # type: ignore[valid-type]
    known: list[ResistanceKnownSeat]
    vote: bool | None = Field(description="Your vote now.")
    card: Card | None  # type: ignore[valid-type]
    cards: dict[str, Card] = Field(  # type: ignore[valid-type]
        description="Mission number -> the card you played on it."
    )
    channels: list[Channel]


class ResistanceOutcome(Answer):
    winner: Side  # type: ignore[valid-type]
    reason: Literal[REASONS]  # type: ignore[valid-type]


class ResistanceRole(Answer):
    """A seat's card, turned up at the end."""

    seat: Seat
    side: Side  # type: ignore[valid-type]
    role: Role  # type: ignore[valid-type]


class ResistanceView(Answer):
    """`engine.view(state, seat)` at a table of Partisans, Trust No One or
    Werewolves: everything your seat may know and nothing else."""

    ruleset: Ruleset  # type: ignore[valid-type]
    players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)]
    options: dict[str, OptionValue]
    step: Annotated[int, Field(ge=0, description="Actions applied so far.")]
    phase: Literal[tuple(phase.value for phase in Phase)]  # type: ignore[valid-type]
    leader: Seat
    mission: Number
    missions: Annotated[
        list[ResistanceMission], Field(min_length=MISSIONS, max_length=MISSIONS)
    ]
    rejections: Annotated[int, Field(ge=0, le=MAX_REJECTIONS)]
    voters: Seats
    proposal: ResistanceProposal | None
    play: ResistanceTeamPlay | None
    token: ResistanceCheckToken | None
    checks: list[ResistanceCheck]
    sniper: ResistanceSniper | None
    history: list[ResistanceFinishedVote]
    me: ResistanceMe | None = Field(description="null for a spectator.")
    legal: list[ResistanceLegal] = Field(
        description="What you may do now; empty when nothing is asked of you."
    )
    waiting_for: Seats = Field(description="Whose move the table awaits.")
    outcome: ResistanceOutcome | None
    roles: list[ResistanceRole] | None = Field(
        description="Every role, once the game is over."
    )
