// Module resolution hook (registered by server/start.ts in production): React Router 7's package
// exports point every import at its development build (dist/development: extra checks and warnings
// on every request; remix-run/react-router#12532, #14102), whatever NODE_ENV says. This sends each
// import of react-router — from our server code, the app bundle and other packages alike, so they
// all share one copy — to the production build that the package ships beside it.
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if ((specifier === "react-router" || specifier.startsWith("react-router/")) && result.url.includes("/node_modules/react-router/dist/development/")) {
    return { ...result, url: result.url.replace("/react-router/dist/development/", "/react-router/dist/production/") };
  }
  return result;
}
