// The item screens' and the tax list's messages and the rate format without zod (the lists and the
// item form's page ship no schema code: the JavaScript budget, decisions 166 and 155);
// item-schemas.ts re-exports them.
export const TAX_MESSAGES = {
  saved: "Guardado correctamente",
  invalid: "invalido",
  problem: "Ocurrio un problema",
  empty: "No hay impuestos",
} as const;

/** "13.0000" → "13"; "0.5000" → "0.5". */
export function formatRate(rate: string | number): string {
  return String(Number(rate));
}

export const ITEM_MESSAGES = {
  saved: "Artículo Guardado correctamente",
  updated: "Artículo actualizado correctamente",
  deleted: "Artículo eliminado",
  problem: "Ocurrio un problema",
  confirmDelete: "¿ Deseas eliminar el artículo ?",
  empty: "No hay artículos.",
  cancelled: "Acción cancelada",
  invalid: "invalido",
  duplicateCode: "Ya existe un artículo con este código",
  cabysNotFound: "El código CABYS no existe en el catálogo ni en Hacienda",
  cabysOffline: "No se pudo consultar el código CABYS en Hacienda; inténtalo de nuevo o importa el catálogo",
  cabysNoResults: "No se encontraron códigos CABYS",
  cabysChosen: "Código CABYS seleccionado; el tipo de impuesto se ajustó a su tarifa",
  cabysChosenNoTax: "Código CABYS seleccionado; no hay en la Lista de IVA un impuesto con su tarifa",
} as const;

export const CABYS_IMPORT_MESSAGES = {
  notXlsx: "El archivo no es un libro de Excel (.xlsx) válido",
  tooLarge: "El archivo supera el máximo de 20 MB",
  missingFile: "Selecciona el archivo del catálogo CABYS (.xlsx)",
  noHeader: "No se encontró la hoja «Cabys» con los encabezados esperados en la fila 2 (Categoría 9, Descripción (categoría 9), Impuesto)",
  noRows: "El archivo no tiene códigos CABYS",
  refused: "El archivo tiene filas con errores; no se importó nada. Corrige las filas indicadas y vuelve a subirlo.",
  imported: (n: number) => `Catálogo CABYS actualizado: ${n.toLocaleString("es-CR")} códigos importados`,
  superAdminOnly: "Solo el superadministrador puede importar el catálogo CABYS: lo usan todas las empresas.",
} as const;

/** Upload limit of the CABYS spreadsheet (the official file is about 3 MB). */
export const CABYS_MAX_BYTES = 20 * 1024 * 1024;
