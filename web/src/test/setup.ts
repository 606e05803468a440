import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach, vi, type MockInstance } from "vitest";

// An unexpected console.error fails the test: React warnings, failed renders and logged
// failures are defects, not noise.
let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
  consoleError = vi.spyOn(console, "error");
});

afterEach(() => {
  cleanup();
  const calls = consoleError.mock.calls;
  consoleError.mockRestore();
  if (calls.length > 0) throw new Error(`Unexpected console.error:\n${calls.map((c) => c.map(String).join(" ")).join("\n")}`);
});
