export * from "./auth.ts";
export * from "./companies.ts";
export * from "./reference.ts";
export * from "./jobs.ts";
export * from "./documents.ts";
export * from "./master.ts";
export * from "./config.ts";
export * from "./payments.ts";
