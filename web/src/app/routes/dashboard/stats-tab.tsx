import { Link } from "react-router";
import type { UserStats } from "@common/api/tournaments";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";
import { Spinner } from "@/components/ui/spinner";

const seconds = (s: number | null) => (s === null ? "—" : `${s.toFixed(1)}s`);

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg bg-muted p-4">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-xl font-bold">{value}</dd>
    </div>
  );
}

/** Stats & Performance: every figure comes from the player's recorded answers. */
export function StatsTab({ stats, loading, error }: { stats: UserStats | undefined; loading: boolean; error: boolean }) {
  if (loading) return <Spinner label="Loading your statistics" />;
  if (error || !stats) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Your statistics could not be loaded. Please try again later.
      </p>
    );
  }
  const accuracy = stats.questionsAnswered > 0 ? Math.round((stats.correctAnswers / stats.questionsAnswered) * 100) : 0;
  const categories = [...stats.categoryStats].sort((a, b) => b.answered - a.answered);

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Performance</CardTitle>
          <CardDescription>
            Member since {new Date(stats.joinedDate).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" })}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-3">
            <Figure label="Questions Answered" value={stats.questionsAnswered.toLocaleString()} />
            <Figure label="Correct Answers" value={stats.correctAnswers.toLocaleString()} />
            <Figure label="Accuracy" value={stats.questionsAnswered > 0 ? `${accuracy}%` : "—"} />
            <Figure label="Win Rate" value={`${stats.winRate}%`} />
            <Figure label="Average Response Time" value={seconds(stats.averageResponseTime)} />
            <Figure label="Fastest Answer" value={seconds(stats.fastestResponseTime)} />
            <div className="col-span-2">
              <Figure label="Favorite Category" value={stats.favoriteCategory ?? "—"} />
            </div>
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Accuracy by Category</CardTitle>
          <CardDescription>Correct answers out of those you gave, per category.</CardDescription>
        </CardHeader>
        <CardContent>
          {categories.length === 0 ? (
            <div className="py-6 text-center">
              <p className="text-muted-foreground">Answer questions in a tournament to see how you do in each category.</p>
              <Button asChild variant="outline" className="mt-3">
                <Link to="/tournaments">Find a Tournament</Link>
              </Button>
            </div>
          ) : (
            <ul className="space-y-4">
              {categories.map((c) => (
                <li key={c.categoryId}>
                  <div className="mb-1.5 flex justify-between text-sm">
                    <span className="font-medium">{c.category}</span>
                    <span className="text-muted-foreground">
                      {c.accuracy}% · {c.correct}/{c.answered}
                    </span>
                  </div>
                  <Progress value={c.accuracy} label={`${c.category} accuracy`} />
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
