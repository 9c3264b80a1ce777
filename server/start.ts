// Entry point of `npm start` / `npm run serve`. React and React Router pick their production or
// development build when first imported, so NODE_ENV is settled here before anything else loads.
process.env.NODE_ENV ??= "production";
await import("./app-server.ts");
export {};
