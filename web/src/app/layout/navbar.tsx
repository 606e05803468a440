import { lazy, Suspense, useState } from "react";
import { Link, NavLink, useLocation, useNavigate } from "react-router";
import { Menu, Trophy, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { UserAvatar } from "@/components/user-avatar";
import { useLogout } from "@/features/auth/api";
import { useUser } from "@/lib/session";
import { errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { toast } from "@/lib/toast";
import { NAV_LINKS, isActiveLink } from "./nav-links";

// The bell and the account menu exist only for a signed-in player: a visitor never loads them.
const AccountMenus = lazy(() => import("./account-menus"));

export function Navbar() {
  const { user } = useUser();
  const logout = useLogout();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [mobileOpen, setMobileOpen] = useState(false);

  const doLogout = () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        toast.success("Logged out", "You have been successfully logged out.");
        navigate("/");
      },
      onError: (e) => toast.error("Logout failed", errorMessage(e)),
    });

  const linkClass = (href: string) =>
    cn(
      "rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-foreground",
      isActiveLink(pathname, href) ? "text-foreground bg-muted" : "text-muted-foreground",
    );

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur">
      <nav className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4" aria-label="Main">
        <Link to="/" className="flex items-center gap-2 font-bold">
          <Trophy className="h-6 w-6 text-primary" aria-hidden />
          <span>Trivia Arena</span>
        </Link>
        <div className="hidden flex-1 items-center gap-1 md:flex">
          {NAV_LINKS.map((l) => (
            <NavLink
              key={l.href}
              to={l.href}
              className={linkClass(l.href)}
              aria-current={isActiveLink(pathname, l.href) ? "page" : undefined}
            >
              {l.label}
            </NavLink>
          ))}
          {user && (
            <NavLink to="/dashboard" className={linkClass("/dashboard")}>
              Dashboard
            </NavLink>
          )}
          {user?.role === "admin" && (
            <NavLink to="/admin" className={linkClass("/admin")}>
              Console
            </NavLink>
          )}
        </div>
        <div className="ml-auto flex items-center gap-2">
          {user ? (
            <Suspense fallback={<span className="h-10 w-10" aria-hidden />}>
              <AccountMenus user={user} onLogout={doLogout} loggingOut={logout.isPending} />
            </Suspense>
          ) : (
            <div className="flex items-center gap-2">
              <Button variant="ghost" asChild>
                <Link to="/auth">Sign In</Link>
              </Button>
              <Button asChild className="hidden md:inline-flex">
                <Link to="/auth?tab=register">Sign Up</Link>
              </Button>
            </div>
          )}
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label={mobileOpen ? "Close menu" : "Open menu"}
            aria-expanded={mobileOpen}
            onClick={() => setMobileOpen(!mobileOpen)}
          >
            {mobileOpen ? <X className="h-5 w-5" /> : <Menu className="h-5 w-5" />}
          </Button>
        </div>
      </nav>
      {mobileOpen && (
        <div className="border-t border-border px-4 py-3 md:hidden" onClick={() => setMobileOpen(false)}>
          {user && (
            <div className="mb-3 flex items-center gap-3">
              <UserAvatar user={user} className="h-10 w-10" />
              <div>
                <p className="font-medium">{user.username}</p>
                <p className="text-xs text-muted-foreground">
                  Level {user.level} · {user.tournamentsPlayed} tournaments played
                </p>
              </div>
            </div>
          )}
          <div className="flex flex-col gap-1">
            {NAV_LINKS.map((l) => (
              <NavLink key={l.href} to={l.href} className={linkClass(l.href)}>
                {l.label}
              </NavLink>
            ))}
            {user ? (
              <>
                <NavLink to="/dashboard" className={linkClass("/dashboard")}>
                  Dashboard
                </NavLink>
                <Link to="/tournaments" className={linkClass("/my-tournaments")}>
                  My Tournaments
                </Link>
                <Link to="/dashboard?tab=settings" className={linkClass("/settings")}>
                  Settings
                </Link>
                {user.role === "admin" && (
                  <NavLink to="/admin" className={linkClass("/admin")}>
                    Console
                  </NavLink>
                )}
                <button type="button" className={cn(linkClass("/logout"), "text-left")} onClick={doLogout} disabled={logout.isPending}>
                  {logout.isPending ? "Logging out..." : "Logout"}
                </button>
              </>
            ) : (
              <>
                <Link to="/auth" className={linkClass("/auth")}>
                  Login
                </Link>
                <Link to="/auth?tab=register" className={linkClass("/register")}>
                  Sign Up
                </Link>
              </>
            )}
          </div>
        </div>
      )}
    </header>
  );
}
