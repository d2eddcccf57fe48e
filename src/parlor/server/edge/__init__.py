"""The edge: what faces clients and the other processes of a site. HTTP routes and the WebSocket loop
(parsing, limits, authentication, then one call into the table layer): ``app.py`` wires the app, and
the routes are one router per concern (``tables.py``, ``lobby.py``, ``players.py``, ``review.py``,
``accounts.py``, ``pages.py``, ``websocket.py``) sharing ``common.py``. Beside them: the connection
guard (``guard.py``), the relay to a table's owning process (``relay.py``) and log redaction
(``logs.py``)."""
