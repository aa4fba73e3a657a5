"""Issue 10's benchmarks (`python manage.py benchmark`): what they measure and how results are reported.

`wire` counts bytes as they would cross the network; `report` holds the figures, the goals
and the Markdown results file (`results.md` here is the latest full run).
"""
