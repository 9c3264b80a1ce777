// Plain links a container follows on the client, as <Link> does (docs/decisions/149, 202). React
// Router's Link resolves its path and builds a click handler for every link it renders (about 10 µs
// each on the server: the menu's 29 cost more than the rest of a list page's render). A container of
// links to the app's pages (`<a href="/invoices" data-discover="true">`, app/components/app-link.tsx)
// takes one handler instead: a plain left click on one of them navigates without reloading the page —
// replacing the history entry when it is the page already shown, as Link does — and anything else (a
// modifier key, another button, a target, a download, an address elsewhere, a link without
// `data-discover` such as a file or an export) is left to the browser. Without JavaScript they are
// ordinary links. `data-discover` lets React Router learn their routes ahead, as Link's.
import { useCallback, type MouseEvent } from "react";
import { useLocation, useNavigate } from "react-router";

export function useFollowedLinks() {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const here = pathname + search + hash;
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = (event.target as Element).closest("a");
      if (!link || !link.hasAttribute("data-discover") || !event.currentTarget.contains(link) || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const href = link.getAttribute("href");
      if (!href || !href.startsWith("/") || href.startsWith("//")) return;
      event.preventDefault();
      void navigate(href, { replace: href === here });
    },
    [navigate, here],
  );
}
