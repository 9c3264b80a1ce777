// Live totals on the document form (with JavaScript): a change anywhere in the form asks the form's
// own action for the totals of what is typed (intent "totals"), computed on the server by the same
// pure function that computes the stored totals (draftTotals), and shows them. Without JavaScript
// the "Recalcular" button does the same with a full submission.
import { useEffect, useRef, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { LIVE_TOTALS_INTENT } from "./form.tsx";

/** Pause after the last keystroke before asking (a slow link gets one request per pause, not per key). */
const LIVE_TOTALS_DELAY_MS = 400;

export function useLiveTotals<T>(rendered: T): { totals: T; onChange: (e: FormEvent<HTMLFormElement>) => void } {
  const fetcher = useFetcher<{ totals: T }>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onChange = (e: FormEvent<HTMLFormElement>) => {
    const form = e.currentTarget;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const body = new FormData(form);
      body.set("intent", LIVE_TOTALS_INTENT);
      void fetcher.submit(body, { method: "post" });
    }, LIVE_TOTALS_DELAY_MS);
  };
  return { totals: fetcher.data ? fetcher.data.totals : rendered, onChange };
}
