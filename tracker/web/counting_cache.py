"""Django's database cache with an increment fit for counting limits (tracker/web/limits.py).

Django's own `incr` reads the value, adds, and sets it again: the set gives the key the default
five-minute timeout (so an hour's count vanished five minutes after its last request), and two
requests in the same instant could both count as one. Here the row is locked (SELECT … FOR UPDATE on
PostgreSQL; on SQLite the IMMEDIATE transaction holds the database) and only the value is written, so
the key keeps the expiry its window gave it.
"""

import base64
import pickle

from django.core.cache.backends import db
from django.db import connections, router, transaction

_MISSING = object()


class DatabaseCache(db.DatabaseCache):
    def incr(self, key, delta=1, version=None):
        alias = router.db_for_write(self.cache_model_class)
        connection = connections[alias]
        quote = connection.ops.quote_name
        table, stored_key = quote(self._table), self.make_and_validate_key(key, version=version)
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        with transaction.atomic(using=alias):
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT {quote('cache_key')} FROM {table} WHERE {quote('cache_key')} = %s{lock}",
                               [stored_key])
            value = self.get(key, _MISSING, version=version)  # None once expired
            if value is _MISSING:
                raise ValueError(f"Key '{key}' not found")
            value += delta
            encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
            with connection.cursor() as cursor:
                cursor.execute(f"UPDATE {table} SET {quote('value')} = %s WHERE {quote('cache_key')} = %s",
                               [encoded, stored_key])
        return value
