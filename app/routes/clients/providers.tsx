import type { ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/providers";
import { ClientListView, listShouldRevalidate } from "./client-list-view.tsx";
import { clientListAction, clientListLoader } from "./list.server.ts";

export const loader = ({ request, context }: Route.LoaderArgs) => clientListLoader({ request, context, provider: true });
export const action = ({ request, context }: Route.ActionArgs) => clientListAction({ request, context, provider: true });
export const shouldRevalidate: ShouldRevalidateFunction = listShouldRevalidate;

export default function Providers({ loaderData, actionData }: Route.ComponentProps) {
  return <ClientListView loaderData={loaderData as never} actionData={actionData as never} />;
}
