from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "players"
    verbose_name = "Rated play"

    def ready(self) -> None:
        from audit.verify import register_derived_check
        from tables.signals import demo_seeded, hand_closed, round_closed

        # The round services send these inside their transaction and know nothing of ratings.
        round_closed.connect(ratings_on_round, dispatch_uid="players.ratings_round")
        hand_closed.connect(ratings_on_hand, dispatch_uid="players.ratings_hand")
        demo_seeded.connect(demo_players, dispatch_uid="players.demo")
        # The ratings' figures are summed from bound rows: `verify_audit` sums them again.
        register_derived_check("ratings", rating_problems)


def rating_problems() -> list[str]:
    from .services import figure_problems

    return figure_problems()


def ratings_on_round(sender: Any, *, round: Any, settled: bool = False, **kwargs: Any) -> None:
    from .services import round_closed

    round_closed(round, settled=settled)


def ratings_on_hand(sender: Any, *, hand: Any, **kwargs: Any) -> None:
    from .services import hand_closed

    hand_closed(hand)


def demo_players(sender: Any, *, users: dict[str, Any], **kwargs: Any) -> None:
    from .demo import seed_players

    seed_players(users)
