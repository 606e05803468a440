import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { ScoringRules } from "./scoring-rules";

describe("How Scoring Works", () => {
  it("describes a live show as it runs: one window for everyone, the reveal after it, no next question 2 s after answering", () => {
    render(<ScoringRules format="live_show" />);
    expect(screen.getByText(/each question goes out to every player at the same moment, and everyone has the same 30 s/)).toBeVisible();
    expect(screen.getByText(/revealed to everyone when the window closes\. The next question follows 5 s after the reveal/)).toBeVisible();
    expect(document.body.textContent).not.toMatch(/follows 2 s after you answer/);
  });

  it("describes a self-paced tournament's own clock only", () => {
    render(<ScoringRules format="self_paced" />);
    expect(screen.getByText(/The timer starts when your question appears; the next one follows 2 s after you answer/)).toBeVisible();
    expect(document.body.textContent).not.toMatch(/Live show/);
  });

  it("on the marketing pages, says paid play is a live show and free play self-paced", () => {
    render(<ScoringRules />);
    expect(screen.getByText(/Live show \(every paid scheduled tournament\)/)).toBeVisible();
    expect(screen.getByText(/Self-paced \(free and practice tournaments\)/)).toBeVisible();
  });
});
