"""Speed and load measurement, kept apart from the app it measures.

- `benchmark`: `python manage.py benchmark`, every figure a ratio to a minimal view (or a
  count) measured in one run; `report` formats the figures and goals and writes
  `results.md` (the latest full run); `wire` counts bytes as they cross the network.
- `loadtest`: `python manage.py loadtest`, gunicorn under many concurrent tables, each
  playing whole matches through the real forms (`tables/`: one script per game).
"""
