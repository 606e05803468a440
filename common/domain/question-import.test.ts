import { describe, expect, it } from "vitest";
import { checkQuestion, parseQuestionImport } from "./question-import";
import { QUESTION_IMPORT as MSG } from "../console-messages";

const KNOWN = ["science", "history"];
const HEADER = "category,question,option_a,option_b,option_c,option_d,correct_answer,difficulty,explanation";

describe("parseQuestionImport: CSV", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, and numbers rows by the line they start on", () => {
    const csv = [
      HEADER,
      'science,"Which gas, at room temperature, do plants take in?",Oxygen,Carbon dioxide,Nitrogen,Helium,Carbon dioxide,1,"They use it in ""photosynthesis"".',
      'Light drives it."',
      "history,Who was the first emperor of Rome?,Augustus,Nero,Caligula,Trajan,Augustus,2,Octavian took the name Augustus in 27 BC.",
    ].join("\r\n");
    const result = parseQuestionImport("csv", csv, KNOWN);
    expect(result.rejected).toEqual([]);
    expect(result.accepted).toEqual([
      {
        row: 2,
        category: "science",
        question: "Which gas, at room temperature, do plants take in?",
        options: ["Oxygen", "Carbon dioxide", "Nitrogen", "Helium"],
        correctAnswer: "Carbon dioxide",
        difficulty: 1,
        explanation: 'They use it in "photosynthesis".\r\nLight drives it.',
      },
      expect.objectContaining({ row: 4, category: "history", correctAnswer: "Augustus", difficulty: 2 }),
    ]);
  });

  it("accepts the four options as four columns named options, in any column order", () => {
    const csv = [
      "difficulty,options,options,options,options,question,category,correct_answer,explanation",
      "3,Mercury,Venus,Earth,Mars,Which planet is closest to the Sun?,science,mercury,It orbits at about 58 million km.",
    ].join("\n");
    const { accepted, rejected } = parseQuestionImport("csv", csv, KNOWN);
    expect(rejected).toEqual([]);
    // The answer takes the option's own spelling.
    expect(accepted[0]).toMatchObject({ options: ["Mercury", "Venus", "Earth", "Mars"], correctAnswer: "Mercury", difficulty: 3 });
  });

  it("rejects each bad row with every reason, keeping the good ones", () => {
    const csv = [
      HEADER,
      "astrology,Short?,A,a,,D,E,4,",
      "science,What is the chemical symbol for gold?,Au,Ag,Gd,Go,Au,2.5,Aurum is Latin for gold.",
      "science,What is the chemical symbol for iron?,Fe,Ir,In,Fr,Fe,2,Ferrum is Latin for iron.",
      "science,What is the chemical symbol for iron?,Fe,Ir,In,Fr,Fe,2,Again.",
      "science,Too few fields here",
    ].join("\n");
    const { accepted, rejected } = parseQuestionImport("csv", csv, KNOWN);
    expect(accepted.map((a) => a.row)).toEqual([4]);
    expect(rejected).toEqual([
      {
        row: 2,
        reasons: [
          MSG.category("astrology", KNOWN),
          MSG.questionLength(10, 500, 6),
          MSG.optionEmpty(3),
          MSG.optionRepeated("a"),
          MSG.correctNotAnOption("E"),
          MSG.difficulty("4"),
          MSG.explanationEmpty,
        ],
      },
      { row: 3, reasons: [MSG.difficulty("2.5")] },
      { row: 5, reasons: [MSG.duplicate(4)] },
      { row: 6, reasons: [MSG.csvFieldCount(2, 9)] },
    ]);
    expect(MSG.category("astrology", KNOWN)).toBe('Unknown category "astrology" (known: science, history)');
  });

  it("refuses a file without the needed columns, an unclosed quote, or no rows", () => {
    expect(parseQuestionImport("csv", "category,question\nscience,Anything at all?", KNOWN)).toEqual({
      accepted: [],
      rejected: [
        {
          row: 1,
          reasons: [
            MSG.csvMissingColumns([
              "correct_answer",
              "difficulty",
              "explanation",
              "option_a, option_b, option_c, option_d (or four columns named options)",
            ]),
          ],
        },
      ],
    });
    expect(parseQuestionImport("csv", `${HEADER}\nscience,"Never closed,A,B,C,D,A,1,x`, KNOWN).rejected).toEqual([
      { row: 2, reasons: [MSG.csvUnclosedQuote] },
    ]);
    expect(parseQuestionImport("csv", `${HEADER}\n`, KNOWN).rejected).toEqual([{ row: 0, reasons: [MSG.csvEmpty] }]);
  });
});

describe("parseQuestionImport: JSON", () => {
  const good = {
    category: "history",
    question: "In which year did the Berlin Wall fall?",
    options: ["1987", "1989", "1991", "1993"],
    correctAnswer: "1989",
    difficulty: 2,
    explanation: "It fell on 9 November 1989.",
  };

  it("accepts well-formed items and numbers them from 1", () => {
    const { accepted, rejected } = parseQuestionImport("json", JSON.stringify([good]), KNOWN);
    expect(rejected).toEqual([]);
    expect(accepted).toEqual([{ row: 1, ...good }]);
  });

  it("rejects items with the wrong number of options, a non-integer difficulty, or that are not objects", () => {
    const items = [
      good,
      { ...good, question: "Another question here?", options: ["A", "B", "C"], correctAnswer: "A", difficulty: "2" },
      42,
      { ...good, question: "Third question here?", difficulty: 0 },
    ];
    const { accepted, rejected } = parseQuestionImport("json", JSON.stringify(items), KNOWN);
    expect(accepted.map((a) => a.row)).toEqual([1]);
    expect(rejected).toEqual([
      { row: 2, reasons: [MSG.optionCount(3)] },
      { row: 3, reasons: [MSG.notObject] },
      { row: 4, reasons: [MSG.difficulty("0")] },
    ]);
  });

  it("refuses a file that is not a JSON array", () => {
    expect(parseQuestionImport("json", "{", KNOWN).rejected[0]!.reasons[0]).toMatch(/^The file is not valid JSON/);
    expect(parseQuestionImport("json", "{}", KNOWN).rejected).toEqual([{ row: 0, reasons: [MSG.notArray] }]);
  });
});

describe("checkQuestion (an operator's form)", () => {
  it("applies the import's rules to one question and answers every reason", () => {
    const ok = checkQuestion(
      {
        category: "science",
        question: "Which planet is the largest?",
        options: ["Jupiter", "Mars", "Venus", "Earth"],
        correctAnswer: "jupiter",
        difficulty: 1,
        explanation: "By far.",
      },
      KNOWN,
    );
    expect(ok).toEqual(expect.objectContaining({ correctAnswer: "Jupiter", difficulty: 1 }));
    const bad = checkQuestion(
      { category: "science", question: "Short?", options: ["A", "a", "B", "C"], correctAnswer: "D", difficulty: 4, explanation: "" },
      KNOWN,
    );
    expect(bad).toEqual({
      reasons: [
        MSG.questionLength(10, 500, 6),
        MSG.optionRepeated("a"),
        MSG.correctNotAnOption("D"),
        MSG.difficulty("4"),
        MSG.explanationEmpty,
      ],
    });
  });
});
