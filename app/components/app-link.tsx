// A link to a page of the app as a plain anchor, followed on the client by the layout's one handler
// (useFollowedLinks on <main>, app/routes/app-layout.tsx; docs/decisions/149, 202): React Router's
// Link resolves its path and builds a click handler for each link it renders, and a list row has up
// to eight. Without JavaScript it is an ordinary link. `to` is an absolute path ("/detail/invoice/7").
import type { AnchorHTMLAttributes } from "react";

export function AppLink({ to, ...rest }: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string }) {
  return <a href={to} data-discover="true" {...rest} />;
}
