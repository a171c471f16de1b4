"""The kennel desk's MCP server (blind evaluation skill, round 19): a pet
boarding kennel and cattery — overnight stays for dogs and cats, dog daycare
days, grooming add-ons on a booking, vaccination records on file and the
owner's account. Deterministic, in-memory, seeded with a few owners, pets and
bookings. Served by serve.py on a free loopback port."""

import datetime as dt
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-kennel")

AccountId = Annotated[str, Field(pattern=r"^OWN-[0-9]{4}$", description="Owner account, e.g. OWN-2041")]
PetId = Annotated[str, Field(pattern=r"^TAG-[0-9]{4}$", description="Pet tag on the pet's card, e.g. TAG-4471")]
BookingId = Annotated[str, Field(pattern=r"^KNL-[0-9]{5}$", description="Booking reference, e.g. KNL-58213")]
Day = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="A date, YYYY-MM-DD")]

NIGHTLY = {("dog", "standard"): 48.0, ("dog", "deluxe"): 72.0, ("cat", "standard"): 32.0, ("cat", "deluxe"): 45.0}
DAYCARE = {"full_day": 38.0, "half_day": 24.0}
GROOMING = {"bath_and_brush": 35.0, "full_groom": 65.0, "nail_trim": 15.0, "deshed": 45.0}
REQUIRED_VACCINES = {"dog": ["rabies", "dhpp", "bordetella"], "cat": ["rabies", "fvrcp"]}

ACCOUNTS = {
    "OWN-2041": {"owner": "Dana Whitfield", "phone": "555-0142", "pets": ["TAG-4471", "TAG-4472"]},
    "OWN-3187": {"owner": "Raj Patel", "phone": "555-0187", "pets": ["TAG-5120", "TAG-5121"]},
    "OWN-1520": {"owner": "Marta Kowalski", "phone": "555-0120", "pets": ["TAG-3308", "TAG-3309"]},
    "OWN-4410": {"owner": "Tom Becker", "phone": "555-0410", "pets": ["TAG-6012"]},
}

PETS = {
    "TAG-4471": {"name": "Biscuit", "species": "dog", "breed": "beagle", "account": "OWN-2041",
                 "vaccines": {"rabies": "2028-03-14", "dhpp": "2027-05-02", "bordetella": "2027-06-30"}},
    "TAG-4472": {"name": "Miso", "species": "cat", "breed": "tabby", "account": "OWN-2041",
                 "vaccines": {"rabies": "2027-09-01", "fvrcp": "2027-04-18"}},
    "TAG-5120": {"name": "Juniper", "species": "dog", "breed": "border collie", "account": "OWN-3187",
                 "vaccines": {"rabies": "2028-08-09", "dhpp": "2027-08-09", "bordetella": "2027-02-20"}},
    "TAG-5121": {"name": "Pickles", "species": "dog", "breed": "dachshund", "account": "OWN-3187",
                 "vaccines": {"rabies": "2027-11-30", "dhpp": "2027-03-12", "bordetella": "2027-03-12"}},
    "TAG-3308": {"name": "Olive", "species": "cat", "breed": "russian blue", "account": "OWN-1520",
                 "vaccines": {"rabies": "2028-01-22", "fvrcp": "2027-10-05"}},
    "TAG-3309": {"name": "Sable", "species": "cat", "breed": "burmese", "account": "OWN-1520",
                 "vaccines": {"rabies": "2027-07-15", "fvrcp": "2027-02-28"}},
    "TAG-6012": {"name": "Bruno", "species": "dog", "breed": "newfoundland", "account": "OWN-4410",
                 "vaccines": {"rabies": "2027-12-01", "dhpp": "2027-06-01", "bordetella": "2026-10-15"}},
}


def _stay(pet, check_in, nights, room, status="confirmed", grooming=None, paid=0.0):
    return {"kind": "stay", "pet_id": pet, "check_in": check_in, "nights": nights, "room": room,
            "status": status, "grooming": list(grooming or []), "paid": paid}


def _daycare(pet, day, session, status="confirmed", grooming=None, paid=0.0):
    return {"kind": "daycare", "pet_id": pet, "date": day, "session": session,
            "status": status, "grooming": list(grooming or []), "paid": paid}


BOOKINGS = {
    "KNL-55418": _stay("TAG-6012", "2026-10-30", 4, "standard", status="cancelled"),
    "KNL-56911": _daycare("TAG-5121", "2026-11-26", "full_day", status="completed", paid=38.0),
    "KNL-56990": _daycare("TAG-4471", "2026-11-24", "full_day", status="completed", paid=38.0),
    "KNL-57702": _stay("TAG-3308", "2026-12-04", 3, "standard"),
    "KNL-58213": _stay("TAG-4471", "2026-12-12", 3, "standard", paid=50.0),
    "KNL-58240": _stay("TAG-5120", "2026-12-22", 10, "deluxe", paid=200.0),
    "KNL-58250": _stay("TAG-3309", "2026-12-19", 2, "standard"),
    "KNL-58260": _daycare("TAG-5121", "2026-12-14", "half_day"),
    "KNL-58288": _stay("TAG-4472", "2026-12-05", 2, "standard"),
    "KNL-58301": _daycare("TAG-5121", "2026-12-03", "half_day"),
}
NEXT_BOOKING = [58400]


def _account(account_id: str) -> dict:
    if account_id not in ACCOUNTS:
        raise ToolError(f"No owner account {account_id}. Account numbers look like OWN-2041.")
    return ACCOUNTS[account_id]


def _pet(pet_id: str) -> dict:
    if pet_id not in PETS:
        raise ToolError(f"No pet with tag {pet_id} on file. Pet tags look like TAG-4471.")
    return PETS[pet_id]


def _booking(booking_id: str) -> dict:
    if booking_id not in BOOKINGS:
        raise ToolError(f"No booking {booking_id}. Booking references look like KNL-58213.")
    return BOOKINGS[booking_id]


def _day(value: str, what: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{what} {value!r} is not a real date (YYYY-MM-DD).") from None


def _total(b: dict) -> float:
    species = PETS[b["pet_id"]]["species"]
    if b["kind"] == "stay":
        base = NIGHTLY[(species, b["room"])] * b["nights"]
    else:
        base = DAYCARE[b["session"]]
    return round(base + sum(GROOMING[g] for g in b["grooming"]), 2)


def _days(b: dict) -> tuple[dt.date, dt.date]:
    """First and last day the pet is with us (check-out day included)."""
    if b["kind"] == "stay":
        start = dt.date.fromisoformat(b["check_in"])
        return start, start + dt.timedelta(days=b["nights"])
    d = dt.date.fromisoformat(b["date"])
    return d, d


def _view(booking_id: str) -> dict:
    b = BOOKINGS[booking_id]
    pet = PETS[b["pet_id"]]
    out = {"booking_id": booking_id, "kind": b["kind"], "pet_id": b["pet_id"], "pet_name": pet["name"],
           "species": pet["species"], "status": b["status"]}
    if b["kind"] == "stay":
        start, end = _days(b)
        out.update(check_in=b["check_in"], check_out=end.isoformat(), nights=b["nights"], room=b["room"])
    else:
        out.update(date=b["date"], session=b["session"])
    total = _total(b) if b["status"] != "cancelled" else 0.0
    out.update(grooming=list(b["grooming"]), total=total, paid=b["paid"], balance_due=round(max(total - b["paid"], 0.0), 2))
    return out


def _check_vaccines(pet_id: str, last_day: dt.date) -> None:
    pet = PETS[pet_id]
    lapsed = [v for v in REQUIRED_VACCINES[pet["species"]]
              if v not in pet["vaccines"] or dt.date.fromisoformat(pet["vaccines"][v]) < last_day]
    if lapsed:
        raise ToolError(f"{pet['name']} ({pet_id}) cannot be booked: {', '.join(lapsed)} is not valid through "
                        f"{last_day.isoformat()} on our records. Please have the vet send an updated certificate.")


def _check_overlap(pet_id: str, first: dt.date, last: dt.date, kind: str) -> None:
    """A stay occupies [check-in, check-out); a daycare day occupies its date."""
    for bid, b in BOOKINGS.items():
        if b["pet_id"] != pet_id or b["status"] != "confirmed":
            continue
        s, e = _days(b)
        if b["kind"] == "daycare":
            e = s + dt.timedelta(days=1)
        end = last if kind == "stay" else first + dt.timedelta(days=1)
        if first < e and s < end:
            raise ToolError(f"{PETS[pet_id]['name']} ({pet_id}) is already booked then under {bid}.")


def _new_id() -> str:
    bid = f"KNL-{NEXT_BOOKING[0]}"
    NEXT_BOOKING[0] += 1
    return bid


@server.tool(description="An owner's account: the owner's name and phone, their pets (tag, name, species), "
             "every booking with its status, and the balance still owed.",
             annotations=ToolAnnotations(readOnlyHint=True))
def get_account(account_id: AccountId) -> dict:
    acc = _account(account_id)
    bookings = [_view(bid) for bid, b in BOOKINGS.items() if PETS[b["pet_id"]]["account"] == account_id]
    pets = [{"pet_id": p, "name": PETS[p]["name"], "species": PETS[p]["species"], "breed": PETS[p]["breed"]}
            for p in acc["pets"]]
    return {"account_id": account_id, "owner": acc["owner"], "phone": acc["phone"], "pets": pets,
            "bookings": bookings, "balance_due": round(sum(b["balance_due"] for b in bookings), 2)}


@server.tool(description="A pet's profile and the vaccination records on file: each vaccine with its expiry "
             "date, and whether the pet is currently cleared to board.",
             annotations=ToolAnnotations(readOnlyHint=True))
def get_pet(pet_id: PetId) -> dict:
    pet = _pet(pet_id)
    today = dt.date(2026, 12, 1)
    records = [{"vaccine": v, "expires": exp, "valid": dt.date.fromisoformat(exp) >= today}
               for v, exp in pet["vaccines"].items()]
    missing = [v for v in REQUIRED_VACCINES[pet["species"]]
               if v not in pet["vaccines"] or dt.date.fromisoformat(pet["vaccines"][v]) < today]
    return {"pet_id": pet_id, "name": pet["name"], "species": pet["species"], "breed": pet["breed"],
            "account_id": pet["account"], "vaccinations": records,
            "required": REQUIRED_VACCINES[pet["species"]], "cleared_to_board": not missing, "lapsed": missing}


@server.tool(description="One booking (an overnight stay or a daycare day): pet, dates, room or session, "
             "grooming add-ons, status, total, paid and balance due.",
             annotations=ToolAnnotations(readOnlyHint=True))
def get_booking(booking_id: BookingId) -> dict:
    _booking(booking_id)
    return _view(booking_id)


@server.tool(description="Book an overnight boarding stay for a dog or cat: check-in date, number of nights, "
             "and the room (standard run or pen, or the deluxe suite). Vaccinations must be valid through check-out.",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False))
def book_stay(pet_id: PetId, check_in: Day,
              nights: Annotated[int, Field(ge=1, le=60, description="Number of nights")],
              room: Literal["standard", "deluxe"]) -> dict:
    _pet(pet_id)
    start = _day(check_in, "Check-in")
    end = start + dt.timedelta(days=nights)
    _check_vaccines(pet_id, end)
    _check_overlap(pet_id, start, end, "stay")
    bid = _new_id()
    BOOKINGS[bid] = _stay(pet_id, check_in, nights, room)
    return {"booked": True, **_view(bid)}


@server.tool(description="Book a dog in for a daycare day: the date and the session (a full day, or a half day "
             "of up to five hours). Daycare is for dogs only.",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False))
def book_daycare(pet_id: PetId, date: Day, session: Literal["full_day", "half_day"]) -> dict:
    pet = _pet(pet_id)
    if pet["species"] != "dog":
        raise ToolError(f"{pet['name']} ({pet_id}) is a {pet['species']}: daycare is for dogs only.")
    d = _day(date, "Daycare date")
    _check_vaccines(pet_id, d)
    _check_overlap(pet_id, d, d, "daycare")
    bid = _new_id()
    BOOKINGS[bid] = _daycare(pet_id, date, session)
    return {"booked": True, **_view(bid)}


@server.tool(description="Add a grooming service to an existing stay or daycare booking; it is done before "
             "the pet goes home. Services: bath_and_brush, full_groom (bath, haircut and styling), nail_trim, "
             "deshed (undercoat removal).",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False))
def add_grooming(booking_id: BookingId,
                 service: Literal["bath_and_brush", "full_groom", "nail_trim", "deshed"]) -> dict:
    b = _booking(booking_id)
    if b["status"] != "confirmed":
        raise ToolError(f"Booking {booking_id} is {b['status']}; grooming can only be added to a confirmed booking.")
    if service in b["grooming"]:
        raise ToolError(f"{service} is already on booking {booking_id}.")
    b["grooming"].append(service)
    return {"added": service, "price": GROOMING[service], **_view(booking_id)}


@server.tool(description="Cancel a stay or daycare booking that has not happened yet.",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_booking(booking_id: BookingId) -> dict:
    b = _booking(booking_id)
    if b["status"] != "confirmed":
        raise ToolError(f"Booking {booking_id} is already {b['status']} and cannot be cancelled.")
    b["status"] = "cancelled"
    return {"cancelled": True, **_view(booking_id)}


@server.tool(description="Refund an amount to the card on file for an owner's account (accounts office use).",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def refund_payment(account_id: AccountId,
                   amount: Annotated[float, Field(gt=0, description="Amount in USD")]) -> dict:
    _account(account_id)
    return {"refunded": round(amount, 2), "account_id": account_id, "to": "card on file"}


if __name__ == "__main__":
    run(server)
