// The company screens' messages without zod (lists ship no schema code: the JavaScript budget, decision 166); company-schemas.ts re-exports them.
export const COMPANY_MESSAGES = {
  saved: "Compañia guardada",
  updated: "Compañia actualizada",
  duplicateIdentification: "Ya existe una compañia registrada con esta identificación",
  deleted: "Compañia eliminada",
  activated: "Compañia activada",
  deactivated: "Compañia desactivada",
  problem: "Ocurrio un problema",
  cannotDeleteCurrent: "No puedes eliminar la compañia que tienes seleccionada. Selecciona otra compañia y vuelve a intentarlo.",
  noDocuments: "No hay documentos",
  confirmDelete: "¿ Deseas eliminar la compañia ?",
  confirmToggle: "¿ Deseas Activar/Desactivar la compañia ?",
  empty: "No hay Compañias",
  cancelled: "Acción cancelada",
} as const;
