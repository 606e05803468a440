import { Bell } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { useMarkNotificationsRead, useNotifications } from "@/features/notifications/api";
import { notificationTarget } from "@/features/notifications/target";

/** The bar's bell: counts real unread notifications and lists the latest. */
export function NotificationBell() {
  const { data } = useNotifications(true);
  const markRead = useMarkNotificationsRead();
  const unread = data?.unread ?? 0;
  return (
    <DropdownMenu.Root onOpenChange={(open) => !open && unread > 0 && markRead.mutate(undefined)}>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={`Notifications (${unread} unread)`}>
          <Bell className="h-5 w-5" />
          {unread > 0 && (
            <span
              className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-destructive-solid px-1 text-xs text-white"
              data-testid="notification-count"
            >
              {unread > 99 ? "99+" : unread}
            </span>
          )}
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={8} className="z-50 w-80 rounded-lg border border-border bg-card p-2 shadow-lg">
          <DropdownMenu.Label className="px-2 py-1 text-sm font-semibold">Notifications</DropdownMenu.Label>
          {(data?.items.length ?? 0) === 0 && <p className="px-2 py-4 text-sm text-muted-foreground">No notifications yet.</p>}
          {data?.items.map((n) => (
            <DropdownMenu.Item key={n.id} asChild className="block rounded-md px-2 py-2 text-sm outline-none data-[highlighted]:bg-muted">
              <Link to={notificationTarget(n.data).to}>
                <span className={n.read ? "text-muted-foreground" : "font-medium"}>{n.message}</span>
                <span className="block text-xs text-muted-foreground">{new Date(n.createdAt).toLocaleString()}</span>
              </Link>
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
