// The console's shared kit: the table keeps every column at 375 px (as cards), amounts read to the
// cent, and the note dialog insists on a note when one is required.
import { describe, expect, it, vi } from "vitest";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { DataTable } from "./data-table";
import { MoneyCell } from "./money-cell";
import { ConfirmWithNoteDialog } from "./confirm-note-dialog";

const rows = [
  { id: 1, name: "alice", amount: 12.5 },
  { id: 2, name: "bob", amount: -3 },
];
const columns = [
  { key: "name", header: "Player", cell: (r: (typeof rows)[number]) => r.name },
  { key: "amount", header: "Amount", numeric: true, cell: (r: (typeof rows)[number]) => <MoneyCell usd={r.amount} /> },
];

describe("DataTable", () => {
  it("renders a table and, for phones, one card per row with every column labelled", () => {
    render(<DataTable caption="Payouts" columns={columns} rows={rows} rowKey={(r) => r.id} empty="Nothing here" />);
    const table = screen.getByRole("table", { name: "Payouts" });
    expect(within(table).getAllByRole("row")).toHaveLength(3);
    const cards = within(screen.getByRole("list", { name: "Payouts" })).getAllByRole("listitem");
    expect(cards).toHaveLength(2);
    expect(within(cards[1]!).getByText("Player")).toBeInTheDocument();
    expect(within(cards[1]!).getByText("-$3.00")).toHaveClass("text-destructive");
    expect(within(cards[0]!).getByText("$12.50")).toBeInTheDocument();
  });

  it("puts a row's note on its own full-width row under it, and at the foot of its card", () => {
    render(
      <DataTable
        caption="Payouts"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        empty="Nothing here"
        rowNote={(r) => (r.amount < 0 ? `${r.name} owes money` : null)}
      />,
    );
    const [, alice, bob, note] = within(screen.getByRole("table", { name: "Payouts" })).getAllByRole("row");
    expect(alice).not.toHaveTextContent("owes money");
    expect(bob).not.toHaveTextContent("owes money");
    expect(within(note!).getByRole("cell")).toHaveAttribute("colspan", "2");
    expect(note).toHaveTextContent("bob owes money");
    const cards = within(screen.getByRole("list", { name: "Payouts" })).getAllByRole("listitem");
    expect(cards[0]).not.toHaveTextContent("owes money");
    expect(cards[1]).toHaveTextContent("bob owes money");
  });

  it("says so when there is nothing to show", () => {
    render(<DataTable caption="Payouts" columns={columns} rows={[]} rowKey={(r) => r.id} empty="Nothing here" />);
    expect(screen.getByText("Nothing here")).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });
});

describe("ConfirmWithNoteDialog", () => {
  it("refuses an empty required note, then confirms with the note", async () => {
    const u = userEvent.setup();
    const onConfirm = vi.fn();
    render(
      <ConfirmWithNoteDialog
        open
        onOpenChange={() => {}}
        title="Reject"
        description="It will not happen."
        confirmLabel="Reject"
        noteRequired
        onConfirm={onConfirm}
      />,
    );
    await u.click(screen.getByRole("button", { name: "Reject" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Note is required");
    expect(onConfirm).not.toHaveBeenCalled();
    await u.type(screen.getByLabelText("Note"), "  no ticket  ");
    await u.click(screen.getByRole("button", { name: "Reject" }));
    expect(onConfirm).toHaveBeenCalledWith("no ticket");
  });
});
