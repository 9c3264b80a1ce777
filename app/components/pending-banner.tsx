/** How many documents wait for Hacienda (dashboard and document lists). */
export function PendingBanner({ text, className = "" }: { text: string | null; className?: string }) {
  if (!text) return null;
  return (
    <p className={`rounded-md bg-warning/10 p-3 text-sm ${className}`} role="status" data-pending-hacienda>
      {text}
    </p>
  );
}
