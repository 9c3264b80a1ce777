import type { Route } from "./+types/clients";
import { ClientListView } from "./client-list-view.tsx";
import { clientListAction, clientListLoader } from "./list.server.ts";

export const loader = ({ request, context }: Route.LoaderArgs) => clientListLoader({ request, context, provider: false });
export const action = ({ request, context }: Route.ActionArgs) => clientListAction({ request, context, provider: false });

export default function Clients({ loaderData, actionData }: Route.ComponentProps) {
  return <ClientListView loaderData={loaderData as never} actionData={actionData as never} />;
}
