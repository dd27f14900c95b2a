"""The dealer tablet's pages (see tables/views/tablet.py)."""

from django.urls import path

from tables.views import displays, game_pages, hands, tablet

app_name = "tablet"

urlpatterns = [
    path("", tablet.home, name="home"),
    path("sign-out/", tablet.sign_out, name="sign_out"),
    path("displays/", displays.keys_page, name="display_keys"),
    path("table/<int:table_id>/", tablet.table_page, name="table"),
    path("table/<int:table_id>/open/", tablet.open_round, name="open"),
    path("table/<int:table_id>/deal/", tablet.deal, name="deal"),
    path("table/<int:table_id>/decide/", tablet.decide, name="decide"),
    path("table/<int:table_id>/dealer/", tablet.dealer_hand, name="dealer"),
    path("table/<int:table_id>/settle/", tablet.settle, name="settle"),
    path("table/<int:table_id>/approve/", tablet.approve, name="approve"),
    path("table/<int:table_id>/cancel/", tablet.cancel, name="cancel"),
    path("table/<int:table_id>/back/", tablet.back, name="back"),
    path("table/<int:table_id>/watch/", tablet.watch, name="watch"),
    path("round/<int:round_id>/", tablet.round_page, name="round"),
    path("table/<int:table_id>/hand/open/", hands.hand_open, name="hand_open"),
    path("table/<int:table_id>/hand/step/", hands.hand_step, name="hand_step"),
    path("table/<int:table_id>/hand/finish/", hands.hand_finish, name="hand_finish"),
    path("table/<int:table_id>/hand/undo/", hands.hand_undo, name="hand_undo"),
    path("table/<int:table_id>/hand/misdeal/", hands.hand_misdeal, name="hand_misdeal"),
    # a game's own pages (PlayerVsPlayerGame.pages, e.g. the players' table display)
    path("table/<int:table_id>/<slug:game>/<slug:page>/", game_pages.game_page, name="game_page"),
]
