"""MCP server of the translation agency order desk (skill `translation-desk`):
quotes, orders, rush delivery, certified copies, invoices and payment notices.
Deterministic, in-memory, seeded with a handful of clients, orders and invoices.
The agency's calendar is pinned to Tuesday 2026-12-01 (America/New_York)."""

from datetime import date, timedelta
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-translation")

TODAY = date(2026, 12, 1)

Language = Literal[
    "en", "de", "fr", "es", "es-MX", "it", "pt", "pt-BR", "nl", "pl", "sv",
    "ru", "uk", "tr", "ar", "ja", "ko", "zh-CN", "zh-TW",
]
LANGUAGE_NAMES = {
    "en": "English", "de": "German", "fr": "French", "es": "Spanish (Spain)",
    "es-MX": "Spanish (Mexico / Latin America)", "it": "Italian",
    "pt": "Portuguese (Portugal)", "pt-BR": "Portuguese (Brazil)", "nl": "Dutch",
    "pl": "Polish", "sv": "Swedish", "ru": "Russian", "uk": "Ukrainian",
    "tr": "Turkish", "ar": "Arabic", "ja": "Japanese", "ko": "Korean",
    "zh-CN": "Chinese (Simplified)", "zh-TW": "Chinese (Traditional)",
}
Subject = Literal["general", "legal", "medical", "technical", "financial", "marketing", "official"]
Delivery = Literal["post", "courier", "pickup"]

ClientId = Annotated[str, Field(pattern=r"^TCL-[0-9]{3}$", description="Client account, e.g. TCL-204")]
OrderId = Annotated[str, Field(pattern=r"^TRN-[0-9]{4}$", description="Translation order, e.g. TRN-4417")]
InvoiceId = Annotated[str, Field(pattern=r"^TIV-[0-9]{5}$", description="Invoice, e.g. TIV-30512")]
IsoDate = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="YYYY-MM-DD")]

RATE_PER_WORD = {
    "general": 0.12, "legal": 0.16, "medical": 0.17, "technical": 0.15,
    "financial": 0.16, "marketing": 0.14, "official": 0.13,
}
PREMIUM_LANGUAGES = {"ar", "ja", "ko", "zh-CN", "zh-TW"}
MINIMUM_FEE = 45.00
RUSH_SURCHARGE = 0.5
CERTIFIED_COPY_FEE = 25.00
SHIPPING_FEE = {"post": 6.00, "courier": 18.00, "pickup": 0.00}

CLIENTS = {
    "TCL-108": {"name": "Ana Ferreira", "type": "private"},
    "TCL-204": {"name": "Halden & Rusk LLP", "type": "business"},
    "TCL-317": {"name": "Norvik Medical Group", "type": "business"},
    "TCL-522": {"name": "Brightwater Hotels", "type": "business"},
}


def _order(client_id, source, target, words, subject, status, ordered, due, **extra):
    record = {
        "client_id": client_id, "source_language": source, "target_language": target,
        "word_count": words, "subject": subject, "status": status,
        "ordered_on": ordered, "standard_due": due, "due_date": due,
        "rush": False, "certified_copies": [],
    }
    record.update(extra)
    return record


ORDERS = {
    "TRN-4350": _order("TCL-204", "de", "en", 21500, "legal", "delivered", "2026-10-19", "2026-11-06",
                       delivered_on="2026-11-05"),
    "TRN-4388": _order("TCL-522", "en", "fr", 1500, "marketing", "delivered", "2026-11-16", "2026-11-24",
                       delivered_on="2026-11-24",
                       certified_copies=[{"copies": 3, "delivery": "courier", "requested_on": "2026-11-24",
                                          "status": "dispatched"}]),
    "TRN-4391": _order("TCL-317", "en", "de", 34000, "medical", "delivered", "2026-10-26", "2026-11-13",
                       delivered_on="2026-11-13"),
    "TRN-4402": _order("TCL-204", "en", "ja", 12000, "technical", "in_translation", "2026-11-25", "2026-12-18"),
    "TRN-4417": _order("TCL-204", "de", "en", 6800, "legal", "in_translation", "2026-11-27", "2026-12-11"),
    "TRN-4420": _order("TCL-317", "en", "es-MX", 2400, "medical", "in_review", "2026-11-26", "2026-12-04"),
    "TRN-4431": _order("TCL-108", "pt-BR", "en", 900, "official", "in_translation", "2026-11-30", "2026-12-07"),
}

INVOICES = {
    "TIV-30498": {"client_id": "TCL-522", "order_id": "TRN-4388", "issued_on": "2026-11-24",
                  "due_on": "2026-12-08", "total": 1212.00,
                  "payments": [{"amount": 1212.00, "paid_on": "2026-11-28"}]},
    "TIV-30512": {"client_id": "TCL-204", "order_id": "TRN-4350", "issued_on": "2026-11-06",
                  "due_on": "2026-12-10", "total": 3480.50, "payments": []},
    "TIV-30533": {"client_id": "TCL-317", "order_id": "TRN-4391", "issued_on": "2026-11-13",
                  "due_on": "2026-11-27", "total": 5960.00,
                  "payments": [{"amount": 2000.00, "paid_on": "2026-11-20"}]},
    "TIV-30540": {"client_id": "TCL-108", "order_id": "TRN-4431", "issued_on": "2026-11-30",
                  "due_on": "2026-12-14", "total": 145.00, "payments": []},
}

_next_order = [5001]


def _parse_date(value: str, field: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{field} '{value}' is not a valid date (YYYY-MM-DD)")


def _get_order(order_id: str) -> dict:
    if order_id not in ORDERS:
        raise ToolError(f"Unknown order {order_id}: no translation order has that number")
    return ORDERS[order_id]


def _get_invoice(invoice_id: str) -> dict:
    if invoice_id not in INVOICES:
        raise ToolError(f"Unknown invoice {invoice_id}: no invoice has that number")
    return INVOICES[invoice_id]


def _price(source: str, target: str, words: int, subject: str) -> float:
    rate = RATE_PER_WORD[subject]
    if source in PREMIUM_LANGUAGES or target in PREMIUM_LANGUAGES:
        rate *= 1.25
    return round(max(MINIMUM_FEE, words * rate), 2)


def _standard_days(words: int) -> int:
    return 3 + words // 3000


def _order_view(order_id: str) -> dict:
    o = ORDERS[order_id]
    view = {"order_id": order_id, **o,
            "client_name": CLIENTS[o["client_id"]]["name"],
            "language_pair": f"{LANGUAGE_NAMES[o['source_language']]} > {LANGUAGE_NAMES[o['target_language']]}"}
    return view


def _invoice_view(invoice_id: str) -> dict:
    inv = INVOICES[invoice_id]
    paid = round(sum(p["amount"] for p in inv["payments"]), 2)
    balance = round(inv["total"] - paid, 2)
    if balance <= 0:
        status = "paid" if balance == 0 else "overpaid"
    elif date.fromisoformat(inv["due_on"]) < TODAY:
        status = "overdue"
    elif paid > 0:
        status = "partially_paid"
    else:
        status = "unpaid"
    return {"invoice_id": invoice_id, **inv, "currency": "USD", "client_name": CLIENTS[inv["client_id"]]["name"],
            "amount_paid": paid, "balance_due": balance, "status": status}


def _check_pair(source: str, target: str) -> None:
    if source == target:
        raise ToolError("The source and target languages are the same; nothing to translate")


@server.tool(
    description="Price a translation before ordering: standard fee, rush fee, certified-copy fee and the "
    "standard turnaround for a document of a given length, language pair and subject area.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_quote(
    source_language: Annotated[Language, Field(description="Language the document is written in")],
    target_language: Annotated[Language, Field(description="Language to translate into")],
    word_count: Annotated[int, Field(ge=1, le=500000, description="Number of words in the source document")],
    subject: Annotated[Subject, Field(description="Subject area of the document")],
) -> dict:
    _check_pair(source_language, target_language)
    fee = _price(source_language, target_language, word_count, subject)
    days = _standard_days(word_count)
    return {
        "source_language": source_language, "target_language": target_language,
        "word_count": word_count, "subject": subject, "currency": "USD",
        "standard_fee": fee, "standard_turnaround_days": days,
        "standard_delivery_date": (TODAY + timedelta(days=days)).isoformat(),
        "rush_fee": round(fee * (1 + RUSH_SURCHARGE), 2),
        "certified_copy_fee_each": CERTIFIED_COPY_FEE,
        "valid_until": (TODAY + timedelta(days=30)).isoformat(),
    }


@server.tool(
    description="Place a translation order for a client account. Returns the new order number, fee and due date.",
    annotations=ToolAnnotations(readOnlyHint=False),
)
def place_order(
    client_id: ClientId,
    source_language: Annotated[Language, Field(description="Language the document is written in")],
    target_language: Annotated[Language, Field(description="Language to translate into")],
    word_count: Annotated[int, Field(ge=1, le=500000, description="Number of words in the source document")],
    subject: Annotated[Subject, Field(description="Subject area of the document")],
) -> dict:
    if client_id not in CLIENTS:
        raise ToolError(f"Unknown client account {client_id}")
    _check_pair(source_language, target_language)
    order_id = f"TRN-{_next_order[0]}"
    _next_order[0] += 1
    due = (TODAY + timedelta(days=_standard_days(word_count))).isoformat()
    ORDERS[order_id] = _order(client_id, source_language, target_language, word_count, subject,
                              "received", TODAY.isoformat(), due)
    fee = _price(source_language, target_language, word_count, subject)
    return {**_order_view(order_id), "fee": fee, "currency": "USD"}


@server.tool(
    description="Look up a translation order: status, language pair, due date, rush upgrade and certified copies.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_order(order_id: OrderId) -> dict:
    _get_order(order_id)
    return _order_view(order_id)


@server.tool(
    description="Upgrade an open order to rush delivery so it is delivered by an earlier date "
    "(50% surcharge). The date must be after today and before the standard due date.",
    annotations=ToolAnnotations(readOnlyHint=False),
)
def request_rush(order_id: OrderId, deliver_by: IsoDate) -> dict:
    o = _get_order(order_id)
    if o["status"] in ("delivered", "cancelled"):
        raise ToolError(f"Order {order_id} is already {o['status']}; it cannot be rushed")
    when = _parse_date(deliver_by, "deliver_by")
    if when <= TODAY:
        raise ToolError(f"A rush delivery must be after today ({TODAY.isoformat()})")
    if when >= date.fromisoformat(o["standard_due"]):
        raise ToolError(f"{deliver_by} is not earlier than the standard due date {o['standard_due']}; no rush needed")
    o["rush"] = True
    o["due_date"] = deliver_by
    fee = _price(o["source_language"], o["target_language"], o["word_count"], o["subject"])
    return {**_order_view(order_id), "rush_surcharge": round(fee * RUSH_SURCHARGE, 2), "currency": "USD"}


@server.tool(
    description="Order certified (signed and stamped) hard copies of a translation, sent by post, "
    "by courier, or held for pickup at the office.",
    annotations=ToolAnnotations(readOnlyHint=False),
)
def order_certified_copies(
    order_id: OrderId,
    copies: Annotated[int, Field(ge=1, le=20, description="Number of certified copies")],
    delivery: Annotated[Delivery, Field(description="post, courier, or pickup at the office")],
) -> dict:
    o = _get_order(order_id)
    if o["status"] == "cancelled":
        raise ToolError(f"Order {order_id} is cancelled")
    request = {"copies": copies, "delivery": delivery, "requested_on": TODAY.isoformat(),
               "status": "queued" if o["status"] != "delivered" else "in_preparation"}
    o["certified_copies"].append(request)
    cost = round(copies * CERTIFIED_COPY_FEE + SHIPPING_FEE[delivery], 2)
    return {"order_id": order_id, **request, "cost": cost, "currency": "USD"}


@server.tool(
    description="Look up an invoice: total, payments received, balance due, due date and status.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_invoice(invoice_id: InvoiceId) -> dict:
    _get_invoice(invoice_id)
    return _invoice_view(invoice_id)


@server.tool(
    description="Record a payment the client says they made against an invoice (remittance notice), "
    "so accounts can match it.",
    annotations=ToolAnnotations(readOnlyHint=False),
)
def record_payment(
    invoice_id: InvoiceId,
    amount: Annotated[float, Field(gt=0, description="Amount paid, in USD")],
    paid_on: IsoDate,
) -> dict:
    inv = _get_invoice(invoice_id)
    when = _parse_date(paid_on, "paid_on")
    if when > TODAY:
        raise ToolError(f"paid_on {paid_on} is in the future")
    if amount > inv["total"]:
        raise ToolError(f"{amount:.2f} is more than the invoice total {inv['total']:.2f}")
    inv["payments"].append({"amount": round(amount, 2), "paid_on": paid_on, "reported_on": TODAY.isoformat()})
    return _invoice_view(invoice_id)


@server.tool(
    description="Write off the balance of an invoice (finance team only).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def waive_invoice(
    invoice_id: InvoiceId,
    reason: Annotated[str, Field(min_length=1, description="Why the balance is written off")],
) -> dict:
    inv = _get_invoice(invoice_id)
    view = _invoice_view(invoice_id)
    inv["payments"].append({"amount": view["balance_due"], "paid_on": TODAY.isoformat(),
                            "waived": True, "reason": reason})
    return _invoice_view(invoice_id)


if __name__ == "__main__":
    run(server)
