# The public lean of each proposed team (games.families.resistance.deduction), and
# its value for the proposals already recorded, worked out from their games' records.

from django.db import migrations, models


def fill_leans(apps, schema_editor):
    from games.families.resistance import deduction

    Proposal = apps.get_model("resistance", "Proposal")
    Mission = apps.get_model("resistance", "Mission")
    games = Proposal.objects.values_list("game_id", flat=True).distinct()
    for game_id in games.iterator():
        missions = [
            (
                mission.number,
                [seat.position for seat in mission.team.all()],
                mission.fails or 0,
            )
            for mission in Mission.objects.filter(game_id=game_id, fails__gt=0)
            .prefetch_related("team")
        ]
        changed = []
        for proposal in Proposal.objects.filter(game_id=game_id).select_related(
            "game"
        ).prefetch_related("team"):
            game = proposal.game
            played = [
                (team, fails)
                for number, team, fails in missions
                if number < proposal.mission_number
            ]
            team = [seat.position for seat in proposal.team.all()]
            try:
                proposal.public_lean = deduction.lean(
                    game.ruleset, game.seat_count, played, team
                )
            except (LookupError, ValueError, TypeError):
                continue  # a game the engine no longer knows, or odd records
            changed.append(proposal)
        Proposal.objects.bulk_update(changed, ["public_lean"])


class Migration(migrations.Migration):

    dependencies = [
        ('resistance', '0002_own_table_names'),
    ]

    operations = [
        migrations.AddField(
            model_name='proposal',
            name='public_lean',
            field=models.CharField(blank=True, default='', help_text='approve or reject: whether the team looked less or more likely than average to hold an evil player, from the fail cards played so far; blank when the public odds did not lean', max_length=8, verbose_name='public odds lean to'),
        ),
        migrations.RunPython(fill_leans, migrations.RunPython.noop),
    ]
