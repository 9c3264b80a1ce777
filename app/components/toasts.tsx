import type { Toast } from "../server/context.ts";

const styles: Record<Toast["type"], string> = {
  success: "bg-primary text-white",
  error: "bg-danger text-white",
  warning: "bg-warning text-white",
  info: "bg-info text-white",
};

export function Toasts({ toasts }: { toasts: Toast[] }) {
  if (!toasts.length) return null;
  return (
    <div className="fixed right-4 top-4 z-[60] flex flex-col gap-2" role="status" aria-live="polite">
      {toasts.map((t, i) => (
        <div key={i} className={`toast rounded-md px-4 py-3 text-sm shadow-lg ${styles[t.type]}`} data-toast={t.type}>
          {t.text}
        </div>
      ))}
    </div>
  );
}
