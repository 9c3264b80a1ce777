// The student screens' messages without zod (the JavaScript budget, decision 166); student-schemas.ts re-exports them.
export const STUDENT_MESSAGES = {
  saved: "Estudiante guardado correctamente",
  updated: "Estudiante actualizado correctamente",
  deleted: "Estudiante eliminado",
  problem: "Ocurrio un problema",
  cancelled: "Acción cancelada",
  activated: "Estudiante activado correctamente",
  deactivated: "Estudiante desactivado correctamente",
  confirmToggle: "¿ Deseas Activar/Desactivar el estudiante ?",
  confirmDelete: "¿ Deseas eliminar el estudiante ?",
  empty: "No hay Estudiantes",
  newTitle: "Nuevo estudiante",
  editTitle: "Editar estudiante",
} as const;
