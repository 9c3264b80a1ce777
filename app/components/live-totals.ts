// Live totals on the document form (with JavaScript): a change anywhere in the form asks the form's
// own action for the totals of what is typed (intent "totals"), computed on the server by the same
// pure function that computes the stored totals (draftTotals), and shows them. Without JavaScript
// the "Recalcular" button does the same with a full submission.
import { useEffect, useRef, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { LIVE_TOTALS_INTENT } from "./form.tsx";

/** Pause after the last keystroke before asking (a slow link gets one request per pause, not per key). */
const LIVE_TOTALS_DELAY_MS = 400;

type FormHandler = (e: FormEvent<HTMLFormElement>) => void;

/**
 * The totals to show and the form's handlers. A save never runs alongside a totals request: the
 * router would finish the save's navigation with the data loaded after the totals answer
 * (decision 102). So a save drops the request still waiting for its pause, and one sent meanwhile
 * holds the save until it is answered.
 */
export function useLiveTotals<T>(rendered: T): { totals: T; form: { onChange: FormHandler; onSubmit: FormHandler } } {
  const fetcher = useFetcher<{ totals: T }>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The button of a save held until the totals answer is in (Enter presses the form's first button).
  const held = useRef<HTMLElement | null>(null);
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (fetcher.state !== "idle") return;
    held.current?.click();
    held.current = null;
  }, [fetcher.state]);
  const onSubmit: FormHandler = (e) => {
    clearTimeout(timer.current);
    if (fetcher.state === "idle") return;
    e.preventDefault();
    held.current = (e.nativeEvent as SubmitEvent).submitter;
  };
  const onChange: FormHandler = (e) => {
    const form = e.currentTarget;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const body = new FormData(form);
      body.set("intent", LIVE_TOTALS_INTENT);
      void fetcher.submit(body, { method: "post" });
    }, LIVE_TOTALS_DELAY_MS);
  };
  return { totals: fetcher.data ? fetcher.data.totals : rendered, form: { onChange, onSubmit } };
}
