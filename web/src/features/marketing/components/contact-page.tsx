import { Link } from "react-router";
import { Mail } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { usePublicConfig } from "@/lib/config";

/** /contact: how to reach support. */
export default function ContactPage() {
  const config = usePublicConfig();
  const email = config.data?.supportEmail;
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold">Contact Support</h1>
      <p className="mt-2 text-muted-foreground">Questions about a tournament, a payment, a withdrawal or your account? Write to us.</p>
      <Card className="mt-8">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Mail className="h-5 w-5 text-primary" aria-hidden /> Email
          </CardTitle>
          <CardDescription>Write from the email address on your account so we can find it.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {config.isLoading ? (
            <Spinner className="h-5 w-5" />
          ) : email ? (
            <Button asChild>
              <a href={`mailto:${email}`}>{email}</a>
            </Button>
          ) : (
            <p className="text-sm">This site's operator has not published a support address yet.</p>
          )}
          <div className="text-sm text-muted-foreground">
            <p className="font-medium text-foreground">To help us help you quickly, include:</p>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              <li>your username (never your password),</li>
              <li>the tournament's name or the date of the payment or withdrawal,</li>
              <li>what you expected to happen and what happened instead.</li>
            </ul>
          </div>
        </CardContent>
      </Card>
      <p className="mt-6 text-sm text-muted-foreground">
        Many answers are already in{" "}
        <Link to="/how-it-works" className="text-primary hover:underline">
          How It Works
        </Link>{" "}
        and{" "}
        <Link to="/learn-more" className="text-primary hover:underline">
          About Trivia Arena
        </Link>
        .
      </p>
    </div>
  );
}
