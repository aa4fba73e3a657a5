"""Card Crush competitive play: ratings and leaderboard, Swiss tournaments, collections and upgrades.

The rules live in rules/card_crush/ (rating.py, swiss.py, collection.py); this package
reads and writes the database and serves the pages.
"""
