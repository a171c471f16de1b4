"""Prairie Paws Animal Shelter adoption desk: the MCP server of the blind
`shelter-desk` skill (round 22). Deterministic, in-memory, seeded with a few
adoptable animals, strays and earlier requests."""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-shelter")

AnimalId = Annotated[str, Field(pattern=r"^SHA-[0-9]{4}$", description="Adoptable animal id, e.g. SHA-2207")]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$", description="Email address")]
Day = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="YYYY-MM-DD")]
Species = Literal["dog", "cat", "rabbit", "bird", "other"]
AREA_HELP = ("north_end (north of 40th Street, the fairgrounds), old_town (downtown, courthouse square), riverside "
             "(the river trail, Mill Street), lakeview (around Cedar Lake), westgate (Westgate mall, the west side), "
             "south_hills (the south side, Hillcrest)")
Area = Annotated[Literal["north_end", "old_town", "riverside", "lakeview", "westgate", "south_hills"],
                 Field(description="City area. " + AREA_HELP)]
Housing = Annotated[Literal["house", "apartment", "townhouse", "mobile_home"],
                    Field(description="house (detached), apartment (also flat or condo unit), townhouse (also duplex "
                          "or row house), mobile_home (trailer or manufactured home)")]
FosterType = Annotated[Literal["adult_dog", "puppy", "adult_cat", "kitten", "rabbit"],
                       Field(description="puppy and kitten mean under 6 months, including bottle babies and litters")]

ANIMALS = {
    "SHA-2207": {"name": "Biscuit", "species": "dog", "breed": "beagle mix", "age_years": 4, "age_group": "adult",
                 "size": "medium", "sex": "male", "good_with": ["kids", "dogs"], "fee": 150, "status": "available"},
    "SHA-2215": {"name": "Juniper", "species": "cat", "breed": "brown tabby shorthair", "age_years": 9,
                 "age_group": "senior", "size": "small", "sex": "female", "good_with": ["kids", "cats"], "fee": 25,
                 "status": "available"},
    "SHA-2219": {"name": "Pepper", "species": "cat", "breed": "black shorthair", "age_years": 1, "age_group": "young",
                 "size": "small", "sex": "female", "good_with": ["cats"], "fee": 75, "status": "available"},
    "SHA-2224": {"name": "Moose", "species": "dog", "breed": "lab / shepherd mix", "age_years": 2, "age_group": "young",
                 "size": "large", "sex": "male", "good_with": ["kids", "dogs"], "fee": 150, "status": "available"},
    "SHA-2230": {"name": "Clementine", "species": "rabbit", "breed": "lionhead", "age_years": 3, "age_group": "adult",
                 "size": "small", "sex": "female", "good_with": ["kids"], "fee": 40, "status": "available"},
    "SHA-2236": {"name": "Otis", "species": "dog", "breed": "pug mix", "age_years": 10, "age_group": "senior",
                 "size": "small", "sex": "male", "good_with": ["kids", "cats"], "fee": 50, "status": "available"},
    "SHA-2241": {"name": "Luna", "species": "cat", "breed": "gray kitten", "age_years": 0, "age_group": "baby",
                 "size": "small", "sex": "female", "good_with": ["kids", "cats", "dogs"], "fee": 100,
                 "status": "available"},
    "SHA-2248": {"name": "Duke", "species": "dog", "breed": "pit bull mix", "age_years": 6, "age_group": "adult",
                 "size": "large", "sex": "male", "good_with": ["kids"], "fee": 100, "status": "available"},
    "SHA-2253": {"name": "Hazel", "species": "dog", "breed": "dachshund / chihuahua mix", "age_years": 8,
                 "age_group": "senior", "size": "small", "sex": "female", "good_with": ["dogs"], "fee": 50,
                 "status": "available"},
    "SHA-2259": {"name": "Pickles & Gus", "species": "guinea_pig", "breed": "bonded pair", "age_years": 1,
                 "age_group": "young", "size": "small", "sex": "male", "good_with": ["kids"], "fee": 30,
                 "status": "available"},
    "SHA-4471": {"name": "Marble", "species": "cat", "breed": "calico longhair", "age_years": 5, "age_group": "adult",
                 "size": "medium", "sex": "female", "good_with": ["kids", "dogs", "cats"], "fee": 75,
                 "status": "available"},
    "SHA-2190": {"name": "Ziggy", "species": "dog", "breed": "terrier mix", "age_years": 3, "age_group": "young",
                 "size": "small", "sex": "male", "good_with": ["kids"], "fee": 150, "status": "adopted"},
}

FOUND = {
    "FND-0311": {"species": "dog", "description": "adult male husky, blue eyes, red collar, no tag", "area": "lakeview",
                 "found_on": "2026-11-28"},
    "FND-0315": {"species": "cat", "description": "orange tabby, neutered male, very friendly", "area": "old_town",
                 "found_on": "2026-11-30"},
    "FND-0318": {"species": "cat", "description": "black and white shorthair, female, no microchip",
                 "area": "riverside", "found_on": "2026-11-24"},
    "FND-0320": {"species": "dog", "description": "small tan chihuahua, pink harness", "area": "westgate",
                 "found_on": "2026-11-30"},
    "FND-0322": {"species": "rabbit", "description": "white lop with gray ears", "area": "south_hills",
                 "found_on": "2026-11-29"},
}

APPLICATIONS = {
    "ADP-3012": {"animal_id": "SHA-2207", "applicant_name": "Dana Whitfield", "email": "dana.whitfield@gmail.com",
                 "housing": "house", "status": "under review", "submitted": "2026-11-28"},
    "ADP-3009": {"animal_id": "SHA-2190", "applicant_name": "Priya Natarajan", "email": "priya.n@outlook.com",
                 "housing": "apartment", "status": "approved", "submitted": "2026-11-20"},
}
BOOKINGS = {
    "MNG-0874": {"animal_id": "SHA-2207", "visitor_name": "Dana Whitfield", "email": "dana.whitfield@gmail.com",
                 "date": "2026-12-05", "time": "13:00", "status": "confirmed"},
}
FOSTERS = {
    "FST-0140": {"foster_name": "Greg Halvorsen", "email": "ghalvorsen@yahoo.com", "animal_type": "kitten",
                 "animal_count": 2, "start_date": "2026-11-15", "status": "active"},
}
LOST = {
    "LST-0561": {"pet_name": "Mango", "species": "cat", "area": "old_town", "date_lost": "2026-11-26",
                 "contact_email": "rosa.delgado@gmail.com", "status": "open"},
}
HOLDS: dict[str, dict] = {}
_counters = {"ADP": 3013, "MNG": 875, "FST": 141, "LST": 562}

OPEN_HOURS = [f"{h:02d}:{m:02d}" for h in range(11, 18) for m in (0, 30)]
DATES_OPEN_FROM = "2026-12-01"


def _next(prefix: str) -> str:
    n = _counters[prefix]
    _counters[prefix] += 1
    return f"{prefix}-{n:04d}"


def _animal(animal_id: str) -> dict:
    if animal_id not in ANIMALS:
        raise ToolError(f"No adoptable animal with id {animal_id}. Use search_animals to find the animal's id.")
    animal = ANIMALS[animal_id]
    if animal["status"] != "available":
        raise ToolError(f"{animal['name']} ({animal_id}) has already been adopted and is no longer available.")
    return animal


def _weekday(day: str) -> int:
    import datetime

    try:
        return datetime.date.fromisoformat(day).weekday()
    except ValueError as exc:
        raise ToolError(f"{day} is not a valid date (YYYY-MM-DD).") from exc


def _public(animal_id: str, a: dict) -> dict:
    return {"animal_id": animal_id, **{k: v for k, v in a.items() if k != "status"}}


@server.tool(
    description="Search the animals currently up for adoption. Every filter is optional; with none, all adoptable "
    "animals are listed.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def search_animals(
    species: Literal["dog", "cat", "rabbit", "guinea_pig"] | None = None,
    age_group: Literal["baby", "young", "adult", "senior"] | None = None,
    size: Literal["small", "medium", "large"] | None = None,
    good_with: Literal["kids", "dogs", "cats"] | None = None,
    name: Annotated[str | None, Field(description="Shelter name of the animal, e.g. Biscuit")] = None,
) -> dict:
    found = []
    for animal_id, a in ANIMALS.items():
        if a["status"] != "available":
            continue
        if species and a["species"] != species:
            continue
        if age_group and a["age_group"] != age_group:
            continue
        if size and a["size"] != size:
            continue
        if good_with and good_with not in a["good_with"]:
            continue
        if name and name.strip().lower() not in a["name"].lower():
            continue
        found.append(_public(animal_id, a))
    return {"count": len(found), "animals": found}


@server.tool(
    description="Submit an adoption application for one adoptable animal; an adoption counselor reviews it within "
    "two days.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def apply_to_adopt(
    animal_id: AnimalId,
    applicant_name: Annotated[str, Field(min_length=2)],
    email: Email,
    housing: Housing,
) -> dict:
    animal = _animal(animal_id)
    app_id = _next("ADP")
    APPLICATIONS[app_id] = {"animal_id": animal_id, "applicant_name": applicant_name, "email": email,
                            "housing": housing, "status": "under review", "submitted": "2026-12-01"}
    return {"application_id": app_id, "animal": animal["name"], "status": "under review",
            "next_step": "An adoption counselor will email you within two days."}


@server.tool(
    description="Book a 30-minute meet-and-greet with an adoptable animal. Open Tuesday to Sunday, 11:00 to 18:00 "
    "(last slot 17:30); closed Mondays.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def book_meet_greet(
    animal_id: AnimalId,
    visitor_name: Annotated[str, Field(min_length=2)],
    date: Day,
    time: Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="HH:MM, 24-hour")],
    party_size: Annotated[int | None, Field(ge=1, le=6)] = None,
) -> dict:
    animal = _animal(animal_id)
    if date < DATES_OPEN_FROM:
        raise ToolError(f"{date} is in the past.")
    if _weekday(date) == 0:
        raise ToolError("The shelter is closed on Mondays; pick Tuesday to Sunday.")
    if time not in OPEN_HOURS:
        raise ToolError("Meet-and-greets start on the hour or half hour between 11:00 and 17:30.")
    for b in BOOKINGS.values():
        if b["animal_id"] == animal_id and b["date"] == date and b["time"] == time:
            raise ToolError(f"{animal['name']} already has a meet-and-greet at {time} on {date}.")
    booking_id = _next("MNG")
    BOOKINGS[booking_id] = {"animal_id": animal_id, "visitor_name": visitor_name, "date": date, "time": time,
                            "party_size": party_size, "status": "confirmed"}
    return {"booking_id": booking_id, "animal": animal["name"], "date": date, "time": time,
            "party_size": party_size, "status": "confirmed"}


@server.tool(
    description="Sign someone up as a foster home; the foster team then arranges a home check and the first "
    "placement.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def register_foster(
    foster_name: Annotated[str, Field(min_length=2)],
    email: Email,
    animal_type: FosterType,
    animal_count: Annotated[int, Field(ge=1, le=6)],
    start_date: Day,
) -> dict:
    _weekday(start_date)
    foster_id = _next("FST")
    FOSTERS[foster_id] = {"foster_name": foster_name, "email": email, "animal_type": animal_type,
                          "animal_count": animal_count, "start_date": start_date, "status": "pending home check"}
    return {"foster_id": foster_id, "status": "pending home check", "start_date": start_date,
            "animal_type": animal_type, "animal_count": animal_count}


@server.tool(
    description="File a lost pet report; staff compare every new stray against open reports and email the owner "
    "on a possible match.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def report_lost_pet(
    pet_name: Annotated[str, Field(min_length=1)],
    species: Species,
    area: Area,
    date_lost: Day,
    contact_email: Email,
) -> dict:
    _weekday(date_lost)
    if date_lost > "2026-12-01":
        raise ToolError("The date lost cannot be in the future.")
    report_id = _next("LST")
    LOST[report_id] = {"pet_name": pet_name, "species": species, "area": area, "date_lost": date_lost,
                       "contact_email": contact_email, "status": "open"}
    matches = [fid for fid, f in FOUND.items() if f["species"] == species and f["found_on"] >= date_lost]
    return {"report_id": report_id, "status": "open", "possible_matches": matches}


@server.tool(
    description="Search the strays brought in by the public in the last 30 days. Both filters are optional.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def search_found_pets(
    species: Species | None = None,
    area: Annotated[Literal["north_end", "old_town", "riverside", "lakeview", "westgate", "south_hills"] | None,
                    Field(description="Area where the stray was found. " + AREA_HELP)] = None,
) -> dict:
    found = [{"found_id": fid, **f} for fid, f in FOUND.items()
             if (species is None or f["species"] == species) and (area is None or f["area"] == area)]
    return {"count": len(found), "found_pets": found}


@server.tool(
    description="List everything filed under an email address: adoption applications, meet-and-greets, foster "
    "sign-ups and lost pet reports, with their status.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def check_requests(email: Email) -> dict:
    key = email.strip().lower()

    def mine(table: dict, field: str = "email") -> list:
        return [{"id": rid, **r} for rid, r in table.items() if r.get(field, "").lower() == key]

    result = {
        "email": email,
        "applications": mine(APPLICATIONS),
        "meet_and_greets": mine(BOOKINGS),
        "foster_signups": mine(FOSTERS),
        "lost_reports": mine(LOST, "contact_email"),
    }
    if not any(result[k] for k in ("applications", "meet_and_greets", "foster_signups", "lost_reports")):
        raise ToolError(f"Nothing is filed under {email}.")
    return result


@server.tool(
    description="Put an adoptable animal on hold for a named adopter until a date (adoption counselors only).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def place_hold(animal_id: AnimalId, held_for: Annotated[str, Field(min_length=2)], until: Day) -> dict:
    animal = _animal(animal_id)
    HOLDS[animal_id] = {"held_for": held_for, "until": until}
    return {"animal_id": animal_id, "animal": animal["name"], "held_for": held_for, "until": until}


if __name__ == "__main__":
    run(server)
