"""The platform stops naming one game's records: the Resistance family's models move to
games.families.resistance (state only here; the rows stay), and the columns that held
good/evil only now hold any family's side codes; a table can have a moderator, whose
moves are logged at seat -1."""


import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='moderator',
            field=models.ForeignKey(blank=True, help_text='A person at the table who is not a player (moderated games).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='moderated_games', to=settings.AUTH_USER_MODEL, verbose_name='moderator'),
        ),
        migrations.AlterField(
            model_name='chatmessage',
            name='channel',
            field=models.CharField(default='table', max_length=16, verbose_name='channel'),
        ),
        migrations.AlterField(
            model_name='game',
            name='winner',
            field=models.CharField(blank=True, help_text="The winning side's code, in the game family's words.", max_length=16, verbose_name='winner'),
        ),
        migrations.AlterField(
            model_name='gameaction',
            name='position',
            field=models.SmallIntegerField(help_text="The acting seat; -1 is the table's moderator.", verbose_name='seat'),
        ),
        migrations.AlterField(
            model_name='seat',
            name='side',
            field=models.CharField(blank=True, max_length=16, verbose_name='side'),
        ),
        # The Resistance family's records move to its own app
        # (games.families.resistance): their tables stay where they are for now;
        # the family's migrations take them over and rename them.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='mission',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='mission',
                    name='team',
                ),
                migrations.RemoveField(
                    model_name='missioncard',
                    name='mission',
                ),
                migrations.RemoveField(
                    model_name='proposal',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='proposal',
                    name='leader',
                ),
                migrations.RemoveField(
                    model_name='proposal',
                    name='team',
                ),
                migrations.RemoveField(
                    model_name='vote',
                    name='proposal',
                ),
                migrations.RemoveField(
                    model_name='shot',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='shot',
                    name='sniper',
                ),
                migrations.RemoveField(
                    model_name='shot',
                    name='target',
                ),
                migrations.RemoveField(
                    model_name='vote',
                    name='seat',
                ),
                migrations.DeleteModel(
                    name='Check',
                ),
                migrations.DeleteModel(
                    name='Mission',
                ),
                migrations.DeleteModel(
                    name='MissionCard',
                ),
                migrations.DeleteModel(
                    name='Proposal',
                ),
                migrations.DeleteModel(
                    name='Shot',
                ),
                migrations.DeleteModel(
                    name='Vote',
                ),
            ],
            database_operations=[],
        ),
    ]
