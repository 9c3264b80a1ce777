// For the tests that compare a Costa Rica day of their own with one the app works out while they run
// (docs/decisions/209-tests-and-costa-rica-day.md): Costa Rica's midnight is 06:00 UTC, and a run
// across it would otherwise compare two different days.
import { costaRicaDay } from "../../app/domain/document-status.ts";

/**
 * Runs `read` with Costa Rica's day, and again (with the new day) if that day changed before it
 * finished: what it returns was read on the day it was given.
 */
export async function onOneCostaRicaDay<T>(read: (day: string) => Promise<T>): Promise<{ day: string; result: T }> {
  for (;;) {
    const day = costaRicaDay(new Date());
    const result = await read(day);
    if (costaRicaDay(new Date()) === day) return { day, result };
  }
}
