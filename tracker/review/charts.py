"""Small server-rendered SVG line charts, readable on a phone and paired with a text table.

A library (matplotlib, plotly) would add megabytes or client-side JavaScript for two
kinds of line chart; this is fifty lines of SVG the templates can inline.
"""

from collections.abc import Mapping, Sequence

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify

from tracker.matches.numbers import decimal

WIDTH, HEIGHT, PAD = 320, 180, 28
# Distinguishable in light and dark mode; each line also gets its own dash pattern and end label,
# so colour is never the only way to tell lines apart.
STYLES = [("#1f77b4", ""), ("#d62728", "6 4"), ("#2ca02c", "2 3"), ("#9467bd", "8 3 2 3")]


def axis_label(value: float) -> str:
    """A y-axis end label short enough for the left margin: 950, 1.5k, 100k, 2M (1,5k in German)."""
    for size, suffix in ((1_000_000, "M"), (1_000, "k")):
        if abs(value) >= size:
            return decimal(f"{value / size:.3g}") + suffix
    return decimal(f"{value:g}")


X_TICKS = 8
"""At most this many x-axis labels, so they stay apart at 360 px."""


def line_chart(title: str, series: Mapping[str, Sequence[float]], y_min: float, y_max: float, x_label: str,
               x_labels: Sequence[str] = ()) -> SafeString:
    """An inline SVG with one polyline per series; x is the index (turn, match number). `x_labels`
    names the points along the axis (every few of them when there are many)."""
    longest = max((len(values) for values in series.values()), default=0)
    span_x = max(longest - 1, 1)
    span_y = (y_max - y_min) or 1

    def point(i: int, value: float) -> tuple[float, float]:
        x = PAD + i * (WIDTH - 2 * PAD) / span_x
        y = HEIGHT - PAD - (value - y_min) * (HEIGHT - 2 * PAD) / span_y
        return round(x, 1), round(y, 1)

    parts = [
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" stroke="currentColor" stroke-opacity="0.4"/>',
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" stroke="currentColor" stroke-opacity="0.4"/>',
        f'<text x="{PAD - 4}" y="{HEIGHT - PAD}" text-anchor="end" font-size="10" fill="currentColor">{axis_label(y_min)}</text>',
        f'<text x="{PAD - 4}" y="{PAD + 4}" text-anchor="end" font-size="10" fill="currentColor">{axis_label(y_max)}</text>',
        f'<text x="{WIDTH / 2}" y="{HEIGHT - (2 if x_labels else 6)}" text-anchor="middle" font-size="10" '
        f'fill="currentColor">{escape(x_label)}</text>',
    ]
    every = max(1, -(-len(x_labels) // X_TICKS))
    for index in range(0, len(x_labels), every):
        x, _y = point(index, y_min)
        parts.append(f'<text class="x-tick" x="{x}" y="{HEIGHT - PAD + 11}" text-anchor="middle" font-size="10" '
                     f'fill="currentColor">{escape(x_labels[index])}</text>')
    labels_at: list[tuple[float, float]] = []
    for (name, values), (colour, dash) in zip(series.items(), STYLES * 4, strict=False):
        if not values:
            continue
        points = " ".join(f"{x},{y}" for x, y in (point(i, v) for i, v in enumerate(values)))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" stroke-dasharray="{dash}" points="{points}"/>')
        x, y = point(len(values) - 1, values[-1])
        parts.append(f'<circle cx="{x}" cy="{y}" r="3" fill="{colour}"/>')
        label_y = y - 6
        while any(abs(label_y - used_y) < 13 and abs(x - used_x) < 40 for used_x, used_y in labels_at):
            label_y += 13  # lines ending together: stack their names instead of printing one over the other
        labels_at.append((x, label_y))
        parts.append(f'<text x="{min(x, WIDTH - PAD)}" y="{label_y}" text-anchor="end" font-size="10" '
                     f'fill="currentColor">{escape(name)}</text>')
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-labelledby="{}"><title id="{}">{}</title>{}</svg>',
        WIDTH, HEIGHT, "chart-" + slugify(title), "chart-" + slugify(title), title,
        mark_safe("".join(parts)),
    )
