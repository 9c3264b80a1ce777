// The webhook events an integrator can subscribe to and their labels on the configuration screen:
// constants without zod, so the screen ships no schema code (the JavaScript budget, decision 166).
export const WEBHOOK_EVENTS = ["document.accepted", "document.rejected", "received_document.processed"] as const;

export const WEBHOOK_EVENT_LABELS: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
  "document.accepted": "Documento aceptado por Hacienda",
  "document.rejected": "Documento rechazado por Hacienda",
  "received_document.processed": "Documento recibido procesado",
};
