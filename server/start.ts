// Entry point of `npm start` / `npm run serve`. React picks its production or development build
// when first imported, so NODE_ENV is settled here before anything else loads; React Router always
// resolves to its development build, so in production its imports are sent to the production one
// (server/react-router-production.mjs, docs/decisions/198).
import { register } from "node:module";

process.env.NODE_ENV ??= "production";
if (process.env.NODE_ENV === "production") register("./react-router-production.mjs", import.meta.url);
await import("./app-server.ts");
export {};
