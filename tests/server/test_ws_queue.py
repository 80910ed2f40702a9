"""The websocket outbox (``manager.WsClient``): bounded, never waits, drops a stuck client."""

from __future__ import annotations

import asyncio

from citybuilders.server.manager import WS_CLOSE_TOO_SLOW, WS_SEND_QUEUE, WsClient


class StuckSocket:
    """A socket whose sends never complete (a client that never reads)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed_with: int | None = None
        self.never = asyncio.Event()

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await self.never.wait()

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code
        await self.never.wait()  # the close frame cannot be written either


def test_a_full_outbox_drops_the_client_without_waiting():
    async def main() -> tuple[list[bool], WsClient, StuckSocket]:
        ws = StuckSocket()
        client = WsClient(ws, seat=1)
        client.start()
        results = []
        for i in range(WS_SEND_QUEUE + 3):
            results.append(client.offer(f"m{i}"))
            await asyncio.sleep(0)  # let the sender take the first message
        await asyncio.sleep(0.01)
        return results, client, ws

    results, client, ws = asyncio.run(asyncio.wait_for(main(), 5))
    # the sender holds m0 (its send never ends); WS_SEND_QUEUE more fit; the next one drops it
    assert results == [True] * (WS_SEND_QUEUE + 1) + [False, False]
    assert ws.sent == ["m0"]
    assert client.done.is_set() and client.close_code == WS_CLOSE_TOO_SLOW == 4008
    assert ws.closed_with == 4008


def test_a_reading_client_gets_every_message_in_order():
    class FastSocket:
        def __init__(self) -> None:
            self.sent: list[str] = []

        async def send_text(self, text: str) -> None:
            self.sent.append(text)

    async def main() -> list[str]:
        ws = FastSocket()
        client = WsClient(ws, seat=0)
        client.start()
        for i in range(50):
            assert client.offer(f"m{i}")
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)
        await client.stop()
        return ws.sent

    assert asyncio.run(main()) == [f"m{i}" for i in range(50)]
