"""Payroll desk MCP server (blind evaluation skill, round 13).

Employees of Larkspur Components look at their payslips, ask about tax forms,
change the bank account their pay goes to, submit expense claims and book
overtime; payroll staff issue salary advances. Deterministic, in-memory state
seeded with a handful of employees, payslips, tax forms and expense claims.
"""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-payroll")

EmployeeId = Annotated[
    str,
    Field(
        pattern=r"^WRK-[0-9]{4}$",
        description="Employee number, WRK- and four digits (e.g. WRK-4821)",
    ),
]
ClaimId = Annotated[
    str,
    Field(
        pattern=r"^XPC-[0-9]{4}$",
        description="Expense claim reference, XPC- and four digits (e.g. XPC-3310)",
    ),
]
Month = Annotated[
    str,
    Field(
        pattern=r"^20[0-9]{2}-(0[1-9]|1[0-2])$",
        description="Pay month as YYYY-MM (e.g. 2026-11)",
    ),
]
IsoDate = Annotated[
    str,
    Field(
        pattern=r"^20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$",
        description="Date as YYYY-MM-DD",
    ),
]
ClockTime = Annotated[
    str,
    Field(
        pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$",
        description="Start time, 24-hour HH:MM (e.g. 17:30)",
    ),
]
Money = Annotated[float, Field(gt=0, le=50000, description="Amount in US dollars")]

COST_CENTERS = {
    "CC-110": "Sales",
    "CC-220": "Engineering",
    "CC-330": "Operations",
    "CC-440": "Finance",
}

EMPLOYEES = {
    "WRK-4821": {"name": "Dana Whitfield", "cost_center": "CC-220", "monthly_base": 6850.00},
    "WRK-3057": {"name": "Marcus Bell", "cost_center": "CC-330", "monthly_base": 4120.00},
    "WRK-5190": {"name": "Priya Raman", "cost_center": "CC-110", "monthly_base": 5400.00},
    "WRK-2614": {"name": "Tom Okafor", "cost_center": "CC-440", "monthly_base": 5975.00},
    "WRK-6048": {"name": "Elena Varga", "cost_center": "CC-220", "monthly_base": 7300.00},
    "WRK-1733": {"name": "Sam Ortiz", "cost_center": "CC-330", "monthly_base": 3880.00},
}

BANK_ACCOUNTS = {
    "WRK-4821": {"routing_number": "071000013", "account_last4": "4412", "account_type": "checking"},
    "WRK-3057": {"routing_number": "071923909", "account_last4": "0087", "account_type": "checking"},
    "WRK-5190": {"routing_number": "021000021", "account_last4": "3190", "account_type": "savings"},
    "WRK-2614": {"routing_number": "071000013", "account_last4": "7721", "account_type": "checking"},
    "WRK-6048": {"routing_number": "111000025", "account_last4": "5530", "account_type": "checking"},
    "WRK-1733": {"routing_number": "071923909", "account_last4": "9014", "account_type": "savings"},
}

# Overtime hours paid per employee and month (seeded history).
OVERTIME_PAID = {
    ("WRK-3057", "2026-10"): 6.0,
    ("WRK-3057", "2026-11"): 4.5,
    ("WRK-1733", "2026-09"): 8.0,
    ("WRK-1733", "2026-11"): 3.0,
    ("WRK-4821", "2026-03"): 2.0,
}


def _payslip(employee_id: str, month: str) -> dict:
    emp = EMPLOYEES[employee_id]
    base = emp["monthly_base"]
    ot_hours = OVERTIME_PAID.get((employee_id, month), 0.0)
    hourly = round(base * 12 / 2080, 2)
    ot_pay = round(ot_hours * hourly * 1.5, 2)
    gross = round(base + ot_pay, 2)
    federal = round(gross * 0.12, 2)
    state = round(gross * 0.0495, 2)
    fica = round(gross * 0.0765, 2)
    retirement = round(base * 0.05, 2)
    health = 182.40
    net = round(gross - federal - state - fica - retirement - health, 2)
    return {
        "employee_id": employee_id,
        "name": emp["name"],
        "month": month,
        "pay_date": f"{month}-28",
        "base_pay": base,
        "overtime_hours": ot_hours,
        "overtime_pay": ot_pay,
        "gross_pay": gross,
        "deductions": {
            "federal_income_tax": federal,
            "illinois_income_tax": state,
            "social_security_and_medicare": fica,
            "401k": retirement,
            "health_insurance": health,
        },
        "net_pay": net,
    }


PAYSLIP_MONTHS = [f"2026-{m:02d}" for m in range(1, 12)] + ["2025-12"]

TAX_FORMS = {
    # (employee, form, year) -> details
}
for _emp in EMPLOYEES:
    for _year in (2023, 2024, 2025):
        TAX_FORMS[(_emp, "W-2", _year)] = {"status": "available", "issued_on": f"{_year + 1}-01-27"}
        TAX_FORMS[(_emp, "1095-C", _year)] = {"status": "available", "issued_on": f"{_year + 1}-02-24"}
    TAX_FORMS[(_emp, "W-2", 2026)] = {"status": "not_yet_issued", "expected_by": "2027-01-31"}
    TAX_FORMS[(_emp, "1095-C", 2026)] = {"status": "not_yet_issued", "expected_by": "2027-03-02"}
TAX_FORMS[("WRK-4821", "W-4", 2026)] = {"status": "on_file", "signed_on": "2026-02-09", "filing_status": "married_filing_jointly", "dependents_amount": 4000}
TAX_FORMS[("WRK-3057", "W-4", 2026)] = {"status": "on_file", "signed_on": "2025-07-14", "filing_status": "single", "dependents_amount": 0}
TAX_FORMS[("WRK-5190", "W-4", 2026)] = {"status": "on_file", "signed_on": "2024-03-02", "filing_status": "single", "dependents_amount": 0}
TAX_FORMS[("WRK-2614", "W-4", 2026)] = {"status": "on_file", "signed_on": "2026-01-05", "filing_status": "head_of_household", "dependents_amount": 2000}
TAX_FORMS[("WRK-6048", "W-4", 2026)] = {"status": "on_file", "signed_on": "2023-09-18", "filing_status": "married_filing_jointly", "dependents_amount": 6000}
TAX_FORMS[("WRK-1733", "W-4", 2026)] = {"status": "on_file", "signed_on": "2022-11-30", "filing_status": "single", "dependents_amount": 0}

CLAIMS = {
    "XPC-3298": {"employee_id": "WRK-5190", "category": "meals", "amount": 86.15, "expense_date": "2026-10-29", "cost_center": "CC-110", "status": "rejected", "note": "No itemised receipt attached; resubmit with the receipt."},
    "XPC-3305": {"employee_id": "WRK-2614", "category": "training", "amount": 295.00, "expense_date": "2026-11-06", "cost_center": "CC-440", "status": "approved", "note": "Will be paid with the December payroll."},
    "XPC-3310": {"employee_id": "WRK-4821", "category": "travel", "amount": 212.40, "expense_date": "2026-11-10", "cost_center": "CC-220", "status": "paid", "paid_on": "2026-11-25"},
    "XPC-3312": {"employee_id": "WRK-3057", "category": "lodging", "amount": 389.00, "expense_date": "2026-11-17", "cost_center": "CC-330", "status": "pending_manager_review"},
}
NEXT_CLAIM = [3313]

OVERTIME_BOOKINGS: dict[str, dict] = {
    "OTB-7702": {"employee_id": "WRK-3057", "work_date": "2026-11-28", "start_time": "06:00", "hours": 4.0, "status": "worked"},
}
NEXT_OVERTIME = [7703]

ADVANCES: dict[str, dict] = {
    "ADV-0418": {"employee_id": "WRK-1733", "amount": 500.0, "repay_months": 2, "status": "repaying", "remaining": 250.0},
}
NEXT_ADVANCE = [419]

SALARY_CHANGES: list[dict] = []


def _employee(employee_id: str) -> dict:
    if employee_id not in EMPLOYEES:
        raise ToolError(f"No employee with number {employee_id}. Employee numbers look like WRK-4821.")
    return EMPLOYEES[employee_id]


@server.tool(
    description="Show an employee's payslip for one pay month: base pay, overtime, gross, each deduction and net pay.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_payslip(employee_id: EmployeeId, month: Month) -> dict:
    _employee(employee_id)
    if month not in PAYSLIP_MONTHS:
        raise ToolError(
            f"No payslip for {employee_id} for {month}. Payslips exist from 2025-12 to 2026-11; "
            "December 2026 is paid on 2026-12-28."
        )
    return _payslip(employee_id, month)


@server.tool(
    description="Look up an employee's tax form for a tax year: W-2 (wage and tax statement), W-4 (withholding certificate on file) or 1095-C (employer health coverage statement). Says whether it is available and when it was or will be issued.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_tax_form(
    employee_id: EmployeeId,
    form: Literal["W-2", "W-4", "1095-C"],
    tax_year: Annotated[int, Field(ge=2015, le=2026, description="Tax year, e.g. 2025")],
) -> dict:
    _employee(employee_id)
    found = TAX_FORMS.get((employee_id, form, tax_year))
    if found is None:
        if form == "W-4":
            return {"employee_id": employee_id, "form": form, "tax_year": tax_year, "status": "superseded", "note": "Only the current W-4 is kept on file; ask for tax year 2026."}
        return {"employee_id": employee_id, "form": form, "tax_year": tax_year, "status": "not_employed_that_year"}
    out = {"employee_id": employee_id, "form": form, "tax_year": tax_year, **found}
    if found.get("status") == "available":
        out["download"] = f"https://payroll.larkspur.example/forms/{employee_id}/{form}/{tax_year}.pdf"
    return out


@server.tool(
    description="Check where an expense claim stands (pending manager review, approved, paid, rejected) by its reference.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def check_claim_status(claim_id: ClaimId) -> dict:
    claim = CLAIMS.get(claim_id)
    if claim is None:
        raise ToolError(f"No expense claim {claim_id}. Claim references look like XPC-3310.")
    return {"claim_id": claim_id, **claim}


@server.tool(
    description="Change the bank account an employee's net pay is deposited into. Takes effect from the next pay run.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def update_bank_details(
    employee_id: EmployeeId,
    routing_number: Annotated[str, Field(pattern=r"^[0-9]{9}$", description="Nine-digit ABA routing number")],
    account_number: Annotated[str, Field(pattern=r"^[0-9]{4,17}$", description="Bank account number, digits only")],
    account_type: Literal["checking", "savings"],
) -> dict:
    _employee(employee_id)
    previous = BANK_ACCOUNTS.get(employee_id)
    BANK_ACCOUNTS[employee_id] = {
        "routing_number": routing_number,
        "account_last4": account_number[-4:],
        "account_type": account_type,
    }
    return {
        "employee_id": employee_id,
        "updated": True,
        "account_type": account_type,
        "routing_number": routing_number,
        "account_last4": account_number[-4:],
        "previous_account_last4": previous["account_last4"] if previous else None,
        "effective_from_pay_date": "2026-12-28",
    }


@server.tool(
    description="Submit an expense claim for reimbursement. Charged to the employee's own cost center unless another is given.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def submit_expense_claim(
    employee_id: EmployeeId,
    category: Literal["travel", "meals", "lodging", "training", "equipment", "home_office"],
    amount: Money,
    expense_date: IsoDate,
    cost_center: Literal["CC-110", "CC-220", "CC-330", "CC-440"] | None = None,
) -> dict:
    emp = _employee(employee_id)
    claim_id = f"XPC-{NEXT_CLAIM[0]:04d}"
    NEXT_CLAIM[0] += 1
    center = cost_center or emp["cost_center"]
    CLAIMS[claim_id] = {
        "employee_id": employee_id,
        "category": category,
        "amount": round(amount, 2),
        "expense_date": expense_date,
        "cost_center": center,
        "status": "pending_manager_review",
    }
    return {"claim_id": claim_id, **CLAIMS[claim_id], "cost_center_name": COST_CENTERS[center]}


@server.tool(
    description="Book (pre-approve) overtime for an employee: the day, the start time and how many hours.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def book_overtime(
    employee_id: EmployeeId,
    work_date: IsoDate,
    start_time: ClockTime,
    hours: Annotated[float, Field(gt=0, le=12, description="Overtime hours, in half hours (e.g. 2.5)")],
) -> dict:
    _employee(employee_id)
    if abs(hours * 2 - round(hours * 2)) > 1e-9:
        raise ToolError("Overtime is booked in half hours (e.g. 2 or 2.5).")
    booking_id = f"OTB-{NEXT_OVERTIME[0]:04d}"
    NEXT_OVERTIME[0] += 1
    OVERTIME_BOOKINGS[booking_id] = {
        "employee_id": employee_id,
        "work_date": work_date,
        "start_time": start_time,
        "hours": hours,
        "status": "booked",
    }
    return {"booking_id": booking_id, **OVERTIME_BOOKINGS[booking_id], "rate": "time and a half"}


@server.tool(
    description="Payroll staff only: issue a salary advance to an employee, recovered from their net pay in equal monthly instalments.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def issue_advance(
    employee_id: EmployeeId,
    amount: Money,
    repay_months: Annotated[int, Field(ge=1, le=12, description="Number of monthly instalments, 1 to 12")],
) -> dict:
    emp = _employee(employee_id)
    advance_id = f"ADV-{NEXT_ADVANCE[0]:04d}"
    NEXT_ADVANCE[0] += 1
    ADVANCES[advance_id] = {
        "employee_id": employee_id,
        "amount": round(amount, 2),
        "repay_months": repay_months,
        "status": "issued",
        "remaining": round(amount, 2),
    }
    return {
        "advance_id": advance_id,
        "name": emp["name"],
        **ADVANCES[advance_id],
        "monthly_instalment": round(amount / repay_months, 2),
        "paid_out_on": "2026-12-02",
    }


@server.tool(
    description="Change an employee's annual base salary (HR compensation changes).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True),
)
def change_base_salary(
    employee_id: EmployeeId,
    new_annual_salary: Annotated[float, Field(gt=0, le=1000000, description="New annual base salary in US dollars")],
) -> dict:
    emp = _employee(employee_id)
    old = round(emp["monthly_base"] * 12, 2)
    emp["monthly_base"] = round(new_annual_salary / 12, 2)
    SALARY_CHANGES.append({"employee_id": employee_id, "from": old, "to": new_annual_salary})
    return {"employee_id": employee_id, "previous_annual_salary": old, "new_annual_salary": new_annual_salary}


if __name__ == "__main__":
    run(server)
