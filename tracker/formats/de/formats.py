# German: Django's own formats (23. November 2026; 23.11.2026; 24. November; 14:05), except a
# date with its time, which a list row shows and which reads shortest as 23.11.2026, 14:05.
DATETIME_FORMAT = "d.m.Y, H:i"
