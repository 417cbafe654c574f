"""Ann's record: six hand-played games whose stats are worked out by hand below.

Everyone sits in the order ann, bob, cat, dan, eve (seats 0..4) and ann leads first,
so the leadership goes round the list as written. Every move goes through
``games.services``, so the rows are the ones a live game writes.

Ann's figures, counted over what a viewer may see (G6 is a private table):

=====================  ============================  ==================
figure                 seated at G6 (ann herself)    anyone else
=====================  ============================  ==================
played / won           5 / 3                         4 / 2
evil                   1 / 1                         1 / 1
good                   4 / 2                         3 / 1
scout                  1 / 0                         1 / 0
plain                  4 / 3                         3 / 2
partisans              3 / 2                         3 / 2
trust_no_one           1 / 0                         1 / 0
werewolves             1 / 1                         —
5 players              5 / 3                         4 / 2
abandoned              1                             1
evil missions failed   2 of 2                        2 of 2
approved evil teams    5 of 12 good votes            5 of 12
  (of evil teams)      5 of 7                        5 of 7
clean own proposals    5 of 6                        2 of 3
=====================  ============================  ==================
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.history.builders import FIVE, Table, deal


@dataclass
class Record:
    g1: Table
    g2: Table
    g3: Table
    g4: Table
    g5: Table
    g6: Table

    @property
    def finished(self) -> list[Table]:
        return [self.g1, self.g2, self.g3, self.g4, self.g6]


def g1_evil_win() -> Table:
    """Partisans; ann and bob evil. Ann fails M1 and M3, bob M4: evil wins."""
    t = deal("partisans", FIVE, roles={"ann": "evil", "bob": "evil"}, leader="ann",
             in_order=True)  # fmt: skip
    t.mission(["ann", "cat"], failing=["ann"])  # ann leads: M1 fails
    t.rejected(["bob", "dan", "eve"], rejecting=["cat", "dan", "eve"])  # bob
    t.mission(["cat", "dan", "eve"])  # cat: M2 succeeds
    t.mission(["ann", "dan"], failing=["ann"])  # dan: M3 fails
    t.mission(["bob", "cat", "eve"], failing=["bob"])  # eve: M4 fails, evil wins
    return t


def g2_good_win() -> Table:
    """Partisans; bob and cat evil. Ann leads a team with bob on it, rejects bob's
    team, approves two clean ones: good wins."""
    t = deal("partisans", FIVE, roles={"bob": "evil", "cat": "evil"}, leader="ann",
             in_order=True)  # fmt: skip
    t.mission(["ann", "bob"])  # ann: evil on it, all approve, bob plays success
    t.rejected(["ann", "bob", "cat"], rejecting=["ann", "dan", "eve"])  # bob
    t.mission(["ann", "dan", "eve"])  # cat
    t.mission(["dan", "eve"])  # dan: third success
    return t


def g3_good_loss() -> Table:
    """Never trust anyone; dan and eve evil. Ann approves three teams with evil on
    them and rejects one: evil wins."""
    t = deal("trust_no_one", FIVE, roles={"dan": "evil", "eve": "evil"},
             leader="ann", in_order=True)  # fmt: skip
    t.mission(["ann", "bob"])  # ann: clean, success
    t.mission(["ann", "bob", "dan"], failing=["dan"])  # bob
    t.mission(["cat", "eve"], failing=["eve"])  # cat
    t.rejected(["ann", "dan", "eve"], rejecting=["ann", "bob", "cat"])  # dan
    t.mission(["ann", "bob", "eve"], failing=["eve"], rejecting=["bob", "cat"])  # eve
    return t


def g4_scout_shot() -> Table:
    """Partisans with the scout; ann the scout, bob the sniper, cat evil. Three
    successes, then bob shoots ann."""
    t = deal("partisans", FIVE, roles={"ann": "scout", "bob": "sniper", "cat": "evil"},
             leader="ann", in_order=True, options={"scout": True})  # fmt: skip
    t.mission(["ann", "dan"])  # ann: clean
    t.mission(["bob", "dan", "eve"])  # bob: evil on it, bob plays success
    t.mission(["ann", "eve"])  # cat: clean, third success
    t.shoot("bob", "ann")
    return t


def g5_abandoned() -> Table:
    """Partisans, abandoned after one mission: never a win or a loss."""
    t = deal("partisans", FIVE, roles={"ann": "evil"}, leader="ann", in_order=True)
    t.mission(["ann", "bob"], failing=["ann"])
    t.propose(["bob", "cat", "dan"])
    t.act("ann", {"type": "vote", "approve": True})  # a vote left in progress
    t.abandon()
    return t


def g6_private_werewolves() -> Table:
    """Werewolves at a private table; dan and eve evil. Ann leads all three patrols
    (the leader stays after a patrol and does not vote): good wins."""
    t = deal("werewolves", FIVE, roles={"dan": "evil", "eve": "evil"}, leader="ann",
             in_order=True, private=True)  # fmt: skip
    t.mission(["ann", "bob"])
    t.mission(["ann", "cat"])
    t.mission(["ann", "bob", "cat"])
    return t


def anns_record() -> Record:
    return Record(
        g1=g1_evil_win(),
        g2=g2_good_win(),
        g3=g3_good_loss(),
        g4=g4_scout_shot(),
        g5=g5_abandoned(),
        g6=g6_private_werewolves(),
    )
