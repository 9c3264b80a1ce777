// The recurring invoices' messages, apart from the cycles and dates of recurring.ts (which
// re-exports them): the recurring form's page loads the cycles but not the list's and the server's
// texts (the JavaScript budget, docs/decisions/155).
export const RECURRING_MESSAGES = {
  created: "Factura recurrente creada con exito",
  edited: "Factura recurrente editada con exito",
  empty: "No hay facturas recurrentes.",
  startDayRequired: "Indique la fecha de inicio.",
  cycleRequired: "Indique el ciclo.",
  unitRequired: "Indique el tipo de recurrencia.",
  everyInteger: "El ciclo debe ser un número entero mayor o igual a 1.",
  paused: "Factura recurrente pausada",
  resumed: "Factura recurrente reanudada",
  deleted: "Factura recurrente eliminada",
  cancelled: "Acción cancelada",
  resumeWarning: "Antes de reanudar, revise las nuevas fechas de envío.",
  deleteConfirm: "¿ Deseas eliminar la factura recurrente ?",
  notFound: "No encontrado",
} as const;
