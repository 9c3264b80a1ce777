// Module hooks (registered by server/start.ts in production).
//
// resolve: React Router 7's package exports point every import at its development build
// (dist/development: extra checks and warnings on every request; remix-run/react-router#12532,
// #14102), whatever NODE_ENV says. This sends each import of react-router — from our server code, the
// app bundle and other packages alike, so they all share one copy — to the production build that the
// package ships beside it (docs/decisions/198).
//
// load: what the production build redoes for every page although it depends only on the build and
// the address is remembered instead (docs/decisions/146): route matching (matchRoutesImpl: the
// request's, the static handler's, and Scripts' partial manifest, which matches every route against
// each parent path of the address), the server routes ServerRouter rebuilds (createServerRoutes) and
// the data routes the static router converts them to (convertRoutesToDataRoutes). The module that
// declares them gets, appended to its text, wrappers that keep the first result: matches per route
// tree and address (each caller gets copies), the server routes per build manifest (built again if a
// route module differs), their data routes, the partial manifest per build, address and matched
// routes. At most MEMO_ADDRESSES addresses are kept per tree, then all are forgotten. Everything else
// of the library runs as shipped. If this version no longer declares them, nothing is appended and
// the server stops at start (server/start.ts checks REACT_ROUTER_MEMOS) instead of running without.
export const REACT_ROUTER_MEMOS = Symbol.for("colibri.react-router-memos");

/** The functions the appended text wraps; each must be declared in the module it is appended to. */
export const MEMOIZED = ["matchRoutesImpl", "createServerRoutes", "convertRoutesToDataRoutes", "getPartialManifest"];

const MEMO_ADDRESSES = 2000;

/** What is appended to the module that declares MEMOIZED (function declarations are assignable bindings). */
export const MEMO_SOURCE = `
;{
  const serverRoutesOf = new WeakMap();
  const ownRoutes = new WeakSet();
  const dataRoutesOf = new WeakMap();
  const partialOf = new WeakMap();
  const sameModules = (a, b) => {
    const keys = Object.keys(b);
    if (keys.length !== Object.keys(a).length) return false;
    for (const k of keys) if (a[k] !== b[k]) return false;
    return true;
  };
  const buildServerRoutes = createServerRoutes;
  createServerRoutes = function (manifest, routeModules, future, isSpaMode, ...nested) {
    if (nested.length > 0 || isSpaMode) return buildServerRoutes(manifest, routeModules, future, isSpaMode, ...nested);
    let kept = serverRoutesOf.get(manifest);
    if (!kept || kept.future !== future || !sameModules(kept.modules, routeModules)) {
      kept = { future, modules: { ...routeModules }, routes: buildServerRoutes(manifest, routeModules, future, isSpaMode) };
      serverRoutesOf.set(manifest, kept);
      ownRoutes.add(kept.routes);
    }
    return kept.routes;
  };
  const buildDataRoutes = convertRoutesToDataRoutes;
  convertRoutesToDataRoutes = function (routes, mapProperties, parentPath, manifest, allowInPlaceMutations) {
    if (parentPath !== undefined || !ownRoutes.has(routes)) return buildDataRoutes(routes, mapProperties, parentPath, manifest, allowInPlaceMutations);
    let kept = dataRoutesOf.get(routes);
    if (!kept || kept.mapProperties !== mapProperties) {
      const byId = {};
      kept = { mapProperties, byId, dataRoutes: buildDataRoutes(routes, mapProperties, undefined, byId, allowInPlaceMutations) };
      dataRoutesOf.set(routes, kept);
    }
    if (manifest) Object.assign(manifest, kept.byId);
    return kept.dataRoutes;
  };
  const buildPartialManifest = getPartialManifest;
  getPartialManifest = function (manifest, router) {
    let byAddress = partialOf.get(manifest);
    if (!byAddress) partialOf.set(manifest, (byAddress = new Map()));
    const key = router.basename + "\\n" + router.state.location.pathname + "\\n" + router.state.matches.map((m) => m.route.id).join("\\n");
    let partial = byAddress.get(key);
    if (partial === undefined) {
      if (byAddress.size >= ${MEMO_ADDRESSES}) byAddress.clear();
      partial = buildPartialManifest(manifest, router);
      byAddress.set(key, partial);
    }
    return partial;
  };
  // A match is kept per route tree (its ranked branches when given) and address; each caller gets its
  // own copies of the match objects and of their shared params.
  const matchesOf = new WeakMap();
  const NO_MATCH = {};
  const copied = (matches) => {
    if (matches === null || matches.length === 0) return matches && [];
    const params = { ...matches[0].params };
    return matches.map((m) => ({ ...m, params }));
  };
  const buildMatches = matchRoutesImpl;
  matchRoutesImpl = function (routes, locationArg, basename, allowPartial, precomputedBranches) {
    const pathname = typeof locationArg === "string" ? parsePath(locationArg).pathname : locationArg.pathname;
    const tree = precomputedBranches ?? routes;
    let byAddress = matchesOf.get(tree);
    if (!byAddress) matchesOf.set(tree, (byAddress = new Map()));
    const key = basename + "\\n" + (allowPartial ? 1 : 0) + "\\n" + pathname;
    let matches = byAddress.get(key);
    if (matches === undefined) {
      if (byAddress.size >= ${MEMO_ADDRESSES}) byAddress.clear();
      matches = buildMatches(routes, locationArg, basename, allowPartial, precomputedBranches) ?? NO_MATCH;
      byAddress.set(key, matches);
    }
    return matches === NO_MATCH ? null : copied(matches);
  };
  globalThis[Symbol.for(${JSON.stringify(REACT_ROUTER_MEMOS.description)})] = true;
}
`;

const PRODUCTION = "/node_modules/react-router/dist/production/";

/** The text of a production module of React Router, with MEMO_SOURCE appended when it declares all of MEMOIZED. */
export function withMemos(source) {
  return MEMOIZED.every((name) => source.includes(`\nfunction ${name}(`)) ? source + MEMO_SOURCE : source;
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if ((specifier === "react-router" || specifier.startsWith("react-router/")) && result.url.includes("/node_modules/react-router/dist/development/")) {
    return { ...result, url: result.url.replace("/react-router/dist/development/", "/react-router/dist/production/") };
  }
  return result;
}

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (!url.includes(PRODUCTION) || !url.endsWith(".mjs")) return result;
  const source = typeof result.source === "string" ? result.source : Buffer.from(result.source).toString("utf8");
  return { ...result, source: withMemos(source) };
}
