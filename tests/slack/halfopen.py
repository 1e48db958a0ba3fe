"""A TCP proxy that can make its connections half-open: `freeze()` keeps every current connection open on both
sides but lets nothing through any more (as a NAT or load balancer that lost the flow does); connections made
after that are forwarded normally."""

from __future__ import annotations

import contextlib
import socket
import threading


class FreezingProxy:
    def __init__(self, target_port: int) -> None:
        self._target = ("127.0.0.1", target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._mutex = threading.Lock()
        self._pairs: list[tuple[socket.socket, socket.socket, threading.Event]] = []
        self._ended: list[threading.Event] = []  # per pair: one side closed it (a replaced connection)
        self._closed = False
        threading.Thread(target=self._accept, name="halfopen-accept", daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self._target)
            frozen, ended = threading.Event(), threading.Event()
            with self._mutex:
                self._pairs.append((client, upstream, frozen))
                self._ended.append(ended)
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink, frozen, ended), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket, frozen: threading.Event, ended: threading.Event) -> None:
        with contextlib.suppress(OSError):
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if not frozen.is_set():  # frozen: what arrives is lost, and the connection stays open
                    sink.sendall(data)
        if not frozen.is_set():
            ended.set()
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)

    def freeze(self, which: int | None = None) -> None:
        """Freeze every current connection, or only the `which`-th of those still open (0: the oldest, -1: the
        newest)."""
        with self._mutex:
            live = [pair for pair, ended in zip(self._pairs, self._ended, strict=True) if not ended.is_set()]
            pairs = self._pairs if which is None else [live[which]] if -len(live) <= which < len(live) else []
            for _, _, frozen in pairs:
                frozen.set()

    @property
    def made(self) -> int:
        """How many connections were made through the proxy."""
        with self._mutex:
            return len(self._pairs)

    def close(self) -> None:
        self._closed = True
        with contextlib.suppress(OSError):
            self._listener.close()
        with self._mutex:
            for client, upstream, _ in self._pairs:
                for sock in (client, upstream):
                    with contextlib.suppress(OSError):
                        sock.close()


class ThroughProxy:
    """Hands out the Socket Mode stand-in's URLs pointing at the proxy instead (for `SlackStandIn.attach`)."""

    def __init__(self, standin: object, proxy: FreezingProxy) -> None:
        self._standin, self._proxy = standin, proxy

    def new_url(self) -> str:
        url: str = self._standin.new_url()  # type: ignore[attr-defined]
        return url.replace(f":{self._standin.port}/", f":{self._proxy.port}/")  # type: ignore[attr-defined]
