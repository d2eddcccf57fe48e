"""The edge: what faces clients and the other processes of a site. HTTP routes and the WebSocket loop
(``app.py``: parsing, limits, authentication, then one call into the table layer), the connection guard
(``guard.py``), the relay to a table's owning process (``relay.py``) and log redaction (``logs.py``)."""
