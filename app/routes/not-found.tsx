import { redirect } from "react-router";

// The root middleware already redirects unknown paths; this catch-all keeps the router from
// throwing its own 404 for paths that reach it (e.g. with a trailing dot-extension).
export function loader() {
  return redirect("/pages/error-404");
}

export default function NotFound() {
  return null;
}
