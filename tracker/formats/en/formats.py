# English as Tablekeeper has always written it: day before month, 24-hour clock.
DATE_FORMAT = "j M Y"  # 23 Nov 2026
DATETIME_FORMAT = "j M Y, H:i"  # 23 Nov 2026, 14:05
SHORT_DATE_FORMAT = "j M Y"
MONTH_DAY_FORMAT = "j M"  # 24 Nov
TIME_FORMAT = "H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
