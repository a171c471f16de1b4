"""MCP server of the campaign-desk blind evaluation skill: a marketing team's
advertising campaigns (status, monthly results, budgets, end dates, pausing and
resuming, regional targeting). Deterministic, in-memory, seeded."""

from calendar import monthrange
from datetime import date, timedelta
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-campaigns")

TODAY = date(2026, 12, 1)

CampaignId = Annotated[
    str,
    Field(pattern=r"^ADC-[0-9]{4}$", description="Campaign id, e.g. ADC-1042"),
]
Region = Literal["NE", "SE", "GLK", "TEX", "MTN", "SW", "CAL", "PNW"]
Channel = Literal["search", "social", "display", "video", "audio"]
IsoDate = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="Date as YYYY-MM-DD"),
]
Money = Annotated[float, Field(gt=0, description="Amount in US dollars")]

REGIONS = {
    "NE": "Northeast (New York, Boston, Philadelphia)",
    "SE": "Southeast (Atlanta, Miami, Charlotte)",
    "GLK": "Great Lakes (Chicago, Detroit, Cleveland, Milwaukee)",
    "TEX": "Texas (Dallas, Houston, Austin, San Antonio)",
    "MTN": "Mountain (Denver, Salt Lake City, Boise)",
    "SW": "Southwest (Phoenix, Las Vegas, Albuquerque)",
    "CAL": "California (Los Angeles, San Francisco, San Diego)",
    "PNW": "Pacific Northwest (Seattle, Portland)",
}

# base daily delivery per channel: impressions, click-through rate, conversion rate
CHANNEL_RATES = {
    "search": (9000, 0.041, 0.052),
    "social": (24000, 0.012, 0.021),
    "display": (40000, 0.004, 0.015),
    "video": (15000, 0.007, 0.011),
    "audio": (12000, 0.002, 0.009),
}


def _campaign(cid, name, channel, status, budget, spent, start, end, regions, changes):
    return {
        "campaign_id": cid,
        "name": name,
        "channel": channel,
        "status": status,
        "budget": budget,
        "spent": spent,
        "start_date": start,
        "end_date": end,
        "regions": list(regions),
        "changes": list(changes),
    }


CAMPAIGNS = {
    c["campaign_id"]: c
    for c in [
        _campaign("ADC-1042", "Winter Coat Sale", "social", "active", 12000.0, 7480.25,
                  "2026-11-01", "2026-12-31", ["NE", "GLK"],
                  [{"date": "2026-11-01", "by": "m.reyes", "change": "created"}]),
        _campaign("ADC-1043", "Holiday Gift Guide", "search", "active", 18500.0, 9870.0,
                  "2026-11-15", "2026-12-24", ["NE", "SE", "CAL"],
                  [{"date": "2026-11-12", "by": "m.reyes", "change": "created"}]),
        _campaign("ADC-1057", "Spring Running Shoes Teaser", "video", "paused", 8000.0, 3310.6,
                  "2026-10-01", "2027-03-31", ["CAL", "PNW"],
                  [{"date": "2026-09-28", "by": "d.kim", "change": "created"},
                   {"date": "2026-11-24", "by": "d.kim", "change": "paused"}]),
        _campaign("ADC-1061", "Back to School Backpacks", "display", "ended", 6500.0, 6488.9,
                  "2026-07-15", "2026-09-10", ["TEX", "SE"],
                  [{"date": "2026-07-10", "by": "a.patel", "change": "created"}]),
        _campaign("ADC-1068", "Podcast Brand Spots", "audio", "active", 9000.0, 6120.4,
                  "2026-09-01", "2027-01-31", ["PNW", "MTN"],
                  [{"date": "2026-08-27", "by": "j.ortiz", "change": "created"},
                   {"date": "2026-11-30", "by": "j.ortiz",
                    "change": "budget changed from 8000.00 to 9000.00"}]),
        _campaign("ADC-1070", "Black Friday Doorbusters", "display", "active", 22000.0, 17645.3,
                  "2026-11-20", "2026-12-05", ["NE", "SE", "TEX", "CAL"],
                  [{"date": "2026-11-18", "by": "a.patel", "change": "created"},
                   {"date": "2026-11-19", "by": "a.patel",
                    "change": "budget changed from 15000.00 to 22000.00 (approved by marketing director)"}]),
        _campaign("ADC-1074", "Outdoor Gear Clearance", "search", "paused", 4200.0, 2950.0,
                  "2026-11-10", "2026-12-20", ["MTN", "PNW"],
                  [{"date": "2026-11-08", "by": "d.kim", "change": "created"},
                   {"date": "2026-11-27", "by": "d.kim", "change": "paused"}]),
    ]
}
NEXT_ID = [1080]


def _get(campaign_id: str) -> dict:
    c = CAMPAIGNS.get(campaign_id)
    if c is None:
        known = ", ".join(sorted(CAMPAIGNS))
        raise ToolError(f"No campaign {campaign_id}. Known campaigns: {known}.")
    return c


def _parse_date(value: str, field: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{field} {value!r} is not a valid date (YYYY-MM-DD).") from None


def _log(c: dict, change: str) -> None:
    c["changes"].append({"date": TODAY.isoformat(), "by": "campaign desk", "change": change})


def _delivered_days(c: dict, first: date, last: date) -> int:
    """Days the campaign delivered between first and last (inclusive), up to yesterday."""
    start = max(first, date.fromisoformat(c["start_date"]))
    end = min(last, date.fromisoformat(c["end_date"]), TODAY - timedelta(days=1))
    return max(0, (end - start).days + 1)


def _metrics(c: dict, days: int) -> dict:
    imps_per_day, ctr, cvr = CHANNEL_RATES[c["channel"]]
    weight = 1 + (int(c["campaign_id"][-2:]) % 7) / 10
    impressions = int(days * imps_per_day * weight)
    clicks = int(impressions * ctr)
    return {
        "impressions": impressions,
        "clicks": clicks,
        "conversions": int(clicks * cvr * 10),
        "ctr_percent": round(ctr * 100, 2) if days else 0.0,
    }


def _view(c: dict) -> dict:
    out = {k: v for k, v in c.items() if k != "changes"}
    out["remaining_budget"] = round(c["budget"] - c["spent"], 2)
    out["region_names"] = [REGIONS[r] for r in c["regions"]]
    start = date.fromisoformat(c["start_date"])
    out["to_date"] = _metrics(c, _delivered_days(c, start, TODAY))
    out["recent_changes"] = c["changes"][-5:]
    return out


@server.tool(
    description="Look up one campaign: name, channel, status (active, paused, scheduled, ended), "
    "total budget, amount spent and remaining, start and end dates, targeted regions, results "
    "to date and the most recent changes made to it (who, when, what).",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_campaign(campaign_id: CampaignId) -> dict:
    return _view(_get(campaign_id))


@server.tool(
    description="A campaign's results for one calendar month: impressions, clicks, conversions, "
    "click-through rate and spend in that month.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def campaign_results(
    campaign_id: CampaignId,
    month: Annotated[str, Field(pattern=r"^[0-9]{4}-(0[1-9]|1[0-2])$", description="Month as YYYY-MM")],
) -> dict:
    c = _get(campaign_id)
    year, mon = int(month[:4]), int(month[5:])
    first = date(year, mon, 1)
    last = date(year, mon, monthrange(year, mon)[1])
    days = _delivered_days(c, first, last)
    result = {"campaign_id": campaign_id, "name": c["name"], "month": month, "days_delivered": days}
    result.update(_metrics(c, days))
    total_days = max(1, _delivered_days(c, date.fromisoformat(c["start_date"]), TODAY))
    result["spend"] = round(c["spent"] * days / total_days, 2)
    if days == 0:
        result["note"] = "The campaign delivered no ads in this month."
    return result


@server.tool(
    description="Create a new advertising campaign. It starts on start_date and stops on "
    "end_date; budget is the total (lifetime) budget in US dollars.",
    annotations=ToolAnnotations(readOnlyHint=False),
)
def create_campaign(
    name: Annotated[str, Field(min_length=2, max_length=80)],
    channel: Channel,
    budget: Money,
    start_date: IsoDate,
    end_date: IsoDate,
) -> dict:
    start = _parse_date(start_date, "start_date")
    end = _parse_date(end_date, "end_date")
    if end < start:
        raise ToolError(f"end_date {end_date} is before start_date {start_date}.")
    if start < TODAY:
        raise ToolError(f"start_date {start_date} is in the past; campaigns start today or later.")
    cid = f"ADC-{NEXT_ID[0]}"
    NEXT_ID[0] += 1
    status = "active" if start == TODAY else "scheduled"
    c = _campaign(cid, name, channel, status, float(budget), 0.0, start_date, end_date, [],
                  [{"date": TODAY.isoformat(), "by": "campaign desk", "change": "created"}])
    CAMPAIGNS[cid] = c
    return _view(c)


@server.tool(
    description="Set a campaign's total (lifetime) budget in US dollars, higher or lower. "
    "It cannot go below what the campaign has already spent.",
    annotations=ToolAnnotations(readOnlyHint=False, idempotentHint=True),
)
def set_budget(campaign_id: CampaignId, budget: Money) -> dict:
    c = _get(campaign_id)
    if c["status"] == "ended":
        raise ToolError(f"{campaign_id} has ended; its budget can no longer change.")
    if budget < c["spent"]:
        raise ToolError(
            f"{campaign_id} has already spent ${c['spent']:,.2f}; the budget cannot be set to ${budget:,.2f}."
        )
    old = c["budget"]
    c["budget"] = float(budget)
    _log(c, f"budget changed from {old:.2f} to {budget:.2f}")
    return {"campaign_id": campaign_id, "previous_budget": old, "budget": c["budget"],
            "remaining_budget": round(c["budget"] - c["spent"], 2)}


@server.tool(
    description="Change the date a campaign stops running (extend it or end it earlier).",
    annotations=ToolAnnotations(readOnlyHint=False, idempotentHint=True),
)
def set_end_date(campaign_id: CampaignId, end_date: IsoDate) -> dict:
    c = _get(campaign_id)
    if c["status"] == "ended":
        raise ToolError(f"{campaign_id} has already ended; create a new campaign instead.")
    end = _parse_date(end_date, "end_date")
    if end < date.fromisoformat(c["start_date"]):
        raise ToolError(f"end_date {end_date} is before the campaign's start date {c['start_date']}.")
    if end < TODAY:
        raise ToolError(f"end_date {end_date} is in the past.")
    old = c["end_date"]
    c["end_date"] = end_date
    _log(c, f"end date changed from {old} to {end_date}")
    return {"campaign_id": campaign_id, "previous_end_date": old, "end_date": end_date}


@server.tool(
    description="Pause a campaign (status paused: no ads are shown) or resume it (status active).",
    annotations=ToolAnnotations(readOnlyHint=False, idempotentHint=True),
)
def set_campaign_status(campaign_id: CampaignId, status: Literal["active", "paused"]) -> dict:
    c = _get(campaign_id)
    if c["status"] == "ended":
        raise ToolError(f"{campaign_id} ended on {c['end_date']}; it cannot be paused or resumed.")
    old = c["status"]
    if old == status:
        return {"campaign_id": campaign_id, "status": status, "note": f"{campaign_id} was already {status}."}
    new = status
    if status == "active" and date.fromisoformat(c["start_date"]) > TODAY:
        new = "scheduled"
    c["status"] = new
    _log(c, "resumed" if status == "active" else "paused")
    return {"campaign_id": campaign_id, "previous_status": old, "status": new}


@server.tool(
    description="Add a region to the regions a campaign targets. Regions: NE Northeast, SE "
    "Southeast, GLK Great Lakes, TEX Texas, MTN Mountain, SW Southwest, CAL California, "
    "PNW Pacific Northwest.",
    annotations=ToolAnnotations(readOnlyHint=False, idempotentHint=True),
)
def add_region(campaign_id: CampaignId, region: Region) -> dict:
    c = _get(campaign_id)
    if c["status"] == "ended":
        raise ToolError(f"{campaign_id} has ended; its targeting can no longer change.")
    if region in c["regions"]:
        return {"campaign_id": campaign_id, "regions": c["regions"],
                "note": f"{campaign_id} already targets {REGIONS[region]}."}
    c["regions"].append(region)
    _log(c, f"region {region} added")
    return {"campaign_id": campaign_id, "added": region, "regions": c["regions"]}


@server.tool(
    description="Permanently delete a campaign and its reporting history.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def delete_campaign(campaign_id: CampaignId) -> dict:
    _get(campaign_id)
    del CAMPAIGNS[campaign_id]
    return {"campaign_id": campaign_id, "deleted": True}


if __name__ == "__main__":
    run(server)
