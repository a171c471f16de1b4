"""Pharmacy refills: an MCP server for a blind evaluation set (blind/), written
before any tuning on it. Lookups say `readOnlyHint: true`; refills, transfers
and cancellations change state. Deterministic: refill orders count from
RF-5001."""

import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-pharmacy")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

PRESCRIPTIONS = {
    "RX-1001": {"medicine": "Amoxicillin 500mg", "refills_left": 2, "store": "downtown", "status": "ready for pickup"},
    "RX-1002": {"medicine": "Lisinopril 10mg", "refills_left": 5, "store": "riverside", "status": "being filled"},
    "RX-1003": {"medicine": "Atorvastatin 20mg", "refills_left": 0, "store": "downtown", "status": "no refills left"},
    "RX-2040": {"medicine": "Metformin 850mg", "refills_left": 3, "store": "airport", "status": "picked up"},
}
REFILLS = {"RF-4001": "RX-1002", "RF-4002": "RX-1001", "RF-4003": "RX-2040", "RF-4004": "RX-1002", "RF-4005": "RX-1001"}
HOURS = {"downtown": "8am to 9pm", "riverside": "9am to 6pm", "airport": "24 hours"}
NEXT = itertools.count(5001)

Rx = Annotated[str, Field(pattern=r"^RX-[0-9]{4}$", description="Prescription number, e.g. RX-1001")]
Store = Literal["downtown", "riverside", "airport"]


def prescription(rx_number: str) -> dict:
    if rx_number not in PRESCRIPTIONS:
        raise ToolError(f"prescription {rx_number} not found")
    return PRESCRIPTIONS[rx_number]


@server.tool(description="Status of a prescription and its refills", annotations=READ)
def prescription_status(rx_number: Rx) -> dict:
    found = prescription(rx_number)
    return {"rx_number": rx_number, "medicine": found["medicine"], "status": found["status"],
            "refills_left": found["refills_left"], "store": found["store"]}


@server.tool(description="Order a refill of a prescription", annotations=WRITE)
def request_refill(rx_number: Rx) -> dict:
    found = prescription(rx_number)
    if found["refills_left"] == 0:
        raise ToolError(f"prescription {rx_number} has no refills left; the prescriber must renew it")
    found["refills_left"] -= 1
    order = f"RF-{next(NEXT)}"
    REFILLS[order] = rx_number
    return {"refill_id": order, "rx_number": rx_number, "medicine": found["medicine"],
            "store": found["store"], "ready": "tomorrow after 2pm"}


@server.tool(description="Cancel a refill order", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_refill(refill_id: Annotated[str, Field(pattern=r"^RF-[0-9]{4}$", description="Refill order, e.g. RF-5001")]) -> dict:
    if refill_id not in REFILLS:
        raise ToolError(f"refill order {refill_id} not found")
    del REFILLS[refill_id]
    return {"refill_id": refill_id, "status": "cancelled"}


@server.tool(description="Move a prescription to another store", annotations=WRITE)
def transfer_prescription(rx_number: Rx, store: Store) -> dict:
    found = prescription(rx_number)
    if found["store"] == store:
        raise ToolError(f"prescription {rx_number} is already at the {store} store")
    found["store"] = store
    return {"rx_number": rx_number, "store": store, "status": "transferred"}


@server.tool(description="Opening hours of a store", annotations=READ)
def store_hours(store: Store) -> dict:
    return {"store": store, "hours": HOURS[store]}


if __name__ == "__main__":
    run(server)
