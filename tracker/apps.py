from django.apps import AppConfig


class TrackerConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tracker"
    verbose_name = "Tablekeeper"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from .devices import claim_device_matches

        user_logged_in.connect(claim_device_matches, dispatch_uid="tracker.claim_device_matches")
