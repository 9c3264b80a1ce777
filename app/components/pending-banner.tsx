/** How many documents wait for Hacienda (dashboard and document lists). */
export function PendingBanner({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="rounded-md bg-warning/10 p-3 text-sm" role="status" data-pending-hacienda>
      {text}
    </p>
  );
}
