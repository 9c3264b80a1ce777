// Entry point of `npm start` / `npm run serve`. React picks its production or development build
// when first imported, so NODE_ENV is settled here before anything else loads; React Router always
// resolves to its development build, so in production its imports are sent to the production one
// (server/react-router-production.mjs, docs/decisions/198), which remembers what it would rebuild for
// every page (docs/decisions/146); React's server renderer writes each page as text in few writes
// (server/react-dom-text-writes.mjs, docs/decisions/178).
import { register } from "node:module";
import { installTextWrites, REACT_DOM_TEXT_WRITES } from "./react-dom-text-writes.mjs";

process.env.NODE_ENV ??= "production";
if (process.env.NODE_ENV === "production") {
  register("./react-router-production.mjs", import.meta.url);
  // The per-build memos the hook appends to React Router (docs/decisions/146): a version without the
  // functions they wrap stops here rather than serving without them.
  await import("react-router");
  const { REACT_ROUTER_MEMOS } = await import("./react-router-production.mjs");
  if (!(globalThis as Record<symbol, unknown>)[REACT_ROUTER_MEMOS]) {
    throw new Error("React Router no longer declares the functions server/react-router-production.mjs remembers (docs/decisions/146).");
  }
  installTextWrites();
  await import("react-dom/server");
  if (!(globalThis as Record<symbol, unknown>)[REACT_DOM_TEXT_WRITES]) {
    throw new Error("React's server renderer no longer has the text server/react-dom-text-writes.mjs rewrites (docs/decisions/178).");
  }
}
await import("./app-server.ts");
export {};
