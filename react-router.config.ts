import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Tests build into a folder of their own (tests/integration/http-server.test.ts); the server reads the same variable.
  buildDirectory: process.env.BUILD_DIR || "build",
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
