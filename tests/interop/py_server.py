#!/usr/bin/env python3
"""A server that is not ours: the official Python SDK's (`mcp`, its MCPServer) serving a copy of
the weather example's catalog over stdio, so that beam-mcp's client (`client_check`) is checked
against the same exact values it checks on our own server, and liar.py's lies apply to both.

usage: py_server.py          (stdio; both revisions, as the SDK negotiates them)
       py_server.py --http   (Streamable HTTP on a free loopback port: prints
                              "py_server: listening on http://127.0.0.1:PORT/mcp" on stderr
                              once it accepts connections)
"""

import socket
import sys
import threading
import time

from typing import Annotated

import anyio
from pydantic import BaseModel, Field

from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve
from mcp_types import Completion

READINGS = {"Lisbon": (21.0, "sunny"), "Oslo": (-3.0, "snow"), "Paris": (14.5, "cloudy")}

server = MCPServer("py-weather")


def reading(place: str) -> tuple[float, str]:
    if place not in READINGS:
        raise ValueError(f"no station for {place}")
    return READINGS[place]


@server.tool()
def get_weather(place: str) -> str:
    """Current weather at a place."""
    celsius, sky = reading(place)
    return f"{place}: {celsius} °C, {sky}"


@server.tool()
async def forecast(place: str, days: int, ctx: Context) -> str:
    """The next days at a place, a degree warmer each day, with progress."""
    celsius, sky = reading(place)
    lines = []
    for d in range(1, days + 1):
        lines.append(f"day {d}: {celsius + d} °C, {sky}")
        await ctx.report_progress(d, days, f"day {d}")
    return "\n".join(lines)


class Booking(BaseModel):
    travellers: int = Field(description="How many travel")
    seat: str = Field(description="window or aisle")


def ask_booking(place: str) -> Elicit[Booking]:
    """The question book_trip asks: at 2026-07-28 an input-required round, at 2025-11-25 a
    request on the session (the SDK's resolvers pick by the negotiated revision)."""
    celsius, sky = reading(place)
    return Elicit(f"Book a trip to {place}? It is {celsius} °C there, {sky}.", Booking)


@server.tool()
async def book_trip(place: str, booking: Annotated[Booking, Resolve(ask_booking)]) -> str:
    """Asks the user to confirm a trip."""
    plural = "s" if booking.travellers > 1 else ""
    return f"Booked a trip to {place} for {booking.travellers}, {booking.seat} seat{plural}."


# How the most recent `wait` ended: "none" (none ran), "finished" or "cancelled".
last_wait_end = "none"


@server.tool()
async def wait() -> str:
    """Waits 10 s, or until the request is cancelled."""
    global last_wait_end
    try:
        await anyio.sleep(10)
    except anyio.get_cancelled_exc_class():
        # notifications/cancelled (or the request's end) cancels the handler's scope: record it
        # and let the cancellation go on.
        last_wait_end = "cancelled"
        raise
    last_wait_end = "finished"
    return "waited 10 s"


@server.tool()
def last_wait() -> str:
    """How the most recent wait ended."""
    return last_wait_end


@server.resource("weather://stations")
def stations() -> str:
    """The station names, one a line."""
    return "\n".join(sorted(READINGS))


@server.prompt()
def plan_trip(place: str) -> str:
    """Plan a trip."""
    return f"I am going to {place} for a few days. What should I pack?"


@server.completion()
async def complete(ref, argument, context):
    if argument.name == "place":
        return Completion(values=[p for p in sorted(READINGS) if p.lower().startswith(argument.value.lower())])
    return None


def announce_when_listening(port: int) -> None:
    """Prints the endpoint once the port accepts connections (what run.sh waits for)."""
    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                print(f"py_server: listening on http://127.0.0.1:{port}/mcp", file=sys.stderr, flush=True)
                return
        except OSError:
            time.sleep(0.1)


if __name__ == "__main__":
    if sys.argv[1:] == ["--http"]:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        threading.Thread(target=announce_when_listening, args=(port,), daemon=True).start()
        server.run("streamable-http", host="127.0.0.1", port=port, streamable_http_path="/mcp")
    else:
        server.run("stdio")
