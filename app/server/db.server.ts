import { getDatabase } from "../../db/client.ts";

export function db() {
  return getDatabase().db;
}
