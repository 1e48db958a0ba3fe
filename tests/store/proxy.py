"""A TCP proxy in front of a Redis server that can cut a connection right after the server answered.

The client then never sees the reply to a command the server did apply: the one case where a retry could apply
a write twice. Tests arm `drop_next_reply()` and check the store reports the first outcome instead.
"""

from __future__ import annotations

import contextlib
import socket
import threading


class DroppingProxy:
    """Forwards 127.0.0.1:`port` to 127.0.0.1:`target_port`, one pair of pump threads per connection."""

    def __init__(self, target_port: int) -> None:
        self._target = ("127.0.0.1", target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._armed = threading.Event()
        self._mutex = threading.Lock()
        self._sockets: list[socket.socket] = []
        self.drops = 0
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def drop_next_reply(self) -> None:
        """The next reply from the server, on any connection, is swallowed and that connection cut."""
        self._armed.set()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self._target)
            with self._mutex:
                self._sockets += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, True), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, replies: bool) -> None:
        try:
            while data := source.recv(65536):
                if replies and self._armed.is_set():
                    self._armed.clear()
                    self.drops += 1
                    break
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        with self._mutex:
            for end in self._sockets:
                with contextlib.suppress(OSError):
                    end.close()
