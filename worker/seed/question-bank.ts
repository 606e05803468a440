// The original question bank, one JSON file per category.
import generalKnowledge from "./questions/general-knowledge.json";
import technology from "./questions/technology.json";
import science from "./questions/science.json";
import history from "./questions/history.json";
import moviesTv from "./questions/movies-tv.json";
import sports from "./questions/sports.json";
import music from "./questions/music.json";
import geography from "./questions/geography.json";
import type { CategorySlug } from "./categories";

export interface BankQuestion {
  question: string;
  options: string[];
  correctAnswer: string;
  explanation: string;
  difficulty: number;
}

export const QUESTION_BANK: Record<CategorySlug, BankQuestion[]> = {
  "general-knowledge": generalKnowledge,
  technology,
  science,
  history,
  "movies-tv": moviesTv,
  sports,
  music,
  geography,
};
