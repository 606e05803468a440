import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { TaxStatus } from "@common/api/tax";
import { ACCOUNT, AUTH, TAX } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import { TaxSettings } from "./tax-settings";

const status = (o: Partial<TaxStatus> = {}): TaxStatus => ({
  usPayee: true,
  year: 2026,
  yearPrizes: 2600,
  threshold: 2000,
  formRequired: true,
  form: null,
  ...o,
});

const onFile = status({
  formRequired: false,
  form: {
    legalName: "Ada Lovelace",
    businessName: null,
    taxClassification: "individual",
    tinType: "ssn",
    tinLast4: "7481",
    street: "12 Analytical Way",
    city: "Boston",
    state: "MA",
    zip: "02110",
    certifiedAt: "2026-11-26T12:00:00.000Z",
  },
});

const render = () => renderPage([{ path: "/", element: <TaxSettings /> }], { at: "/" });

/** Pasted rather than typed: seven fields of keystrokes outlast the test timeout on a busy machine. */
async function fill(u: ReturnType<typeof userEvent.setup>, tin = "536-22-7481") {
  const put = async (label: string, text: string) => {
    await u.click(screen.getByLabelText(label));
    await u.paste(text);
  };
  await put("Legal name (as on your tax return)", "Ada Lovelace");
  await put("SSN", tin);
  await put("Address (number, street, apt.)", "12 Analytical Way");
  await put("City", "Boston");
  await u.selectOptions(screen.getByLabelText("State"), "MA");
  await put("ZIP code", "02110");
  await put("Signature: type your legal name", "Ada Lovelace");
}

describe("tax information in the profile", () => {
  it("says why a W-9 is needed and refuses an invalid SSN or a missing certification before sending", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({ "GET /api/user/tax-form": () => ({ body: status() }) });
    render();
    expect(await screen.findByText(TAX.formRequired("2,000", 2026))).toBeVisible();
    expect(screen.getByText("No W-9 on file.")).toBeVisible();
    await fill(u, "666-12-3456");
    await u.click(screen.getByRole("button", { name: "Sign and file W-9" }));
    expect(await screen.findByText(TAX.certificationRequired)).toBeVisible();
    await u.click(screen.getByLabelText("I certify the statements above under penalties of perjury"));
    await u.click(screen.getByRole("button", { name: "Sign and file W-9" }));
    expect(await screen.findByText(TAX.ssnInvalid)).toBeVisible();
    expect(screen.queryByText(TAX.certificationRequired)).not.toBeInTheDocument();
    expect(server.calls("POST /api/user/tax-form")).toHaveLength(0);
  });

  it("files the W-9 after the step-up and then shows it with only the TIN's last 4 digits", async () => {
    const u = userEvent.setup();
    let steppedUp = false;
    const server = fakeFetch({
      "GET /api/user/tax-form": () => ({ body: status() }),
      "POST /api/user/tax-form": () =>
        steppedUp
          ? { body: { ...onFile, message: TAX.saved } }
          : { status: 403, body: { code: "step_up_required", message: AUTH.stepUpRequired } },
      "POST /api/auth/step-up": (req) => {
        if ((req.body as { password: string }).password !== "my-password") {
          return { status: 400, body: { code: "wrong_password", message: ACCOUNT.passwordWrong } };
        }
        steppedUp = true;
        return { body: { stepUpUntil: Date.now() + 600_000 } };
      },
    });
    render();
    await screen.findByText("No W-9 on file.");
    await fill(u);
    await u.click(screen.getByLabelText("I certify the statements above under penalties of perjury"));
    await u.click(screen.getByRole("button", { name: "Sign and file W-9" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    await u.type(within(dialog).getByLabelText("Password"), "my-password");
    await u.click(within(dialog).getByRole("button", { name: "Confirm" }));

    const onFileList = await screen.findByLabelText("W-9 on file");
    expect(within(onFileList).getByText("***-**-7481")).toBeVisible();
    expect(within(onFileList).getByText("Ada Lovelace")).toBeVisible();
    expect(document.body.textContent).not.toContain("536-22-7481");
    expect(screen.queryByRole("form", { name: "Form W-9" })).not.toBeInTheDocument();
    const posts = server.calls("POST /api/user/tax-form");
    expect(posts).toHaveLength(2);
    expect(posts[1]!.body).toMatchObject({
      legalName: "Ada Lovelace",
      tinType: "ssn",
      tin: "536-22-7481",
      state: "MA",
      certified: true,
      signatureName: "Ada Lovelace",
    });
  });

  it("shows the W-9 on file and offers a new one in its place", async () => {
    const u = userEvent.setup();
    fakeFetch({ "GET /api/user/tax-form": () => ({ body: onFile }) });
    render();
    expect(await screen.findByText("W-9 on file")).toBeVisible();
    expect(screen.getByText("***-**-7481")).toBeVisible();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Form W-9" })).not.toBeInTheDocument();
    await u.click(screen.getByRole("button", { name: "File a new W-9" }));
    expect(screen.getByRole("form", { name: "Form W-9" })).toBeVisible();
  });
});
