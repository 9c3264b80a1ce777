import type { ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/providers";
import { ClientListScreen, listShouldRevalidate, type ClientListData } from "./client-list-screen.tsx";
import { clientListAction, clientListLoader } from "./list.server.ts";

export const loader = ({ request, context }: Route.LoaderArgs) => clientListLoader({ request, context, provider: true });
export const action = ({ request, context }: Route.ActionArgs) => clientListAction({ request, context, provider: true });
export const shouldRevalidate: ShouldRevalidateFunction = listShouldRevalidate;

export default function Providers({ loaderData, actionData }: Route.ComponentProps) {
  return <ClientListScreen loaderData={loaderData as ClientListData} actionData={actionData as never} />;
}
