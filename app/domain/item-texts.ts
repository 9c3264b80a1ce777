// The tax list's messages and rate format without zod (the list ships no schema code: the JavaScript
// budget, decision 166); item-schemas.ts re-exports them.
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
