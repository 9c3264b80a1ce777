// The user screens' messages without zod (lists ship no schema code: the JavaScript budget, decision 166); user-schemas.ts re-exports them.
export const USER_MESSAGES = {
  saved: "Usuario guardado correctamente",
  updated: "Usuario actualizado correctamente",
  deleted: "Usuario eliminado",
  duplicateEmail: "Ya existe un usuario con este correo",
  problem: "Ocurrio un problema",
  cannotDeleteSelf: "No puedes eliminar tu propio usuario",
  assigned: "Compañia asignada al usuario",
  unlinked: "Compañia desvinculada del usuario",
  confirmDelete: "¿ Deseas eliminar el usuario ?",
  confirmDeleteTitle: "Eliminar Usuario",
  confirmUnlink: "¿ Deseas desvincular la compañia del usuario ?",
  confirmUnlinkTitle: "Desvincular Compañia",
  noCreator: "S/C",
  empty: "No hay Usuarios",
  adminOnly: "Solo un administrador puede usar esta sección.",
  reservedEmail: "Este correo está reservado para la cuenta del superadministrador.",
} as const;
