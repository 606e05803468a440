// The console's frame: only a signed-in operator with two-factor authentication on gets past it
// (the API refuses everyone else too); a navigation of the screens, then the screen.
import { Link, NavLink, Navigate, Outlet, useLocation } from "react-router";
import { ShieldAlert } from "lucide-react";
import { ADMIN_CONSOLE } from "@common/messages";
import { useUser } from "@/lib/session";
import { PageSpinner } from "@/components/ui/spinner";
import { signInFor } from "@/lib/return-to";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/lib/cn";
import { ADMIN_SECTIONS } from "./sections";

function Refusal({ title, description, action }: { title: string; description: string; action?: { to: string; label: string } }) {
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <ShieldAlert className="size-5" aria-hidden />
            {title}
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        {action && (
          <CardContent>
            <Link to={action.to} className="font-medium text-primary underline underline-offset-4">
              {action.label}
            </Link>
          </CardContent>
        )}
      </Card>
    </div>
  );
}

export default function AdminLayout() {
  const { user, isLoading } = useUser();
  const here = useLocation();
  if (isLoading) return <PageSpinner />;
  if (!user) return <Navigate to={signInFor(here.pathname + here.search)} replace />;
  if (user.role !== "admin") return <Refusal title={ADMIN_CONSOLE.operatorsOnlyTitle} description={ADMIN_CONSOLE.operatorsOnly} />;
  if (!user.twoFactorEnabled) {
    return (
      <Refusal
        title={ADMIN_CONSOLE.twoFactorTitle}
        description={ADMIN_CONSOLE.twoFactorRequired}
        action={{ to: "/profile?tab=security", label: ADMIN_CONSOLE.twoFactorAction }}
      />
    );
  }
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 md:flex-row">
      <nav aria-label="Console" className="md:w-48 md:shrink-0">
        <ul className="flex gap-1 overflow-x-auto md:flex-col">
          {ADMIN_SECTIONS.filter((s) => s.nav !== false).map((s) => (
            <li key={s.path}>
              <NavLink
                to={s.path ? `/admin/${s.path}` : "/admin"}
                end={s.path === ""}
                className={({ isActive }) =>
                  cn(
                    "block whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium hover:bg-muted",
                    isActive && "bg-muted text-foreground",
                  )
                }
              >
                {s.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main className="min-w-0 flex-1">
        <Outlet />
      </main>
    </div>
  );
}
