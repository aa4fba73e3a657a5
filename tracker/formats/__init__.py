"""Date formats per language (settings.FORMAT_MODULE_PATH), named so templates never hard-code one.

Templates ask for DATE_FORMAT, DATETIME_FORMAT, SHORT_DATE_FORMAT, MONTH_DAY_FORMAT or
TIME_FORMAT; each language says how it writes them. Anything not set here comes from
Django's own formats for that language.
"""
