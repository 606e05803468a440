// The signed-in player's bar: the notification bell and the account menu. Loaded only once
// someone is signed in (navbar.tsx), so a visitor's page carries no menu library.
import { Link } from "react-router";
import { DropdownMenu } from "radix-ui";
import { LayoutDashboard, LogOut, Settings, ShieldCheck, Trophy } from "lucide-react";
import type { User } from "@common/api/types";
import { Button } from "@/components/ui/button";
import { UserAvatar } from "@/components/user-avatar";
import { NotificationBell } from "./notification-bell";

export default function AccountMenus({ user, onLogout, loggingOut }: { user: User; onLogout: () => void; loggingOut: boolean }) {
  return (
    <>
      <NotificationBell />
      <DropdownMenu.Root>
        <DropdownMenu.Trigger asChild>
          <Button variant="ghost" className="hidden gap-2 px-2 md:inline-flex" aria-label="Account menu">
            <UserAvatar user={user} className="h-8 w-8" />
            <span className="text-sm">{user.username}</span>
          </Button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={8} className="z-50 w-60 rounded-lg border border-border bg-card p-1 shadow-lg">
            <div className="px-2 py-2">
              <p className="text-sm font-medium">{user.username}</p>
              <p className="truncate text-xs text-muted-foreground">{user.email}</p>
            </div>
            <DropdownMenu.Separator className="my-1 h-px bg-border" />
            <MenuLink to="/dashboard" icon={<LayoutDashboard className="h-4 w-4" />} label="Dashboard" />
            <MenuLink to="/tournaments" icon={<Trophy className="h-4 w-4" />} label="My Tournaments" />
            <MenuLink to="/dashboard?tab=settings" icon={<Settings className="h-4 w-4" />} label="Settings" />
            {user.role === "admin" && <MenuLink to="/admin" icon={<ShieldCheck className="h-4 w-4" />} label="Console" />}
            <DropdownMenu.Separator className="my-1 h-px bg-border" />
            <DropdownMenu.Item
              disabled={loggingOut}
              onSelect={onLogout}
              className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm outline-none data-[highlighted]:bg-muted"
            >
              <LogOut className="h-4 w-4" />
              {loggingOut ? "Logging out..." : "Logout"}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </>
  );
}

function MenuLink({ to, icon, label }: { to: string; icon: React.ReactNode; label: string }) {
  return (
    <DropdownMenu.Item
      asChild
      className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm outline-none data-[highlighted]:bg-muted"
    >
      <Link to={to}>
        {icon}
        {label}
      </Link>
    </DropdownMenu.Item>
  );
}
