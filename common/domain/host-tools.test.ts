import { describe, expect, it } from "vitest";
import { REVEAL_PAUSE_MS } from "../spec";
import {
  countedQuestions,
  countedRevealed,
  csvCell,
  csvRow,
  disqualificationMovesMoney,
  endTimeAfterPause,
  pauseRefusal,
  resumedClock,
  showStepWhilePaused,
  voidRefusal,
  withoutVoided,
  resultsCsv,
  RESULTS_CSV_HEADER,
  isHeld,
} from "./host-tools";
import { LIVE_SHOW_WINDOW_MS } from "./live-show";

const at = 1_000_000;

describe("pausing a live show", () => {
  it("lets the open question run to its close and its reveal", () => {
    const open = { stage: "question" as const, ord: 2, since: at, total: 10 };
    expect(showStepWhilePaused(open, at + 1000, true)).toEqual({ kind: "wait", until: at + LIVE_SHOW_WINDOW_MS });
    expect(showStepWhilePaused(open, at + LIVE_SHOW_WINDOW_MS, true)).toEqual({ kind: "reveal", ord: 2 });
  });
  it("holds the next question however late the alarm runs", () => {
    const revealed = { stage: "reveal" as const, ord: 2, since: at, total: 10 };
    expect(showStepWhilePaused(revealed, at + 1, true)).toEqual({ kind: "hold" });
    expect(showStepWhilePaused(revealed, at + 3_600_000, true)).toEqual({ kind: "hold" });
    expect(showStepWhilePaused(revealed, at + REVEAL_PAUSE_MS, false)).toEqual({ kind: "open", ord: 3 });
  });
  it("does not hold the end of the show after the last reveal", () => {
    const last = { stage: "reveal" as const, ord: 9, since: at, total: 10 };
    expect(showStepWhilePaused(last, at + REVEAL_PAUSE_MS, true)).toEqual({ kind: "finish" });
  });
  it("resumes with a fresh countdown from the resume time", () => {
    const revealed = { stage: "reveal" as const, ord: 2, since: at, total: 10 };
    const resumed = resumedClock(revealed, at + 60_000);
    expect(resumed.since).toBe(at + 60_000);
    expect(showStepWhilePaused(resumed, at + 60_000 + REVEAL_PAUSE_MS - 1, false)).toEqual({
      kind: "wait",
      until: at + 60_000 + REVEAL_PAUSE_MS,
    });
    const open = { stage: "question" as const, ord: 2, since: at, total: 10 };
    expect(resumedClock(open, at + 5000)).toEqual(open);
  });
  it("moves the end time by the length of the pause", () => {
    expect(endTimeAfterPause(at + 100, at, at + 40)).toBe(at + 140);
    expect(endTimeAfterPause(null, at, at + 40)).toBeNull();
    expect(endTimeAfterPause(at, at + 50, at)).toBe(at);
  });
  it("is for a running live show only", () => {
    expect(pauseRefusal({ format: "self_paced", phase: "live" })).toBe("not_live_show");
    expect(pauseRefusal({ format: "live_show", phase: "upcoming" })).toBe("not_live");
    expect(pauseRefusal({ format: "live_show", phase: "settling" })).toBe("settled");
    expect(pauseRefusal({ format: "live_show", phase: "completed" })).toBe("settled");
    expect(pauseRefusal({ format: "live_show", phase: "live" })).toBeNull();
  });
});

describe("voiding a question", () => {
  const show = { format: "live_show" as const, phase: "live" };
  it("takes a question that went out, open or revealed, before settlement", () => {
    expect(voidRefusal(show, { openedAt: at })).toBeNull();
    expect(voidRefusal(show, { openedAt: null })).toBe("not_opened");
    expect(voidRefusal(show, null)).toBe("unknown_question");
    expect(voidRefusal({ ...show, phase: "settling" }, { openedAt: at })).toBe("settled");
    expect(voidRefusal({ ...show, format: "self_paced" }, { openedAt: at })).toBe("not_live_show");
  });
  it("counts the voided question for nobody", () => {
    const plays = [{ ord: 0 }, { ord: 1 }, { ord: 2 }];
    expect(withoutVoided(plays, new Set([1]))).toEqual([{ ord: 0 }, { ord: 2 }]);
    expect(withoutVoided(plays, new Set())).toEqual(plays);
    expect(countedQuestions(10, 1)).toBe(9);
    expect(countedRevealed(3, new Set([1, 5]))).toBe(2);
  });
});

describe("disqualification", () => {
  it("needs a second operator when the tournament has money in it", () => {
    expect(disqualificationMovesMoney({ entryFeeCents: 500, prizePoolCents: 0 })).toBe(true);
    expect(disqualificationMovesMoney({ entryFeeCents: 0, prizePoolCents: 2000 })).toBe(true);
    expect(disqualificationMovesMoney({ entryFeeCents: 0, prizePoolCents: 0 })).toBe(false);
  });
});

describe("CSV cells", () => {
  it("quotes commas, quotes and line breaks", () => {
    expect(csvCell('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell(null)).toBe("");
    expect(csvCell(12)).toBe("12");
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell(true)).toBe("true");
  });
  it("keeps a spreadsheet from running a cell as a formula", () => {
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("=1,2")).toBe(`"'=1,2"`);
  });
  it("ends a row with CRLF", () => {
    expect(csvRow(["a", 1, null])).toBe("a,1,\r\n");
  });
});

describe("the results export", () => {
  it("writes one line per answer with the player's cells, escaped", () => {
    const csv = resultsCsv([
      {
        rank: 1,
        userId: 7,
        username: "=evil",
        score: 150,
        correctAnswers: 1,
        totalResponseMs: 2000,
        disqualifiedReason: null,
        answers: [
          { index: 0, questionId: 11, choice: "A, or B", correct: true, responseMs: 2000, voided: false, receipt: '{"v":1}' },
          { index: 1, questionId: 12, choice: "-3", correct: false, responseMs: 900, voided: true, receipt: null },
        ],
      },
      {
        rank: null,
        userId: 8,
        username: "bob",
        score: 0,
        correctAnswers: 0,
        totalResponseMs: 0,
        disqualifiedReason: "collusion",
        answers: [],
      },
    ]);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(RESULTS_CSV_HEADER.join(","));
    expect(lines[1]).toBe(`1,7,'=evil,150,1,2000,false,,1,11,"A, or B",true,2000,false,"{""v"":1}"`);
    expect(lines[2]).toBe(`1,7,'=evil,150,1,2000,false,,2,12,'-3,false,900,true,`);
    expect(lines[3]).toBe(",8,bob,0,0,0,true,collusion,,,,,,,");
    expect(lines[4]).toBe("");
  });
});

describe("whether the host holds a show", () => {
  const show = { format: "live_show" as const, phase: "live", pausedAt: 1_000, stage: "reveal" as const };
  it("holds a paused live show that is not over", () => {
    expect(isHeld(show)).toBe(true);
    expect(isHeld({ ...show, stage: "question" })).toBe(true);
  });
  it("holds nothing that is running, over, not live, or self-paced", () => {
    expect(isHeld({ ...show, pausedAt: null })).toBe(false);
    expect(isHeld({ ...show, stage: "over" })).toBe(false);
    expect(isHeld({ ...show, phase: "settling" })).toBe(false);
    expect(isHeld({ ...show, format: "self_paced" })).toBe(false);
  });
});
