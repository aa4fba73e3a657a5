"""An AI for Cardmaster: Showdown's opponent, the hint, and the analysis of finished matches."""
