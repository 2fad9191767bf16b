"""The game site around the game-play core: players, the lobby, seeks, rematches, seat names, rated games and
the players' notices and feeds.

Each module builds and amends games through the core (service/games) and
never the other way round: the core imports nothing of the site.
"""
