"""A library desk: an MCP server written for the conversation harness (not used
to tune the detector). It annotates nothing: the skill says which tools are
read-only, and the rest have side effects by default."""

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from serve import run

server = MCPServer("harness-library")

LOANS = {
    "BK-77": {"loan_id": "BK-77", "title": "Dune", "due": "2026-12-01", "email": "ann@lib.org"},
    "BK-12": {"loan_id": "BK-12", "title": "Emma", "due": "2026-11-28", "email": "bo@lib.org"},
}
BOOKS = [
    {"isbn": "9780441172719", "title": "Dune", "author": "Frank Herbert", "available": False},
    {"isbn": "9780141439587", "title": "Emma", "author": "Jane Austen", "available": True},
    {"isbn": "9780547928227", "title": "The Hobbit", "author": "J. R. R. Tolkien", "available": True},
]

LoanId = Annotated[str, Field(pattern=r"^BK-[0-9]+$", description="Loan number, e.g. BK-77")]
Email = Annotated[str, Field(json_schema_extra={"format": "email"}, description="The member's email")]


@server.tool(description="Find books by title or author")
def search_books(query: str) -> dict:
    words = query.lower().split()
    found = [book for book in BOOKS if any(word in (book["title"] + " " + book["author"]).lower() for word in words)]
    return {"books": found}


@server.tool(description="Due date of a loan")
def loan_status(loan_id: LoanId) -> dict:
    if loan_id not in LOANS:
        raise ToolError(f"loan {loan_id} not found")
    loan = LOANS[loan_id]
    return {"loan_id": loan_id, "title": loan["title"], "due": loan["due"]}


@server.tool(description="Renew a loan for two more weeks")
def renew_loan(loan_id: LoanId, email: Email) -> dict:
    if loan_id not in LOANS:
        raise ToolError(f"loan {loan_id} not found")
    if LOANS[loan_id]["email"] != email:
        raise ToolError(f"the email {email} does not hold loan {loan_id}")
    return {"loan_id": loan_id, "title": LOANS[loan_id]["title"], "due": "2026-12-15", "status": "renewed"}


@server.tool(description="Place a hold on a book")
def place_hold(isbn: Annotated[str, Field(pattern=r"^97[89][0-9]{10}$", description="ISBN-13")], email: Email) -> dict:
    if not any(book["isbn"] == isbn for book in BOOKS):
        raise ToolError(f"no book with isbn {isbn}")
    return {"isbn": isbn, "email": email, "status": "on hold"}


if __name__ == "__main__":
    run(server)
