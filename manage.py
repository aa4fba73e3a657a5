#!/usr/bin/env python
"""Django's command-line utility for Tablekeeper."""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        _ = settings.INSTALLED_APPS  # read the settings now: a bad value is one line, not a traceback
    except ImproperlyConfigured as error:
        sys.exit(f"ImproperlyConfigured: {error}")
    execute_from_command_line(sys.argv)
